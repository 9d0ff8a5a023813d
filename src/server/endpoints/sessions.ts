// Queue sessions that left the queue (action.queue.leave): how long they stayed, how much of it
// was idle, and why they left; and the deprecated time_to_merge.
import { FACT, type QueueFact } from "../simulate/index.js";
import type { EventStore, StoredEvent } from "../store.js";
import {
  addIdle,
  addQueueTime,
  addToSpread,
  bump,
  COUNTS,
  IDLE_PARTS,
  IDLE_VALUES,
  QUEUE_TIMES,
  sortedCounts,
  type Counts,
  type IdleValues,
  type QueueTimes,
} from "../stats/accumulators.js";
import { interval } from "../stats/buckets.js";
import { grouped, type EndpointDoc, type Sink, type Spec } from "../stats/engine.js";
import { meta, parseIso, queueMillis, queueTime, round, sessionKey } from "../stats/fields.js";
import { byKey, keyOf, keyString } from "../stats/keys.js";
import { exitReasonOf } from "../texts.js";
import { distribution } from "./distribution.js";

const LEAVE = "action.queue.leave";
const DAY = 86_400_000;

/** a leave event's time waited before its session's first checks started (all of it when they never did) */
function waitedMs(e: StoredEvent, totalMs: number, sink: Sink): number {
  const sid = sessionKey(e);
  const firstStart = sid === undefined ? undefined : sink.firstChecksStart(sid);
  const queuedAt = parseIso(meta(e).queued_at as string);
  return firstStart !== undefined && firstStart >= queuedAt ? firstStart - queuedAt : totalMs;
}

/**
 * a leave fact's times: in the queue (ms, negative when its queued_at is after it) and before its
 * first checks (d: the first checks_start, NaN when none, which compares false)
 */
function factTimes(f: QueueFact): { totalMs: number; waitedMs: number } {
  const queuedAt = f.a;
  const totalMs = f.t - queuedAt;
  return { totalMs, waitedMs: f.d >= queuedAt ? f.d - queuedAt : totalMs };
}

/** seconds waiting for the schedule and for a freeze of a leave event (0 when absent) */
function scheduleS(e: StoredEvent): number {
  const v = meta(e).seconds_waiting_for_schedule;
  return typeof v === "number" ? v : 0;
}
function freezeS(e: StoredEvent): number {
  const v = meta(e).seconds_waiting_for_freeze;
  return typeof v === "number" ? v : 0;
}

/** average_queue_time: time in queue and its idle parts (capacity, schedule, freeze), averaged per interval */
export const AVERAGE_QUEUE_TIME: Spec<QueueTimes> = {
  types: [LEAVE],
  ...QUEUE_TIMES,
  add: (acc, e, t, sink) => {
    const total = queueMillis(e, t);
    if (total === undefined) return;
    addQueueTime(acc(keyOf(e), t), total, waitedMs(e, total, sink), scheduleS(e), freezeS(e));
  },
  doc: {
    from: "`action.queue.leave`",
    figure:
      "`queue_time` = mean of leave − `queued_at` (seconds); `idle_schedule` / `idle_freeze` = mean `seconds_waiting_for_schedule` / `_freeze`; `idle_capacity` = mean of (first `checks_start` of the session − `queued_at`) − schedule − freeze, at least 0 (leave − `queued_at` when checks never started)",
  },
  facts: {
    kinds: [FACT.leave],
    add: (cell, f, c) => {
      const { totalMs, waitedMs } = factTimes(f);
      // b, c: seconds waiting for the schedule, for a freeze
      if (totalMs >= 0) addQueueTime(cell(c.key), totalMs, waitedMs, f.b, f.c);
    },
  },
  render: (slots, buckets, f) => ({
    groups: grouped(
      slots,
      buckets,
      byKey(f),
      (a, b) => [
        {
          ...interval(b),
          queue_time: round(a!.queueMs / 1000 / a!.sessions),
          idle_capacity: round(a!.idleCapacityMs / 1000 / a!.sessions),
          idle_schedule: round(a!.scheduleS / a!.sessions),
          idle_freeze: round(a!.freezeS / a!.sessions),
        },
      ],
      false,
    ),
  }),
};

/** total_queue_time: avg / max / min of the time in queue of the sessions that left */
export const TOTAL_QUEUE_TIME = distribution(
  LEAVE,
  queueMillis,
  ["avg_queue_time", "max_queue_time", "min_queue_time"],
  {
    kinds: [FACT.leave],
    add: (cell, f, c) => {
      const { totalMs } = factTimes(f);
      if (totalMs >= 0) addToSpread(cell(c.key), totalMs);
    },
  },
  { from: "`action.queue.leave`", figure: "avg / max / min of leave − `queued_at` (seconds)" },
  { unit: 1000 },
);

/** queues_pr_exit_reasons: why sessions left (merged, or the reason's code), counted once per session */
export const QUEUES_PR_EXIT_REASONS: Spec<Counts> = {
  types: [LEAVE],
  ...COUNTS,
  add: (acc, e, t, sink) => {
    const sid = sessionKey(e);
    if (sid !== undefined) {
      if (!sink.first("session", sid)) return;
    }
    const m = meta(e);
    bump(acc(keyOf(e), t), exitReasonOf(m.merged, m.reason));
  },
  doc: {
    from: "`action.queue.leave`",
    figure:
      "once per `session_id`: `SUCCESS` when `merged`, else the abort code whose sentence is `reason` (`src/server/texts.ts`), a reason that already is a code, or the raw reason (a replayed real log keeps its words)",
  },
  // a session leaves once: its first leave (Sink.first over the events) is its only fact; flag: merged, text: reason
  facts: { kinds: [FACT.leave], add: (cell, f, c) => bump(cell(c.key), exitReasonOf(f.flag, f.text)) },
  render: (slots, buckets, f) => ({
    groups: grouped(
      slots,
      buckets,
      byKey(f),
      (a, b) => sortedCounts(a!).map(([exit_reason, count]) => ({ ...interval(b), exit_reason, count })),
      false,
    ),
  }),
};

/** nearest-rank percentile of values sorted ascending */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/** the values of part `i` (an index into IDLE_PARTS), sorted ascending, in seconds */
function partValues(v: IdleValues, i: number): number[] {
  const out: number[] = [];
  for (let j = i; j < v.length; j += IDLE_PARTS.length) out.push(v[j]! / 1000);
  return out.sort((x, y) => x - y);
}

const total = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : total(xs) / xs.length);

/**
 * idle_queue_time (the real service's): for each queue session that ended (its first
 * action.queue.leave), the time it waited for capacity (before its first checks started, less
 * schedule and freeze), for the schedule, for a freeze, and the rest of its time in the queue (CI
 * running). Per interval: mean, p95, max and sum of each, and the count; per group a summary over
 * the whole window.
 */
export const IDLE_QUEUE_TIME: Spec<IdleValues> = {
  types: [LEAVE],
  ...IDLE_VALUES,
  add: (acc, e, t, sink) => {
    const totalMs = queueMillis(e, t);
    if (totalMs === undefined) return;
    const sid = sessionKey(e);
    if (sid !== undefined) {
      if (!sink.first("idle", sid)) return;
    }
    const sched = Math.round(scheduleS(e) * 1000);
    const freeze = Math.round(freezeS(e) * 1000);
    addIdle(acc(keyOf(e), t), totalMs, waitedMs(e, totalMs, sink), sched, freeze);
  },
  doc: {
    from: "`action.queue.leave`",
    figure:
      "once per `session_id`, the session's time in the queue (leave − `queued_at`, whole ms) cut in four: `idle_schedule` = `seconds_waiting_for_schedule`, `idle_freeze` = `seconds_waiting_for_freeze`, `idle_capacity` = (first `checks_start` of the session − `queued_at`) − schedule − freeze, at least 0 (the whole time when checks never started), `ci_runtime` = the rest, at least 0. Per bucket: mean, `p95_` (nearest rank), `max_` and `sum_` of each part, and `count_idle`; per group a `summary` (mean, p95, max) over the whole window. The parts' values are kept, not summed, so per-day partials give the same percentiles as one pass",
  },
  facts: {
    kinds: [FACT.leave],
    add: (cell, f, c) => {
      const { totalMs, waitedMs } = factTimes(f);
      if (totalMs >= 0) addIdle(cell(c.key), totalMs, waitedMs, Math.round(f.b * 1000), Math.round(f.c * 1000));
    },
  },
  render: (slots, buckets, f) => {
    const keep = byKey(f);
    // the whole window of each group, for its summary
    const whole = new Map<object, IdleValues>();
    for (const m of slots.values()) {
      for (const [k, v] of m) {
        if (!keep(k)) continue;
        let w = whole.get(k);
        if (!w) whole.set(k, (w = []));
        for (const x of v) w.push(x);
      }
    }
    const groups = grouped(
      slots,
      buckets,
      keep,
      (a, b) => {
        const rec: Record<string, unknown> = { ...interval(b) };
        const sortedParts = IDLE_PARTS.map((_, i) => partValues(a!, i));
        IDLE_PARTS.forEach((p, i) => (rec[p] = round(mean(sortedParts[i]!))));
        IDLE_PARTS.forEach((p, i) => (rec[`p95_${p}`] = round(percentile(sortedParts[i]!, 0.95))));
        IDLE_PARTS.forEach((p, i) => (rec[`max_${p}`] = round(sortedParts[i]!.at(-1) ?? 0)));
        IDLE_PARTS.forEach((p, i) => (rec[`sum_${p}`] = round(total(sortedParts[i]!))));
        rec.count_idle = sortedParts[0]!.length;
        return [rec];
      },
      false,
    );
    const keys = new Map<string, object>();
    for (const k of whole.keys()) keys.set(keyString(k), k);
    return {
      groups: groups.map((grp) => {
        const { stats, ...key } = grp;
        const w = whole.get(keys.get(JSON.stringify(key))!) ?? [];
        const summary: Record<string, number> = {};
        IDLE_PARTS.forEach((p, i) => {
          const sortedPart = partValues(w, i);
          summary[`avg_${p}`] = round(mean(sortedPart));
          summary[`p95_${p}`] = round(percentile(sortedPart, 0.95));
          summary[`max_${p}`] = round(sortedPart.at(-1) ?? 0);
        });
        return { ...key, stats, summary };
      }),
    };
  },
};

/**
 * Deprecated time_to_merge: for the pull requests merged in the 7 days before `at`, mean and
 * median of queued_at -> action.queue.merged, per partition and queue; queues that had pull
 * requests enter but none merged report null. An instant, not a window: answered apart from the
 * accumulated endpoints.
 */
export function timeToMerge(store: EventStore, at: number, branch: string | undefined): unknown {
  const from = at - 7 * DAY;
  const byQueue = new Map<string, Map<string, number[]>>();
  const slot = (partition: string, queue: string) => {
    let p = byQueue.get(partition);
    if (!p) byQueue.set(partition, (p = new Map()));
    let q = p.get(queue);
    if (!q) p.set(queue, (q = []));
    return q;
  };
  const inBranch = (e: StoredEvent) => branch === undefined || keyOf(e).base_ref === branch;
  const enter = store.positionsOf("action.queue.enter", from, at + 1);
  for (const p of enter) {
    const e = store.event(p);
    if (inBranch(e)) slot(keyOf(e).partition_name, keyOf(e).queue_name);
  }
  const merged = store.positionsOf("action.queue.merged", from, at + 1);
  for (const p of merged) {
    const e = store.event(p);
    if (!inBranch(e)) continue;
    const d = queueTime(e, store.time(p));
    if (d === undefined) continue;
    const raw = meta(e).partition_names;
    const names = Array.isArray(raw) && raw.length > 0 ? raw.map(String) : ["__default__"];
    for (const n of names) slot(n, keyOf(e).queue_name).push(d);
  }
  return [...byQueue.keys()].sort().map((partition) => ({
    partition_name: partition,
    queues: [...byQueue.get(partition)!.keys()].sort().map((queue) => {
      const v = byQueue
        .get(partition)!
        .get(queue)!
        .slice()
        .sort((a, b) => a - b);
      const mean = v.length === 0 ? null : round(v.reduce((s, x) => s + x, 0) / v.length);
      const median = v.length === 0 ? null : round(v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2);
      return { queue_name: queue, time_to_merge: { mean, median } };
    }),
  }));
}

/** time_to_merge's definition: answered by timeToMerge over the store of the 7 days before its instant */
export const TIME_TO_MERGE: { answer: typeof timeToMerge; doc: EndpointDoc } = {
  answer: timeToMerge,
  doc: {
    from: "`action.queue.merged`, `action.queue.enter`",
    figure:
      "for the 7 days before `at` (default now), optionally only `branch`: mean and median of merged − `queued_at` in seconds per partition and queue; a queue with entries but no merge has `null`",
  },
};
