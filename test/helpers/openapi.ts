// A JSON Schema validator over the real service's own OpenAPI (draft 2020-12, which OpenAPI 3.1
// uses), not over anything mq wrote: docs/ keeps a verbatim copy of
// ../shared/reference/mergify-openapi-logs-stats.json (test/dialects/data.test.ts checks the two
// are the same file when the reference is there).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";

export const OPENAPI_PATH = fileURLToPath(new URL("../../docs/mergify-openapi.json", import.meta.url));
export const REFERENCE_PATH = fileURLToPath(new URL("../../../shared/reference/mergify-openapi-logs-stats.json", import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const openapi: any = JSON.parse(readFileSync(OPENAPI_PATH, "utf8"));

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: unknown) => void)(ajv);
ajv.addSchema(openapi, "openapi");

/** `$ref`s of the file point into the registered document */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `openapi${v}` : rebase(v)]),
  );
}

const validators = new Map<string, ValidateFunction>();

/** The validator of the 200 body of GET `path` (below /repos/{owner}/{repository}/), from the file. */
export function responseValidator(path: string): ValidateFunction {
  let v = validators.get(path);
  if (v === undefined) {
    const op = openapi.paths[`/repos/{owner}/{repository}/${path}`]?.get;
    if (!op) throw new Error(`the OpenAPI has no GET ${path}`);
    v = ajv.compile(rebase(op.responses["200"].content["application/json"].schema) as object);
    validators.set(path, v);
  }
  return v;
}

/** The errors of `body` against the 200 schema of `path`, as readable lines (empty when valid). */
export function schemaErrors(path: string, body: unknown): string[] {
  const v = responseValidator(path);
  if (v(body)) return [];
  return (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}
