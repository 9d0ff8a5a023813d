// Error bodies. The contract leaves them open (docs/api.md §7); the real service is FastAPI, which sends
// `{"detail": "..."}` or, for invalid parameters, `{"detail": [{loc, msg, type}, ...]}`. The
// bundled server answers in the same shapes; api/error-body.ts reads them (and
// whatever else a proxy sends) without zod.
import * as z from "zod";

export const ValidationDetailSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationDetail = z.infer<typeof ValidationDetailSchema>;

export const ErrorBodySchema = z.union([z.looseObject({ detail: z.string() }), z.looseObject({ detail: z.array(ValidationDetailSchema) })]);
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
