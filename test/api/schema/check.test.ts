// compileCheck must say exactly what zod says: check(v) === schema.safeParse(v).success. These
// tests compare the two on the fixtures and on thousands of fast-check mutations of them (keys
// deleted, values swapped for null, numbers, strings, arrays, objects, other enum values, broken
// date-times and uuids, deeper nesting, the recursive condition evaluation grown), then on a zoo
// of hand-made schemas for the definition kinds the contract does not use. Any disagreement fails.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import * as z from "zod";
import { transformSync } from "esbuild";
import { compileCheck } from "../../../src/api/schema/check.js";
import * as checkHelpers from "../../../src/api/schema/check-helpers.js";
import { emitChecks, INT_RANGES } from "../../../src/api/schema/check-source.js";
import { CHECK_FILES, checksFileText } from "../../../src/api/schema/check-files.js";
import { CONTRACT_METADATA_CHECKS } from "../../../src/api/schema/contract-checks.generated.js";
import { surelyValidPage } from "../../../src/api/schema/envelope.js";
import {
  EVENT_METADATA_SCHEMAS,
  EventEnvelopeSchema,
  eventSchemas,
  parseEventsPage,
  validateEvent,
} from "../../../src/api/schema/events.js";
const { EventSchema, EventsPageSchema } = eventSchemas();
import { mutated, NUMBERS, show } from "../../helpers/mutations.js";

type Obj = Record<string, unknown>;

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../src/api/fixtures/${name}`, import.meta.url), "utf8"));
const events = fixture("events.json") as Array<Obj & { type: string; metadata: Obj }>;
const realEvent = fixture("real-service-event.json") as Obj & { type: string; metadata: Obj };
const allEvents = [...events, realEvent];

const typed = Object.entries(EVENT_METADATA_SCHEMAS) as Array<[string, z.ZodType]>;

/** Fails with the value when the compiled check and zod disagree. */
function agree(schema: z.ZodType, check: (v: unknown) => boolean, value: unknown): void {
  const zod = schema.safeParse(value).success;
  const ours = check(value);
  if (ours !== zod) {
    throw new Error(`compiled check says ${ours}, zod says ${zod}, for ${show(value)}`);
  }
}

// ---------------------------------------------------------------------------------------------

describe("compileCheck on the event contract", () => {
  it("compiles every metadata shape and the page without handing anything back to zod", () => {
    const fallbacks: string[] = [];
    for (const [type, schema] of typed) compileCheck(schema, { onFallback: (t, why) => fallbacks.push(`${type}: ${t} (${why})`) });
    compileCheck(EventsPageSchema.shape.events.element.options[0], { onFallback: (t, why) => fallbacks.push(`${t} (${why})`) });
    compileCheck(EventEnvelopeSchema, { onFallback: (t, why) => fallbacks.push(`${t} (${why})`) });
    expect(fallbacks).toEqual([]);
  });

  it("hands the generic event's refined type back to zod, and only that", () => {
    const fallbacks: string[] = [];
    compileCheck(EventsPageSchema, { onFallback: (t, why) => fallbacks.push(`${t} (${why})`) });
    expect(fallbacks).toEqual(["string (check custom)"]);
  });

  it.each(typed)("%s: agrees with zod on every fixture's metadata", (_type, schema) => {
    const check = compileCheck(schema);
    for (const ev of allEvents) agree(schema, check, ev.metadata);
  });

  it("agrees with zod on every fixture as an event, an envelope and a page", () => {
    const ev = compileCheck(EventSchema);
    const env = compileCheck(EventEnvelopeSchema);
    const page = compileCheck(EventsPageSchema);
    for (const e of allEvents) {
      agree(EventSchema, ev, e);
      agree(EventEnvelopeSchema, env, e);
    }
    agree(EventsPageSchema, page, { size: 48, per_page: 100, events: allEvents });
  });

  it.each(typed)("%s: agrees with zod on mutations of the fixtures' metadata", (type, schema) => {
    const check = compileCheck(schema);
    const own = allEvents.filter((e) => e.type === type).map((e) => e.metadata);
    // its own fixture most of the time, another type's metadata now and then
    const seeds = [...own, ...own, ...own, ...allEvents.map((e) => e.metadata)];
    fc.assert(
      fc.property(mutated(seeds), (m) => agree(schema, check, m)),
      { numRuns: 150 },
    );
  });

  it("agrees with zod on mutations of whole events (envelope, discriminated union, generic events)", () => {
    const ev = compileCheck(EventSchema);
    const env = compileCheck(EventEnvelopeSchema);
    fc.assert(
      fc.property(mutated(allEvents), (e) => {
        agree(EventSchema, ev, e);
        agree(EventEnvelopeSchema, env, e);
      }),
      { numRuns: 1500 },
    );
  });

  it("validateEvent (hand-written envelope + compiled metadata) has EventSchema's verdict on mutated events", () => {
    fc.assert(
      fc.property(mutated(allEvents), (e) => {
        const zod = EventSchema.safeParse(e).success;
        const ours = validateEvent(e);
        if (ours.ok !== zod) throw new Error(`validateEvent ${show(ours)}, zod ${zod}, for ${show(e)}`);
      }),
      { numRuns: 1500 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Definition kinds the contract does not use (yet): each compared with zod on arbitrary values

const Tree: z.ZodType = z.lazy(() => z.object({ value: z.number(), children: z.array(Tree).optional() }));
const Shape = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("circle"), r: z.number().positive() }),
  z.object({ kind: z.literal(["square", "box"]), side: z.number().min(0).max(10).multipleOf(0.5) }),
]);

const ZOO: Record<string, z.ZodType> = {
  "plain object (extra keys stripped)": z.object({ a: z.string(), b: z.number().optional() }),
  "strict object": z.strictObject({ a: z.string(), b: z.boolean().nullable() }),
  "object with a catchall": z.object({ a: z.int() }).catchall(z.string().min(2)),
  "optional, nullable, nullish keys": z.object({ o: z.string().optional(), n: z.string().nullable(), x: z.string().nullish() }),
  "optional unknown and required unknown": z.object({ u: z.unknown(), o: z.unknown().optional(), a: z.any() }),
  "exact optional": z.object({ e: z.string().exactOptional() }),
  "default (handed back to zod)": z.object({ d: z.string().default("x"), n: z.number() }),
  "string checks": z.string().min(2).max(5),
  "string length in code points": z.string().length(2),
  "string formats": z.union([z.email(), z.uuid(), z.ipv4(), z.iso.date(), z.iso.time(), z.url()]),
  "starts/ends/includes": z.string().startsWith("a").endsWith("z").includes("m"),
  "global regex": z.string().regex(/ab/g),
  "lower case": z.string().lowercase(),
  "numbers": z.number().gt(-5).lte(5),
  "int32": z.int32(),
  "literals": z.literal([1, "1", null, true]),
  "enum": z.enum(["a", "b"]),
  "native enum": z.enum({ A: 1, B: "b" }),
  "array bounds": z.array(z.string()).min(1).max(3),
  "nonempty array": z.array(z.number()).nonempty(),
  "record of ints": z.record(z.string(), z.int()),
  "record of unknown": z.record(z.string(), z.unknown()),
  "loose record": z.looseRecord(z.string(), z.string()),
  "record with enum keys (handed back)": z.record(z.enum(["a", "b"]), z.number()),
  "union": z.union([z.string(), z.number().int(), z.array(z.boolean())]),
  "xor": z.xor([z.string(), z.string().min(3)]),
  "discriminated union": Shape,
  "lazy tree": Tree,
  "refine (handed back)": z.string().refine((s) => s.length % 2 === 0),
  "transform (handed back)": z.string().transform((s) => s.length),
  "pipe (handed back)": z.string().pipe(z.coerce.number()),
  "coerce (handed back)": z.coerce.number(),
  "trim (handed back)": z.string().trim().min(1),
  "null, undefined, never, boolean": z.union([z.null(), z.undefined(), z.never(), z.boolean()]),
  "tuple (handed back)": z.tuple([z.string(), z.number()]),
};

const zooValue: fc.Arbitrary<unknown> = fc.oneof(
  { maxDepth: 3 },
  fc.anything({
    maxDepth: 3,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withBigInt: true,
  }),
  fc.constantFrom<unknown>(
    "ab",
    "abc",
    "a\ud83d\ude00",
    "\ud83d\ude00\ud83d\ude00",
    "amz",
    "ABC",
    "  ",
    "x@example.com",
    "3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6c",
    "127.0.0.1",
    "2026-11-20",
    "09:58:02",
    "https://example.com",
    ...NUMBERS,
    2 ** 31,
    -5,
    5,
    4.5,
    [],
    ["a"],
    ["a", "b", "c", "d"],
    [true, false],
    { a: "x" },
    { a: "x", b: 1 },
    { a: "x", b: null },
    { a: 1, z: "zz" },
    { a: 1, z: "z" },
    { o: undefined, n: null, x: undefined },
    { n: "x" },
    { e: undefined },
    {},
    { d: undefined, n: 1 },
    { a: 1, b: "b" },
    { kind: "circle", r: 1 },
    { kind: "box", side: 2.5 },
    { kind: "square", side: 11 },
    { value: 1, children: [{ value: 2 }, { value: 3, children: [] }] },
    { value: 1, children: [{ value: "2" }] },
    JSON.parse('{"a": "x", "__proto__": 1}'),
    Object.assign(Object.create(null), { a: "x" }),
    { [Symbol("s")]: 1, a: "x" },
    { [Symbol("s")]: 1, n: 2 },
    Object.defineProperty({ a: "x" }, Symbol("hidden"), { value: 1, enumerable: false }),
    new (class Point {
      a = "x";
    })(),
    Object.assign(new Date(0), { a: "x" }),
    Object.assign(new Map(), { a: "x" }),
    { a: "x", constructor: 1 },
    { a: "x", constructor: { prototype: 1 } },
    Object.assign(Object.create({ inherited: 1 }), { a: "x" }),
    new String("ab"),
  ),
);

describe("compileCheck on other definition kinds", () => {
  it.each(Object.entries(ZOO))("%s: agrees with zod", (_name, schema) => {
    const check = compileCheck(schema);
    fc.assert(
      fc.property(zooValue, (v) => agree(schema, check, v)),
      { numRuns: 400 },
    );
  });

  it("hands back exactly the kinds it does not know", () => {
    const why = (s: z.ZodType) => {
      const out: string[] = [];
      compileCheck(s, { onFallback: (t, r) => out.push(`${t}: ${r}`) });
      return out;
    };
    expect(why(ZOO["refine (handed back)"]!)).toEqual(["string: check custom"]);
    expect(why(ZOO["transform (handed back)"]!)).toEqual(["pipe: pipe"]);
    expect(why(ZOO["coerce (handed back)"]!)).toEqual(["number: coercion"]);
    expect(why(ZOO["trim (handed back)"]!)).toEqual(["string: check overwrite"]);
    expect(why(ZOO["tuple (handed back)"]!)).toEqual(["tuple: tuple"]);
    expect(why(ZOO["default (handed back to zod)"]!)).toEqual(["default: default"]);
    expect(why(ZOO["lazy tree"]!)).toEqual([]);
    expect(why(ZOO["discriminated union"]!)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The same schemas as plain JavaScript (check-source.ts, contract-checks.generated.ts): a one-page
// `mq logs` tells a valid page of the contract without loading zod. A predicate may say "not
// sure" (false) where zod accepts, never "valid" where zod refuses.

/** emitChecks' output as live functions (types stripped by esbuild), by schema name. */
function emitted(schemas: Record<string, z.ZodType>): Record<string, (v: unknown) => boolean> {
  const { declarations, names } = emitChecks(new Map(Object.entries(schemas)));
  const table = [...names].filter(([, id]) => id !== undefined).map(([name, id]) => `${JSON.stringify(name)}: ${id}`);
  const code = transformSync(`function build() {\n${declarations.join("\n")}\nreturn { ${table.join(", ")} };\n}`, { loader: "ts" }).code;
  return new Function(...Object.keys(checkHelpers), `${code}\nreturn build();`)(...Object.values(checkHelpers)) as Record<string, (v: unknown) => boolean>;
}

describe("the contract's metadata shapes without zod (contract-checks.generated.ts)", () => {
  it.each(CHECK_FILES.map((f) => [f.path, f] as const))("%s is what its schemas generate (else: node scripts/gen-checks.mjs)", (path, file) => {
    const committed = readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
    expect(committed).toBe(checksFileText(file));
  });

  it("has a predicate for every typed event type, and nothing left to zod", () => {
    expect(Object.keys(CONTRACT_METADATA_CHECKS).sort()).toEqual(typed.map(([t]) => t).sort());
    expect(Object.entries(CONTRACT_METADATA_CHECKS).filter(([, f]) => f === undefined)).toEqual([]);
  });

  it.each(typed)("%s: agrees with zod on the fixtures and on mutations of them", (type, schema) => {
    const check = CONTRACT_METADATA_CHECKS[type]!;
    for (const ev of allEvents) agree(schema, check, ev.metadata);
    const own = allEvents.filter((e) => e.type === type).map((e) => e.metadata);
    fc.assert(
      fc.property(mutated([...own, ...own, ...own, ...allEvents.map((e) => e.metadata)]), (m) => agree(schema, check, m)),
      { numRuns: 150 },
    );
  });

  it("surelyValidPage says a page is valid exactly when parseEventsPage --strict accepts it", () => {
    expect(surelyValidPage({ size: events.length, per_page: 100, events })).toBe(true);
    const verdict = (page: unknown) => {
      try {
        parseEventsPage(page, { strict: true });
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(mutated(allEvents), fc.nat(events.length - 1), (e, at) => {
        const page = { size: 3, per_page: 100, events: [events[at], e, events[(at + 7) % events.length]] };
        const ours = surelyValidPage(page);
        if (ours !== verdict(page)) throw new Error(`surelyValidPage ${ours} for ${show(e)}`);
      }),
      { numRuns: 1500 },
    );
    for (const page of [null, [], { size: 1, per_page: 1 }, { size: "1", per_page: 1, events: [] }, { size: 1, per_page: 1, events: [1] }]) {
      expect(surelyValidPage(page)).toBe(false);
    }
  });
});

describe("emitChecks on other definition kinds", () => {
  const predicates = emitted(ZOO);

  it.each(Object.entries(ZOO))("%s: never says valid where zod refuses", (name, schema) => {
    const check = predicates[name];
    if (check === undefined) return;
    fc.assert(
      fc.property(zooValue, (v) => {
        if (check(v) && !schema.safeParse(v).success) throw new Error(`emitted check says valid, zod refuses ${show(v)}`);
      }),
      { numRuns: 400 },
    );
  });

  it("uses zod's integer ranges", () => {
    for (const [format, range] of Object.entries(INT_RANGES)) expect(range).toEqual(z.util.NUMBER_FORMAT_RANGES[format as keyof typeof z.util.NUMBER_FORMAT_RANGES]);
  });

  it("leaves to zod exactly the kinds it does not know", () => {
    const known = Object.keys(predicates).sort();
    expect(known).toEqual(
      [
        "plain object (extra keys stripped)",
        "optional, nullable, nullish keys",
        "optional unknown and required unknown",
        "exact optional",
        "string checks",
        "numbers",
        "int32",
        "literals",
        "enum",
        "native enum",
        "array bounds",
        "nonempty array",
        "record of ints",
        "record of unknown",
        "loose record",
        "union",
        "lazy tree",
        "null, undefined, never, boolean",
      ].sort(),
    );
  });

  it("emits one function for schemas of the same shape, and none that only calls another; recursion keeps its names", () => {
    // as the OpenAPI's converter builds them: a new z.string() per property, a z.lazy per $ref
    const group = () => z.looseObject({ name: z.string(), size: z.int(), tags: z.array(z.string()) });
    const Node: z.ZodType = z.lazy(() => z.looseObject({ name: z.string(), children: z.array(Node) }));
    const schemas = { a: group(), b: z.lazy(() => group()), c: z.array(group()), node: Node, other: z.lazy(() => Node) };
    const { declarations, names } = emitChecks(new Map(Object.entries(schemas)));
    expect(names.get("b")).toBe(names.get("a"));
    expect(names.get("other")).toBe(names.get("node"));
    // string, int, string[], the group, group[]; the node, its children and the lazy they call by name
    expect(declarations.filter((d) => d.startsWith("function ")).length).toBe(8);
    const live = emitted(schemas);
    expect(live.node!({ name: "x", children: [{ name: "y", children: [] }] })).toBe(true);
    expect(live.node!({ name: "x", children: [{ name: 1, children: [] }] })).toBe(false);
    expect(live.c!([{ name: "x", size: 1, tags: ["t"] }])).toBe(true);
    expect(live.c!([{ name: "x", size: 1.5, tags: [] }])).toBe(false);
  });
});
