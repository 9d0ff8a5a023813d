// The one-pass oracle of stats-days.test.ts, and its sweeps (windows and filters), of which the
// fast half checks a sample and stats-days.e2e.test.ts the rest.
import { expect } from "vitest";
import { Repositories } from "../../src/server/index.js";
import { computeStats, STATS_SPECS, type StatsFilter } from "../../src/server/stats/index.js";
import { NOW } from "./helpers.js";

export const DAY = 86_400_000;
export const now = NOW.getTime();
// budgets large enough for the one-pass oracle, which holds every event of the window
export const BIG = 4 * 1024 ** 3;

/** one pass over the events of [from, to), as a recorded log is answered */
export async function onePass(
  repos: Repositories,
  repo: string,
  name: string,
  from: number,
  to: number,
  filter: StatsFilter,
  sums?: boolean,
): Promise<unknown> {
  const store = await repos.store(repo, from, to - 1);
  return computeStats(name, { store, from, to, filter, sums });
}

export const WINDOWS: Array<[string, number, number]> = [
  ["the whole 40-day history, to now", now - 40 * DAY, now],
  ["back to 2000, to now", Date.parse("2000-01-01T00:00:00Z"), now],
  ["odd edges (not midnight)", now - 23 * DAY - 13_517_000, now - 2 * DAY - 4_003_000],
  ["15 days ending at midnight", Math.floor(now / DAY) * DAY - 15 * DAY, Math.floor(now / DAY) * DAY],
  ["into the future", now - 20 * DAY, now + 30 * DAY],
];
/** the kinds of window stats-days.test.ts checks, over the last ten days (fewer days to simulate);
 * stats-days.e2e.test.ts checks every one of WINDOWS */
export const FAST_WINDOWS: Array<[string, number, number]> = [
  ["odd edges (not midnight), within ten days", now - 9 * DAY - 13_517_000, now - 2 * DAY - 4_003_000],
  ["7 days ending at midnight", Math.floor(now / DAY) * DAY - 7 * DAY, Math.floor(now / DAY) * DAY],
];

export const FILTERS: StatsFilter[] = [
  { base_ref: ["main"] },
  { queue_name: ["default", "hotfix"] },
  { priority_rule_name: ["urgent"] },
  { partition_name: ["__default__"] },
  { base_ref: ["release/v2"], queue_name: ["lowrisk"] },
];
/** the filters stats-days.test.ts checks (the others: stats-days.e2e.test.ts) */
export const FAST_FILTERS = [FILTERS[1]!, FILTERS[4]!];
/** the window of the filters e2e checks; the fast half filters over its first window (no more days to simulate) */
export const FILTER_WINDOW = [now - 30 * DAY - 3_600_000, now] as const;

/** the history the merged figures come from, and an oracle with the same history that answers in one pass */
export function historyAndOracle(): [Repositories, Repositories] {
  return [
    new Repositories({ seed: 11, days: 40, now: NOW, budgetBytes: BIG }),
    new Repositories({ seed: 11, days: 40, now: NOW, budgetBytes: BIG }),
  ];
}

/** every endpoint over [from, to): the merged figures, cold then warm, are the one-pass figures */
export async function expectWindowMerged([repos, reference]: [Repositories, Repositories], from: number, to: number): Promise<void> {
  for (const name of Object.keys(STATS_SPECS)) {
    const want = await onePass(reference, "acme/web", name, from, to, {});
    expect(await repos.stats("acme/web", name, from, to, {}), name).toEqual(want);
    // warm: from the cache, the same
    expect(await repos.stats("acme/web", name, from, to, {}), `${name} (warm)`).toEqual(want);
  }
}

/** every endpoint with `filter`, applied to the cached partials' group keys, gives the one-pass figures */
export async function expectFilterMerged(
  [repos, reference]: [Repositories, Repositories],
  filter: StatsFilter,
  [from, to]: readonly [number, number],
): Promise<void> {
  for (const name of Object.keys(STATS_SPECS)) {
    expect(await repos.stats("acme/web", name, from, to, filter), `${name} ${JSON.stringify(filter)}`).toEqual(
      await onePass(reference, "acme/web", name, from, to, filter),
    );
  }
}
