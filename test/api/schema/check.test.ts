// The contract's generated validators (contract-checks.generated.ts, from the zod schemas through
// api/schema/check-files.ts) must say exactly what zod says of the contract: the same verdict
// (check(v) === schema.safeParse(v).success) and the same words for what is wrong (the first three
// issues, as mq prints them). These tests compare the two on the fixtures and on thousands of
// fast-check mutations of them (keys deleted, values swapped for null, numbers, strings, arrays,
// objects, other enum values, broken date-times and uuids, deeper nesting, the recursive condition
// evaluation grown). Any disagreement fails.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import type * as z from "zod";
import { CONTRACT_METADATA_CHECKS } from "../../../src/api/schema/contract-checks.generated.js";
import { surelyValidPage } from "../../../src/api/schema/envelope.js";
import { firstIssues, formatIssue } from "../../../src/api/schema/common.js";
import { issuesText, type Check } from "../../../src/api/schema/issues.js";
import { EVENT_METADATA_SCHEMAS, eventSchemas, parseEventsPage, validateEvent } from "../../../src/api/schema/events.js";
const { EventSchema } = eventSchemas();
import { mutated, show } from "../../helpers/mutations.js";

type Obj = Record<string, unknown>;

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../src/api/fixtures/${name}`, import.meta.url), "utf8"));
const events = fixture("events.json") as Array<Obj & { type: string; metadata: Obj }>;
const realEvent = fixture("real-service-event.json") as Obj & { type: string; metadata: Obj };
const allEvents = [...events, realEvent];

const typed = Object.entries(EVENT_METADATA_SCHEMAS) as Array<[string, z.ZodType]>;

/** Fails with the value when the generated validator and zod disagree, on the verdict or the words. */
export function agree(schema: z.ZodType, check: Check, value: unknown, prefix = "metadata"): void {
  const zod = schema.safeParse(value).success;
  const ours = check(value);
  if (ours !== zod) throw new Error(`generated check says ${ours}, zod says ${zod}, for ${show(value)}`);
  const words = firstIssues(schema, value)
    ?.map((i) => formatIssue(i, prefix))
    .join("; ");
  const ourWords = issuesText(check, value, prefix);
  if (ourWords !== words) throw new Error(`generated check says ${show(ourWords)}, zod says ${show(words)}, for ${show(value)}`);
}

describe("the contract's metadata shapes (contract-checks.generated.ts)", () => {
  it("has a validator for every typed event type", () => {
    expect(Object.keys(CONTRACT_METADATA_CHECKS).sort()).toEqual(typed.map(([t]) => t).sort());
    expect(Object.entries(CONTRACT_METADATA_CHECKS).filter(([, f]) => f === undefined)).toEqual([]);
  });

  it.each(typed)("%s: agrees with zod on the fixtures and on mutations of them", (type, schema) => {
    const check = CONTRACT_METADATA_CHECKS[type]!;
    for (const ev of allEvents) agree(schema, check, ev.metadata);
    const own = allEvents.filter((e) => e.type === type).map((e) => e.metadata);
    // its own fixture most of the time, another type's metadata now and then
    fc.assert(
      fc.property(mutated([...own, ...own, ...own, ...allEvents.map((e) => e.metadata)]), (m) => agree(schema, check, m)),
      { numRuns: 150 },
    );
  });

  it("validateEvent (hand-written envelope + generated metadata validators) has EventSchema's verdict on mutated events", () => {
    fc.assert(
      fc.property(mutated(allEvents), (e) => {
        const zod = EventSchema.safeParse(e).success;
        const ours = validateEvent(e);
        if (ours.ok !== zod) throw new Error(`validateEvent ${show(ours)}, zod ${zod}, for ${show(e)}`);
      }),
      { numRuns: 1500 },
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
    for (const page of [
      null,
      [],
      { size: 1, per_page: 1 },
      { size: "1", per_page: 1, events: [] },
      { size: 1, per_page: 1, events: [1] },
    ]) {
      expect(surelyValidPage(page)).toBe(false);
    }
  });
});
