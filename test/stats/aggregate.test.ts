import { describe, expect, it } from "vitest";
import { aggregate, totalUnavailable, windowValue } from "../../src/stats/aggregate.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";

const h = (i: number) => `2026-11-20T${String(i).padStart(2, "0")}:00:00Z`;

describe("windowValue", () => {
  it("sums counts, takes max of max and min of min", () => {
    const rs = [
      { start: h(0), end: h(1), entered: 3, max_size: 4, min_size: 1 },
      { start: h(1), end: h(2), entered: 5, max_size: 9, min_size: 0 },
    ];
    expect(windowValue("entered", rs)).toBe(8);
    expect(windowValue("max_size", rs)).toBe(9);
    expect(windowValue("min_size", rs)).toBe(0);
  });

  it("computes recovery_rate from recovered and not_recovered", () => {
    const rs = [
      { recovered: 1, not_recovered: 3, recovery_rate: 0.25 },
      { recovered: 6, not_recovered: 0, recovery_rate: 1 },
    ];
    expect(windowValue("recovery_rate", rs)).toBe(0.7);
  });

  it("uses sum_X / count_X when the API sends them", () => {
    const rs = [
      { start: h(0), end: h(1), runtime: 100, sum_runtime: 100, count_runtime: 1 },
      { start: h(1), end: h(2), runtime: 400, sum_runtime: 1200, count_runtime: 3 },
    ];
    expect(windowValue("runtime", rs)).toBe(325);
    const q = [
      { start: h(0), end: h(1), avg_queue_time: 10, sum_queue_time: 10, count_queue_time: 1 },
      { start: h(1), end: h(2), avg_queue_time: 40, sum_queue_time: 120, count_queue_time: 3 },
    ];
    expect(windowValue("avg_queue_time", q)).toBe(32.5);
  });

  it("weights event averages by their event counts", () => {
    const rs = [
      { avg_depth: 1, bisection_count: 1 },
      { avg_depth: 3, bisection_count: 3 },
    ];
    expect(windowValue("avg_depth", rs)).toBe(2.5);
    expect(
      windowValue("avg_retry_depth", [
        { avg_retry_depth: 2, sessions_with_retries: 1 },
        { avg_retry_depth: 1, sessions_with_retries: 0 },
      ]),
    ).toBe(2);
  });

  it("weights other averages by interval length", () => {
    const rs = [
      { start: h(0), end: h(1), avg_size: 2 },
      { start: h(1), end: h(4), avg_size: 6 },
    ];
    expect(windowValue("avg_size", rs)).toBe(5);
  });

  it("has no rate when nothing was counted, and skips nulls", () => {
    expect(windowValue("failure_rate", [{ total: 0, failures: 0, failure_rate: 0 }])).toBeUndefined();
    expect(windowValue("mean", [{ mean: null }, { mean: 30 }])).toBe(30);
    expect(windowValue("entered", [])).toBeUndefined();
  });
});

describe("aggregate", () => {
  const rs = [{ x: 3 }, { x: 1 }, { x: 2 }];
  it("avg, max, min, sum, last", () => {
    expect(["avg", "max", "min", "sum", "last"].map((a) => aggregate(a as never, "x", rs))).toEqual([2, 3, 1, 6, 2]);
    expect(aggregate("max", "y", rs)).toBeUndefined();
  });
});

describe("totalUnavailable: which figures total exactly over several repositories", () => {
  // records as the contract sends them: every figure present, no sum_X / count_X
  const contract = (fields: readonly string[]) => [
    Object.fromEntries([["start", "2026-11-20T10:00:00Z"], ["end", "2026-11-20T11:00:00Z"], ...fields.map((f) => [f, 1])]),
  ];
  it("counts, extremes, rates with their counts, weighted means and time averages are exact; averages without counts and percentiles are not", () => {
    const verdicts: Record<string, boolean> = {};
    // each endpoint's records carry its own fields: idle-queue-time's its sums and count_idle
    for (const e of STATS_ENDPOINTS)
      for (const f of e.fields) verdicts[`${e.name} ${f}`] = totalUnavailable(f, contract(e.fields)) === undefined;
    expect(
      Object.entries(verdicts)
        .filter(([, exact]) => !exact)
        .map(([f]) => f)
        .sort(),
    ).toEqual([
      "average-ci-runtime runtime",
      "average-queue-time idle_capacity",
      "average-queue-time idle_freeze",
      "average-queue-time idle_schedule",
      "average-queue-time queue_time",
      "batch-size avg_batch_size",
      "idle-queue-time p95_ci_runtime",
      "idle-queue-time p95_idle_capacity",
      "idle-queue-time p95_idle_freeze",
      "idle-queue-time p95_idle_schedule",
      "time-to-merge mean",
      "time-to-merge median",
      "total-queue-time avg_queue_time",
    ]);
  });

  it("an average becomes exact when every record carries its sum and count (the real service)", () => {
    const r = (sum: number, count: number) => ({ runtime: sum / count, sum_runtime: sum, count_runtime: count });
    expect(totalUnavailable("runtime", [r(300, 3), r(400, 1)])).toBeUndefined();
    expect(windowValue("runtime", [r(300, 3), r(400, 1)])).toBe(175);
    expect(totalUnavailable("runtime", [r(300, 3), { runtime: 400 }])).toMatch(/without the count behind it/);
    const idle = (sum: number, count: number) => ({ idle_capacity: sum / count, sum_idle_capacity: sum, count_idle: count });
    expect(totalUnavailable("idle_capacity", [idle(60, 2), idle(30, 1)])).toBeUndefined();
    expect(windowValue("idle_capacity", [idle(60, 2), idle(30, 1)])).toBe(30);
  });
});
