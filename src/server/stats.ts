// The 17 statistics endpoints, computed from the same events the log serves. How each figure is
// derived is written down in docs/server.md; keep the two in step.
import type { EventStore, StoredEvent } from "./store.js";
import { exitReasonOf } from "./texts.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// buckets are aligned on Mondays 00:00 UTC (1970-01-05), so days and weeks start where people expect
const ALIGN = 4 * DAY;

/**
 * The most intervals a window is cut into. The count endpoints list every interval of every group,
 * zeros included, so without a bound a window of 0001..9999 made a 279 MB answer.
 */
export const MAX_INTERVALS = 1000;

/** The interval ladder: the bucket length for a range (docs/server.md). */
export function intervalFor(rangeMs: number): number {
  if (rangeMs <= 2 * HOUR) return 5 * MIN;
  if (rangeMs <= 2 * DAY) return HOUR;
  if (rangeMs <= 14 * DAY) return 6 * HOUR;
  if (rangeMs <= 62 * DAY) return DAY;
  if (rangeMs <= 366 * DAY) return 7 * DAY;
  // a multiple of 30 days: a clipped first and last bucket make at most ceil(range / step) + 1
  // intervals, so a step of at least range / (MAX_INTERVALS - 1) keeps within the bound
  return 30 * DAY * Math.max(1, Math.ceil(rangeMs / ((MAX_INTERVALS - 1) * 30 * DAY)));
}

export interface Bucket {
  start: number;
  end: number;
}

/** Buckets covering [from, to), on multiples of the interval, the first and last clipped. */
export function bucketsFor(from: number, to: number): Bucket[] {
  const step = intervalFor(to - from);
  const out: Bucket[] = [];
  let s = from;
  while (s < to) {
    const next = Math.min(to, Math.floor((s - ALIGN) / step) * step + ALIGN + step);
    out.push({ start: s, end: next });
    s = next;
  }
  return out;
}

export interface StatsFilter {
  base_ref?: readonly string[];
  partition_name?: readonly string[];
  queue_name?: readonly string[];
  priority_rule_name?: readonly string[];
}

interface GroupKey {
  base_ref: string;
  partition_name: string;
  queue_name: string;
  priority_rule_name: string | null;
}

const iso = (t: number) => new Date(t).toISOString();
const round = (n: number) => Math.round(n * 1000) / 1000;

function meta(e: StoredEvent): Record<string, unknown> {
  return e.metadata as Record<string, unknown>;
}

function str(v: unknown, fallback: string): string {
  return typeof v === "string" && v !== "" ? v : fallback;
}

// Group keys are interned and remembered on the event under a symbol (invisible to JSON), so a
// query over a million events builds a handful of key objects, not a million.
const KEY = Symbol("groupKey");
const NO_PRIORITY = Symbol("noPriorityKey");
const interned = new Map<string, GroupKey>();
const keyStrings = new WeakMap<object, string>();

function intern<T extends object>(key: T): T {
  const s = JSON.stringify(key);
  const found = interned.get(s);
  if (found) return found as unknown as T;
  interned.set(s, key as unknown as GroupKey);
  keyStrings.set(key, s);
  return key;
}

function keyString(key: object): string {
  let s = keyStrings.get(key);
  if (s === undefined) keyStrings.set(key, (s = JSON.stringify(key)));
  return s;
}

function keyOf(e: StoredEvent): GroupKey {
  const cached = (e as unknown as Record<symbol, GroupKey | undefined>)[KEY];
  if (cached) return cached;
  const m = meta(e);
  const key = intern<GroupKey>({
    base_ref: str(e.base_ref, str(m.branch, "")),
    partition_name: str(m.partition_name, "__default__"),
    queue_name: str(m.queue_name, "default"),
    priority_rule_name: typeof m.priority_rule_name === "string" ? m.priority_rule_name : null,
  });
  Object.defineProperty(e, KEY, { value: key, enumerable: false, writable: true });
  return key;
}

function matches(k: GroupKey, f: StatsFilter, partitions?: readonly string[]): boolean {
  if (f.base_ref && !f.base_ref.includes(k.base_ref)) return false;
  if (f.partition_name) {
    const names = partitions ?? [k.partition_name];
    if (!names.some((n) => f.partition_name!.includes(n))) return false;
  }
  if (f.queue_name && !f.queue_name.includes(k.queue_name)) return false;
  if (f.priority_rule_name && (k.priority_rule_name === null || !f.priority_rule_name.includes(k.priority_rule_name))) return false;
  return true;
}

/** Collects values per group and per bucket, then turns them into the groups array. */
class Grouper<A> {
  private readonly groups = new Map<string, { key: Record<string, unknown>; acc: Map<number, A> }>();
  constructor(
    private readonly buckets: Bucket[],
    private readonly init: () => A,
  ) {}

  bucketIndex(t: number): number {
    // buckets are few (at most MAX_INTERVALS): binary search keeps 1M-event queries linear
    let lo = 0;
    let hi = this.buckets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.buckets[mid]!.start <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  acc(key: Record<string, unknown>, t: number): A {
    const k = keyString(key);
    let g = this.groups.get(k);
    if (!g) this.groups.set(k, (g = { key, acc: new Map() }));
    const b = this.bucketIndex(t);
    let a = g.acc.get(b);
    if (!a) g.acc.set(b, (a = this.init()));
    return a;
  }

  /** groups sorted by key; `every` emits every bucket (zeros included), else only buckets with data */
  result(records: (a: A | undefined, b: Bucket) => Record<string, unknown>[], every: boolean): Record<string, unknown>[] {
    const keys = [...this.groups.keys()].sort();
    return keys.map((k) => {
      const g = this.groups.get(k)!;
      const stats: Record<string, unknown>[] = [];
      this.buckets.forEach((b, i) => {
        const a = g.acc.get(i);
        if (a === undefined && !every) return;
        stats.push(...records(a, b));
      });
      return { ...g.key, stats };
    });
  }
}

function interval(b: Bucket): { start: string; end: string } {
  return { start: iso(b.start), end: iso(b.end) };
}

export interface StatsContext {
  store: EventStore;
  from: number;
  to: number;
  filter: StatsFilter;
  /** also give each average's sum and count (`sum_queue_time`, `count_queue_time`, ...), as the real service does */
  sums?: boolean;
}

type Handler = (c: StatsContext) => unknown;

function each(c: StatsContext, type: string, fn: (e: StoredEvent, t: number) => void): void {
  const positions = c.store.positionsOf(type, c.from, c.to);
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    fn(c.store.event(p), c.store.time(p));
  }
}

function counter(c: StatsContext, type: string, field: string): unknown {
  const g = new Grouper<{ n: number }>(bucketsFor(c.from, c.to), () => ({ n: 0 }));
  each(c, type, (e, t) => {
    const k = keyOf(e);
    if (matches(k, c.filter)) g.acc(k as unknown as Record<string, unknown>, t).n++;
  });
  return { groups: g.result((a, b) => [{ ...interval(b), [field]: a?.n ?? 0 }], true) };
}

interface MinMax {
  n: number;
  sum: number;
  min: number;
  max: number;
}
const minMax = (): MinMax => ({ n: 0, sum: 0, min: Infinity, max: -Infinity });
function add(a: MinMax, v: number): void {
  a.n++;
  a.sum += v;
  if (v < a.min) a.min = v;
  if (v > a.max) a.max = v;
}

function distribution(
  c: StatsContext,
  type: string,
  value: (e: StoredEvent) => number | undefined,
  fields: [avg: string, max: string, min: string],
  keyFn: (e: StoredEvent) => Record<string, unknown> = (e) => keyOf(e) as unknown as Record<string, unknown>,
  dedupe?: (e: StoredEvent) => string | undefined,
): unknown {
  const g = new Grouper<MinMax>(bucketsFor(c.from, c.to), minMax);
  const seen = new Set<string>();
  each(c, type, (e, t) => {
    const k = keyFn(e);
    if (!matches(k as unknown as GroupKey, c.filter)) return;
    const v = value(e);
    if (v === undefined || !Number.isFinite(v)) return;
    const d = dedupe?.(e);
    if (d !== undefined) {
      if (seen.has(d)) return;
      seen.add(d);
    }
    add(g.acc(k, t), v);
  });
  return {
    groups: g.result((a, b) => {
      const rec: Record<string, unknown> = { ...interval(b), [fields[0]]: round(a!.sum / a!.n), [fields[1]]: a!.max, [fields[2]]: a!.min };
      if (c.sums) {
        const name = fields[0].replace(/^avg_/, "");
        rec[`sum_${name}`] = round(a!.sum);
        rec[`count_${name}`] = a!.n;
      }
      return [rec];
    }, false),
  };
}

/** checks_end outcome: the abort code, or SUCCESS for a successful run */
export function checkOutcome(e: StoredEvent): string {
  const m = meta(e);
  if (typeof m.abort_code === "string") return m.abort_code;
  const spec = m.speculative_check_pull_request as { checks_conclusion?: unknown } | undefined;
  const conclusion = typeof spec?.checks_conclusion === "string" ? spec.checks_conclusion : "success";
  if (conclusion === "success") return "SUCCESS";
  if (conclusion === "timed_out") return "CHECKS_TIMEOUT";
  return "CHECKS_FAILED";
}

const FAILED_CONCLUSIONS = new Set(["failure", "timed_out", "error"]);

/** a checks_end counts as a failure when its conclusion is failure, timed_out or error */
export function isFailedCheck(e: StoredEvent): boolean {
  const spec = meta(e).speculative_check_pull_request as { checks_conclusion?: unknown } | undefined;
  return typeof spec?.checks_conclusion === "string" && FAILED_CONCLUSIONS.has(spec.checks_conclusion);
}

function seconds(a: unknown, b: unknown): number | undefined {
  if (typeof a !== "string" || typeof b !== "string") return undefined;
  const d = (Date.parse(b) - Date.parse(a)) / 1000;
  return Number.isFinite(d) && d >= 0 ? d : undefined;
}

function queueTime(e: StoredEvent, t: number): number | undefined {
  const q = meta(e).queued_at;
  if (typeof q !== "string") return undefined;
  const d = (t - Date.parse(q)) / 1000;
  return Number.isFinite(d) && d >= 0 ? d : undefined;
}

function sessionKey(e: StoredEvent): string | undefined {
  const s = meta(e).session_id;
  return typeof s === "string" ? s : undefined;
}

const noPriority = (e: StoredEvent): Record<string, unknown> => {
  const k = keyOf(e) as GroupKey & { [NO_PRIORITY]?: Record<string, unknown> };
  if (!k[NO_PRIORITY]) {
    const reduced = intern({ base_ref: k.base_ref, partition_name: k.partition_name, queue_name: k.queue_name });
    Object.defineProperty(k, NO_PRIORITY, { value: reduced, enumerable: false });
  }
  return k[NO_PRIORITY]!;
};

const QUEUE_TYPES = [
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.merged",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.change",
];

/** Checks outcomes (SUCCESS or the abort code) of `checks_end` events, counted per group and bucket. */
function countCheckOutcomes(c: StatsContext, buckets: Bucket[]): Grouper<Map<string, number>> {
  const g = new Grouper<Map<string, number>>(buckets, () => new Map());
  each(c, "action.queue.checks_end", (e, t) => {
    const k = keyOf(e);
    if (!matches(k, c.filter)) return;
    const a = g.acc(k as unknown as Record<string, unknown>, t);
    const o = checkOutcome(e);
    a.set(o, (a.get(o) ?? 0) + 1);
  });
  return g;
}

/**
 * One handler per windowed endpoint record of src/stats/endpoints.ts, under the record's name; the
 * server's route table is built from the records. time-to-merge (an instant, not a window) is
 * answered by timeToMerge below.
 */
// ---------------------------------------------------------------------------------------------
// The real service's own endpoints (dialect mergify): idle time with percentiles, batches saved

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

export const STATS_HANDLERS: Record<string, Handler> = {
  "idle-queue-time": idleQueueTime,
  "skip-intermediate-results": skipIntermediateResults,

  "queues-entered-count": (c) => counter(c, "action.queue.enter", "entered"),

  "queues-merged-count": (c) => {
    const g = new Grouper<{ n: number }>(bucketsFor(c.from, c.to), () => ({ n: 0 }));
    each(c, "action.queue.merged", (e, t) => {
      const k = keyOf(e);
      const raw = meta(e).partition_names;
      const names = Array.isArray(raw) && raw.length > 0 ? raw.map(String) : ["__default__"];
      if (!matches(k, c.filter, names)) return;
      g.acc({ base_ref: k.base_ref, partition_names: names, queue_name: k.queue_name, priority_rule_name: k.priority_rule_name }, t).n++;
    });
    return { groups: g.result((a, b) => [{ ...interval(b), merged: a?.n ?? 0 }], true) };
  },

  "failure-rate": (c) => {
    const g = new Grouper<{ total: number; failures: number }>(bucketsFor(c.from, c.to), () => ({ total: 0, failures: 0 }));
    each(c, "action.queue.checks_end", (e, t) => {
      const k = keyOf(e);
      if (!matches(k, c.filter)) return;
      const a = g.acc(k as unknown as Record<string, unknown>, t);
      a.total++;
      if (isFailedCheck(e)) a.failures++;
    });
    return {
      groups: g.result((a, b) => {
        const total = a?.total ?? 0;
        const failures = a?.failures ?? 0;
        return [{ ...interval(b), total, failures, failure_rate: total === 0 ? 0 : failures / total }];
      }, true),
    };
  },

  "queues-checks-outcome-count": (c) => {
    const g = countCheckOutcomes(c, bucketsFor(c.from, c.to));
    return {
      groups: g.result((a, b) => [...a!].sort(([x], [y]) => (x < y ? -1 : 1)).map(([check_outcome, count]) => ({ ...interval(b), check_outcome, count })), false),
    };
  },

  "merge-queue-checks-outcome": (c) => {
    // the deprecated endpoint: the same counts over one bucket, the whole window
    const g = countCheckOutcomes(c, [{ start: c.from, end: c.to }]);
    const groups = g.result((a) => [Object.fromEntries([...a!].sort(([x], [y]) => (x < y ? -1 : 1)))], false);
    return { groups: groups.map((grp) => ({ ...grp, stats: (grp.stats as unknown[])[0] ?? {} })) };
  },

  "queues-pr-exit-reasons": (c) => {
    const g = new Grouper<Map<string, number>>(bucketsFor(c.from, c.to), () => new Map());
    const seen = new Set<string>();
    each(c, "action.queue.leave", (e, t) => {
      const k = keyOf(e);
      if (!matches(k, c.filter)) return;
      const sid = sessionKey(e);
      if (sid !== undefined) {
        if (seen.has(sid)) return;
        seen.add(sid);
      }
      const m = meta(e);
      const reason = exitReasonOf(m.merged, m.reason);
      const a = g.acc(k as unknown as Record<string, unknown>, t);
      a.set(reason, (a.get(reason) ?? 0) + 1);
    });
    return {
      groups: g.result((a, b) => [...a!].sort(([x], [y]) => (x < y ? -1 : 1)).map(([exit_reason, count]) => ({ ...interval(b), exit_reason, count })), false),
    };
  },

  "average-ci-runtime": (c) => {
    const g = new Grouper<{ n: number; sum: number }>(bucketsFor(c.from, c.to), () => ({ n: 0, sum: 0 }));
    const seen = new Set<string>();
    each(c, "action.queue.checks_end", (e, t) => {
      const k = keyOf(e);
      if (!matches(k, c.filter)) return;
      const m = meta(e);
      const spec = m.speculative_check_pull_request as Record<string, unknown> | undefined;
      const runtime = seconds(spec?.checks_started_at, spec?.checks_ended_at);
      if (runtime === undefined) return;
      // one run per train car: the pull requests of a batch share it
      if (typeof m.train_car_id === "string") {
        if (seen.has(m.train_car_id)) return;
        seen.add(m.train_car_id);
      }
      const a = g.acc(k as unknown as Record<string, unknown>, t);
      a.n++;
      a.sum += runtime;
    });
    return {
      groups: g.result(
        (a, b) => [{ ...interval(b), runtime: round(a!.sum / a!.n), ...(c.sums ? { sum_runtime: round(a!.sum), count_runtime: a!.n } : {}) }],
        false,
      ),
    };
  },

  "average-queue-time": (c) => {
    type A = { n: number; q: number; cap: number; sched: number; freeze: number };
    const g = new Grouper<A>(bucketsFor(c.from, c.to), () => ({ n: 0, q: 0, cap: 0, sched: 0, freeze: 0 }));
    each(c, "action.queue.leave", (e, t) => {
      const k = keyOf(e);
      if (!matches(k, c.filter)) return;
      const total = queueTime(e, t);
      if (total === undefined) return;
      const m = meta(e);
      const sched = typeof m.seconds_waiting_for_schedule === "number" ? m.seconds_waiting_for_schedule : 0;
      const freeze = typeof m.seconds_waiting_for_freeze === "number" ? m.seconds_waiting_for_freeze : 0;
      const sid = sessionKey(e);
      const firstStart = sid === undefined ? undefined : c.store.firstChecksStart(sid);
      const queuedAt = Date.parse(m.queued_at as string);
      const waited = firstStart !== undefined && firstStart >= queuedAt ? (firstStart - queuedAt) / 1000 : total;
      const a = g.acc(k as unknown as Record<string, unknown>, t);
      a.n++;
      a.q += total;
      a.sched += sched;
      a.freeze += freeze;
      a.cap += Math.max(0, waited - sched - freeze);
    });
    return {
      groups: g.result(
        (a, b) => [
          {
            ...interval(b),
            queue_time: round(a!.q / a!.n),
            idle_capacity: round(a!.cap / a!.n),
            idle_schedule: round(a!.sched / a!.n),
            idle_freeze: round(a!.freeze / a!.n),
          },
        ],
        false,
      ),
    };
  },

  "total-queue-time": (c) =>
    distribution(c, "action.queue.leave", (e) => queueTime(e, Date.parse(e.received_at)), ["avg_queue_time", "max_queue_time", "min_queue_time"]),

  "queue-size": (c) =>
    distribution(c, "action.queue.change", (e) => (typeof meta(e).size === "number" ? (meta(e).size as number) : undefined), ["avg_size", "max_size", "min_size"]),

  "running-speculative-checks": (c) =>
    distribution(
      c,
      "action.queue.checks.change",
      (e) => (typeof meta(e).running_checks === "number" ? (meta(e).running_checks as number) : undefined),
      ["avg_running_checks", "max_running_checks", "min_running_checks"],
      noPriority,
    ),

  "batch-size": (c) =>
    distribution(
      c,
      "action.queue.checks_start",
      (e) => {
        // the contract lists the batch at the top; the real service nests it in the speculative check
        const m = meta(e);
        const n = m.pull_request_numbers ?? (m.speculative_check_pull_request as { pull_request_numbers?: unknown } | undefined)?.pull_request_numbers;
        return Array.isArray(n) ? n.length : undefined;
      },
      ["avg_batch_size", "max_batch_size", "min_batch_size"],
      undefined,
      (e) => (typeof meta(e).train_car_id === "string" ? (meta(e).train_car_id as string) : undefined),
    ),

  "batch-bisection": (c) => {
    type S = { n: number; depth: number; maxDepth: number; size: number };
    const started = new Grouper<S>(bucketsFor(c.from, c.to), () => ({ n: 0, depth: 0, maxDepth: 0, size: 0 }));
    each(c, "action.queue.batch_bisection_start", (e, t) => {
      const k = keyOf(e);
      if (!matches(k, c.filter)) return;
      const m = meta(e);
      const a = started.acc(k as unknown as Record<string, unknown>, t);
      const depth = typeof m.bisection_depth === "number" ? m.bisection_depth : 0;
      a.n++;
      a.depth += depth;
      a.maxDepth = Math.max(a.maxDepth, depth);
      a.size += typeof m.batch_size_before_split === "number" ? m.batch_size_before_split : 0;
    });
    type C = { n: number; culprit: number; max: number };
    const completed = new Grouper<C>(bucketsFor(c.from, c.to), () => ({ n: 0, culprit: 0, max: 0 }));
    each(c, "action.queue.batch_bisection_end", (e, t) => {
      const k = keyOf(e);
      if (!matches(k, c.filter)) return;
      const m = meta(e);
      const a = completed.acc(k as unknown as Record<string, unknown>, t);
      a.n++;
      if (m.culprit_found === true) a.culprit++;
      if (m.max_failure_resolution_reached === true) a.max++;
    });
    return {
      started: started.result(
        (a, b) => [{ ...interval(b), bisection_count: a!.n, avg_depth: round(a!.depth / a!.n), max_depth: a!.maxDepth, avg_batch_size_before_split: round(a!.size / a!.n) }],
        false,
      ),
      completed: completed.result(
        (a, b) => [{ ...interval(b), bisection_completed_count: a!.n, culprit_found_count: a!.culprit, max_failure_reached_count: a!.max }],
        false,
      ),
    };
  },

  "checks-retries": (c) => {
    // per session: its retried runs (retry_attempt >= 1) in the window; the session counts in the
    // bucket of its last retried run, and is recovered when that run succeeded
    const sessions = new Map<string, { key: GroupKey; t: number; retries: number; depth: number; lastOk: boolean }>();
    each(c, "action.queue.checks_end", (e, t) => {
      const m = meta(e);
      if (typeof m.retry_attempt !== "number" || m.retry_attempt < 1) return;
      const k = keyOf(e);
      if (!matches(k, c.filter)) return;
      const sid = sessionKey(e) ?? `event:${e.id}`;
      let s = sessions.get(sid);
      if (!s) sessions.set(sid, (s = { key: k, t, retries: 0, depth: 0, lastOk: false }));
      s.retries++;
      s.t = t;
      s.depth = Math.max(s.depth, m.retry_attempt);
      s.lastOk = checkOutcome(e) === "SUCCESS";
    });
    type A = { total: number; sessions: number; recovered: number; depth: number; maxDepth: number };
    const g = new Grouper<A>(bucketsFor(c.from, c.to), () => ({ total: 0, sessions: 0, recovered: 0, depth: 0, maxDepth: 0 }));
    for (const s of sessions.values()) {
      const a = g.acc(s.key as unknown as Record<string, unknown>, s.t);
      a.total += s.retries;
      a.sessions++;
      if (s.lastOk) a.recovered++;
      a.depth += s.depth;
      a.maxDepth = Math.max(a.maxDepth, s.depth);
    }
    return {
      groups: g.result(
        (a, b) => [
          {
            ...interval(b),
            total_retries: a!.total,
            sessions_with_retries: a!.sessions,
            recovered: a!.recovered,
            not_recovered: a!.sessions - a!.recovered,
            recovery_rate: a!.recovered / a!.sessions,
            avg_retry_depth: round(a!.depth / a!.sessions),
            max_retry_depth: a!.maxDepth,
          },
        ],
        false,
      ),
    };
  },

  branches: (c) => {
    const set = new Set<string>();
    for (const type of QUEUE_TYPES) each(c, type, (e) => void set.add(keyOf(e).base_ref));
    set.delete("");
    return { base_refs: [...set].sort() };
  },

  queues: (c) => {
    const set = new Set<string>();
    for (const type of QUEUE_TYPES) each(c, type, (e) => void set.add(keyOf(e).queue_name));
    return { queue_names: [...set].sort() };
  },
};

/**
 * Deprecated time_to_merge: for the pull requests merged in the 7 days before `at`, mean and
 * median of queued_at -> action.queue.merged, per partition and queue; queues that had pull
 * requests enter but none merged report null.
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
      const v = byQueue.get(partition)!.get(queue)!.slice().sort((a, b) => a - b);
      const mean = v.length === 0 ? null : round(v.reduce((s, x) => s + x, 0) / v.length);
      const median = v.length === 0 ? null : round(v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2);
      return { queue_name: queue, time_to_merge: { mean, median } };
    }),
  }));
}
