// Passes over events: every endpoint fed at once (a day's partials) or one endpoint over a store
// (a short window); partials merged, rendered, and sent between threads.
import { STATS_SPECS } from "../endpoints/index.js";
import type { EventStore, StoredEvent } from "../store.js";
import { bucketIndex, bucketsFor } from "./buckets.js";
import { mergeSlots, slotFor, Sink, type AnySpec, type Partials, type Slots } from "./engine.js";
import { ALL_NAMES, keyFromString, keyString, SESSIONS, type StatsFilter } from "./keys.js";

/** specs by event type, for a pass that feeds every endpoint at once */
const SPECS_BY_TYPE: ReadonlyMap<string, Array<[string, AnySpec]>> = (() => {
  const m = new Map<string, Array<[string, AnySpec]>>();
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
  private readonly byType = new Map<string, Array<{ spec: AnySpec; adder: (key: object, t: number) => unknown }>>();

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
export function renderStats(
  name: string,
  slots: Slots<unknown>,
  c: { from: number; to: number; filter: StatsFilter; sums?: boolean },
): unknown {
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
    // a list of values, or a record of numbers (its fields)
    for (const a of m.values())
      n += 48 + (a instanceof Map || a instanceof Set ? 56 * a.size : 16 * (Array.isArray(a) ? a.length : Object.keys(a as object).length));
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
  const sink = new Sink(
    (t) => bucketIndex(buckets, t),
    (sid) => c.store.firstChecksStart(sid),
  );
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
