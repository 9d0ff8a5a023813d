#!/usr/bin/env node
// Generates what mq knows of the real service from its public OpenAPI (docs/mergify-openapi.json,
// a verbatim copy of ../shared/reference/mergify-openapi-logs-stats.json), so the dialect data never
// drifts from the file by hand-copying:
//   src/api/dialects/mergify.generated.ts          lists and parameters (loaded at start-up: small)
//   src/api/dialects/mergify-schemas.generated.ts  the component schemas, trimmed of prose (loaded
//                                                  only to check or shape payloads)
// After it, `node scripts/gen-checks.mjs` regenerates the zod-free checks made from these schemas.
// Usage: node scripts/gen-mergify-dialect.mjs [--check]   (--check fails when the files are stale;
// test/dialects/data.test.ts makes the same comparison in-process through generate())
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = join(root, "docs/mergify-openapi.json");
const OUT_DATA = join(root, "src/api/dialects/mergify.generated.ts");
const OUT_SCHEMAS = join(root, "src/api/dialects/mergify-schemas.generated.ts");

export const OUTPUTS = { data: OUT_DATA, schemas: OUT_SCHEMAS };

/** The two files' texts, from the OpenAPI at `source`. */
export function generate(source = SOURCE) {
  const api = JSON.parse(readFileSync(source, "utf8"));
  const schemas = api.components.schemas;
  const PREFIX = "/repos/{owner}/{repository}/";

  // Keywords that say what a value is; prose (title, description, examples) is left out.
  const KEEP = new Set([
    "type",
    "properties",
    "required",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "enum",
    "const",
    "format",
    "$ref",
    "additionalProperties",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "uniqueItems",
    "maxItems",
    "minItems",
    "default",
    "discriminator",
    "propertyNames",
  ]);

  function trim(node, inProperties = false) {
    if (Array.isArray(node)) return node.map((n) => trim(n));
    if (node === null || typeof node !== "object") return node;
    const out = {};
    for (const [k, v] of Object.entries(node)) {
      if (inProperties) out[k] = trim(v);
      else if (k === "properties") out[k] = trim(v, true);
      else if (k === "discriminator") out[k] = v;
      else if (KEEP.has(k)) out[k] = trim(v);
    }
    return out;
  }

  const refName = (ref) => ref.replace("#/components/schemas/", "");

  /** The schema of a nullable/optional parameter without its `null` branch. */
  function nonNull(schema) {
    if (schema.anyOf) {
      const rest = schema.anyOf.filter((s) => s.type !== "null");
      if (rest.length === 1) return rest[0];
    }
    return schema;
  }

  function describeParam(p) {
    const s = nonNull(p.schema);
    const array = s.type === "array";
    const item = array ? s.items : s;
    const resolved = item.$ref ? schemas[refName(item.$ref)] : item;
    const out = { name: p.name, array, type: resolved.type === "integer" ? "integer" : "string" };
    // an enum named by a component is exported on its own (MERGIFY_EVENT_TYPES, MERGIFY_OUTCOMES)
    if (item.$ref) out.enumRef = refName(item.$ref);
    else if (resolved.enum) out.enum = resolved.enum;
    if (resolved.format) out.format = resolved.format;
    for (const k of ["minimum", "exclusiveMaximum", "minLength", "maxLength"]) if (resolved[k] !== undefined) out[k] = resolved[k];
    if (resolved.maximum !== undefined && resolved.exclusiveMaximum === undefined) out.maximum = resolved.maximum;
    if (array && s.maxItems !== undefined) out.maxItems = s.maxItems;
    if (array && s.uniqueItems) out.uniqueItems = true;
    if (p.schema.default !== undefined) out.default = p.schema.default;
    // "Mutually exclusive with `x`": the one place the file states which filters exclude each other
    const m = /Mutually exclusive with `([a-z_]+)`/.exec(p.description ?? p.schema.description ?? "");
    if (m) out.exclusiveWith = m[1];
    return out;
  }

  const endpoints = {};
  const responses = {};
  for (const [path, item] of Object.entries(api.paths)) {
    if (!path.startsWith(PREFIX)) continue;
    const op = item.get;
    if (!op) continue;
    const response = op.responses?.["200"]?.content?.["application/json"]?.schema;
    endpoints[path.slice(PREFIX.length)] = (op.parameters ?? []).filter((p) => p.in === "query").map(describeParam);
    responses[path.slice(PREFIX.length)] = trim(response);
  }

  // the statistics answers made of groups of interval records (groups; started and completed):
  // what a flat record of csv and ndjson can hold, for --fields in this dialect
  const resolve = (schema) => {
    let s = nonNull(schema);
    while (s.$ref) s = nonNull(schemas[refName(s.$ref)]);
    return s;
  };
  const statsRecords = {};
  for (const [path, item] of Object.entries(api.paths)) {
    const response = item.get?.responses?.["200"]?.content?.["application/json"]?.schema;
    if (!path.startsWith(`${PREFIX}stats/`) || !response) continue;
    const body = resolve(response);
    const out = { keys: [], record: [], summary: [] };
    const add = (list, names) => {
      for (const n of names) if (!list.includes(n)) list.push(n);
    };
    for (const list of Object.values(body.properties ?? {})) {
      const l = resolve(list);
      if (l.type !== "array") continue;
      const group = resolve(l.items);
      if (group.type !== "object" || !group.properties?.stats) continue;
      const stats = resolve(group.properties.stats);
      if (stats.type !== "array") continue;
      add(
        out.keys,
        Object.keys(group.properties).filter((k) => k !== "stats" && k !== "summary"),
      );
      add(out.record, Object.keys(resolve(stats.items).properties ?? {}));
      if (group.properties.summary) add(out.summary, Object.keys(resolve(group.properties.summary).properties ?? {}));
    }
    if (out.record.length > 0) statsRecords[path.slice(PREFIX.length)] = out;
  }

  const eventsSchema = schemas.EventsResponse.properties.events.items;
  const metadataByType = {};
  for (const [type, ref] of Object.entries(eventsSchema.discriminator.mapping)) {
    const ev = schemas[refName(ref)];
    metadataByType[type] = { event: refName(ref), metadata: trim(ev.properties.metadata) };
  }
  const checksEnd = schemas.EventQueueChecksEndMetadata.properties.abort_code;
  const abortCodes = nonNull(checksEnd).enum;
  const leave = schemas.EventQueueLeaveMetadata.properties.dequeue_code.anyOf.filter((s) => s.enum).flatMap((s) => s.enum);

  const header = `// GENERATED by scripts/gen-mergify-dialect.mjs from docs/mergify-openapi.json. Do not edit.\n`;
  const data = `${header}// What the real service's OpenAPI (${api.info.title} ${api.info.version}) says, as plain data.

export const MERGIFY_SERVER_URL = ${JSON.stringify(api.servers[0].url)};

/** The values \`event_type\` accepts (EventType). */
export const MERGIFY_EVENT_TYPES = ${JSON.stringify(schemas.EventType.enum, null, 2)} as const;

/** The derived \`outcome\` of every event (EventOutcome). */
export const MERGIFY_OUTCOMES = ${JSON.stringify(schemas.EventOutcome.enum)} as const;

/** \`abort_code\` of action.queue.checks_end. */
export const MERGIFY_ABORT_CODES = ${JSON.stringify(abortCodes)} as const;

/** \`dequeue_code\` of action.queue.leave. */
export const MERGIFY_DEQUEUE_CODES = ${JSON.stringify(leave)} as const;

/** The metadata component of each event type. */
export const MERGIFY_EVENT_COMPONENTS: Record<string, string> = ${JSON.stringify(Object.fromEntries(Object.entries(metadataByType).map(([t, v]) => [t, v.event])), null, 2)};

export interface MergifyParam {
  name: string;
  array: boolean;
  type: "integer" | "string";
  enumRef?: string;
  enum?: readonly string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  default?: unknown;
  /** the parameter the OpenAPI says this one excludes */
  exclusiveWith?: string;
}

/** Every endpoint below /repos/{owner}/{repository}/ and its query parameters. */
export const MERGIFY_ENDPOINTS: Record<string, readonly MergifyParam[]> = ${JSON.stringify(endpoints)};

/**
 * The statistics answers made of groups of interval records: the groups' keys, the fields of an
 * interval record and of a group's summary, in the OpenAPI's order (started and completed together).
 */
export const MERGIFY_STATS_RECORDS: Record<string, { keys: readonly string[]; record: readonly string[]; summary: readonly string[] }> = ${JSON.stringify(statsRecords)};
`;

  const schemasOut = `${header}// The OpenAPI's component schemas, prose removed: what a payload of the real service is.

export const MERGIFY_SCHEMAS: Record<string, unknown> = ${JSON.stringify(trim(schemas, true))};

/** type -> its metadata schema (which may \`$ref\` MERGIFY_SCHEMAS). */
export const MERGIFY_METADATA: Record<string, unknown> = ${JSON.stringify(Object.fromEntries(Object.entries(metadataByType).map(([t, v]) => [t, v.metadata])))};

/** path below /repos/{owner}/{repository}/ -> the schema of its 200 body. */
export const MERGIFY_RESPONSES: Record<string, unknown> = ${JSON.stringify(responses)};
`;

  return { data, schemas: schemasOut };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { data, schemas: schemasOut } = generate();
  if (process.argv.includes("--check")) {
    const stale = [
      [OUT_DATA, data],
      [OUT_SCHEMAS, schemasOut],
    ].filter(([file, text]) => {
      try {
        return readFileSync(file, "utf8") !== text;
      } catch {
        return true;
      }
    });
    if (stale.length > 0) {
      console.error(`stale: ${stale.map(([f]) => f).join(", ")}; run node scripts/gen-mergify-dialect.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUT_DATA, data);
    writeFileSync(OUT_SCHEMAS, schemasOut);
  }
}
