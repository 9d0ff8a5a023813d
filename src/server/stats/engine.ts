// The statistics engine. Every endpoint is defined (src/server/endpoints/) as an accumulator:
// `add` folds one event into the value of its group key in the event's slot, `facts.add` folds
// one of the simulation's facts the same way (whole simulated days are folded from facts, not
// events: stats/facts.ts), `merge` folds two values into one, exactly, so that a window's figures
// are the same whether it is computed in one pass (a bucket per slot) or merged from cached
// per-day partials (a calendar day per slot, re-slotted into buckets). `render` turns the
// bucketed values into the endpoint's answer; filters apply there, to group keys, so that one
// cached day serves every filter.
import type { FactKind, QueueFact } from "../simulate/index.js";
import type { StoredEvent } from "../store.js";
import type { Accumulator } from "./accumulators.js";
import type { Bucket } from "./buckets.js";
import { keyString, type GroupKey, type StatsFilter } from "./keys.js";

/** slot -> interned group key -> value */
export type Slots<A> = Map<number, Map<object, A>>;

/** The accumulation of every endpoint over some events: endpoint path -> its slots. */
export type Partials = Map<string, Slots<unknown>>;

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

/** How an answer is shaped beyond its figures. */
export interface RenderOptions {
  /** also give each average's sum and count (`sum_queue_time`, `count_queue_time`, ...), as the real service does */
  sums?: boolean;
}

/** What a fact reader knows of the fact being folded besides the fact itself. */
export interface FactContext {
  /** the fact's group key (keyOf over its event, in the dialect's view) */
  readonly key: GroupKey;
  /** queues_merged_count's key of the fact (its event names partition_names) */
  mergedKey(): object;
}

/** The second reading of an endpoint: over the simulation's facts, giving what `add` gives over their events. */
export interface FactReader<A> {
  /** the fact kinds it reads (FACT) */
  kinds: readonly FactKind[];
  add(cell: (key: object) => A, f: QueueFact, c: FactContext): void;
}

/** How docs/server.md says an endpoint is derived (its row of "How each figure is derived", generated). */
export interface EndpointDoc {
  /** the events it reads */
  from: string;
  /** how its figures are computed from them */
  figure: string;
}

/** One endpoint's definition on the server side. */
export interface Spec<A> extends Accumulator<A> {
  /** its row in docs/server.md */
  doc: EndpointDoc;
  /** the event types it reads */
  types: readonly string[];
  /** everything goes to one slot: figures that are not a sum over buckets (sessions, names, one bucket) */
  whole?: boolean;
  add(acc: (key: object, t: number) => A, e: StoredEvent, t: number, sink: Sink): void;
  facts: FactReader<A>;
  render(slots: Slots<A>, buckets: Bucket[], filter: StatsFilter, from: number, to: number, options: RenderOptions): unknown;
  /** a value as another thread can receive it (PartialsPacker), when it holds group keys (`key` numbers them); and back */
  pack?(a: A, key: (k: object) => number): unknown;
  unpack?(packed: unknown, key: (n: number) => object): A;
}

export type AnySpec = Spec<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** the value of a key at a time, made on first use, in the slot the sink gives the time */
export function slotFor<A>(spec: Spec<A>, slots: Slots<A>, sink: Sink) {
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
export function mergeSlots<A>(spec: Spec<A>, into: Slots<A>, from: Slots<A>, slotMap: (slot: number) => number): void {
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
export function grouped<A>(
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
