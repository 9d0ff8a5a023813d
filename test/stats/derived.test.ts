// average-queue-time on the real service, computed from total-queue-time and idle-queue-time: the
// sums and counts those send behind their averages are kept, so the figure over a window and the
// total of several repositories are exact (Σsum / Σcount), not n/a.
import { describe, expect, it } from "vitest";
import { derivationOf } from "../../src/stats/derived.js";
import { findStatsEndpoint } from "../../src/stats/endpoints.js";
import { combineRepos } from "../../src/stats/many.js";

const I1 = { start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z" };
const G = { base_ref: "main", partition_names: [], queue_name: "default", priority_rule_name: null };

function bodies(queue: [number, number], idle: [number, number]) {
  const [sumQ, countQ] = queue;
  const [sumIdle, countIdle] = idle;
  return new Map<string, unknown>([
    [
      "total-queue-time",
      {
        groups: [
          {
            ...G,
            stats: [
              {
                ...I1,
                avg_queue_time: sumQ / countQ,
                max_queue_time: sumQ,
                min_queue_time: 1,
                sum_queue_time: sumQ,
                count_queue_time: countQ,
              },
            ],
          },
        ],
      },
    ],
    [
      "idle-queue-time",
      {
        groups: [
          {
            ...G,
            stats: [
              {
                ...I1,
                idle_capacity: sumIdle / countIdle,
                idle_schedule: 0,
                idle_freeze: 0,
                ci_runtime: 0,
                sum_idle_capacity: sumIdle,
                sum_idle_schedule: 0,
                sum_idle_freeze: 0,
                sum_ci_runtime: 0,
                count_idle: countIdle,
              },
            ],
          },
        ],
      },
    ],
  ]);
}

describe("average-queue-time derived for the mergify dialect", () => {
  it("--repo a,b: the total of queue_time and of the idle parts is Σsum / Σcount", () => {
    const d = derivationOf("average-queue-time", "mergify")!;
    const endpoint = findStatsEndpoint("average-queue-time")!;
    const m = combineRepos(endpoint, [
      { repository: "acme/web", body: d.combine(bodies([300, 3], [60, 3])) },
      { repository: "acme/api", body: d.combine(bodies([900, 1], [200, 1])) },
    ]);
    expect(m.rows.map((r) => r.values.queue_time)).toEqual([100, 900]);
    // (300 + 900) / (3 + 1) and (60 + 200) / (3 + 1), not the means of the averages (500, 110)
    expect(m.total[0]!.values.queue_time).toBe(300);
    expect(m.total[0]!.values.idle_capacity).toBe(65);
    expect(m.total[0]!.unavailable).toEqual({});
  });
});
