// The generated validators of both dialects: the contract's metadata shapes and statistics answers
// (written in zod, events.ts and stats.ts, read through zod's public z.toJSONSchema) and the real
// service's (its OpenAPI's component schemas), all normalized by json-schemas.ts and emitted as
// plain functions by check-source.ts. `mq` runs that code and nothing else to validate a payload:
// no schema is built and no zod is loaded at run time. `node scripts/gen-checks.mjs` writes the
// modules; test/api/schema/check-files.test.ts fails, naming the file, when a committed one is stale.
// Generation time only: this module (and zod, through it) is never part of what `mq` loads.
import { dirname, posix } from "node:path";
import * as z from "zod";
import { MERGIFY_METADATA, MERGIFY_RESPONSES, MERGIFY_SCHEMAS } from "../dialects/mergify-schemas.generated.js";
import { emitChecks } from "./check-source.js";
import { DateTimeSchema, UuidSchema } from "./common.js";
import { EVENT_METADATA_SCHEMAS } from "./events.js";
import { formats, normalize, type JsonSchema, type NormalizeOptions } from "./json-schemas.js";
import { LENIENT_STATS_RESPONSE_SCHEMAS, STATS_RESPONSE_SCHEMAS } from "./stats.js";

type Json = Record<string, unknown>;

/** A table of named schemas, with where their `$ref`s lead. */
export interface SchemaTable {
  schemas: ReadonlyMap<string, JsonSchema>;
  resolve: (ref: string) => unknown;
}

export interface ChecksFile {
  /** the module, from the repository's root */
  path: string;
  /** what the schemas are generated from, for the header */
  from: string;
  /** what the validators check, for the header */
  what: string;
  /** the exported tables: name, what its keys are, and its schemas */
  tables: Array<{ name: string; keys: string; schemas: () => SchemaTable }>;
  /** declarations before the validators */
  preamble?: () => string[];
}

const FORMATS = () => formats(DateTimeSchema, UuidSchema);

/** zod schemas of the contract as normalized JSON Schemas; recursive parts under `definitions` of each */
function fromZod(table: string, schemas: Record<string, z.ZodType>): () => SchemaTable {
  return () => {
    const defs = new Map<string, unknown>();
    const out = new Map<string, JsonSchema>();
    for (const [key, schema] of Object.entries(schemas)) {
      const json = z.toJSONSchema(schema, { target: "draft-7" }) as Json;
      // each schema's definitions are its own: named after the key they belong to
      const prefix = `#/definitions/${table}/${key}/`;
      const opts: NormalizeOptions = { ref: (n) => `${prefix}${n}` };
      for (const [n, d] of Object.entries((json.definitions ?? {}) as Json)) defs.set(`${prefix}${n}`, normalize(d, opts));
      out.set(key, normalize(json, opts));
    }
    return { schemas: out, resolve: (ref) => need(defs, ref) };
  };
}

function need(defs: ReadonlyMap<string, unknown>, ref: string): unknown {
  if (!defs.has(ref)) throw new Error(`unresolved $ref ${ref}`);
  return defs.get(ref);
}

/** the real service's schemas as normalized JSON Schemas; their `$ref`s lead to its components */
function fromOpenApi(entries: () => Array<[string, unknown]>): () => SchemaTable {
  return () => {
    const opts: NormalizeOptions = { ref: (n) => `#/components/schemas/${n}` };
    const defs = new Map(Object.entries(MERGIFY_SCHEMAS).map(([n, s]) => [`#/components/schemas/${n}`, normalize(s, opts)]));
    return { schemas: new Map(entries().map(([k, s]) => [k, normalize(s, opts)])), resolve: (ref) => need(defs, ref) };
  };
}

export const CHECK_FILES: readonly ChecksFile[] = [
  {
    path: "src/api/schema/contract-checks.generated.ts",
    from: "src/api/schema/{events,common}.ts",
    what: "The contract's metadata shapes",
    tables: [
      {
        name: "CONTRACT_METADATA_CHECKS",
        keys: "event type -> the validator of its metadata (the contract's)",
        schemas: fromZod("metadata", EVENT_METADATA_SCHEMAS),
      },
    ],
    preamble: () => [
      "/** zod's date-time pattern of DateTimeSchema (offset required, any precision) */",
      `export const DATE_TIME_RE: RegExp = ${FORMATS()["date-time"].toString()};`,
      "",
    ],
  },
  {
    path: "src/api/schema/contract-stats-checks.generated.ts",
    from: "src/api/schema/stats.ts (the records of src/stats/endpoints.ts)",
    what: "The contract's statistics answers",
    tables: [
      {
        name: "CONTRACT_STATS_CHECKS",
        keys: "endpoint name -> the validator of its answer (the contract's)",
        schemas: fromZod("stats", STATS_RESPONSE_SCHEMAS),
      },
      {
        name: "CONTRACT_STATS_LENIENT_CHECKS",
        keys: "endpoint name -> the same with the group keys the real service omits (partition_name, partition_names) optional",
        schemas: fromZod("lenient", LENIENT_STATS_RESPONSE_SCHEMAS),
      },
    ],
  },
  {
    path: "src/api/dialects/mergify-checks.generated.ts",
    from: "docs/mergify-openapi.json (src/api/dialects/mergify-schemas.generated.ts)",
    what: "The real service's metadata shapes",
    tables: [
      {
        name: "MERGIFY_METADATA_CHECKS",
        keys: "event type -> the validator of its metadata (the service's OpenAPI)",
        schemas: fromOpenApi(() => Object.entries(MERGIFY_METADATA)),
      },
    ],
  },
  {
    path: "src/api/dialects/mergify-stats-checks.generated.ts",
    from: "docs/mergify-openapi.json (src/api/dialects/mergify-schemas.generated.ts)",
    what: "The real service's statistics answers",
    tables: [
      {
        name: "MERGIFY_STATS_CHECKS",
        keys: "path below /repos/{owner}/{repository}/ -> the validator of its answer (the service's OpenAPI)",
        schemas: fromOpenApi(() => Object.entries(MERGIFY_RESPONSES).filter(([p]) => p.startsWith("stats/"))),
      },
    ],
  },
];

/** check-helpers.ts as a module at `path` imports it */
function helpersImport(path: string): string {
  const relative = posix.relative(dirname(path), "src/api/schema/check-helpers.js");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

const HELPERS = ["abortedSince", "all", "bad", "int", "isObj", "items", "mark", "prop", "typeIssue", "union", "values"];

/** The text of one generated module. */
export function checksFileText(file: ChecksFile): string {
  // one emission for the file's tables: a function two tables need is written once
  const tables = file.tables.map((t) => ({ ...t, ...t.schemas() }));
  const all = new Map<string, JsonSchema>();
  tables.forEach((t, i) => {
    for (const [k, s] of t.schemas) all.set(`${i}\u0000${k}`, s);
  });
  const resolve = (ref: string): unknown => {
    for (const t of tables) {
      try {
        return t.resolve(ref);
      } catch {
        // another table's
      }
    }
    throw new Error(`unresolved $ref ${ref}`);
  };
  const { declarations, names } = emitChecks(all, { resolve, formats: FORMATS() });
  const rows: string[] = [];
  tables.forEach((t, i) => {
    rows.push("", `/** ${t.keys} */`, `export const ${t.name}: Readonly<Record<string, Check>> = {`);
    for (const k of t.schemas.keys()) rows.push(`  ${JSON.stringify(k)}: ${names.get(`${i}\u0000${k}`)!},`);
    rows.push("};");
  });
  const used = HELPERS.filter((h) => declarations.some((d) => new RegExp(`\\b${h}\\(`).test(d)));
  return [
    `// GENERATED by scripts/gen-checks.mjs from ${file.from}. Do not edit.`,
    `// ${file.what} as validators (api/schema/check-source.ts): check(v, null) answers; check(v, [])`,
    "// also records the issues, in zod's words (check-helpers.ts).",
    "/* eslint-disable */",
    "",
    `import { ${["type Check", "type Path", ...used].join(", ")} } from "${helpersImport(file.path)}";`,
    "",
    ...(file.preamble?.() ?? []),
    ...declarations,
    ...rows,
    "",
  ].join("\n");
}
