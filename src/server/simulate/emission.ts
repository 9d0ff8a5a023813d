// How a simulated day is written down. For the log, every happening becomes an event (its type,
// trigger and metadata, as the contract shapes them); for the statistics of whole days (facts
// mode), the queue events become QueueFacts (the figures the statistics read, no text) and the
// other events are not built at all. The parts of the simulation decide what happens and when;
// they call this module to write it, and nothing here draws a random number.
import { ABORT_CODE_TEXT, MERGED_REASON } from "../texts.js";
import { ID_PER_MS, iso, SLOTS_PER_DAY, SPILL_DAYS } from "./days.js";
import {
  FACT,
  type Car,
  type Failing,
  type FactKind,
  type FactLane,
  type Lane,
  type QueueFact,
  type Session,
  type SimEvent,
  WHOLE_QUEUE,
} from "./model.js";
import type { SimDay } from "./shape.js";

export const CHECK_NAMES = ["ci/build", "ci/test", "ci/lint", "e2e"] as const;

// nested metadata shared by many events: built once, never mutated
const CONDITIONS = [false, true].map((match) => ({
  match: false,
  label: "all of",
  is_label_user_input: false,
  description: null,
  attribute_name: null,
  operator: null,
  schedule: null,
  subconditions: [
    {
      match,
      label: "check-success=ci/test",
      is_label_user_input: true,
      description: null,
      attribute_name: "check-success",
      operator: "=",
      schedule: null,
      subconditions: [],
      evaluations: [],
    },
  ],
  evaluations: [],
}));

/** the abort of a run: its code, and whether its pull requests go back in the queue */
export interface Abort {
  code: string;
  status: "DEFINITIVE" | "REEMBARKED";
}

export class Emission {
  private readonly events: SimEvent[] = [];
  /** facts mode: the queue events' facts, in emission order; no events */
  private readonly facts: QueueFact[] | null;
  /** lane key + priority -> +1/-1 at time t, for queue.change */
  private readonly sizeDeltas: Array<{ t: number; key: string; lane: Lane; prio: string | null; d: number; pr: number }> = [];
  /** lane key -> +1/-1, for checks.change */
  private readonly checkDeltas: Array<{ t: number; lane: Lane; d: number }> = [];

  constructor(private readonly day: SimDay) {
    this.facts = day.factsOnly ? [] : null;
  }

  /** a day owns [00:00, limit]: a "few seconds before" the first arrival stays on the day */
  clamp(t: number): number {
    const ms = Math.round(t);
    return ms < this.day.startMs ? this.day.startMs : ms > this.day.limitMs ? this.day.limitMs : ms;
  }

  /** an event; in facts mode nothing (the queue events are recorded as facts by the writers below) */
  emit(t: number, type: string, pr: number | null, base: string | null, trigger: string, metadata: Record<string, unknown>): void {
    if (this.facts) return;
    const ms = this.clamp(t);
    // the final event, with its time in `id` until `finish` (one object per event, no record)
    this.events.push({ id: ms, received_at: "", trigger, repository: this.day.repo, pull_request: pr, base_ref: base, type, metadata });
  }

  private fact(
    t: number,
    kind: FactKind,
    lane: FactLane,
    prio: string | null,
    session: string,
    d = 0,
    a = 0,
    b = 0,
    c = 0,
    text: string | null = null,
    conclusion = "",
    flag = false,
    flag2 = false,
  ): void {
    this.facts!.push({ t: this.clamp(t), kind, lane, prio, session, d, a, b, c, text, conclusion, flag, flag2 });
  }

  /**
   * The day's events, oldest first. Ids are time-major so that they increase with time across
   * days too, as on the real service: id = ms x 1024 + (day mod 4) x 256 + rank among the day's
   * events of that millisecond. Days whose events can share a millisecond are at most SPILL_DAYS
   * apart, so their slots differ. (Exact integers until the year 2248.)
   */
  finish(): SimEvent[] {
    const out = this.events;
    // stable: events of the same millisecond keep the order they were emitted in
    out.sort((a, b) => a.id - b.id);
    const day = this.day.day;
    const dayBase = (((day % (SPILL_DAYS + 1)) + SPILL_DAYS + 1) % (SPILL_DAYS + 1)) * SLOTS_PER_DAY;
    let lastT = -Infinity;
    let rank = 0;
    for (let i = 0; i < out.length; i++) {
      const e = out[i]!;
      const t = e.id;
      rank = t === lastT ? rank + 1 : 0;
      lastT = t;
      if (rank >= SLOTS_PER_DAY) throw new Error(`simulation: more than ${SLOTS_PER_DAY} events at ${iso(t)}`);
      e.id = t * ID_PER_MS + dayBase + rank;
      e.received_at = iso(t);
    }
    return out;
  }

  /** the facts in the order `finish` gives the events: by time, then as emitted */
  finishFacts(): QueueFact[] {
    // stable, and fast on what is emitted: runs in time order (a lane's, the sizes', the checks')
    return this.facts!.sort((a, b) => a.t - b.t);
  }

  trigger(s: Session): string {
    return `Rule: queue to ${s.lane.queue.name}`;
  }

  /** a session's id (facts mode makes it when first needed, from where its draws were) */
  private sessionId(s: Session): string {
    if (s.idFrom) {
      s.id = s.idFrom.uuid();
      s.idFrom = null;
    }
    return s.id;
  }

  /** the queue a size counts: lane and priority (one string each, made once) */
  private sizeKey(lane: Lane, prio: string | null): string {
    let key = lane.sizeKeys.get(prio);
    if (key === undefined) lane.sizeKeys.set(prio, (key = `${lane.key}\u0000${prio ?? ""}`));
    return key;
  }

  /** the check runs of a train car's checks: each run has its own URL, which names the car */
  private checks(state: string, failing: string | null, car: string): Record<string, unknown>[] {
    return CHECK_NAMES.map((name) => ({
      name,
      description: name === failing ? `${name} ${state}` : "Successful",
      url: `https://ci.example.com/${this.day.repo}/runs/${car}/${name}`,
      state: name === failing ? state : "success",
      avatar_url: null,
    }));
  }

  private specPr(car: Car, conclusion: string, ended: number | null, failing: Failing | null): Record<string, unknown> {
    return {
      number: car.number,
      in_place: car.sessions.length === 1,
      checks_timed_out: conclusion === "timed_out",
      checks_conclusion: conclusion,
      checks_started_at: car.startIso,
      checks_ended_at: ended === null ? null : iso(ended),
      unsuccessful_checks: failing ? this.checks(failing.state, failing.check, car.id).filter((c) => c.state !== "success") : [],
    };
  }

  // ---------------------------------------------------------------------------------------------
  // the queue events, each written as an event or as a fact

  /** a session enters its lane's queue */
  enter(s: Session): void {
    const { lane, prio, enter } = s;
    if (this.facts) this.fact(enter, FACT.enter, lane, prio, "");
    else {
      this.emit(enter, "action.queue.enter", s.pr, lane.base, this.trigger(s), {
        queue_name: lane.queue.name,
        branch: lane.base,
        queued_at: s.enterIso,
        partition_name: lane.partition,
        priority_rule_name: prio,
        session_id: s.id,
      });
    }
    this.sizeDeltas.push({ t: enter, key: this.sizeKey(lane, prio), lane, prio, d: 1, pr: s.pr });
  }

  /** a waiting session's checks cannot start (a pause, a freeze, the queue's schedule) */
  checksNotStarted(s: Session, t: number, kind: string): void {
    const lane = s.lane;
    this.emit(t, "action.queue.checks_not_started", s.pr, lane.base, this.trigger(s), {
      branch: lane.base,
      partition_name: lane.partition,
      priority_rule_name: s.prio,
      queue_name: lane.queue.name,
      queued_at: s.enterIso,
      reason:
        kind === "pause"
          ? "The merge queue is paused"
          : kind === "freeze"
            ? "A scheduled freeze is active"
            : "The queue schedule is closed",
      session_id: s.id,
    });
  }

  /** a session leaves the queue (merged or not); a session leaves once, later calls write nothing */
  leave(s: Session, t: number, code: string | null, merged: boolean, failing: Failing | null = null): void {
    if (s.left) return;
    s.left = true;
    const lane = s.lane;
    if (this.facts) {
      const reason = merged ? MERGED_REASON : (ABORT_CODE_TEXT[code!] ?? code);
      // queued_at is the entry time's text, to the ms (truncated, as iso writes it)
      this.fact(
        t,
        FACT.leave,
        lane,
        s.prio,
        "",
        s.firstStart,
        Math.trunc(s.enter),
        Math.round(s.scheduleWait / 1000),
        Math.round(s.freezeWait / 1000),
        reason,
        "",
        merged,
      );
    } else
      this.emit(t, "action.queue.leave", s.pr, lane.base, this.trigger(s), {
        reason: merged ? MERGED_REASON : (ABORT_CODE_TEXT[code!] ?? code),
        merged,
        queue_name: lane.queue.name,
        branch: lane.base,
        partition_name: lane.partition,
        queued_at: s.enterIso,
        seconds_waiting_for_schedule: Math.round(s.scheduleWait / 1000),
        seconds_waiting_for_freeze: Math.round(s.freezeWait / 1000),
        priority_rule_name: s.prio,
        conditions_evaluation: merged ? null : CONDITIONS[code === "CHECKS_FAILED" ? 0 : 1],
        checks: failing ? this.checks(failing.state, failing.check, s.lastRun) : merged ? this.checks("success", null, s.lastRun) : [],
        pull_request_head_sha: s.sha,
        session_id: s.id,
      });
    this.sizeDeltas.push({ t, key: this.sizeKey(lane, s.prio), lane, prio: s.prio, d: -1, pr: s.pr });
  }

  /** the queue merged a session's pull request */
  merged(s: Session, t: number): void {
    const lane = s.lane;
    if (this.facts) this.fact(t, FACT.merged, lane, s.prio, "");
    else {
      this.emit(t, "action.queue.merged", s.pr, lane.base, this.trigger(s), {
        branch: lane.base,
        partition_names: [lane.partition],
        queue_name: lane.queue.name,
        queued_at: s.enterIso,
        priority_rule_name: s.prio,
        session_id: s.id,
      });
    }
  }

  /** a train car's checks start: one event per pull request of the car */
  checksStart(lane: Lane, car: Car, reason: string): void {
    const { sessions, start } = car;
    this.checkDeltas.push({ t: start, lane, d: 1 });
    if (this.facts) {
      // flag: the car's first fact (a car starts once: the statistics count a batch once by it)
      const ms = this.clamp(start);
      for (const s of sessions) {
        if (!(s.firstStart <= ms)) s.firstStart = ms;
        this.fact(start, FACT.checksStart, lane, s.prio, "", 0, sessions.length, 0, 0, null, "", s === sessions[0]);
      }
      return;
    }
    const numbers = sessions.map((s) => s.pr);
    const pending = this.specPr(car, "pending", null, null);
    for (const s of sessions) {
      this.emit(start, "action.queue.checks_start", s.pr, lane.base, this.trigger(s), {
        branch: lane.base,
        partition_name: lane.partition,
        priority_rule_name: s.prio,
        queue_name: lane.queue.name,
        queued_at: s.enterIso,
        start_reason: reason,
        speculative_check_pull_request: pending,
        pull_request_numbers: numbers,
        train_car_id: car.id,
        session_id: s.id,
      });
    }
  }

  /** a train car's checks end (or are cut short): one event per pull request of the car */
  checksEnd(lane: Lane, car: Car, at: number, conclusion: string, abort: Abort | null, failing: Failing | null): void {
    const q = lane.queue;
    this.checkDeltas.push({ t: at, lane, d: -1 });
    if (this.facts) {
      // checks_started_at and checks_ended_at are written to the ms (truncated, as iso writes them)
      const started = Math.trunc(car.start);
      const ended = Math.trunc(at);
      const code = abort?.code ?? null;
      for (const s of car.sessions) {
        // flag: the car's first fact (a car ends once: the statistics count a run once by it)
        const retry = q.maxRetries === null ? -1 : s.retry;
        // the session's id is read only by checks_retries, for retried runs
        this.fact(
          at,
          FACT.checksEnd,
          lane,
          s.prio,
          retry >= 1 ? this.sessionId(s) : "",
          0,
          started,
          ended,
          retry,
          code,
          conclusion,
          s === car.sessions[0],
        );
      }
      return;
    }
    const numbers = car.sessions.map((s) => s.pr);
    const spec = this.specPr(car, conclusion, at, failing);
    for (const s of car.sessions) {
      this.emit(at, "action.queue.checks_end", s.pr, lane.base, this.trigger(s), {
        aborted: abort !== null,
        abort_code: abort?.code ?? null,
        abort_reason: abort ? (ABORT_CODE_TEXT[abort.code] ?? abort.code) : null,
        abort_status: abort?.status ?? "DEFINITIVE",
        branch: lane.base,
        partition_name: lane.partition,
        priority_rule_name: s.prio,
        queue_name: q.name,
        queued_at: s.enterIso,
        retry_attempt: q.maxRetries === null ? null : s.retry,
        max_retries: q.maxRetries,
        speculative_check_pull_request: spec,
        pull_request_numbers: numbers,
        train_car_id: car.id,
        session_id: s.id,
      });
    }
  }

  /** a failed batch is split in two (the first pull request's session speaks for the batch) */
  bisectionStart(lane: Lane, first: Session, time: number, original: number[], set: readonly Session[], depth: number): void {
    if (this.facts) this.fact(time, FACT.bisectionStart, lane, first.prio, "", 0, depth, set.length);
    else
      this.emit(time, "action.queue.batch_bisection_start", null, lane.base, this.trigger(first), {
        queue_name: lane.queue.name,
        partition_name: lane.partition,
        priority_rule_name: first.prio,
        original_batch_pr_numbers: original,
        batch_size_before_split: set.length,
        number_of_sub_batches: 2,
        bisection_depth: depth,
        is_top_level: depth === 1,
        session_id: first.id,
      });
  }

  /**
   * a bisection found its culprit, or gave up (no culprit: max_failure_resolution_reached);
   * `remaining`: the pull requests it found innocent
   */
  bisectionEnd(lane: Lane, first: Session, time: number, original: number[], culprit: number | null, remaining: number[]): void {
    const reachedMax = culprit === null;
    if (this.facts) this.fact(time, FACT.bisectionEnd, lane, first.prio, "", 0, 0, 0, 0, null, "", !reachedMax, reachedMax);
    else
      this.emit(time, "action.queue.batch_bisection_end", null, lane.base, this.trigger(first), {
        queue_name: lane.queue.name,
        partition_name: lane.partition,
        priority_rule_name: first.prio,
        original_batch_pr_numbers: original,
        culprit_found: !reachedMax,
        culprit_pr_numbers: culprit === null ? [] : [culprit],
        remaining_pr_numbers: remaining,
        max_failure_resolution_reached: reachedMax,
        session_id: first.id,
      });
  }

  // ---------------------------------------------------------------------------------------------
  // derived events: queue sizes and running checks, from the enter/leave and start/end writes

  derived(): void {
    this.emitQueueSizes();
    this.emitRunningChecks();
  }

  private emitQueueSizes(): void {
    this.sizeDeltas.sort((a, b) => a.t - b.t || a.d - b.d);
    const sizes = new Map<string, number>();
    const whole = new Map<string, number>();
    for (const d of this.sizeDeltas) {
      // a leave follows its enter, so neither count goes below 0
      const size = (sizes.get(d.key) ?? 0) + d.d;
      sizes.set(d.key, size);
      const queueKey = `${d.lane.base}\u0000${d.lane.queue.name}\u0000${d.prio ?? ""}`;
      const all = (whole.get(queueKey) ?? 0) + d.d;
      whole.set(queueKey, all);
      if (this.facts) this.fact(d.t, FACT.change, d.lane, d.prio, "", 0, size, all);
      else {
        const metadata: Record<string | symbol, unknown> = {
          queue_name: d.lane.queue.name,
          partition_name: d.lane.partition,
          priority_rule_name: d.prio,
          size,
        };
        metadata[WHOLE_QUEUE] = all;
        this.emit(d.t, "action.queue.change", d.pr, d.lane.base, "Merge queue", metadata);
      }
    }
  }

  private emitRunningChecks(): void {
    this.checkDeltas.sort((a, b) => a.t - b.t || a.d - b.d);
    const running = new Map<string, number>();
    const whole = new Map<string, number>();
    for (const d of this.checkDeltas) {
      const n = (running.get(d.lane.key) ?? 0) + d.d;
      running.set(d.lane.key, n);
      const queueKey = `${d.lane.base}\u0000${d.lane.queue.name}`;
      const all = (whole.get(queueKey) ?? 0) + d.d;
      whole.set(queueKey, all);
      if (this.facts) this.fact(d.t, FACT.checksChange, d.lane, null, "", 0, n, all);
      else {
        const metadata: Record<string | symbol, unknown> = {
          queue_name: d.lane.queue.name,
          partition_name: d.lane.partition,
          running_checks: n,
        };
        metadata[WHOLE_QUEUE] = all;
        this.emit(d.t, "action.queue.checks.change", null, d.lane.base, "Merge queue", metadata);
      }
    }
  }
}
