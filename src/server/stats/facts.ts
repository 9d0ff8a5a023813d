// The statistics of whole simulated days, folded from the simulation's QueueFacts
// (simulateDayFacts) instead of its events. A cold year-long query folds about 800,000 queue
// events; building them as events (metadata, times as text) and reading them back through the
// endpoints' accumulators cost about 13 ms a day, most of a cold year's 4.7 s. The facts carry
// what the endpoints read, already parsed; each endpoint's definition (src/server/endpoints/)
// reads them (`facts`) into the same named records its event reader (`add`) fills, value for
// value (test/server/stats-facts.test.ts compares the two over many days, seeds, repositories and
// both dialects, every endpoint).
import { STATS_SPECS } from "../endpoints/index.js";
import { FACT, type FactLane, type QueueFact } from "../simulate/index.js";
import type { FactContext, Partials, Slots } from "./engine.js";
import { groupKey, mergedKey, type GroupKey } from "./keys.js";

/** What the events of a dialect keep of the facts the statistics read. */
export interface FactView {
  /**
   * whether queue events name their partition (partition_name, partition_names); the real
   * service's shape does not, and every group is then in "__default__"
   */
  partitions: boolean;
}

/** the contract's shape: every field the simulation writes */
export const CONTRACT_VIEW: FactView = { partitions: true };

/** one endpoint's values in one slot, the slot's map made on first use (as Accumulation does) */
class Cells<A> {
  private map: Map<object, A> | undefined;
  constructor(
    private readonly slots: Slots<A>,
    private readonly slot: number,
    private readonly init: () => A,
  ) {}

  readonly get = (key: object): A => {
    let m = this.map;
    if (m === undefined) this.slots.set(this.slot, (m = this.map = new Map()));
    let a = m.get(key);
    if (a === undefined) m.set(key, (a = this.init()));
    return a;
  };
}

/** a lane's keys by priority, for one view: its group keys and queues_merged_count's keys (FactLane.memo) */
interface LaneKeys {
  view: FactView;
  group: Map<string | null, GroupKey>;
  merged: Map<string | null, object>;
}

type Reader = { add(cell: (key: object) => unknown, f: QueueFact, c: FactContext): void; cell: (key: object) => unknown };

/**
 * Every endpoint's partials of one calendar day (all in slot `day`, or 0 for the endpoints kept
 * whole), from the facts of the simulated days that reach into it, each day's in time order.
 */
export class FactAccumulation implements FactContext {
  readonly partials: Partials = new Map();
  /** fact kind -> the endpoints that read it, in the order of STATS_SPECS */
  private readonly byKind: Reader[][] = [];
  private fact: QueueFact | undefined;
  key!: GroupKey;

  constructor(
    day: number,
    private readonly view: FactView,
  ) {
    for (const [name, spec] of Object.entries(STATS_SPECS)) {
      const slots: Slots<unknown> = new Map();
      this.partials.set(name, slots);
      const cells = new Cells<unknown>(slots, spec.whole ? 0 : day, spec.init);
      for (const kind of spec.facts.kinds) (this.byKind[kind] ??= []).push({ add: spec.facts.add, cell: cells.get });
    }
  }

  add(fact: QueueFact): void {
    const readers = this.byKind[fact.kind];
    if (readers === undefined) return;
    // without partitions (the real service's events), a size or running-check count is the whole queue's (WHOLE_QUEUE)
    const f = !this.view.partitions && (fact.kind === FACT.change || fact.kind === FACT.checksChange) ? { ...fact, a: fact.b } : fact;
    this.fact = f;
    this.key = this.keyOf(f.lane, f.prio);
    for (let i = 0; i < readers.length; i++) readers[i]!.add(readers[i]!.cell, f, this);
  }

  /** the group key of a lane's event (keyOf over the event) */
  private keyOf(lane: FactLane, prio: string | null): GroupKey {
    const keys = this.laneKeys(lane);
    let key = keys.group.get(prio);
    if (key === undefined)
      keys.group.set(prio, (key = groupKey(lane.base, this.view.partitions ? lane.partition : "__default__", lane.queue.name, prio)));
    return key;
  }

  /** queues_merged_count's key: the merged event names partition_names, not partition_name */
  mergedKey(): object {
    const { lane, prio } = this.fact!;
    const keys = this.laneKeys(lane);
    let key = keys.merged.get(prio);
    if (key === undefined) {
      const group = groupKey(lane.base, "__default__", lane.queue.name, prio);
      keys.merged.set(prio, (key = mergedKey(group, [this.view.partitions ? lane.partition : "__default__"])));
    }
    return key;
  }

  private laneKeys(lane: FactLane): LaneKeys {
    let keys = lane.memo as LaneKeys | undefined;
    if (keys === undefined || keys.view !== this.view) lane.memo = keys = { view: this.view, group: new Map(), merged: new Map() };
    return keys;
  }
}
