// Error bodies. The contract leaves them open (spec 7); the real service is FastAPI, which sends
// `{"detail": "..."}` or, for invalid parameters, `{"detail": [{loc, msg, type}, ...]}`. The
// bundled server answers in the same shapes.
import * as z from "zod";

export const ValidationDetailSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationDetail = z.infer<typeof ValidationDetailSchema>;

export const ErrorBodySchema = z.union([
  z.looseObject({ detail: z.string() }),
  z.looseObject({ detail: z.array(ValidationDetailSchema) }),
]);
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * One readable line from an error body, or undefined when the body is not one of the two shapes:
 * `query.per_page: Input should be less than or equal to 100`; several details are joined by "; ".
 */
export function formatErrorBody(body: unknown): string | undefined {
  const r = ErrorBodySchema.safeParse(body);
  if (!r.success) return undefined;
  const { detail } = r.data;
  if (typeof detail === "string") return detail.trim() === "" ? undefined : detail;
  if (detail.length === 0) return undefined;
  return detail.map((d) => (d.loc.length > 0 ? `${d.loc.join(".")}: ${d.msg}` : d.msg)).join("; ");
}
