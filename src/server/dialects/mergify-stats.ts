// The two statistics endpoints only the real service has, computed from the same events as the
// others (docs/server.md): idle time in the queue with percentiles, and batches saved by skipping
// intermediate results.
import { bucketsFor, each, Grouper, interval, keyOf, matches, meta, queueTime, round, sessionKey, type StatsContext } from "../stats.js";

/** nearest-rank percentile of values sorted ascending */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

const PARTS = ["idle_capacity", "idle_schedule", "idle_freeze", "ci_runtime"] as const;
type Part = (typeof PARTS)[number];
type Samples = Record<Part, number[]>;
const samples = (): Samples => ({ idle_capacity: [], idle_schedule: [], idle_freeze: [], ci_runtime: [] });

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const avg = (xs: readonly number[]) => (xs.length === 0 ? 0 : sum(xs) / xs.length);

/**
 * idle_queue_time: for each queue session that ended (its first action.queue.leave), the time it
 * waited for capacity (before its first checks started, less schedule and freeze), for the
 * schedule, for a freeze, and the rest of its time in the queue (CI running). Per interval: mean,
 * p95, max and sum of each, and the count; per group a summary over the whole window.
 */
export function idleQueueTime(c: StatsContext): unknown {
  const g = new Grouper<Samples>(bucketsFor(c.from, c.to), samples);
  const whole = new Map<string, Samples>();
  const seen = new Set<string>();
  each(c, "action.queue.leave", (e, t) => {
    const k = keyOf(e);
    if (!matches(k, c.filter)) return;
    const total = queueTime(e, t);
    if (total === undefined) return;
    const sid = sessionKey(e);
    if (sid !== undefined) {
      if (seen.has(sid)) return;
      seen.add(sid);
    }
    const m = meta(e);
    const sched = typeof m.seconds_waiting_for_schedule === "number" ? m.seconds_waiting_for_schedule : 0;
    const freeze = typeof m.seconds_waiting_for_freeze === "number" ? m.seconds_waiting_for_freeze : 0;
    const firstStart = sid === undefined ? undefined : c.store.firstChecksStart(sid);
    const queuedAt = Date.parse(m.queued_at as string);
    const waited = firstStart !== undefined && firstStart >= queuedAt ? (firstStart - queuedAt) / 1000 : total;
    const capacity = Math.max(0, waited - sched - freeze);
    const values: Record<Part, number> = {
      idle_capacity: capacity,
      idle_schedule: sched,
      idle_freeze: freeze,
      ci_runtime: Math.max(0, total - capacity - sched - freeze),
    };
    const a = g.acc(k as unknown as Record<string, unknown>, t);
    const keyStr = JSON.stringify(k);
    let w = whole.get(keyStr);
    if (!w) whole.set(keyStr, (w = samples()));
    for (const p of PARTS) {
      a[p].push(values[p]);
      w[p].push(values[p]);
    }
  });
  const groups = g.result((a, b) => {
    const rec: Record<string, unknown> = { ...interval(b) };
    const sorted = Object.fromEntries(PARTS.map((p) => [p, [...a![p]].sort((x, y) => x - y)])) as Samples;
    for (const p of PARTS) rec[p] = round(avg(sorted[p]));
    for (const p of PARTS) rec[`p95_${p}`] = round(percentile(sorted[p], 0.95));
    for (const p of PARTS) rec[`max_${p}`] = round(sorted[p][sorted[p].length - 1] ?? 0);
    for (const p of PARTS) rec[`sum_${p}`] = round(sum(sorted[p]));
    rec.count_idle = sorted.idle_capacity.length;
    return [rec];
  }, false);
  return {
    groups: groups.map((grp) => {
      const { stats, ...key } = grp;
      const w = whole.get(JSON.stringify(key)) ?? samples();
      const summary: Record<string, number> = {};
      for (const p of PARTS) {
        const sorted = [...w[p]].sort((x, y) => x - y);
        summary[`avg_${p}`] = round(avg(sorted));
        summary[`p95_${p}`] = round(percentile(sorted, 0.95));
        summary[`max_${p}`] = round(sorted[sorted.length - 1] ?? 0);
      }
      return { ...key, stats, summary };
    }),
  };
}

/**
 * skip_intermediate_results: batches whose checks were cut short because a batch behind them
 * passed (checks_end aborted with INTERMEDIATE_RESULTS_SKIPPED), each batch counted once, per
 * interval, zeros included.
 */
export function skipIntermediateResults(c: StatsContext): unknown {
  const g = new Grouper<{ n: number }>(bucketsFor(c.from, c.to), () => ({ n: 0 }));
  const seen = new Set<string>();
  each(c, "action.queue.checks_end", (e, t) => {
    const k = keyOf(e);
    if (!matches(k, c.filter)) return;
    const a = g.acc(k as unknown as Record<string, unknown>, t);
    const m = meta(e);
    if (m.abort_code !== "INTERMEDIATE_RESULTS_SKIPPED") return;
    const batch = typeof m.batch_id === "string" ? m.batch_id : typeof m.train_car_id === "string" ? m.train_car_id : undefined;
    if (batch !== undefined) {
      if (seen.has(batch)) return;
      seen.add(batch);
    }
    a.n++;
  });
  return { groups: g.result((a, b) => [{ ...interval(b), batches_saved: a?.n ?? 0 }], true) };
}
