// A simulated history's long statistics windows are merged from cached per-day partials (plus the
// partial days at the edges, read from events). They must give exactly what one pass over the
// same events gives, for every endpoint, window and filter, cold or warm. Some windows and filters
// are checked here, the others in stats-days.e2e.test.ts.
import { describe, expect, it } from "vitest";
import { Repositories } from "../../src/server/index.js";
import { STATS_SPECS } from "../../src/server/stats/index.js";
import { toMergifyEvent } from "../../src/server/dialects/mergify-events.js";
import { NOW } from "./helpers.js";
import {
  BIG,
  DAY,
  expectFilterMerged,
  expectWindowMerged,
  FAST_FILTERS,
  FAST_WINDOWS,
  historyAndOracle,
  now,
  onePass,
} from "./stats-days-checks.js";

describe("per-day partials give exactly the one-pass figures", () => {
  const history = historyAndOracle();

  it.each(FAST_WINDOWS)("every endpoint, %s", (_name, from, to) => expectWindowMerged(history, from, to), 120_000);

  it("with filters, applied to the cached partials' group keys", async () => {
    const [, from, to] = FAST_WINDOWS[0]!;
    for (const filter of FAST_FILTERS) await expectFilterMerged(history, filter, [from, to]);
  }, 120_000);

  it("in the real service's shape too (mq serve --dialect mergify: events translated as they enter)", async () => {
    const opts = { seed: 11, days: 10, now: NOW, budgetBytes: BIG, translate: toMergifyEvent };
    const [merged, oracle] = [new Repositories(opts), new Repositories(opts)];
    const [from, to] = [now - 8 * DAY - 5_000_000, now];
    for (const name of Object.keys(STATS_SPECS)) {
      expect(await merged.stats("acme/web", name, from, to, {}, { sums: true }), name).toEqual(
        await onePass(oracle, "acme/web", name, from, to, {}, true),
      );
    }
    // the service's own endpoints have figures over its shape (the batch nested in the speculative check)
    const batch = (await merged.stats("acme/web", "batch-size", from, to, {}, { sums: true })) as {
      groups: Array<{ stats: Array<Record<string, number>> }>;
    };
    expect(batch.groups.length).toBeGreaterThan(0);
    expect(batch.groups[0]!.stats[0]!.count_batch_size).toBeGreaterThan(0);
    const idle = (await merged.stats("acme/web", "idle-queue-time", from, to, {})) as {
      groups: Array<{ summary: Record<string, number> }>;
    };
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
