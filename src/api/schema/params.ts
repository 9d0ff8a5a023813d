// Query and path parameters (docs/api.md §2.1, §4.1, §4.2). The client validates flags against these before
// sending anything; the bundled server decodes requests with decodeQuery and answers FastAPI-style
// 422 details, so both sides refuse the same inputs with the same words.
import * as z from "zod";
import type { StatsParamKind } from "../../stats/flags.js";
import type { ParamSpec } from "../dialects/types.js";
import { EVENT_TYPES } from "../dialects/spec.js";
import { DateTimeSchema, OwnerSchema, RepositorySchema, isDateTime } from "./common.js";

const FilterName = z.string().min(1).max(255);
const FilterList = z.array(FilterName).max(255);

export const LogsQuerySchema = z.object({
  pull_request: z.int().min(1).lt(2147483647).optional(),
  base_ref: z.string().min(1).max(255).optional(),
  event_type: z.array(z.enum(EVENT_TYPES)).optional(),
  received_from: DateTimeSchema.optional(),
  received_to: DateTimeSchema.optional(),
  cursor: z.string().optional(),
  per_page: z.int().min(1).max(100).optional(),
});
export type LogsQuery = z.infer<typeof LogsQuerySchema>;

/** The standard statistics filter set F (docs/api.md §4.2). */
export const StatsFilterSchema = z.object({
  base_ref: FilterList.optional(),
  partition_name: FilterList.optional(),
  queue_name: FilterList.optional(),
  priority_rule_name: FilterList.optional(),
  start_at: DateTimeSchema.optional(),
  end_at: DateTimeSchema.optional(),
});
export type StatsFilter = z.infer<typeof StatsFilterSchema>;

export const RunningChecksQuerySchema = StatsFilterSchema.omit({ priority_rule_name: true });
export type RunningChecksQuery = z.infer<typeof RunningChecksQuerySchema>;

export const RangeQuerySchema = StatsFilterSchema.pick({ start_at: true, end_at: true });
export type RangeQuery = z.infer<typeof RangeQuerySchema>;

export const TimeToMergeQuerySchema = z.object({
  at: DateTimeSchema.optional(),
  branch: z.string().optional(),
});
export type TimeToMergeQuery = z.infer<typeof TimeToMergeQuerySchema>;

/** Query schema per StatsParamKind of src/stats/flags.ts. */
export const STATS_QUERY_SCHEMAS: Record<StatsParamKind, z.ZodObject> = {
  filters: StatsFilterSchema,
  "filters-no-priority": RunningChecksQuerySchema,
  range: RangeQuerySchema,
  "time-to-merge": TimeToMergeQuerySchema,
};

export const PathParamsSchema = z.object({
  owner: OwnerSchema,
  repository: RepositorySchema,
});
export type PathParams = z.infer<typeof PathParamsSchema>;

// ---------------------------------------------------------------------------------------------
// Server-side decoding with FastAPI-shaped errors

/** One element of a FastAPI 422 `detail` array. */
export interface FastApiDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; detail: FastApiDetail[] };

type FieldKind = "array" | "int-array" | "int" | "string";

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) {
    s = s.unwrap() as z.ZodType;
  }
  return s;
}

function fieldKind(schema: z.ZodType): FieldKind {
  const s = unwrap(schema);
  if (s instanceof z.ZodArray) return unwrap(s.element as z.ZodType) instanceof z.ZodNumber ? "int-array" : "array";
  if (s instanceof z.ZodNumber) return "int";
  return "string";
}

const INT_RE = /^[+-]?\d+$/;

function quoteList(values: readonly unknown[]): string {
  const q = values.map((v) => `'${String(v)}'`);
  return q.length <= 1 ? q.join("") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}

// Pydantic's messages and type codes, so that clients written against the real service (and mq's
// own error formatter) read the bundled server's 422s the same way.
function toDetail(issue: z.core.$ZodIssue, location: string, input: Record<string, unknown>): FastApiDetail {
  const loc: (string | number)[] = [location, ...(issue.path as (string | number)[])];
  const value = issue.path.reduce<unknown>(
    (v, k) => (v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined),
    input,
  );
  switch (issue.code) {
    case "too_big": {
      const max = String(issue.maximum);
      if (issue.origin === "string")
        return { loc, msg: `String should have at most ${max} character${max === "1" ? "" : "s"}`, type: "string_too_long" };
      if (issue.origin === "array")
        return {
          loc,
          msg: `List should have at most ${max} item${max === "1" ? "" : "s"} after validation, not ${Array.isArray(value) ? value.length : "more"}`,
          type: "too_long",
        };
      return issue.inclusive
        ? { loc, msg: `Input should be less than or equal to ${max}`, type: "less_than_equal" }
        : { loc, msg: `Input should be less than ${max}`, type: "less_than" };
    }
    case "too_small": {
      const min = String(issue.minimum);
      if (issue.origin === "string")
        return { loc, msg: `String should have at least ${min} character${min === "1" ? "" : "s"}`, type: "string_too_short" };
      if (issue.origin === "array")
        return { loc, msg: `List should have at least ${min} item${min === "1" ? "" : "s"} after validation`, type: "too_short" };
      return issue.inclusive
        ? { loc, msg: `Input should be greater than or equal to ${min}`, type: "greater_than_equal" }
        : { loc, msg: `Input should be greater than ${min}`, type: "greater_than" };
    }
    case "invalid_value":
      return { loc, msg: `Input should be ${quoteList(issue.values)}`, type: "enum" };
    case "invalid_format":
      if (issue.format === "datetime") {
        // naive date-times parse in pydantic but the contract wants a timezone
        if (typeof value === "string" && isDateTime(`${value}Z`))
          return { loc, msg: "Input should have timezone info", type: "timezone_aware" };
        return { loc, msg: "Input should be a valid datetime", type: "datetime_parsing" };
      }
      if (issue.format === "regex")
        return {
          loc,
          msg: `String should match pattern '${String(issue.pattern).replace(/^\/(.*)\/[a-z]*$/, "$1")}'`,
          type: "string_pattern_mismatch",
        };
      return { loc, msg: issue.message, type: "value_error" };
    case "invalid_type":
      if (issue.expected === "int" || issue.expected === "number")
        return { loc, msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" };
      return { loc, msg: `Input should be a valid ${issue.expected}`, type: `${issue.expected}_type` };
    default:
      return { loc, msg: issue.message, type: "value_error" };
  }
}

function decode<T extends z.ZodObject>(read: (key: string) => string[], schema: T, location: "query" | "path"): DecodeResult<z.infer<T>> {
  const input: Record<string, unknown> = {};
  const detail: FastApiDetail[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const values = read(key);
    if (values.length === 0) continue;
    const kind = fieldKind(field as z.ZodType);
    if (kind === "array") {
      input[key] = values;
    } else if (kind === "int-array") {
      const ints: number[] = [];
      values.forEach((raw, i) => {
        if (!INT_RE.test(raw.trim())) {
          detail.push({
            loc: [location, key, i],
            msg: "Input should be a valid integer, unable to parse string as an integer",
            type: "int_parsing",
          });
        } else ints.push(Number(raw.trim()));
      });
      input[key] = ints;
    } else {
      // a repeated scalar: FastAPI (Starlette) takes the last value
      const raw = values[values.length - 1]!;
      if (kind === "int") {
        if (!INT_RE.test(raw.trim())) {
          detail.push({
            loc: [location, key],
            msg: "Input should be a valid integer, unable to parse string as an integer",
            type: "int_parsing",
          });
          continue;
        }
        input[key] = Number(raw.trim());
      } else {
        input[key] = raw;
      }
    }
  }
  const r = schema.safeParse(input);
  if (!r.success) for (const issue of r.error.issues) detail.push(toDetail(issue, location, input));
  if (detail.length > 0) return { ok: false, detail };
  return { ok: true, value: r.data as z.infer<T> };
}

/**
 * Reads a query string into `schema`: repeated keys become arrays for array fields, integers are
 * parsed, parameters the schema does not know are ignored (as FastAPI does). Errors come back as
 * FastAPI 422 details, one per bad parameter, `loc: ["query", name, (index)]`.
 */
export function decodeQuery<T extends z.ZodObject>(search: URLSearchParams, schema: T): DecodeResult<z.infer<T>> {
  return decode((key) => search.getAll(key), schema, "query");
}

/** Validates the path identifiers; details have `loc: ["path", "owner"]`. */
export function decodePathParams(params: { owner: string; repository: string }): DecodeResult<PathParams> {
  return decode((key) => [params[key as keyof typeof params]], PathParamsSchema, "path");
}

// ---------------------------------------------------------------------------------------------
// Query schemas from a dialect's parameter list (src/api/dialects)

function paramSchema(p: ParamSpec): z.ZodType {
  let item: z.ZodType;
  if (p.enum !== undefined) item = z.enum(p.enum as [string, ...string[]]);
  else if (p.type === "integer") {
    let n = z.int();
    if (p.minimum !== undefined) n = n.min(p.minimum);
    if (p.exclusiveMaximum !== undefined) n = n.lt(p.exclusiveMaximum);
    if (p.maximum !== undefined && p.maximum <= Number.MAX_SAFE_INTEGER) n = n.max(p.maximum);
    item = n;
  } else if (p.format === "date-time") item = DateTimeSchema;
  else {
    let str = z.string();
    if (p.minLength !== undefined) str = str.min(p.minLength);
    if (p.maxLength !== undefined) str = str.max(p.maxLength);
    item = str;
  }
  if (!p.array) return item.optional();
  let arr = z.array(item);
  if (p.maxItems !== undefined) arr = arr.max(p.maxItems);
  return arr.optional();
}

/** The zod object a server decodes `params` into (decodeQuery); repeated values of a set are kept once. */
export function querySchemaFor(params: readonly ParamSpec[]): z.ZodObject {
  return z.object(Object.fromEntries(params.map((p) => [p.name, paramSchema(p)])));
}

/** FastAPI-shaped details for parameters sent together that the dialect says exclude each other. */
export function exclusionDetails(params: readonly ParamSpec[], present: (name: string) => boolean): FastApiDetail[] {
  const out: FastApiDetail[] = [];
  const seen = new Set<string>();
  for (const p of params) {
    if (p.exclusiveWith === undefined) continue;
    // the OpenAPI may state a pair on one side only
    const pair = [p.name, p.exclusiveWith].sort().join("\u0000");
    if (seen.has(pair)) continue;
    seen.add(pair);
    if (present(p.name) && present(p.exclusiveWith)) {
      out.push({
        loc: ["query", p.name],
        msg: `Value error, ${p.name} and ${p.exclusiveWith} are mutually exclusive`,
        type: "value_error",
      });
    }
  }
  return out;
}
