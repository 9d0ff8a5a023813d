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

export interface GroupKey {
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

/** the interned key whose text (keyString) this is */
function keyFromString(s: string): object {
  return interned.get(s) ?? intern(JSON.parse(s) as object);
}

function keyString(key: object): string {
  let s = keyStrings.get(key);
  if (s === undefined) keyStrings.set(key, (s = JSON.stringify(key)));
  return s;
}

// the group key of the event before: the endpoints fed by one pass each ask for it in turn
let lastEvent: StoredEvent | undefined;
let lastKey: GroupKey | undefined;
const groupKeys = new Map<string, GroupKey>();

function keyOf(e: StoredEvent): GroupKey {
  if (e === lastEvent) return lastKey!;
  const m = meta(e);
  const base_ref = str(e.base_ref, str(m.branch, ""));
  const partition_name = str(m.partition_name, "__default__");
  const queue_name = str(m.queue_name, "default");
  const priority_rule_name = typeof m.priority_rule_name === "string" ? m.priority_rule_name : null;
  const key = groupKey(base_ref, partition_name, queue_name, priority_rule_name);
  lastEvent = e;
  lastKey = key;
  return key;
}

/** the interned group key of these names (the same object for the same names) */
export function groupKey(base_ref: string, partition_name: string, queue_name: string, priority_rule_name: string | null): GroupKey {
  // a plain string to look the key up: JSON-encoding a key per event cost more than the rest
  const s = `${base_ref}\u0000${partition_name}\u0000${queue_name}\u0000${priority_rule_name ?? "\u0001"}`;
  let key = groupKeys.get(s);
  if (!key) groupKeys.set(s, (key = intern<GroupKey>({ base_ref, partition_name, queue_name, priority_rule_name })));
  return key;
}

const mergedKeys = new Map<GroupKey, Map<string, object>>();

/** queues_merged_count's key: the group key with partition_names in place of partition_name */
function mergedKeyOf(e: StoredEvent): object {
  const raw = meta(e).partition_names;
  return mergedKey(keyOf(e), Array.isArray(raw) && raw.length > 0 ? raw.map(String) : ["__default__"]);
}

/** the interned key of queues_merged_count for a group key (its partition_name ignored) and partition_names */
export function mergedKey(k: GroupKey, partition_names: string[]): object {
  let byNames = mergedKeys.get(k);
  if (!byNames) mergedKeys.set(k, (byNames = new Map()));
  const s = partition_names.join("\u0000");
  let key = byNames.get(s);
  if (!key) byNames.set(s, (key = intern({ base_ref: k.base_ref, partition_names, queue_name: k.queue_name, priority_rule_name: k.priority_rule_name })));
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

/** The bucket a time falls in (buckets are few, at most MAX_INTERVALS: a binary search). */
export function bucketIndex(buckets: readonly Bucket[], t: number): number {
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (buckets[mid]!.start <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// a bucket's interval is written once per group: formatted once per bucket
const intervals = new WeakMap<Bucket, { start: string; end: string }>();

function interval(b: Bucket): { start: string; end: string } {
  let i = intervals.get(b);
  if (!i) intervals.set(b, (i = { start: iso(b.start), end: iso(b.end) }));
  return i;
}

// ---------------------------------------------------------------------------------------------
// Every endpoint is an accumulator: `add` folds one event into the value of its group key in the
// event's slot, `merge` folds two values into one, exactly (integer sums: times in ms), so that a
// window's figures are the same whether it is computed in one pass (a bucket per slot) or merged
// from cached per-day partials (a calendar day per slot, re-slotted into buckets). `render` turns
// the bucketed values into the endpoint's answer; filters apply there, to group keys, so that one
// cached day serves every filter.

/** slot -> interned group key -> value */
export type Slots<A> = Map<number, Map<object, A>>;

/** What an accumulation needs besides the events: where a time goes, and per-session facts. */
export class Sink {
  /** dedupe keys (train cars, sessions) already counted in this pass, a set per kind (no key strings built per event) */
  private readonly seenByKind = new Map<string, Set<string>>();
  constructor(
    readonly slotOf: (t: number) => number,
    /** the time of a queue session's first checks_start (average_queue_time) */
    readonly firstChecksStart: (sessionId: string) => number | undefined,
  ) {}

  /** true the first time `key` of `kind` is seen in this pass */
  first(kind: string, key: string): boolean {
    let set = this.seenByKind.get(kind);
    if (!set) this.seenByKind.set(kind, (set = new Set()));
    if (set.has(key)) return false;
    set.add(key);
    return true;
  }
}

interface Spec<A> {
  /** the event types it reads */
  types: readonly string[];
  /** everything goes to one slot: figures that are not a sum over buckets (sessions, names, one bucket) */
  whole?: boolean;
  init(): A;
  merge(into: A, from: A): void;
  add(acc: (key: object, t: number) => A, e: StoredEvent, t: number, sink: Sink): void;
  render(slots: Slots<A>, buckets: Bucket[], filter: StatsFilter, from: number, to: number, options: RenderOptions): unknown;
  /** a value as another thread can receive it (PartialsPacker), when it holds group keys (`key` numbers them); and back */
  pack?(a: A, key: (k: object) => number): unknown;
  unpack?(packed: unknown, key: (n: number) => object): A;
}

/** How an answer is shaped beyond its figures. */
export interface RenderOptions {
  /** also give each average's sum and count (`sum_queue_time`, `count_queue_time`, ...), as the real service does */
  sums?: boolean;
}

/** The accumulation of every endpoint over some events: endpoint path -> its slots. */
export type Partials = Map<string, Slots<unknown>>;

function slotFor<A>(spec: Spec<A>, slots: Slots<A>, sink: Sink) {
  return (key: object, t: number): A => {
    const s = spec.whole ? 0 : sink.slotOf(t);
    let m = slots.get(s);
    if (!m) slots.set(s, (m = new Map()));
    let a = m.get(key);
    if (a === undefined) m.set(key, (a = spec.init()));
    return a;
  };
}

/** merges `from` into `into`, slot by slot (slots of `from` mapped by `slotMap`) */
function mergeSlots<A>(spec: Spec<A>, into: Slots<A>, from: Slots<A>, slotMap: (slot: number) => number): void {
  for (const [slot, m] of from) {
    const s = spec.whole ? 0 : slotMap(slot);
    let target = into.get(s);
    if (!target) into.set(s, (target = new Map()));
    for (const [k, a] of m) {
      let t = target.get(k);
      if (t === undefined) target.set(k, (t = spec.init()));
      spec.merge(t, a);
    }
  }
}

/** groups sorted by key; `every` emits every bucket (zeros included), else only buckets with data */
function grouped<A>(
  slots: Slots<A>,
  buckets: Bucket[],
  keep: (key: object) => boolean,
  records: (a: A | undefined, b: Bucket) => Record<string, unknown>[],
  every: boolean,
): Record<string, unknown>[] {
  const keys = new Map<string, object>();
  for (const m of slots.values()) for (const k of m.keys()) if (keep(k)) keys.set(keyString(k), k);
  return [...keys.keys()].sort().map((ks) => {
    const key = keys.get(ks)!;
    const stats: Record<string, unknown>[] = [];
    buckets.forEach((b, i) => {
      const a = slots.get(i)?.get(key);
      if (a === undefined && !every) return;
      stats.push(...records(a, b));
    });
    return { ...key, stats };
  });
}

const byKey = (f: StatsFilter) => (k: object) => matches(k as GroupKey, f);

type Counts = Map<string, number>;
const counts = (): Counts => new Map();
function mergeCounts(into: Counts, from: Counts): void {
  for (const [k, n] of from) into.set(k, (into.get(k) ?? 0) + n);
}
const sorted = (a: Counts) => [...a].sort(([x], [y]) => (x < y ? -1 : 1));

/** sums, field by field */
function sums(width: number): Pick<Spec<number[]>, "init" | "merge"> {
  return {
    init: () => new Array<number>(width).fill(0),
    merge: (into, from) => {
      for (let i = 0; i < width; i++) into[i]! += from[i]!;
    },
  };
}

/** [n, sum, min, max] */
export const SPREAD: Pick<Spec<number[]>, "init" | "merge"> = {
  init: () => [0, 0, Infinity, -Infinity],
  merge: (into, from) => {
    into[0]! += from[0]!;
    into[1]! += from[1]!;
    if (from[2]! < into[2]!) into[2] = from[2]!;
    if (from[3]! > into[3]!) into[3] = from[3]!;
  },
};
export function spreadAdd(a: number[], v: number): void {
  a[0]!++;
  a[1]! += v;
  if (v < a[2]!) a[2] = v;
  if (v > a[3]!) a[3] = v;
}

function counter(type: string, field: string): Spec<number[]> {
  return {
    types: [type],
    ...sums(1),
    add: (acc, e, t) => void acc(keyOf(e), t)[0]!++,
    render: (slots, buckets, f) => ({ groups: grouped(slots, buckets, byKey(f), (a, b) => [{ ...interval(b), [field]: a?.[0] ?? 0 }], true) }),
  };
}

/**
 * avg / max / min of a value per group and bucket. The value is an integer (ms for durations,
 * shown in seconds) so sums are exact in any order. A dedupe key counts its first event only.
 */
function distribution(
  type: string,
  value: (e: StoredEvent, t: number) => number | undefined,
  fields: [avg: string, max: string, min: string],
  options: { keyFn?: (e: StoredEvent) => object; dedupe?: (e: StoredEvent) => string | undefined; unit?: number } = {},
): Spec<number[]> {
  const keyFn = options.keyFn ?? keyOf;
  const unit = options.unit ?? 1;
  return {
    types: [type],
    ...SPREAD,
    add: (acc, e, t, sink) => {
      const v = value(e, t);
      if (v === undefined || !Number.isFinite(v)) return;
      const d = options.dedupe?.(e);
      if (d !== undefined) {
        if (!sink.first("dedupe", d)) return;
      }
      spreadAdd(acc(keyFn(e), t), v);
    },
    render: (slots, buckets, f, _from, _to, o) => ({
      groups: grouped(
        slots,
        buckets,
        byKey(f),
        (a, b) => {
          const rec: Record<string, unknown> = { ...interval(b), [fields[0]]: round(a![1]! / unit / a![0]!), [fields[1]]: a![3]! / unit, [fields[2]]: a![2]! / unit };
          if (o.sums) {
            const name = fields[0].replace(/^avg_/, "");
            rec[`sum_${name}`] = round(a![1]! / unit);
            rec[`count_${name}`] = a![0];
          }
          return [rec];
        },
        false,
      ),
    }),
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

export const FAILED_CONCLUSIONS: ReadonlySet<string> = new Set(["failure", "timed_out", "error"]);

/** a checks_end counts as a failure when its conclusion is failure, timed_out or error */
export function isFailedCheck(e: StoredEvent): boolean {
  const spec = meta(e).speculative_check_pull_request as { checks_conclusion?: unknown } | undefined;
  return typeof spec?.checks_conclusion === "string" && FAILED_CONCLUSIONS.has(spec.checks_conclusion);
}

// the events of one queue session share their queued_at string: parsed once, not per event and endpoint
let lastIso: string | undefined;
let lastIsoMs = NaN;
function parseIso(s: string): number {
  if (s !== lastIso) {
    lastIso = s;
    lastIsoMs = Date.parse(s);
  }
  return lastIsoMs;
}

/** b - a in whole ms, for two ISO times */
function millis(a: unknown, b: unknown): number | undefined {
  if (typeof a !== "string" || typeof b !== "string") return undefined;
  const d = Date.parse(b) - Date.parse(a);
  return Number.isFinite(d) && d >= 0 ? d : undefined;
}

/** ms from queued_at to t */
function queueMillis(e: StoredEvent, t: number): number | undefined {
  const q = meta(e).queued_at;
  if (typeof q !== "string") return undefined;
  const d = t - parseIso(q);
  return Number.isFinite(d) && d >= 0 ? d : undefined;
}

function queueTime(e: StoredEvent, t: number): number | undefined {
  const d = queueMillis(e, t);
  return d === undefined ? undefined : d / 1000;
}

function sessionKey(e: StoredEvent): string | undefined {
  const s = meta(e).session_id;
  return typeof s === "string" ? s : undefined;
}

const trainCar = (e: StoredEvent) => (typeof meta(e).train_car_id === "string" ? `car:${meta(e).train_car_id as string}` : undefined);

const noPriority = (e: StoredEvent): object => noPriorityKey(keyOf(e));

/** the interned group key without its priority_rule_name (running_speculative_checks) */
export function noPriorityKey(key: GroupKey): object {
  const k = key as GroupKey & { [NO_PRIORITY]?: object };
  if (!k[NO_PRIORITY]) {
    const reduced = intern({ base_ref: k.base_ref, partition_name: k.partition_name, queue_name: k.queue_name });
    Object.defineProperty(k, NO_PRIORITY, { value: reduced, enumerable: false });
  }
  return k[NO_PRIORITY]!;
}

const QUEUE_TYPES = [
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.merged",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.change",
];

const CHECKS_END = "action.queue.checks_end";

/** Checks outcomes (SUCCESS or the abort code) of `checks_end` events, counted per group and slot. */
function checkOutcomes(whole: boolean, render: Spec<Counts>["render"]): Spec<Counts> {
  return {
    types: [CHECKS_END],
    whole,
    init: counts,
    merge: mergeCounts,
    add: (acc, e, t) => {
      const a = acc(keyOf(e), t);
      const o = checkOutcome(e);
      a.set(o, (a.get(o) ?? 0) + 1);
    },
    render,
  };
}

/** the one key of branches and queues (the names of the whole window, whatever their group) */
export const ALL_NAMES = {};

/** queue names or base refs seen in queue events: one set for the window */
function names(field: "base_ref" | "queue_name", out: string): Spec<Set<string>> {
  const ALL = ALL_NAMES;
  return {
    types: QUEUE_TYPES,
    whole: true,
    init: () => new Set(),
    merge: (into, from) => {
      for (const n of from) into.add(n);
    },
    add: (acc, e, t) => void acc(ALL, t).add(keyOf(e)[field]),
    render: (slots) => {
      const set = new Set(slots.get(0)?.get(ALL) ?? []);
      if (field === "base_ref") set.delete("");
      return { [out]: [...set].sort() };
    },
  };
}

export interface RetrySession {
  key: GroupKey;
  t: number;
  retries: number;
  depth: number;
  lastOk: boolean;
}

/** the one key of checks_retries' sessions (kept whole, bucketed when rendered) */
export const SESSIONS = {};

type Spec_ = Spec<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// ---------------------------------------------------------------------------------------------
// The real service's own endpoints (dialect mergify): idle time with percentiles, batches saved

/** nearest-rank percentile of values sorted ascending */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

const PARTS = ["idle_capacity", "idle_schedule", "idle_freeze", "ci_runtime"] as const;

/**
 * The parts of each session, in whole ms, flat: [capacity, schedule, freeze, ci, capacity, ...].
 * A percentile is not a sum: the values themselves are kept (a few numbers per queue session)
 * and merged by concatenation, so per-day partials give the same p95 as one pass.
 */
type IdleValues = number[];

/** the values of part `i` (an index into PARTS), sorted ascending, in seconds */
function partValues(v: IdleValues, i: number): number[] {
  const out: number[] = [];
  for (let j = i; j < v.length; j += PARTS.length) out.push(v[j]! / 1000);
  return out.sort((x, y) => x - y);
}

const total = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : total(xs) / xs.length);

/**
 * idle_queue_time: for each queue session that ended (its first action.queue.leave), the time it
 * waited for capacity (before its first checks started, less schedule and freeze), for the
 * schedule, for a freeze, and the rest of its time in the queue (CI running). Per interval: mean,
 * p95, max and sum of each, and the count; per group a summary over the whole window.
 */
const IDLE_QUEUE_TIME: Spec<IdleValues> = {
  types: ["action.queue.leave"],
  init: () => [],
  merge: (into, from) => {
    for (const v of from) into.push(v);
  },
  add: (acc, e, t, sink) => {
    const totalMs = queueMillis(e, t);
    if (totalMs === undefined) return;
    const sid = sessionKey(e);
    if (sid !== undefined) {
      if (!sink.first("idle", sid)) return;
    }
    const m = meta(e);
    const sched = typeof m.seconds_waiting_for_schedule === "number" ? Math.round(m.seconds_waiting_for_schedule * 1000) : 0;
    const freeze = typeof m.seconds_waiting_for_freeze === "number" ? Math.round(m.seconds_waiting_for_freeze * 1000) : 0;
    const firstStart = sid === undefined ? undefined : sink.firstChecksStart(sid);
    const queuedAt = parseIso(m.queued_at as string);
    const waited = firstStart !== undefined && firstStart >= queuedAt ? firstStart - queuedAt : totalMs;
    const capacity = Math.max(0, waited - sched - freeze);
    acc(keyOf(e), t).push(capacity, sched, freeze, Math.max(0, totalMs - capacity - sched - freeze));
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
        const sortedParts = PARTS.map((_, i) => partValues(a!, i));
        PARTS.forEach((p, i) => (rec[p] = round(mean(sortedParts[i]!))));
        PARTS.forEach((p, i) => (rec[`p95_${p}`] = round(percentile(sortedParts[i]!, 0.95))));
        PARTS.forEach((p, i) => (rec[`max_${p}`] = round(sortedParts[i]!.at(-1) ?? 0)));
        PARTS.forEach((p, i) => (rec[`sum_${p}`] = round(total(sortedParts[i]!))));
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
        PARTS.forEach((p, i) => {
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
 * skip_intermediate_results: batches whose checks were cut short because a batch behind them
 * passed (checks_end aborted with INTERMEDIATE_RESULTS_SKIPPED), each batch counted once, per
 * interval, zeros included (every group with checks in the window is listed).
 */
const SKIP_INTERMEDIATE_RESULTS: Spec<number[]> = {
  types: [CHECKS_END],
  ...sums(1),
  add: (acc, e, t, sink) => {
    const a = acc(keyOf(e), t);
    const m = meta(e);
    if (m.abort_code !== "INTERMEDIATE_RESULTS_SKIPPED") return;
    const batch = typeof m.batch_id === "string" ? m.batch_id : typeof m.train_car_id === "string" ? m.train_car_id : undefined;
    if (batch !== undefined) {
      if (!sink.first("skipped", batch)) return;
    }
    a[0]!++;
  },
  render: (slots, buckets, f) => ({ groups: grouped(slots, buckets, byKey(f), (a, b) => [{ ...interval(b), batches_saved: a?.[0] ?? 0 }], true) }),
};

/**
 * One accumulator per windowed endpoint record of src/stats/endpoints.ts, under the record's name
 * (the server's route table is built from the records). time-to-merge (an instant, not a window)
 * is answered by timeToMerge below.
 */
export const STATS_SPECS: Record<string, Spec_> = {
  "idle-queue-time": IDLE_QUEUE_TIME,
  "skip-intermediate-results": SKIP_INTERMEDIATE_RESULTS,

  "queues-entered-count": counter("action.queue.enter", "entered"),

  "queues-merged-count": {
    types: ["action.queue.merged"],
    ...sums(1),
    add: (acc, e, t) => void acc(mergedKeyOf(e), t)[0]!++,
    render: (slots, buckets, f) => ({
      groups: grouped(
        slots,
        buckets,
        (k) => matches(k as GroupKey, f, (k as { partition_names: string[] }).partition_names),
        (a, b) => [{ ...interval(b), merged: a?.[0] ?? 0 }],
        true,
      ),
    }),
  } satisfies Spec<number[]>,

  "failure-rate": {
    types: [CHECKS_END],
    ...sums(2),
    add: (acc, e, t) => {
      const a = acc(keyOf(e), t);
      a[0]!++;
      if (isFailedCheck(e)) a[1]!++;
    },
    render: (slots, buckets, f) => ({
      groups: grouped(
        slots,
        buckets,
        byKey(f),
        (a, b) => {
          const total = a?.[0] ?? 0;
          const failures = a?.[1] ?? 0;
          return [{ ...interval(b), total, failures, failure_rate: total === 0 ? 0 : failures / total }];
        },
        true,
      ),
    }),
  } satisfies Spec<number[]>,

  "queues-checks-outcome-count": checkOutcomes(false, (slots, buckets, f) => ({
    groups: grouped(slots, buckets, byKey(f), (a, b) => sorted(a!).map(([check_outcome, count]) => ({ ...interval(b), check_outcome, count })), false),
  })),

  // the deprecated endpoint: the same counts over one bucket, the whole window
  "merge-queue-checks-outcome": checkOutcomes(true, (slots, _buckets, f, from, to) => {
    const groups = grouped(slots, [{ start: from, end: to }], byKey(f), (a) => [Object.fromEntries(sorted(a!))], false);
    return { groups: groups.map((grp) => ({ ...grp, stats: (grp.stats as unknown[])[0] ?? {} })) };
  }),

  "queues-pr-exit-reasons": {
    types: ["action.queue.leave"],
    init: counts,
    merge: mergeCounts,
    add: (acc, e, t, sink) => {
      const sid = sessionKey(e);
      if (sid !== undefined) {
        if (!sink.first("session", sid)) return;
      }
      const m = meta(e);
      const reason = exitReasonOf(m.merged, m.reason);
      const a = acc(keyOf(e), t);
      a.set(reason, (a.get(reason) ?? 0) + 1);
    },
    render: (slots, buckets, f) => ({
      groups: grouped(slots, buckets, byKey(f), (a, b) => sorted(a!).map(([exit_reason, count]) => ({ ...interval(b), exit_reason, count })), false),
    }),
  } satisfies Spec<Counts>,

  "average-ci-runtime": {
    types: [CHECKS_END],
    ...sums(2),
    add: (acc, e, t, sink) => {
      const spec = meta(e).speculative_check_pull_request as Record<string, unknown> | undefined;
      const runtime = millis(spec?.checks_started_at, spec?.checks_ended_at);
      if (runtime === undefined) return;
      // one run per train car: the pull requests of a batch share it
      const car = trainCar(e);
      if (car !== undefined) {
        if (!sink.first("runtime", car)) return;
      }
      const a = acc(keyOf(e), t);
      a[0]!++;
      a[1]! += runtime;
    },
    render: (slots, buckets, f, _from, _to, o) => ({
      groups: grouped(
        slots,
        buckets,
        byKey(f),
        (a, b) => [{ ...interval(b), runtime: round(a![1]! / 1000 / a![0]!), ...(o.sums ? { sum_runtime: round(a![1]! / 1000), count_runtime: a![0] } : {}) }],
        false,
      ),
    }),
  } satisfies Spec<number[]>,

  "average-queue-time": {
    // [n, queue ms, idle capacity ms, schedule s, freeze s]
    types: ["action.queue.leave"],
    ...sums(5),
    add: (acc, e, t, sink) => {
      const total = queueMillis(e, t);
      if (total === undefined) return;
      const m = meta(e);
      const sched = typeof m.seconds_waiting_for_schedule === "number" ? m.seconds_waiting_for_schedule : 0;
      const freeze = typeof m.seconds_waiting_for_freeze === "number" ? m.seconds_waiting_for_freeze : 0;
      const sid = sessionKey(e);
      const firstStart = sid === undefined ? undefined : sink.firstChecksStart(sid);
      const queuedAt = parseIso(m.queued_at as string);
      const waited = firstStart !== undefined && firstStart >= queuedAt ? firstStart - queuedAt : total;
      const a = acc(keyOf(e), t);
      a[0]!++;
      a[1]! += total;
      a[2]! += Math.max(0, Math.round(waited - (sched + freeze) * 1000));
      a[3]! += sched;
      a[4]! += freeze;
    },
    render: (slots, buckets, f) => ({
      groups: grouped(
        slots,
        buckets,
        byKey(f),
        (a, b) => [
          {
            ...interval(b),
            queue_time: round(a![1]! / 1000 / a![0]!),
            idle_capacity: round(a![2]! / 1000 / a![0]!),
            idle_schedule: round(a![3]! / a![0]!),
            idle_freeze: round(a![4]! / a![0]!),
          },
        ],
        false,
      ),
    }),
  } satisfies Spec<number[]>,

  "total-queue-time": distribution("action.queue.leave", queueMillis, ["avg_queue_time", "max_queue_time", "min_queue_time"], { unit: 1000 }),

  "queue-size": distribution("action.queue.change", (e) => (typeof meta(e).size === "number" ? (meta(e).size as number) : undefined), ["avg_size", "max_size", "min_size"]),

  "running-speculative-checks": distribution(
    "action.queue.checks.change",
    (e) => (typeof meta(e).running_checks === "number" ? (meta(e).running_checks as number) : undefined),
    ["avg_running_checks", "max_running_checks", "min_running_checks"],
    { keyFn: noPriority },
  ),

  "batch-size": distribution(
    "action.queue.checks_start",
    (e) => {
      // the contract lists the batch at the top; the real service nests it in the speculative check
      const m = meta(e);
      const n = m.pull_request_numbers ?? (m.speculative_check_pull_request as { pull_request_numbers?: unknown } | undefined)?.pull_request_numbers;
      return Array.isArray(n) ? n.length : undefined;
    },
    ["avg_batch_size", "max_batch_size", "min_batch_size"],
    { dedupe: (e) => (trainCar(e) === undefined ? undefined : `batch:${trainCar(e)}`) },
  ),

  "batch-bisection": {
    // per key, started [n, depth, maxDepth, size] then completed [n, culprit, max]; a key's
    // started and completed are apart (a bisection can end in another bucket)
    types: ["action.queue.batch_bisection_start", "action.queue.batch_bisection_end"],
    init: () => [0, 0, 0, 0, 0, 0, 0],
    merge: (into: number[], from: number[]) => {
      for (let i = 0; i < 7; i++) into[i] = i === 2 ? Math.max(into[i]!, from[i]!) : into[i]! + from[i]!;
    },
    add: (acc, e, t) => {
      const m = meta(e);
      const a = acc(keyOf(e), t);
      if (e.type === "action.queue.batch_bisection_start") {
        const depth = typeof m.bisection_depth === "number" ? m.bisection_depth : 0;
        a[0]!++;
        a[1]! += depth;
        a[2] = Math.max(a[2]!, depth);
        a[3]! += typeof m.batch_size_before_split === "number" ? m.batch_size_before_split : 0;
      } else {
        a[4]!++;
        if (m.culprit_found === true) a[5]!++;
        if (m.max_failure_resolution_reached === true) a[6]!++;
      }
    },
    render: (slots, buckets, f) => {
      const started = new Map([...slots].map(([s, m]) => [s, new Map([...m].filter(([, a]) => a[0]! > 0))]));
      const completed = new Map([...slots].map(([s, m]) => [s, new Map([...m].filter(([, a]) => a[4]! > 0))]));
      return {
        started: grouped(
          started,
          buckets,
          byKey(f),
          (a, b) => [{ ...interval(b), bisection_count: a![0], avg_depth: round(a![1]! / a![0]!), max_depth: a![2], avg_batch_size_before_split: round(a![3]! / a![0]!) }],
          false,
        ),
        completed: grouped(
          completed,
          buckets,
          byKey(f),
          (a, b) => [{ ...interval(b), bisection_completed_count: a![4], culprit_found_count: a![5], max_failure_reached_count: a![6] }],
          false,
        ),
      };
    },
  } satisfies Spec<number[]>,

  "checks-retries": {
    // per session: its retried runs (retry_attempt >= 1) in the window; the session counts in the
    // bucket of its last retried run, and is recovered when that run succeeded. Sessions span
    // days, so they are kept whole (one slot) and bucketed when rendered.
    types: [CHECKS_END],
    whole: true,
    init: () => new Map<string, RetrySession>(),
    merge: (into: Map<string, RetrySession>, from: Map<string, RetrySession>) => {
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
    // a session's group key goes as its number
    pack: (a, key) => [...a].map(([sid, s]) => [sid, key(s.key), s.t, s.retries, s.depth, s.lastOk]),
    unpack: (packed, key) =>
      new Map(
        (packed as Array<[string, number, number, number, number, boolean]>).map(([sid, k, t, retries, depth, lastOk]) => [
          sid,
          { key: key(k) as GroupKey, t, retries, depth, lastOk },
        ]),
      ),
    add: (acc, e, t) => {
      const m = meta(e);
      if (typeof m.retry_attempt !== "number" || m.retry_attempt < 1) return;
      const sessions = acc(SESSIONS, t);
      const sid = sessionKey(e) ?? `event:${e.id}`;
      let s = sessions.get(sid);
      if (!s) sessions.set(sid, (s = { key: keyOf(e), t, retries: 0, depth: 0, lastOk: false }));
      s.retries++;
      if (t >= s.t) {
        s.t = t;
        s.lastOk = checkOutcome(e) === "SUCCESS";
      }
      s.depth = Math.max(s.depth, m.retry_attempt);
    },
    render: (slots, buckets, f) => {
      const bucketed: Slots<number[]> = new Map();
      for (const s of slots.get(0)?.get(SESSIONS)?.values() ?? []) {
        if (!matches(s.key, f)) continue;
        const i = bucketIndex(buckets, s.t);
        let m = bucketed.get(i);
        if (!m) bucketed.set(i, (m = new Map()));
        let a = m.get(s.key);
        if (!a) m.set(s.key, (a = [0, 0, 0, 0, 0]));
        a[0]! += s.retries;
        a[1]!++;
        if (s.lastOk) a[2]!++;
        a[3]! += s.depth;
        a[4] = Math.max(a[4]!, s.depth);
      }
      return {
        groups: grouped(
          bucketed,
          buckets,
          () => true,
          (a, b) => [
            {
              ...interval(b),
              total_retries: a![0],
              sessions_with_retries: a![1],
              recovered: a![2],
              not_recovered: a![1]! - a![2]!,
              recovery_rate: a![2]! / a![1]!,
              avg_retry_depth: round(a![3]! / a![1]!),
              max_retry_depth: a![4],
            },
          ],
          false,
        ),
      };
    },
  } satisfies Spec<Map<string, RetrySession>>,

  branches: names("base_ref", "base_refs"),

  queues: names("queue_name", "queue_names"),
};

/** specs by event type, for a pass that feeds every endpoint at once */
const SPECS_BY_TYPE: ReadonlyMap<string, Array<[string, Spec_]>> = (() => {
  const m = new Map<string, Array<[string, Spec_]>>();
  for (const [name, spec] of Object.entries(STATS_SPECS)) {
    for (const type of spec.types) {
      let list = m.get(type);
      if (!list) m.set(type, (list = []));
      list.push([name, spec]);
    }
  }
  return m;
})();

/**
 * A pass over events (in time order within each source) that feeds every endpoint at once, or
 * only `names` (into `target`'s slots when one name is given).
 */
export class Accumulation {
  readonly partials: Partials = new Map();
  /** event type -> the endpoints fed by it, with their adders (one lookup per event) */
  private readonly byType = new Map<string, Array<{ spec: Spec_; adder: (key: object, t: number) => unknown }>>();

  constructor(
    readonly sink: Sink,
    names: readonly string[] = Object.keys(STATS_SPECS),
    target?: Slots<unknown>,
  ) {
    for (const name of names) {
      const slots: Slots<unknown> = target && names.length === 1 ? target : new Map();
      this.partials.set(name, slots);
      const spec = STATS_SPECS[name]!;
      const adder = slotFor(spec, slots, sink);
      for (const type of spec.types) {
        let list = this.byType.get(type);
        if (!list) this.byType.set(type, (list = []));
        list.push({ spec, adder });
      }
    }
    // in the order of SPECS_BY_TYPE, as before: endpoints that share dedupe kinds see events alike
    for (const [type, list] of this.byType) {
      const order = (SPECS_BY_TYPE.get(type) ?? []).map(([, spec]) => spec);
      list.sort((a, b) => order.indexOf(a.spec) - order.indexOf(b.spec));
    }
  }

  add(e: StoredEvent, t: number): void {
    const list = this.byType.get(e.type);
    if (!list) return;
    for (let i = 0; i < list.length; i++) list[i]!.spec.add(list[i]!.adder, e, t, this.sink);
  }
}

/** merges one endpoint's partials, re-slotted (days into buckets), into `into` */
export function mergePartials(name: string, into: Slots<unknown>, from: Slots<unknown>, slotMap: (slot: number) => number): void {
  mergeSlots(STATS_SPECS[name]!, into, from, slotMap);
}

/** the answer of an endpoint from its bucketed values */
export function renderStats(name: string, slots: Slots<unknown>, c: { from: number; to: number; filter: StatsFilter; sums?: boolean }): unknown {
  return STATS_SPECS[name]!.render(slots, bucketsFor(c.from, c.to), c.filter, c.from, c.to, { sums: c.sums });
}

/**
 * Partials as another thread receives them (postMessage's structured clone): interned group keys
 * as numbers into a table that both sides grow as keys first appear (a day's partials name the
 * same few dozen keys in every endpoint: as text they were nine tenths of what was sent, and the
 * cost of sending it). A day's partials unpacked are the partials packed, value for value, in the
 * same order, under the receiving thread's own interned keys; so what another thread folded
 * merges as what this one would have.
 */
export interface PackedPartials {
  /** the keys first used here, as text, numbered on from the keys of the messages before */
  keys: string[];
  endpoints: Array<[name: string, slots: Array<[slot: number, keys: number[], values: unknown[]]>]>;
}

/** the keys that are not group keys (both `{}` as text) */
const MARKED_KEYS: ReadonlyArray<readonly [string, object]> = [
  ["#sessions", SESSIONS],
  ["#names", ALL_NAMES],
];

/** The sending side: one per stream of messages (a PartialsUnpacker reads them in order). */
export class PartialsPacker {
  private readonly numbers = new Map<object, number>();
  private fresh: string[] = [];

  private readonly key = (k: object): number => {
    let n = this.numbers.get(k);
    if (n === undefined) {
      this.numbers.set(k, (n = this.numbers.size));
      this.fresh.push(MARKED_KEYS.find(([, key]) => key === k)?.[0] ?? keyString(k));
    }
    return n;
  };

  pack(partials: Partials): PackedPartials {
    const endpoints: PackedPartials["endpoints"] = [];
    for (const [name, slots] of partials) {
      const spec = STATS_SPECS[name]!;
      const packed: PackedPartials["endpoints"][number][1] = [];
      for (const [slot, m] of slots) {
        const keys: number[] = [];
        const values: unknown[] = [];
        for (const [k, a] of m) {
          keys.push(this.key(k));
          values.push(spec.pack ? spec.pack(a, this.key) : a);
        }
        packed.push([slot, keys, values]);
      }
      endpoints.push([name, packed]);
    }
    const keys = this.fresh;
    this.fresh = [];
    return { keys, endpoints };
  }
}

/** The receiving side of a PartialsPacker's messages, in the order they were packed. */
export class PartialsUnpacker {
  private readonly keys: object[] = [];
  private readonly key = (n: number): object => this.keys[n]!;

  unpack(packed: PackedPartials): Partials {
    for (const text of packed.keys) this.keys.push(MARKED_KEYS.find(([marked]) => marked === text)?.[1] ?? keyFromString(text));
    const out: Partials = new Map();
    for (const [name, slots] of packed.endpoints) {
      const spec = STATS_SPECS[name];
      if (!spec) throw new Error(`unpackPartials: no endpoint ${name}`);
      const unpacked: Slots<unknown> = new Map();
      for (const [slot, keys, values] of slots) {
        const m = new Map<object, unknown>();
        for (let i = 0; i < keys.length; i++) m.set(this.keys[keys[i]!]!, spec.unpack ? spec.unpack(values[i], this.key) : values[i]);
        unpacked.set(slot, m);
      }
      out.set(name, unpacked);
    }
    return out;
  }
}

/** rough bytes of one endpoint's partials, for the server's memory budget */
export function partialBytes(slots: Slots<unknown>): number {
  let n = 0;
  for (const m of slots.values()) {
    n += 64;
    for (const a of m.values()) n += 48 + (a instanceof Map || a instanceof Set ? 56 * a.size : 16 * (a as unknown[]).length);
  }
  return n;
}

export interface StatsContext {
  store: EventStore;
  from: number;
  to: number;
  filter: StatsFilter;
  /** also give each average's sum and count, as the real service does */
  sums?: boolean;
}

type Handler = (c: StatsContext) => unknown;

/** one endpoint over a store's events of [from, to), in one pass: a bucket per slot */
export function computeStats(name: string, c: StatsContext): unknown {
  const spec = STATS_SPECS[name]!;
  const buckets = bucketsFor(c.from, c.to);
  const slots: Slots<unknown> = new Map();
  const sink = new Sink((t) => bucketIndex(buckets, t), (sid) => c.store.firstChecksStart(sid));
  const acc = slotFor(spec, slots, sink);
  for (const type of spec.types) {
    const positions = c.store.positionsOf(type, c.from, c.to);
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i]!;
      spec.add(acc, c.store.event(p), c.store.time(p), sink);
    }
  }
  return spec.render(slots, buckets, c.filter, c.from, c.to, { sums: c.sums });
}

/** Each endpoint's handler over a store (a replayed log, a short window): one pass, under the record's name. */
export const STATS_HANDLERS: Record<string, Handler> = Object.fromEntries(
  Object.keys(STATS_SPECS).map((name) => [name, (c: StatsContext) => computeStats(name, c)]),
);

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
