// Property-based tests (fast-check) on the parsers user and server input goes through. They extend
// the examples in test/api and test/cmdutil: Link headers serialised and parsed back,
// durations and date-times, query strings with any Unicode through the server's decoder, and the
// event envelope (valid events always parse; a broken one names the field and the event id).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseLinkHeader, findLink, cursorOf } from "../../src/api/pagination.js";
import { parseTimeFlag, formatInstant } from "../../src/cmdutil/time.js";
import { isIsoDateTimeWithZone, parseDurationSeconds } from "../../src/validators.js";
import { appendQuery, type QueryInput } from "../../src/api/client.js";

/** What the transport puts after the "?" for these parameters. */
function encodeQuery(query: QueryInput): string {
  const params = new URLSearchParams();
  appendQuery(params, query);
  return params.toString();
}
import { decodeQuery, LogsQuerySchema, StatsFilterSchema } from "../../src/api/schema/params.js";
import { parseEventsPage } from "../../src/api/schema/events.js";
import { ContractError, UsageError } from "../../src/errors.js";
import { EVENT_TYPES } from "../../src/api/dialects/spec.js";

const RUNS = { numRuns: 300 };

// ---------------------------------------------------------------------------------------------
// Link headers

const RELS = ["next", "prev", "first", "last"] as const;
const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,9}$/);
/** a quoted-string value: any printable text, with " and \ escaped */
const quoted = fc.string({ maxLength: 20, unit: "grapheme" }).filter((s) => !/[\r\n]/.test(s));
const escape = (s: string) => s.replace(/[\\"]/g, (c) => `\\${c}`);

const linkArb = fc.record({
  cursor: fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }),
  rels: fc.uniqueArray(fc.constantFrom(...RELS), { minLength: 1, maxLength: 2 }),
  extra: fc.dictionary(
    token.filter((t) => t !== "rel"),
    quoted,
    { maxKeys: 3 },
  ),
});

describe("Link headers (property)", () => {
  it("serialised with any cursor, several rels and quoted parameters, parse back to the same links", () => {
    fc.assert(
      fc.property(fc.array(linkArb, { minLength: 1, maxLength: 5 }), fc.boolean(), (links, spaces) => {
        const sep = spaces ? " ,  " : ",";
        const urls = links.map(
          (l) => `https://api.example.com/v1/repos/acme/web/logs?${new URLSearchParams({ cursor: l.cursor, per_page: "10" })}`,
        );
        const header = links
          .map((l, i) => {
            const params = Object.entries(l.extra)
              .map(([k, v]) => `; ${k}="${escape(v)}"`)
              .join("");
            return `<${urls[i]}>; rel="${l.rels.join(" ")}"${params}`;
          })
          .join(sep);
        const parsed = parseLinkHeader(header);
        expect(parsed.map((p) => p.url)).toEqual(urls);
        expect(parsed.map((p) => p.rel)).toEqual(links.map((l) => l.rels));
        parsed.forEach((p, i) => {
          for (const [k, v] of Object.entries(links[i]!.extra)) expect(p.params[k]).toBe(v);
        });
        const firstNext = links.findIndex((l) => l.rels.includes("next"));
        const next = findLink(parsed, "next");
        expect(next).toBe(firstNext < 0 ? undefined : urls[firstNext]);
        if (next) expect(cursorOf(next)).toBe(links[firstNext]!.cursor);
      }),
      RUNS,
    );
  });

  it("never throws on arbitrary text, and every link it returns came from a <...>", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        const parsed = parseLinkHeader(header, "https://api.example.com/v1/x");
        for (const l of parsed) expect(() => new URL(l.url)).not.toThrow();
        if (!header.includes("<")) expect(parsed).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// durations and date-times

const NOW = new Date("2026-11-20T12:00:00Z");
const UNITS = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 } as const;
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");

describe("durations and date-times (property)", () => {
  it("a duration N<unit> is N units back from now", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom(...(Object.keys(UNITS) as Array<keyof typeof UNITS>)),
        (n, unit) => {
          expect(parseDurationSeconds(`${n}${unit}`)).toBe(n * UNITS[unit]);
          const at = NOW.getTime() - n * UNITS[unit] * 1000;
          // before the Unix epoch a duration is a typo, refused as a usage error
          if (at >= 0) expect(parseTimeFlag("--since", `${n}${unit}`, NOW).getTime()).toBe(at);
          else expect(() => parseTimeFlag("--since", `${n}${unit}`, NOW)).toThrow(/reaches back before 1970/);
        },
      ),
      RUNS,
    );
  });

  it("any instant written in UTC or with any offset parses to that instant, and formatInstant round-trips", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("9998-12-31T00:00:00Z"), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }).map((m) => m - (m % 15)),
        (date, offsetMin) => {
          const utc = date.toISOString();
          expect(isIsoDateTimeWithZone(utc)).toBe(true);
          expect(parseTimeFlag("--since", utc, NOW).getTime()).toBe(date.getTime());
          // the same instant as local time at the offset
          const local = new Date(date.getTime() + offsetMin * 60_000);
          const sign = offsetMin < 0 ? "-" : "+";
          const text = `${local.toISOString().slice(0, 23)}${sign}${pad(Math.trunc(offsetMin / 60))}:${pad(offsetMin % 60)}`;
          expect(isIsoDateTimeWithZone(text)).toBe(true);
          expect(parseTimeFlag("--until", text, NOW).getTime()).toBe(date.getTime());
          const seconds = new Date(Math.floor(date.getTime() / 1000) * 1000);
          expect(parseTimeFlag("--since", formatInstant(seconds), NOW).getTime()).toBe(seconds.getTime());
        },
      ),
      RUNS,
    );
  });

  it("a date-time without a timezone is refused, naming the flag", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("9998-12-31T00:00:00Z"), noInvalidDate: true }),
        (date) => {
          const naive = date.toISOString().slice(0, 19);
          expect(isIsoDateTimeWithZone(naive)).toBe(false);
          expect(() => parseTimeFlag("--since", naive, NOW)).toThrow(UsageError);
          expect(() => parseTimeFlag("--since", naive, NOW)).toThrow(/^--since ".*" has no timezone/);
        },
      ),
      RUNS,
    );
  });

  it("an impossible calendar date or clock time is refused, never rolled over", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1971, max: 9998 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        (year, month, over) => {
          const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
          const bad = [
            `${year}-${pad(month)}-${pad(days + over)}T00:00:00Z`,
            `${year}-${pad(month)}-01T${pad(23 + over)}:00:00Z`,
            `${year}-${pad(month)}-01T00:${pad(59 + over)}:00Z`,
            `${year}-${pad(12 + over)}-01T00:00:00Z`,
          ];
          for (const b of bad) {
            expect(isIsoDateTimeWithZone(b)).toBe(false);
            expect(() => parseTimeFlag("--since", b, NOW)).toThrow(UsageError);
          }
        },
      ),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// query strings through the server's parser (test/api/query.test.ts covers ASCII names)

describe("query strings with any Unicode (property)", () => {
  const name = fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }).filter((s) => [...s].length <= 255);

  it("stats filters with &, =, %, +, #, spaces and emoji decode to what was encoded", () => {
    const tricky = fc.oneof(name, fc.constantFrom("a&b=c", "100%", "a+b", "#main", " spaced ", "é/ü", "😀", "%2F", "?x=1"));
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 5 }), fc.array(tricky, { minLength: 1, maxLength: 5 }), (base, queue) => {
        const qs = encodeQuery({ base_ref: base, queue_name: queue, start_at: "2026-11-19T00:00:00Z" });
        const r = decodeQuery(new URLSearchParams(qs), StatsFilterSchema);
        expect(r).toEqual({ ok: true, value: { base_ref: base, queue_name: queue, start_at: "2026-11-19T00:00:00Z" } });
      }),
      RUNS,
    );
  });

  it("a logs query with any base ref and cursor round-trips", () => {
    fc.assert(
      fc.property(
        name,
        fc.string({ maxLength: 64, unit: "grapheme" }),
        fc.subarray([...EVENT_TYPES], { minLength: 1, maxLength: 4 }),
        (baseRef, cursor, types) => {
          const r = decodeQuery(new URLSearchParams(encodeQuery({ base_ref: baseRef, cursor, event_type: types })), LogsQuerySchema);
          expect(r).toEqual({ ok: true, value: { base_ref: baseRef, cursor, event_type: types } });
        },
      ),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// the event envelope

const isoArb = fc
  .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString());
const UNTYPED = ["action.requeue", "command.requeue", "ci_issue.created", "some.future_type"];

const eventArb = fc.record({
  id: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  received_at: isoArb,
  trigger: fc.string({ maxLength: 20 }),
  repository: fc.string({ maxLength: 20 }),
  pull_request: fc.option(fc.integer({ min: 1, max: 2147483646 }), { nil: null }),
  base_ref: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
  type: fc.constantFrom(...UNTYPED),
  metadata: fc.dictionary(token, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
});

const REQUIRED = ["id", "received_at", "trigger", "repository", "pull_request", "base_ref", "type", "metadata"] as const;
/** a value of the wrong type for each field */
const WRONG: Record<(typeof REQUIRED)[number], unknown[]> = {
  id: ["1", 1.5, null, true],
  received_at: [12, "2026-11-20", "yesterday", null],
  trigger: [1, null, {}],
  repository: [1, null, []],
  pull_request: ["1", 1.5, {}],
  base_ref: [1, {}, []],
  type: [1, null, []],
  metadata: [null, [], "x", 1],
};

describe("the event envelope (property)", () => {
  it("generated valid events always parse, the body itself returned", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 20 }), (events) => {
        const body = { size: events.length, per_page: 100, events };
        expect(parseEventsPage(body, { strict: true })).toBe(body);
      }),
      RUNS,
    );
  });

  it("a required field removed or of the wrong type fails, naming the field and the event id", () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.constantFrom(...REQUIRED),
        fc.nat(),
        fc.boolean(),
        (events, at, field, pick, remove) => {
          const i = at % events.length;
          const broken: Record<string, unknown> = { ...events[i] };
          if (remove) delete broken[field];
          else broken[field] = WRONG[field][pick % WRONG[field].length];
          const page = { size: events.length, per_page: 100, events: events.map((e, j) => (j === i ? broken : e)) };
          let error: unknown;
          try {
            parseEventsPage(page);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(ContractError);
          const message = (error as Error).message;
          expect(message).toContain(`events[${i}] (id ${field === "id" ? (remove ? "unknown" : String(broken.id)) : events[i]!.id})`);
          expect(message).toContain(`${field}:`);
        },
      ),
      RUNS,
    );
  });
});
