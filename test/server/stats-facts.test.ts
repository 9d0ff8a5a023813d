// Whole days' statistics are folded from the simulation's facts (simulateDayFacts, src/server/stats/facts.ts)
// instead of its events. The fold must give exactly the partials the endpoints' accumulators give
// over the events of the same days, in both dialects (the real service's events name no
// partition), for every endpoint, and the answers must be the same.
import { describe, expect, it } from "vitest";
import { Repositories } from "../../src/server/index.js";
import { FACT, simulateDay, simulateDayFacts, timeOf } from "../../src/server/simulate/index.js";
import { Accumulation, Sink, STATS_SPECS, type Partials } from "../../src/server/stats/index.js";
import type { StoredEvent } from "../../src/server/store.js";
import { CONTRACT_VIEW, FactAccumulation, type FactView } from "../../src/server/stats/index.js";
import { MERGIFY_FACT_VIEW, toMergifyEvent } from "../../src/server/dialects/mergify-events.js";
import { NOW } from "./helpers.js";

const DAY = 86_400_000;

/** calendar days [first, end) of one repository, as the server's dayPartials folds them, from events or from facts */
function partialsOf(
  repo: string,
  seed: number,
  first: number,
  end: number,
  how: { view: FactView } | { translate: (e: StoredEvent) => StoredEvent },
): Map<number, Partials> {
  let starts = new Map<string, number>();
  const firstStart = (sid: string) => starts.get(sid);
  const out = new Map<number, Accumulation | FactAccumulation>();
  for (let d = first; d < end; d++)
    out.set(d, "view" in how ? new FactAccumulation(d, how.view) : new Accumulation(new Sink(() => d, firstStart)));
  for (let s = first - 3; s < end; s++) {
    starts = new Map();
    if ("view" in how) {
      const facts = simulateDayFacts({ repo, seed, day: s });
      for (const f of facts) (out.get(Math.floor(f.t / DAY)) as FactAccumulation | undefined)?.add(f);
    } else {
      const events = simulateDay({ repo, seed, day: s }).map((e) => how.translate(e as StoredEvent));
      for (const e of events) {
        const sid = (e.metadata as { session_id?: unknown }).session_id;
        if (e.type === "action.queue.checks_start" && typeof sid === "string" && !starts.has(sid)) starts.set(sid, timeOf(e));
      }
      for (const e of events) (out.get(Math.floor(timeOf(e) / DAY)) as Accumulation | undefined)?.add(e, timeOf(e));
    }
  }
  return new Map([...out].map(([d, acc]) => [d, acc.partials]));
}

// 2025-11-13 is a Thursday: a Friday (whose office-hours queue reaches into Monday) and a weekend follow
const CASES: Array<[seed: number, repo: string, first: number, end: number]> = [
  [0, "acme/web", 20406, 20411],
  [7, "acme/api", 20300, 20304],
  [42, "bench/year0", 19000, 19003],
];

describe("statistics folded from the simulation's facts", () => {
  it.each(CASES)("seed %i, %s: every endpoint's partials of each day, the contract's shape", (seed, repo, first, end) => {
    const fast = partialsOf(repo, seed, first, end, { view: CONTRACT_VIEW });
    const events = partialsOf(repo, seed, first, end, { translate: (e) => e });
    for (let d = first; d < end; d++) {
      expect([...fast.get(d)!.keys()].sort()).toEqual(Object.keys(STATS_SPECS).sort());
      for (const name of Object.keys(STATS_SPECS)) expect(fast.get(d)!.get(name), `${name}, day ${d}`).toEqual(events.get(d)!.get(name));
    }
    // the days are not empty: queue events, retries and bisections were folded
    const day = fast.get(first)!;
    expect(day.get("failure-rate")!.get(first)!.size).toBeGreaterThan(3);
  });

  it.each(CASES)("seed %i, %s: every endpoint's partials of each day, the real service's shape", (seed, repo, first, end) => {
    const fast = partialsOf(repo, seed, first, end, { view: MERGIFY_FACT_VIEW });
    const events = partialsOf(repo, seed, first, end, { translate: toMergifyEvent });
    for (let d = first; d < end; d++) {
      for (const name of Object.keys(STATS_SPECS)) expect(fast.get(d)!.get(name), `${name}, day ${d}`).toEqual(events.get(d)!.get(name));
    }
  });

  it("retries and bisections occur in the days compared", () => {
    const facts = CASES.flatMap(([seed, repo, first, end]) =>
      Array.from({ length: end - first }, (_, k) => simulateDayFacts({ repo, seed, day: first + k })).flat(),
    );
    expect(facts.some((f) => f.kind === FACT.checksEnd && f.c >= 1)).toBe(true);
    expect(facts.some((f) => f.kind === FACT.bisectionEnd)).toBe(true);
    expect(facts.some((f) => f.kind === FACT.checksEnd && f.text === "INTERMEDIATE_RESULTS_SKIPPED")).toBe(true);
  });

  it("the server's answers are the same from facts as from events, every endpoint, both dialects", async () => {
    const now = NOW.getTime();
    const [from, to] = [now - 4 * DAY - 3_600_000, now];
    for (const translate of [undefined, toMergifyEvent]) {
      const fast = new Repositories({ seed: 5, days: 5, now: NOW, translate, factView: translate ? MERGIFY_FACT_VIEW : undefined });
      // a translation and no view: whole days folded from the (translated) events
      const events = new Repositories({ seed: 5, days: 5, now: NOW, translate: translate ?? ((e) => e) });
      for (const name of Object.keys(STATS_SPECS)) {
        expect(await fast.stats("acme/web", name, from, to, {}, { sums: true }), name).toEqual(
          await events.stats("acme/web", name, from, to, {}, { sums: true }),
        );
      }
    }
  }, 60_000);
});
