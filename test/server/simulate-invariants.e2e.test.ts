// A simulated year could happen (issue 28): the invariants of simulate-invariants.ts over 365 days
// of a few seeds, in both dialects, and the statistics endpoints (folded from the simulation's
// facts over long windows) count exactly what the events say: entered, merged, checks, exits per reason.
import { describe, expect, it } from "vitest";
import { toMergifyEvent } from "../../src/server/dialects/mergify-events.js";
import { startServer } from "../../src/server/index.js";
import { simulateRepository, timeOf } from "../../src/server/simulate/index.js";
import type { StoredEvent } from "../../src/server/store.js";
import { exitReasonOf } from "../../src/server/texts.js";
import { AUTH, NOW } from "./helpers.js";
import { checkDays } from "./simulate-invariants.js";

const DAY = 86_400_000;
const TODAY = Math.floor(NOW.getTime() / DAY);

describe("a simulated year could happen", () => {
  // the real service's dialect over 120 days: its translation of every event is what costs (a
  // year of it was 38 s of CPU, more than the rest of the file), and a span adds no new kind of day
  it.each([
    [7, "acme/web", 365, false],
    [42, "acme/api", 365, false],
    [0, "acme/web", 120, true],
  ] as const)(
    "seed %i, %s, %i days (the real service's events: %s)",
    (seed, repo, days, mergify) => {
      const c = checkDays(repo, seed, TODAY - days, days + 1, mergify);
      expect(c.problems).toEqual([]);
      expect(c.counts.merges).toBeGreaterThan(days * 130);
    },
    300_000,
  );
});

/** sums every `field` of a statistics answer's groups and buckets, by `by` when given */
function sumStats(body: { groups: Array<{ stats: Array<Record<string, unknown>> }> }, field: string, by?: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of body.groups)
    for (const s of g.stats) {
      const key = by ? String(s[by]) : "";
      out.set(key, (out.get(key) ?? 0) + Number(s[field]));
    }
  return out;
}

describe("the statistics endpoints count what the events say", () => {
  it.each(["spec", "mergify"] as const)(
    "20 days of 30, seed 3, the %s dialect",
    async (dialect) => {
      const server = await startServer({ port: 0, seed: 3, days: 30, now: NOW, dialect });
      try {
        const to = NOW.getTime();
        const from = to - 20 * DAY;
        let events = simulateRepository({ repo: "acme/web", seed: 3, now: NOW, days: 30 }).filter(
          (e) => timeOf(e) >= from && timeOf(e) < to,
        ) as StoredEvent[];
        if (dialect === "mergify") events = events.map(toMergifyEvent);
        const count = (type: string) => events.filter((e) => e.type === type).length;
        const stats = async (name: string) => {
          const res = await fetch(
            `${server.url}/v1/repos/acme/web/stats/${name}?start_at=${new Date(from).toISOString()}&end_at=${new Date(to).toISOString()}`,
            {
              headers: AUTH,
            },
          );
          expect(res.status).toBe(200);
          return (await res.json()) as { groups: Array<{ stats: Array<Record<string, unknown>> }> };
        };
        expect(sumStats(await stats("queues_entered_count"), "entered").get("")).toBe(count("action.queue.enter"));
        expect(sumStats(await stats("queues_merged_count"), "merged").get("")).toBe(count("action.queue.merged"));
        expect(sumStats(await stats("failure_rate"), "total").get("")).toBe(count("action.queue.checks_end"));
        expect(sumStats(await stats("queues_checks_outcome_count"), "count").get("")).toBe(count("action.queue.checks_end"));
        // exit counts per reason: one per leave event, by its reason
        const leaves = new Map<string, number>();
        for (const e of events.filter((e) => e.type === "action.queue.leave")) {
          const m = e.metadata as { merged?: unknown; reason?: unknown };
          const reason = exitReasonOf(m.merged, m.reason);
          leaves.set(reason, (leaves.get(reason) ?? 0) + 1);
        }
        const exits = sumStats(await stats("queues_pr_exit_reasons"), "count", "exit_reason");
        expect(new Map([...exits].sort())).toEqual(new Map([...leaves].sort()));
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
