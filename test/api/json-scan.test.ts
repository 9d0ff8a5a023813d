// The scanner finds each event's text as sent; checked against JSON.parse on generated documents,
// compact and pretty-printed, and on the exact forms JSON.parse loses.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactJson, memberOf, memberSpans, memberTable, scanJson, type Span } from "../../src/api/json-scan.js";
import { referenceScanJson } from "../helpers/json-scan-reference.js";

describe("scanJson", () => {
  it("finds the text of each element of the root object's arrays, exactly as sent", () => {
    const text = '{"size":3,"events":[{"id":12345678901234567890,"x":1.0},{"b":1e2,"a":"\\u00e9"},-0.0],"per_page":3}';
    const scan = scanJson(text);
    expect(scan.depth).toBe(3);
    expect(scan.rootArrays.get("events")!.map((s) => compactJson(text, s))).toEqual([
      '{"id":12345678901234567890,"x":1.0}',
      '{"b":1e2,"a":"\\u00e9"}',
      "-0.0",
    ]);
  });

  it("compacts pretty-printed elements without touching strings", () => {
    const text = '{\n  "events" : [\n    { "a" : "x  y",\n      "b" : [ 1 , 2 ] } ,\n    "s p"\n  ]\n}';
    const spans = scanJson(text).rootArrays.get("events")!;
    expect(spans.map((s) => compactJson(text, s))).toEqual(['{"a":"x  y","b":[1,2]}', '"s p"']);
  });

  it("takes the last of duplicate keys, as JSON.parse does", () => {
    const text = '{"events":[1],"events":[2,3]}';
    expect(
      scanJson(text)
        .rootArrays.get("events")!
        .map((s) => compactJson(text, s)),
    ).toEqual(["2", "3"]);
  });

  it("stops at the depth limit", () => {
    const deep = '{"events":[' + '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000) + "]}";
    expect(scanJson(deep, 64).depth).toBe(65);
    expect(scanJson(deep).depth).toBe(100_002);
  });

  it("agrees with JSON.parse on generated documents, compact and pretty-printed", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue()),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
        fc.boolean(),
        (events, extra, pretty) => {
          const doc = { ...extra, events };
          const text = pretty ? JSON.stringify(doc, null, 2) : JSON.stringify(doc);
          const spans = scanJson(text).rootArrays.get("events")!;
          const parsed = (JSON.parse(text) as { events: unknown[] }).events;
          expect(spans.map((s) => JSON.parse(compactJson(text, s)))).toEqual(parsed);
          for (const s of spans) expect(compactJson(text, s)).not.toMatch(/\n/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("memberSpans", () => {
  it("reads keys with escapes as JSON.parse does, and keys without as their text", () => {
    const text = '{"a\\"b":1,"\\u0069d":2,"plain":3}';
    expect([...memberSpans(text, { start: 0, end: text.length, spaced: false }).keys()]).toEqual(['a"b', "id", "plain"]);
    expect([...scanJson('{"e\\u0076ents":[1]}').rootArrays.keys()]).toEqual(["events"]);
  });

  it("gives each member's value text, in any layout", () => {
    const text = '{ "id" : 9007199254740993, "m" : { "k" : [ 1 ] }, "s": "a,b}" , "id": 2 }';
    const members = memberSpans(text, { start: 0, end: text.length, spaced: true });
    expect([...members.keys()]).toEqual(["id", "m", "s"]);
    expect(compactJson(text, members.get("id")!)).toBe("2");
    expect(compactJson(text, members.get("m")!)).toBe('{"k":[1]}');
    expect(compactJson(text, members.get("s")!)).toBe('"a,b}"');
  });

  it("agrees with JSON.parse on generated objects", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (obj, pretty) => {
        const text = pretty ? JSON.stringify(obj, null, 1) : JSON.stringify(obj);
        const members = memberSpans(text, { start: 0, end: text.length, spaced: pretty });
        const back = Object.fromEntries([...members].map(([k, s]) => [k, JSON.parse(compactJson(text, s))]));
        expect(back).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe("memberTable and memberOf: one walk of an event for all its members", () => {
  const member = (text: string, span: Span, key: string) => {
    const found = memberOf(text, memberTable(text, span), key);
    if (found === false) return "walk";
    return found === undefined ? undefined : compactJson(text, found);
  };

  it("reads a member as sent, the last of duplicate keys, in any layout; says when only a walk can tell", () => {
    const text =
      '{"events":[{"id":1.0,"m":{"id":3},"id":12345678901234567890} , { "id" : 2 , "m" : [ 1 , {"x":1} ] },[1],"s",{"a\\u0069d":4},{"\\u0069d":5,"id":6},{}]}';
    const spans = scanJson(text).rootArrays.get("events")!;
    expect(member(text, spans[0]!, "id")).toBe("12345678901234567890");
    expect(member(text, spans[0]!, "m")).toBe('{"id":3}');
    expect(member(text, spans[0]!, "x")).toBeUndefined();
    expect(member(text, spans[1]!, "id")).toBe("2");
    expect(member(text, spans[1]!, "m")).toBe('[1,{"x":1}]');
    // not objects: no members
    expect(member(text, spans[2]!, "id")).toBeUndefined();
    expect(member(text, spans[3]!, "id")).toBeUndefined();
    // a key with an escape that may decode to the one asked for: a walk decodes it
    expect(member(text, spans[4]!, "id")).toBe("walk");
    expect(member(text, spans[5]!, "id")).toBe("6");
    expect(member(text, spans[5]!, "x")).toBe("walk");
    expect(member(text, spans[6]!, "id")).toBeUndefined();
  });

  it("agrees with memberSpans (and so with JSON.parse) on generated events, compact and pretty-printed", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }), fc.jsonValue())),
        fc.boolean(),
        (events, pretty) => {
          const doc = { size: events.length, events };
          const text = pretty ? JSON.stringify(doc, null, 2) : JSON.stringify(doc);
          const spans = scanJson(text).rootArrays.get("events")!;
          expect(spans.length).toBe(events.length);
          for (const span of spans) {
            const walked = memberSpans(text, span);
            const table = memberTable(text, span);
            for (const key of [...walked.keys(), "id", "metadata", "__proto__", ""]) {
              const found = memberOf(text, table, key);
              if (found === false) continue;
              const expected = walked.get(key);
              expect(found === undefined ? undefined : compactJson(text, found)).toBe(
                expected === undefined ? undefined : compactJson(text, expected),
              );
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

// scanJson was rewritten for speed (one pass per page of `mq logs`): it must say exactly what the
// walk before it said (test/helpers/json-scan-reference.ts) on any text JSON.parse accepts, in any
// layout, with the escapes, surrogates, numbers and nesting a hostile server may send.
describe("scanJson against the scanner it replaced", () => {
  const space = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r"), maxLength: 3 });
  // a JSON string literal as a server may write it: raw characters, every escape form, lone and
  // paired surrogates as \u escapes, quotes, backslashes and brackets inside
  const stringLiteral = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '\\"',
          "\\\\",
          "\\/",
          "\\b",
          "\\f",
          "\\n",
          "\\r",
          "\\t",
          "{",
          "}",
          "[",
          "]",
          ",",
          ":",
          " ",
          "é",
          "😀",
          "\u2028",
          "\\u0022",
          "\\u005c",
        ),
        fc.integer({ min: 0, max: 0xffff }).map((n) => `\\u${n.toString(16).padStart(4, "0")}`),
        fc.constantFrom("\\ud83d\\ude00", "\\ud800", "\\udfff", "\\uD83D"),
        fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s).slice(1, -1)),
      ),
      { maxLength: 6 },
    )
    .map((parts) => `"${parts.join("")}"`);
  const number = fc.oneof(
    fc.constantFrom(
      "0",
      "-0",
      "-0.0",
      "1.0",
      "1e2",
      "1E+2",
      "1e-7",
      "1e400",
      "-1e400",
      "12345678901234567890",
      "9007199254740993",
      "0.1000000000000000055511151231257827",
    ),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  );
  const scalar = fc.oneof(stringLiteral, number, fc.constantFrom("true", "false", "null"));
  const join = (items: string[], gaps: string[]) => items.map((item, k) => `${gaps[2 * k] ?? ""}${item}${gaps[2 * k + 1] ?? ""}`).join(",");
  const { value } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("array"), tie("object")),
    array: fc
      .tuple(fc.array(tie("value"), { maxLength: 5 }), fc.array(space, { maxLength: 12 }), space)
      .map(([items, gaps, inner]) => `[${items.length ? join(items, gaps) : inner}]`),
    object: fc
      .tuple(
        fc.array(fc.tuple(fc.oneof(stringLiteral, fc.constantFrom('"events"', '"e\\u0076ents"', '"size"')), space, space, tie("value")), {
          maxLength: 5,
        }),
        fc.array(space, { maxLength: 12 }),
        space,
      )
      .map(
        ([members, gaps, inner]) =>
          `{${
            members.length
              ? join(
                  members.map(([k, a, b, v]) => `${k}${a}:${b}${v}`),
                  gaps,
                )
              : inner
          }}`,
      ),
  }));
  // the root: an object whose members are often arrays (the events), or any value
  const root = fc.oneof(
    fc
      .tuple(
        fc.array(
          fc.tuple(
            fc.constantFrom('"events"', '"e\\u0076ents"', '"size"', '"data"', '""'),
            space,
            space,
            fc.oneof(
              value,
              fc.array(value, { maxLength: 6 }).map((v) => `[${v.join(",")}]`),
            ),
          ),
          { maxLength: 4 },
        ),
        fc.array(space, { maxLength: 10 }),
        space,
        space,
      )
      .map(
        ([members, gaps, before, after]) =>
          `${before}{${join(
            members.map(([k, a, b, v]) => `${k}${a}:${b}${v}`),
            gaps,
          )}}${after}`,
      ),
    value,
  );

  it("finds the same spans, keys and depth on generated JSON text", () => {
    fc.assert(
      fc.property(root, fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }), (text, maxDepth) => {
        JSON.parse(text);
        const expected = referenceScanJson(text, maxDepth);
        const got = scanJson(text, maxDepth);
        expect(got.depth).toBe(expected.depth);
        expect([...got.rootArrays]).toEqual([...expected.rootArrays]);
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees on pages as the API sends them, compact and pretty-printed", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.constantFrom(undefined, 1, 2, "\t", " \r\n"), (events, indent) => {
        const text = JSON.stringify({ size: events.length, per_page: 100, events }, null, indent as string | number | undefined);
        const expected = referenceScanJson(text, 256);
        const got = scanJson(text, 256);
        expect(got.depth).toBe(expected.depth);
        expect([...got.rootArrays]).toEqual([...expected.rootArrays]);
      }),
      { numRuns: 500 },
    );
  });

  it("agrees at the depth limit and far past it", () => {
    for (const n of [0, 1, 2, 3, 10, 255, 256, 257, 5000]) {
      for (const text of [
        `{"events":[${"[".repeat(n)}${"]".repeat(n)}]}`,
        `{"events":[${'{"a":'.repeat(n)}1${"}".repeat(n)}],"x":{"y":[[]]}}`,
        `${"[".repeat(n)}${"]".repeat(n)}`,
        `{"a":${"[".repeat(n)}"]"${"]".repeat(n)}}`,
      ]) {
        for (const max of [Infinity, 256, 3, 2, 1, 0]) {
          const expected = referenceScanJson(text, max);
          const got = scanJson(text, max);
          expect(got.depth, `${text.slice(0, 40)} max ${max}`).toBe(expected.depth);
          expect([...got.rootArrays]).toEqual([...expected.rootArrays]);
        }
      }
    }
  });
});
