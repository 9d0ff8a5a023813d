// The metadata shape of each event type of the real service, converted from its OpenAPI.
import type * as z from "zod";
import { JsonSchemaToZod } from "./json-schema.js";
import { MERGIFY_METADATA, MERGIFY_RESPONSES, MERGIFY_SCHEMAS } from "./mergify-schemas.generated.js";

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
