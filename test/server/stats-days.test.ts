// A simulated history's long statistics windows are merged from cached per-day partials (plus the
// partial days at the edges, read from events). They must give exactly what one pass over the
// same events gives, for every endpoint, window and filter, cold or warm.
import { describe, expect, it } from "vitest";
import { Repositories } from "../../src/server/index.js";
import { computeStats, STATS_SPECS, type StatsFilter } from "../../src/server/stats.js";
import { toMergifyEvent } from "../../src/server/dialects/mergify-events.js";
import { NOW } from "./helpers.js";

const DAY = 86_400_000;
const now = NOW.getTime();

/** one pass over the events of [from, to), as a recorded log is answered */
async function onePass(repos: Repositories, repo: string, name: string, from: number, to: number, filter: StatsFilter, sums?: boolean): Promise<unknown> {
  const store = await repos.store(repo, from, to - 1);
  return computeStats(name, { store, from, to, filter, sums });
}

const WINDOWS: Array<[string, number, number]> = [
  ["the whole 40-day history, to now", now - 40 * DAY, now],
  ["back to 2000, to now", Date.parse("2000-01-01T00:00:00Z"), now],
  ["odd edges (not midnight)", now - 23 * DAY - 13_517_000, now - 2 * DAY - 4_003_000],
  ["15 days ending at midnight", Math.floor(now / DAY) * DAY - 15 * DAY, Math.floor(now / DAY) * DAY],
  ["into the future", now - 20 * DAY, now + 30 * DAY],
];

describe("per-day partials give exactly the one-pass figures", () => {
  // budgets large enough for the one-pass oracle, which holds every event of the window
  const BIG = 4 * 1024 ** 3;
  const repos = new Repositories({ seed: 11, days: 40, now: NOW, budgetBytes: BIG });
  const reference = new Repositories({ seed: 11, days: 40, now: NOW, budgetBytes: BIG });

  it.each(WINDOWS)("every endpoint, %s", async (_name, from, to) => {
    for (const name of Object.keys(STATS_SPECS)) {
      const want = await onePass(reference, "acme/web", name, from, to, {});
      expect(await repos.stats("acme/web", name, from, to, {}), name).toEqual(want);
      // warm: from the cache, the same
      expect(await repos.stats("acme/web", name, from, to, {}), `${name} (warm)`).toEqual(want);
    }
  }, 120_000);

  it("with filters, applied to the cached partials' group keys", async () => {
    const [from, to] = [now - 30 * DAY - 3_600_000, now];
    const filters: StatsFilter[] = [
      { base_ref: ["main"] },
      { queue_name: ["default", "hotfix"] },
      { priority_rule_name: ["urgent"] },
      { partition_name: ["__default__"] },
      { base_ref: ["release/v2"], queue_name: ["lowrisk"] },
    ];
    for (const filter of filters) {
      for (const name of Object.keys(STATS_SPECS)) {
        expect(await repos.stats("acme/web", name, from, to, filter), `${name} ${JSON.stringify(filter)}`).toEqual(await onePass(reference, "acme/web", name, from, to, filter));
      }
    }
  }, 120_000);

  it("in the real service's shape too (mq serve --dialect mergify: events translated as they enter)", async () => {
    const opts = { seed: 11, days: 10, now: NOW, budgetBytes: BIG, translate: toMergifyEvent };
    const [merged, oracle] = [new Repositories(opts), new Repositories(opts)];
    const [from, to] = [now - 8 * DAY - 5_000_000, now];
    for (const name of Object.keys(STATS_SPECS)) {
      expect(await merged.stats("acme/web", name, from, to, {}, { sums: true }), name).toEqual(await onePass(oracle, "acme/web", name, from, to, {}, true));
    }
    // the service's own endpoints have figures over its shape (the batch nested in the speculative check)
    const batch = (await merged.stats("acme/web", "batch-size", from, to, {}, { sums: true })) as { groups: Array<{ stats: Array<Record<string, number>> }> };
    expect(batch.groups.length).toBeGreaterThan(0);
    expect(batch.groups[0]!.stats[0]!.count_batch_size).toBeGreaterThan(0);
    const idle = (await merged.stats("acme/web", "idle-queue-time", from, to, {})) as { groups: Array<{ summary: Record<string, number> }> };
    expect(idle.groups.length).toBeGreaterThan(0);
    expect(idle.groups[0]!.summary.p95_ci_runtime).toBeGreaterThan(0);
  }, 120_000);

  it("holds partials, not the events, of the days a long window merges", async () => {
    const fresh = new Repositories({ seed: 11, days: 40, now: NOW });
    await fresh.stats("acme/api", "failure-rate", now - 40 * DAY, now, {});
    // the events held are those of today's partial day (and the days that reach into it)
    expect(fresh.simulatedDays("acme/api")).toBeLessThanOrEqual(4);
  });
});
