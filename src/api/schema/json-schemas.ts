// The JSON Schemas the validators of both dialects are generated from (api/schema/check-files.ts,
// at generation time only: nothing here runs in `mq`). The contract is written in zod
// (events.ts, stats.ts) and turned into JSON Schema by zod's public z.toJSONSchema; the real
// service's shapes are its OpenAPI's component schemas. Both then go through `normalize`, so the
// two dialects are validated by one kind of code with one set of rules:
// - every object is loose: the real service adds fields, and they reach the user untouched;
// - a date-time is the contract's (zod's pattern: offset required, real calendar dates) and a uuid
//   any 8-4-4-4-12 hex, in both dialects;
// - an integer is a safe integer (x-int), an int64 one any integer up to 2^63 (x-int64); a union that includes null is "X or null";
// - an object without properties is a record (x-record): any keys, each value of one shape.
import * as z from "zod";

type Json = Record<string, unknown>;
export type JsonSchema = Json | boolean;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** the OpenAPI's int64 maximum, 2^63 - 1, as JSON.parse reads it: the double 2^63 */
const INT64_MAX = 2 ** 63;

/** zod's patterns of the contract's date-time and uuid (z.guid: any 8-4-4-4-12 hex), read through its public JSON Schema. */
export function formats(dateTime: z.ZodType, uuid: z.ZodType): Record<"date-time" | "uuid", RegExp> {
  const pattern = (s: z.ZodType) => {
    const p = (z.toJSONSchema(s) as Json).pattern;
    if (typeof p !== "string") throw new Error("a format schema has no pattern");
    return new RegExp(p);
  };
  return { "date-time": pattern(dateTime), uuid: pattern(uuid) };
}

export interface NormalizeOptions {
  /** where a `$ref` to component `Name` points, in the compiled schema */
  ref: (name: string) => string;
}

/**
 * One schema in the form the validators are compiled from. Understands the subset both sources
 * use: $ref, anyOf/oneOf, enum, const, object (with properties: loose; without: a record),
 * array, string (date-time, uuid, lengths, pattern), integer, number, boolean, null. Anything else
 * accepts any value.
 */
export function normalize(schema: unknown, opts: NormalizeOptions): JsonSchema {
  if (!isObject(schema)) return {};
  if (typeof schema.$ref === "string") return { $ref: opts.ref(refName(schema.$ref)) };
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) return union(branches, opts);
  if (Array.isArray(schema.enum)) return { enum: schema.enum };
  if ("const" in schema) return { const: schema.const };
  if (Array.isArray(schema.type)) {
    // zod writes "string or null" as a list of types
    const types = schema.type as string[];
    return union(
      types.map((type) => ({ ...schema, type })),
      opts,
    );
  }
  switch (schema.type) {
    case "object":
      return object(schema, opts);
    case "array": {
      const out: Json = { type: "array", items: normalize(schema.items, opts) };
      if (typeof schema.minItems === "number") out.minItems = schema.minItems;
      if (typeof schema.maxItems === "number") out.maxItems = schema.maxItems;
      return out;
    }
    case "string":
      return string(schema, opts);
    case "integer":
    case "number": {
      // an integer is a number that is a safe integer (x-int, as zod's z.int()); its own bounds
      // are kept where they are narrower
      const out: Json = { type: "number" };
      // the real service's int64 fields (pull-request numbers: maximum 2^63-1) take any integer up
      // to 2^63 (x-int64): a valid page beyond 2^53 is no contract breach, its exact text is kept
      if (schema.type === "integer") out[typeof schema.maximum === "number" && schema.maximum >= INT64_MAX ? "x-int64" : "x-int"] = true;
      const min = typeof schema.minimum === "number" && schema.minimum > -MAX_SAFE ? schema.minimum : undefined;
      const max = typeof schema.maximum === "number" && schema.maximum < MAX_SAFE ? schema.maximum : undefined;
      if (min !== undefined) out.minimum = min;
      if (max !== undefined) out.maximum = max;
      if (typeof schema.exclusiveMaximum === "number") out.exclusiveMaximum = schema.exclusiveMaximum;
      if (typeof schema.exclusiveMinimum === "number") out.exclusiveMinimum = schema.exclusiveMinimum;
      return out;
    }
    case "boolean":
      return { type: "boolean" };
    case "null":
      return { type: "null" };
    default:
      return {};
  }
}

function refName(ref: string): string {
  return ref.replace(/^#\/(components\/schemas|definitions|\$defs)\//, "");
}

function isNull(s: unknown): boolean {
  return isObject(s) && s.type === "null" && Object.keys(s).length === 1;
}

function union(branches: unknown[], opts: NormalizeOptions): JsonSchema {
  const nonNull = branches.filter((b) => !isNull(b));
  const nullable = nonNull.length < branches.length;
  const parts = nonNull.map((b) => normalize(b, opts));
  if (parts.length === 0) return { type: "null" };
  const one = parts.length === 1 ? parts[0]! : { anyOf: parts };
  if (!nullable) return one;
  // null is tried last, as zod's nullable does after its inner schema refused: the errors of
  // "X or null" are X's (issues.ts)
  return { anyOf: [one, { type: "null" }] };
}

function string(schema: Json, opts: NormalizeOptions): JsonSchema {
  // the formats are zod's patterns (FORMATS): compiled inline, once per module
  if (schema.format === "date-time") return { type: "string", format: "date-time" };
  if (schema.format === "uuid") return { type: "string", format: "uuid" };
  const out: Json = { type: "string" };
  if (typeof schema.minLength === "number") out.minLength = schema.minLength;
  if (typeof schema.maxLength === "number") out.maxLength = schema.maxLength;
  if (typeof schema.pattern === "string") out.pattern = schema.pattern;
  return out;
}

function object(schema: Json, opts: NormalizeOptions): JsonSchema {
  const props = isObject(schema.properties) ? schema.properties : undefined;
  if (props === undefined) {
    // a record: every value of the given shape (any value when none is given)
    const extra = schema.additionalProperties;
    const out: Json = { type: "object", "x-record": true };
    if (isObject(extra) && Object.keys(extra).length > 0) out.additionalProperties = normalize(extra, opts);
    return out;
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties: Json = {};
  for (const [k, v] of Object.entries(props)) {
    const p = normalize(v, opts);
    properties[k] = p;
  }
  const out: Json = { type: "object", properties };
  // in the order of the properties: the order zod reports absent keys in
  const req = Object.keys(props).filter((k) => required.includes(k));
  if (req.length > 0) out.required = req;
  return out;
}
