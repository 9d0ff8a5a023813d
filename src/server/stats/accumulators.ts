// The values the statistics accumulate, as named records. Each endpoint reads events (the log, a
// replayed file) and, for whole simulated days, the simulation's facts; both readings fold into
// these same records through the same `add` functions, so they agree by name, not by position.
// Every value merges exactly (integer sums: times in ms), in any order, so a window's figures are
// the same whether computed in one pass or merged from per-day partials.
import type { GroupKey } from "./keys.js";

/** how a value starts and how two values merge into one */
export interface Accumulator<A> {
  init(): A;
  merge(into: A, from: A): void;
}

/** a count of events */
export interface Count {
  n: number;
}
export const COUNT: Accumulator<Count> = {
  init: () => ({ n: 0 }),
  merge: (into, from) => void (into.n += from.n),
};

/** how many values, their sum, the least and the most (avg / max / min of a value) */
export interface Spread {
  n: number;
  sum: number;
  min: number;
  max: number;
}
export const SPREAD: Accumulator<Spread> = {
  init: () => ({ n: 0, sum: 0, min: Infinity, max: -Infinity }),
  merge: (into, from) => {
    into.n += from.n;
    into.sum += from.sum;
    if (from.min < into.min) into.min = from.min;
    if (from.max > into.max) into.max = from.max;
  },
};
export function addToSpread(a: Spread, v: number): void {
  a.n++;
  a.sum += v;
  if (v < a.min) a.min = v;
  if (v > a.max) a.max = v;
}

/** check runs and the failed ones among them (failure_rate) */
export interface Runs {
  total: number;
  failures: number;
}
export const RUNS: Accumulator<Runs> = {
  init: () => ({ total: 0, failures: 0 }),
  merge: (into, from) => {
    into.total += from.total;
    into.failures += from.failures;
  },
};
export function addRun(a: Runs, failed: boolean): void {
  a.total++;
  if (failed) a.failures++;
}

/** CI runs (one per train car) and their summed runtime in ms (average_ci_runtime) */
export interface Runtime {
  runs: number;
  ms: number;
}
export const RUNTIME: Accumulator<Runtime> = {
  init: () => ({ runs: 0, ms: 0 }),
  merge: (into, from) => {
    into.runs += from.runs;
    into.ms += from.ms;
  },
};
export function addRuntime(a: Runtime, ms: number): void {
  a.runs++;
  a.ms += ms;
}

/** sessions that left the queue and the sums of their times (average_queue_time) */
export interface QueueTimes {
  sessions: number;
  queueMs: number;
  /** waiting for capacity: before the first checks started, less schedule and freeze */
  idleCapacityMs: number;
  scheduleS: number;
  freezeS: number;
}
export const QUEUE_TIMES: Accumulator<QueueTimes> = {
  init: () => ({ sessions: 0, queueMs: 0, idleCapacityMs: 0, scheduleS: 0, freezeS: 0 }),
  merge: (into, from) => {
    into.sessions += from.sessions;
    into.queueMs += from.queueMs;
    into.idleCapacityMs += from.idleCapacityMs;
    into.scheduleS += from.scheduleS;
    into.freezeS += from.freezeS;
  },
};
/** a session that spent `totalMs` in the queue, `waitedMs` of it before its first checks */
export function addQueueTime(a: QueueTimes, totalMs: number, waitedMs: number, scheduleS: number, freezeS: number): void {
  a.sessions++;
  a.queueMs += totalMs;
  a.idleCapacityMs += Math.max(0, Math.round(waitedMs - (scheduleS + freezeS) * 1000));
  a.scheduleS += scheduleS;
  a.freezeS += freezeS;
}

/**
 * The idle parts of each session, in whole ms, flat: [capacity, schedule, freeze, ci, capacity, ...]
 * (IDLE_PARTS). A percentile is not a sum: the values themselves are kept (a few numbers per queue
 * session) and merged by concatenation, so per-day partials give the same p95 as one pass.
 */
export type IdleValues = number[];
export const IDLE_PARTS = ["idle_capacity", "idle_schedule", "idle_freeze", "ci_runtime"] as const;
export const IDLE_VALUES: Accumulator<IdleValues> = {
  init: () => [],
  merge: (into, from) => {
    for (const v of from) into.push(v);
  },
};
/** a session's parts: capacity (waited less schedule and freeze), schedule, freeze, and the rest (CI) */
export function addIdle(v: IdleValues, totalMs: number, waitedMs: number, scheduleMs: number, freezeMs: number): void {
  const capacity = Math.max(0, waitedMs - scheduleMs - freezeMs);
  v.push(capacity, scheduleMs, freezeMs, Math.max(0, totalMs - capacity - scheduleMs - freezeMs));
}

/** counts by a name (check outcome, exit reason) */
export type Counts = Map<string, number>;
export const COUNTS: Accumulator<Counts> = {
  init: () => new Map(),
  merge: (into, from) => {
    for (const [k, n] of from) into.set(k, (into.get(k) ?? 0) + n);
  },
};
export function bump(m: Counts, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}
export const sortedCounts = (a: Counts) => [...a].sort(([x], [y]) => (x < y ? -1 : 1));

/**
 * Bisections started (count, summed and deepest depth, summed batch size before the split) and
 * completed (count, culprit found, gave up). A key's started and completed are apart: a bisection
 * can end in another bucket.
 */
export interface Bisections {
  started: number;
  depthSum: number;
  maxDepth: number;
  sizeSum: number;
  completed: number;
  culpritFound: number;
  maxReached: number;
}
export const BISECTIONS: Accumulator<Bisections> = {
  init: () => ({ started: 0, depthSum: 0, maxDepth: 0, sizeSum: 0, completed: 0, culpritFound: 0, maxReached: 0 }),
  merge: (into, from) => {
    into.started += from.started;
    into.depthSum += from.depthSum;
    into.maxDepth = Math.max(into.maxDepth, from.maxDepth);
    into.sizeSum += from.sizeSum;
    into.completed += from.completed;
    into.culpritFound += from.culpritFound;
    into.maxReached += from.maxReached;
  },
};
export function addBisectionStart(a: Bisections, depth: number, sizeBeforeSplit: number): void {
  a.started++;
  a.depthSum += depth;
  a.maxDepth = Math.max(a.maxDepth, depth);
  a.sizeSum += sizeBeforeSplit;
}
export function addBisectionEnd(a: Bisections, culpritFound: boolean, maxReached: boolean): void {
  a.completed++;
  if (culpritFound) a.culpritFound++;
  if (maxReached) a.maxReached++;
}

/** a queue session's retried runs: its group, its last retried run's time and success, how many, how deep */
export interface RetrySession {
  key: GroupKey;
  t: number;
  retries: number;
  depth: number;
  lastOk: boolean;
}
/** session id -> its retried runs (sessions span days: kept whole, bucketed when rendered) */
export type RetrySessions = Map<string, RetrySession>;
export const RETRY_SESSIONS: Accumulator<RetrySessions> = {
  init: () => new Map(),
  merge: (into, from) => {
    for (const [sid, s] of from) {
      const x = into.get(sid);
      if (!x) into.set(sid, { ...s });
      else {
        x.retries += s.retries;
        x.depth = Math.max(x.depth, s.depth);
        if (s.t > x.t) {
          x.t = s.t;
          x.lastOk = s.lastOk;
          x.key = s.key;
        }
      }
    }
  },
};
/** a retried run (retry_attempt `attempt` >= 1) of session `sid` at t, successful or not */
export function addRetry(sessions: RetrySessions, sid: string, key: GroupKey, t: number, ok: boolean, attempt: number): void {
  let s = sessions.get(sid);
  if (!s) sessions.set(sid, (s = { key, t, retries: 0, depth: 0, lastOk: false }));
  s.retries++;
  if (t >= s.t) {
    s.t = t;
    s.lastOk = ok;
  }
  s.depth = Math.max(s.depth, attempt);
}

/** names seen (branches, queues) */
export type Names = Set<string>;
export const NAMES: Accumulator<Names> = {
  init: () => new Set(),
  merge: (into, from) => {
    for (const n of from) into.add(n);
  },
};
