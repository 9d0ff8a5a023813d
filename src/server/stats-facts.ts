// The statistics of whole simulated days, folded from the simulation's QueueFacts
// (simulateDayFacts) instead of its events. A cold year-long query folds about 800,000 queue
// events; building them as events (metadata, times as text) and reading them back through the
// endpoints' accumulators cost about 13 ms a day, most of a cold year's 4.7 s. The facts carry
// what the endpoints read, already parsed, and this fold gives the partials the endpoints'
// `add` functions (stats.ts) give over the same events, value for value: it is their second
// reading, kept next to them in meaning (test/server/stats-facts.test.ts compares the two over
// many days, seeds, repositories and both dialects, every endpoint).
import { FACT, type FactLane, type QueueFact } from "./simulate/index.js";
import {
  ALL_NAMES,
  FAILED_CONCLUSIONS,
  groupKey,
  mergedKey,
  noPriorityKey,
  SESSIONS,
  spreadAdd,
  STATS_SPECS,
  type GroupKey,
  type Partials,
  type RetrySession,
  type Slots,
} from "./stats.js";
import { exitReasonOf } from "./texts.js";

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

  get(key: object): A {
    let m = this.map;
    if (m === undefined) this.slots.set(this.slot, (m = this.map = new Map()));
    let a = m.get(key);
    if (a === undefined) m.set(key, (a = this.init()));
    return a;
  }
}

type Counts = Map<string, number>;
const bump = (m: Counts, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** a lane's keys by priority, for one view: its group keys and queues_merged_count's keys (FactLane.memo) */
interface LaneKeys {
  view: FactView;
  group: Map<string | null, GroupKey>;
  merged: Map<string | null, object>;
  /** the accumulation whose branches and queues have its names */
  named: FactAccumulation | undefined;
}

/**
 * Every endpoint's partials of one calendar day (all in slot `day`, or 0 for the endpoints kept
 * whole), from the facts of the simulated days that reach into it, each day's in time order.
 */
export class FactAccumulation {
  readonly partials: Partials = new Map();

  private readonly idle: Cells<number[]>;
  private readonly skipped: Cells<number[]>;
  private readonly entered: Cells<number[]>;
  private readonly merged: Cells<number[]>;
  private readonly failureRate: Cells<number[]>;
  private readonly outcomes: Cells<Counts>;
  private readonly outcomesWhole: Cells<Counts>;
  private readonly exitReasons: Cells<Counts>;
  private readonly ciRuntime: Cells<number[]>;
  private readonly queueTime: Cells<number[]>;
  private readonly totalQueueTime: Cells<number[]>;
  private readonly queueSize: Cells<number[]>;
  private readonly running: Cells<number[]>;
  private readonly batchSize: Cells<number[]>;
  private readonly bisection: Cells<number[]>;
  private readonly retries: Cells<Map<string, RetrySession>>;
  private readonly branches: Cells<Set<string>>;
  private readonly queues: Cells<Set<string>>;

  constructor(
    day: number,
    private readonly view: FactView,
  ) {
    const cells = <A>(name: string): Cells<A> => {
      const spec = STATS_SPECS[name]!;
      const slots: Slots<A> = new Map();
      this.partials.set(name, slots as Slots<unknown>);
      return new Cells<A>(slots, spec.whole ? 0 : day, spec.init as () => A);
    };
    this.idle = cells("idle-queue-time");
    this.skipped = cells("skip-intermediate-results");
    this.entered = cells("queues-entered-count");
    this.merged = cells("queues-merged-count");
    this.failureRate = cells("failure-rate");
    this.outcomes = cells("queues-checks-outcome-count");
    this.outcomesWhole = cells("merge-queue-checks-outcome");
    this.exitReasons = cells("queues-pr-exit-reasons");
    this.ciRuntime = cells("average-ci-runtime");
    this.queueTime = cells("average-queue-time");
    this.totalQueueTime = cells("total-queue-time");
    this.queueSize = cells("queue-size");
    this.running = cells("running-speculative-checks");
    this.batchSize = cells("batch-size");
    this.bisection = cells("batch-bisection");
    this.retries = cells("checks-retries");
    this.branches = cells("branches");
    this.queues = cells("queues");
    if (this.partials.size !== Object.keys(STATS_SPECS).length) throw new Error("stats-facts: an endpoint has no fold of facts");
  }

  /** the group key of a lane's event (keyOf over the event) */
  private keyOf(lane: FactLane, prio: string | null): GroupKey {
    const keys = this.laneKeys(lane);
    let key = keys.group.get(prio);
    if (key === undefined) keys.group.set(prio, (key = groupKey(lane.base, this.view.partitions ? lane.partition : "__default__", lane.queue.name, prio)));
    return key;
  }

  /** queues_merged_count's key: the merged event names partition_names, not partition_name */
  private mergedKeyOf(lane: FactLane, prio: string | null): object {
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
    if (keys === undefined || keys.view !== this.view) lane.memo = keys = { view: this.view, group: new Map(), merged: new Map(), named: undefined };
    return keys;
  }

  /** branches and queues: the names of every queue event but checks.change and bisections (adding them again changes nothing) */
  private names(lane: FactLane): void {
    const keys = this.laneKeys(lane);
    if (keys.named === this) return;
    keys.named = this;
    this.branches.get(ALL_NAMES).add(lane.base);
    this.queues.get(ALL_NAMES).add(lane.queue.name);
  }

  add(f: QueueFact): void {
    const t = f.t;
    switch (f.kind) {
      case FACT.enter:
        this.entered.get(this.keyOf(f.lane, f.prio))[0]!++;
        this.names(f.lane);
        return;
      case FACT.change:
        spreadAdd(this.queueSize.get(this.keyOf(f.lane, f.prio)), f.a);
        this.names(f.lane);
        return;
      case FACT.checksChange:
        spreadAdd(this.running.get(noPriorityKey(this.keyOf(f.lane, null))), f.a);
        return;
      case FACT.checksStart:
        // one batch size per train car (Sink.first over the events: the car's facts are all of one time, so of one day)
        if (f.flag) spreadAdd(this.batchSize.get(this.keyOf(f.lane, f.prio)), f.a);
        this.names(f.lane);
        return;
      case FACT.checksEnd: {
        const key = this.keyOf(f.lane, f.prio);
        const code = f.text;
        const skipped = this.skipped.get(key);
        if (code === "INTERMEDIATE_RESULTS_SKIPPED" && f.flag) skipped[0]!++;
        const rate = this.failureRate.get(key);
        rate[0]!++;
        if (FAILED_CONCLUSIONS.has(f.conclusion)) rate[1]!++;
        // checkOutcome
        const outcome = code !== null ? code : f.conclusion === "success" ? "SUCCESS" : f.conclusion === "timed_out" ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
        bump(this.outcomes.get(key), outcome);
        bump(this.outcomesWhole.get(key), outcome);
        const runtime = f.b - f.a;
        if (runtime >= 0 && f.flag) {
          const a = this.ciRuntime.get(key);
          a[0]!++;
          a[1]! += runtime;
        }
        const attempt = f.c;
        if (attempt >= 1) {
          const sessions = this.retries.get(SESSIONS);
          let s = sessions.get(f.session);
          if (!s) sessions.set(f.session, (s = { key, t, retries: 0, depth: 0, lastOk: false }));
          s.retries++;
          if (t >= s.t) {
            s.t = t;
            s.lastOk = outcome === "SUCCESS";
          }
          s.depth = Math.max(s.depth, attempt);
        }
        this.names(f.lane);
        return;
      }
      case FACT.leave: {
        const key = this.keyOf(f.lane, f.prio);
        const queuedAt = f.a;
        const totalMs = t - queuedAt;
        const schedS = f.b;
        const freezeS = f.c;
        if (totalMs >= 0) {
          // the session's first checks_start (Sink.firstChecksStart; NaN: none, compares false)
          const firstStart = f.d;
          const waited = firstStart >= queuedAt ? firstStart - queuedAt : totalMs;
          // a session leaves once: its first leave (Sink.first over the events) is this one
          const sched = Math.round(schedS * 1000);
          const freeze = Math.round(freezeS * 1000);
          const capacity = Math.max(0, waited - sched - freeze);
          this.idle.get(key).push(capacity, sched, freeze, Math.max(0, totalMs - capacity - sched - freeze));
          bump(this.exitReasons.get(key), exitReasonOf(f.flag, f.text));
          const a = this.queueTime.get(key);
          a[0]!++;
          a[1]! += totalMs;
          a[2]! += Math.max(0, Math.round(waited - (schedS + freezeS) * 1000));
          a[3]! += schedS;
          a[4]! += freezeS;
          spreadAdd(this.totalQueueTime.get(key), totalMs);
        } else {
          bump(this.exitReasons.get(key), exitReasonOf(f.flag, f.text));
        }
        this.names(f.lane);
        return;
      }
      case FACT.merged: {
        this.merged.get(this.mergedKeyOf(f.lane, f.prio))[0]!++;
        this.names(f.lane);
        return;
      }
      case FACT.bisectionStart: {
        const a = this.bisection.get(this.keyOf(f.lane, f.prio));
        a[0]!++;
        a[1]! += f.a;
        a[2] = Math.max(a[2]!, f.a);
        a[3]! += f.b;
        return;
      }
      case FACT.bisectionEnd: {
        const a = this.bisection.get(this.keyOf(f.lane, f.prio));
        a[4]!++;
        if (f.flag) a[5]!++;
        if (f.flag2) a[6]!++;
        return;
      }
    }
  }
}
