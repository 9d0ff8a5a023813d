// The metadata shape and statistics answers of the real service as zod schemas, converted from its
// OpenAPI by json-schema-to-zod.ts: the reference the generated validators are compared with.
import type * as z from "zod";
import { JsonSchemaToZod } from "./json-schema-to-zod.js";
import { MERGIFY_METADATA, MERGIFY_RESPONSES, MERGIFY_SCHEMAS } from "../../src/api/dialects/mergify-schemas.generated.js";

const converter = new JsonSchemaToZod(MERGIFY_SCHEMAS);

/** type -> zod schema of its metadata, as the OpenAPI says */
export const MERGIFY_METADATA_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map(
  Object.entries(MERGIFY_METADATA).map(([type, schema]) => [type, converter.convert(schema)]),
);

const responses = new Map<string, z.ZodType>();

/** zod schema of the 200 body of `path` (below /repos/{owner}/{repository}/), undefined when the service has no such path */
export function mergifyResponseSchema(path: string): z.ZodType | undefined {
  let s = responses.get(path);
  if (s === undefined && Object.hasOwn(MERGIFY_RESPONSES, path)) {
    s = converter.convert(MERGIFY_RESPONSES[path]);
    responses.set(path, s);
  }
  return s;
}
