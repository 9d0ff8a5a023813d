// The generated zod-free predicates of the real service (its metadata shapes and statistics
// answers) and of the contract's statistics answers (api/schema/check-files.ts) must never say
// "valid" where zod refuses: a one-page `mq logs` or `mq stats` against the real service writes
// what they vouch for without asking zod. Compared with zod on fixtures of the real service's
// shape (captured from `mq serve --dialect mergify --seed 0`, checked here against the OpenAPI by
// ajv, not by anything mq wrote) and on thousands of mutations of them. The contract's metadata
// shapes are compared in check.test.ts.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import type * as z from "zod";
import { MERGIFY_METADATA_CHECKS } from "../../../src/api/dialects/mergify-checks.generated.js";
import { MERGIFY_STATS_CHECKS } from "../../../src/api/dialects/mergify-stats-checks.generated.js";
import { MERGIFY_METADATA_SCHEMAS, mergifyResponseSchema } from "../../dialects/mergify-zod.js";
import { MERGIFY_RESPONSES } from "../../../src/api/dialects/mergify-schemas.generated.js";
import { CONTRACT_STATS_CHECKS } from "../../../src/api/schema/contract-stats-checks.generated.js";
import { surelyValidPage } from "../../../src/api/schema/envelope.js";
import { parseEventsPage } from "../../../src/api/schema/events.js";
import { METADATA_SHAPES_OF, pageCheck } from "../../../src/api/schema/page-check.js";
import { parseStatsResponse, STATS_RESPONSE_SCHEMAS } from "../../../src/api/schema/stats.js";
import { firstIssues, formatIssue } from "../../../src/api/schema/common.js";
import { issuesText, type Check } from "../../../src/api/schema/issues.js";
import { schemaErrors } from "../../helpers/openapi.js";
import { mutated, show } from "../../helpers/mutations.js";

type Obj = Record<string, unknown>;
type Ev = Obj & { type: string; metadata: Obj };

const read = (url: string): unknown => JSON.parse(readFileSync(new URL(url, import.meta.url), "utf8"));
const mergifyEvents = read("../../fixtures/mergify-events.json") as Ev[];
const realEvent = read("../../../src/api/fixtures/real-service-event.json") as Ev;
const allEvents = [...mergifyEvents, realEvent];
const mergifyStats = read("../../fixtures/mergify-stats.json") as Record<string, unknown>;
const contractStats = read("../../../src/api/fixtures/stats.json") as Record<string, unknown>;

/** Fails when the generated validator and zod disagree: on the verdict, or on the words of what is wrong. */
function agree(schema: z.ZodType, check: Check, value: unknown): void {
  const zod = schema.safeParse(value).success;
  const ours = check(value);
  if (ours !== zod) throw new Error(`generated check says ${ours}, zod says ${zod}, for ${show(value)}`);
  const words = firstIssues(schema, value)
    ?.map((i) => formatIssue(i))
    .join("; ");
  const ourWords = issuesText(check, value);
  if (ourWords !== words) throw new Error(`generated check says ${show(ourWords)}, zod says ${show(words)}, for ${show(value)}`);
}

describe("the fixtures are the real service's shape", () => {
  it("every event type of the OpenAPI is there, and each page of them validates against the OpenAPI", () => {
    expect(new Set(mergifyEvents.map((e) => e.type))).toEqual(new Set(MERGIFY_METADATA_SCHEMAS.keys()));
    for (let i = 0; i < mergifyEvents.length; i += 10) {
      const events = mergifyEvents.slice(i, i + 10);
      expect(schemaErrors("logs", { size: events.length, per_page: 10, events })).toEqual([]);
    }
  });

  it("every statistics path of the OpenAPI has an answer that validates against it", () => {
    const paths = Object.keys(MERGIFY_RESPONSES).filter((p) => p.startsWith("stats/"));
    expect(Object.keys(mergifyStats).sort()).toEqual(paths.sort());
    for (const [path, body] of Object.entries(mergifyStats)) expect(schemaErrors(path, body), path).toEqual([]);
  });
});

describe("the real service's metadata shapes without zod (mergify-checks.generated.ts)", () => {
  const types = [...MERGIFY_METADATA_SCHEMAS];

  it("has a predicate for every event type of the OpenAPI, and nothing left to zod", () => {
    expect(Object.keys(MERGIFY_METADATA_CHECKS).sort()).toEqual(types.map(([t]) => t).sort());
    expect(Object.entries(MERGIFY_METADATA_CHECKS).filter(([, f]) => f === undefined)).toEqual([]);
  });

  it.each(types)("%s: agrees with zod on the fixtures and on mutations of them", (type, schema) => {
    const check = MERGIFY_METADATA_CHECKS[type]!;
    for (const ev of allEvents) agree(schema, check, ev.metadata);
    const own = allEvents.filter((e) => e.type === type).map((e) => e.metadata);
    fc.assert(
      fc.property(mutated([...own, ...own, ...own, ...allEvents.map((e) => e.metadata)]), (m) => agree(schema, check, m)),
      { numRuns: 60 },
    );
  });

  it("agrees with zod on int64 arrays at and beyond 2^53 (the real service's pull-request numbers)", () => {
    const bisection = mergifyEvents.find((e) => e.type === "action.queue.batch_bisection_start")!;
    const [, schema] = types.find(([t]) => t === bisection.type)!;
    const check = MERGIFY_METADATA_CHECKS[bisection.type]!;
    for (const n of [2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 2 ** 64, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      agree(schema, check, { ...bisection.metadata, original_batch_pr_numbers: [1, n] });
    }
  });

  it("surelyValidPage with them says a page is valid exactly when parseEventsPage --strict accepts it with the service's shapes", () => {
    const page = (events: unknown[]) => ({ size: events.length, per_page: 100, events });
    expect(surelyValidPage(page(allEvents), MERGIFY_METADATA_CHECKS)).toBe(true);
    // the contract's shapes are not the service's: its default checks are not these
    expect(surelyValidPage(page(allEvents))).toBe(false);
    const verdict = (p: unknown) => {
      try {
        parseEventsPage(p, { strict: true, metadata: MERGIFY_METADATA_CHECKS });
        return true;
      } catch {
        return false;
      }
    };
    let valid = 0;
    fc.assert(
      fc.property(mutated(allEvents), fc.nat(mergifyEvents.length - 1), (e, at) => {
        const p = page([mergifyEvents[at], e, mergifyEvents[(at + 7) % mergifyEvents.length]]);
        const ours = surelyValidPage(p, MERGIFY_METADATA_CHECKS);
        if (ours !== verdict(p)) throw new Error(`surelyValidPage ${ours} for ${show(e)}`);
        if (ours) valid++;
      }),
      { numRuns: 1500 },
    );
    // the mutations reach both verdicts (a loose object keeps an added key: valid)
    expect(valid).toBeGreaterThan(100);
    expect(valid).toBeLessThan(1400);
  });
});

describe("pageCheck (api/schema/page-check.ts)", () => {
  /** "ok" with the events, or the error's message */
  const outcome = async (f: () => unknown): Promise<string> => {
    try {
      return `ok ${show(await f())}`;
    } catch (err) {
      return `error ${(err as Error).message}`;
    }
  };

  it.each([
    ["mergify", "pages", { strict: true }],
    ["mergify", "envelopes", { strict: false, checkMetadataOf: (): boolean => false }],
    ["spec", "envelopes", { strict: false, checkMetadataOf: (): boolean => false }],
  ] as const)(
    "%s, %s: the outcome of parseEventsPage with the dialect's shapes on mutated pages, mismatches reported alike",
    async (dialect, what, opts) => {
      const check = await pageCheck(dialect, what);
      const metadata = dialect === "mergify" ? MERGIFY_METADATA_CHECKS : undefined;
      await fc.assert(
        fc.asyncProperty(mutated(allEvents), fc.nat(mergifyEvents.length - 1), async (e, at) => {
          const p = { size: 2, per_page: 100, events: [mergifyEvents[at], e] };
          const ours: string[] = [];
          const theirs: string[] = [];
          const got = await outcome(() =>
            check(structuredClone(p), { ...opts, onMetadataMismatch: (t, id, m) => ours.push(`${t} ${id} ${m}`) }),
          );
          const want = await outcome(
            () =>
              parseEventsPage(structuredClone(p), {
                ...opts,
                metadata,
                against: METADATA_SHAPES_OF[dialect],
                onMetadataMismatch: (t, id, m) => theirs.push(`${t} ${id} ${m}`),
              }).events,
          );
          if (got !== want || show(ours) !== show(theirs))
            throw new Error(`pageCheck ${got} ${show(ours)}, parseEventsPage ${want} ${show(theirs)}`);
        }),
        { numRuns: 300 },
      );
    },
  );
});

describe("statistics answers without zod", () => {
  const mergify = Object.entries(MERGIFY_STATS_CHECKS).map(([path, check]) => [path, check, mergifyResponseSchema(path)!] as const);

  it("the real service's: a predicate for every statistics path with an answer schema, and nothing left to zod", () => {
    expect(Object.keys(MERGIFY_STATS_CHECKS).sort()).toEqual(
      Object.keys(MERGIFY_RESPONSES)
        .filter((p) => p.startsWith("stats/"))
        .sort(),
    );
    expect(mergify.filter(([, check]) => check === undefined)).toEqual([]);
  });

  it.each(mergify)("%s: agrees with zod on the fixture and on mutations of it", (path, check, schema) => {
    const own = mergifyStats[path];
    agree(schema, check!, own);
    fc.assert(
      fc.property(mutated([own, own, own, ...Object.values(mergifyStats)]), (v) => agree(schema, check!, v)),
      { numRuns: 100 },
    );
  });

  it("the contract's: a predicate for every endpoint, and nothing left to zod", () => {
    expect(Object.keys(CONTRACT_STATS_CHECKS).sort()).toEqual(Object.keys(STATS_RESPONSE_SCHEMAS).sort());
    expect(Object.entries(CONTRACT_STATS_CHECKS).filter(([, f]) => f === undefined)).toEqual([]);
  });

  const contract = Object.entries(STATS_RESPONSE_SCHEMAS).filter(([name]) => contractStats[name] !== undefined);

  it.each(contract)(
    "%s: agrees with zod on the fixture and on mutations of it; true only when parseStatsResponse --strict says nothing",
    (name, schema) => {
      const check = CONTRACT_STATS_CHECKS[name]!;
      const own = contractStats[name];
      expect(check(own)).toBe(true);
      const quiet = (v: unknown) => {
        let said = false;
        try {
          parseStatsResponse(name, v, { strict: true, onMismatch: () => (said = true) });
        } catch {
          return false;
        }
        return !said;
      };
      fc.assert(
        fc.property(mutated([own, own, own, ...Object.values(contractStats), ...Object.values(mergifyStats)]), (v) => {
          agree(schema as z.ZodType, check, v);
          if (check(v) && !quiet(v)) throw new Error(`generated check says valid, parseStatsResponse objects to ${show(v)}`);
        }),
        { numRuns: 100 },
      );
    },
  );
});
