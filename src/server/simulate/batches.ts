// The queue of one lane: pull requests wait in priority order, the lane forms "waves" of up to
// `speculative` cars of up to `maxBatch` pull requests, runs their checks, merges the successes in
// order, bisects failed batches to find the culprit, retries single failures, re-embarks the cars
// behind a failure, and stops for pauses, scheduled freezes and the queue's schedule.
import { MIN } from "./days.js";
import type { Calendar } from "./calendar.js";
import type { Ci } from "./ci.js";
import type { Emission } from "./emission.js";
import type { Block, Car, Failing, Lane, Session } from "./model.js";
import type { SimDay } from "./shape.js";
import type { Traffic } from "./traffic.js";

/** how much earlier a car behind must pass for the queue to skip the rest of a car's checks */
const SKIP_AHEAD_MS = 5 * MIN;

export class Batches {
  constructor(
    private readonly day: SimDay,
    private readonly out: Emission,
    private readonly calendar: Calendar,
    private readonly traffic: Traffic,
    private readonly ci: Ci,
  ) {}

  /** the lane's day, from its first arrival until nobody waits */
  runLane(lane: Lane): void {
    const arrivals = lane.arrivals;
    arrivals.sort((a, b) => a.enter - b.enter);
    const waiting: Session[] = [];
    let i = 0;
    let lastBlock: Block | undefined;
    let t = arrivals.length > 0 ? arrivals[0]!.enter : Infinity;
    const admit = (s: Session) => {
      if (lastBlock && s.enter >= lastBlock.start && s.enter < lastBlock.end) {
        this.addWait(s, lastBlock.kind, s.enter, lastBlock.end);
      }
      let k = waiting.length;
      while (k > 0 && waiting[k - 1]!.prioRank > s.prioRank) k--;
      waiting.splice(k, 0, s);
    };
    let guard = 0;
    while (guard++ < 1_000_000) {
      while (i < arrivals.length && arrivals[i]!.enter <= t) admit(arrivals[i++]!);
      // pull requests that left while waiting
      for (let k = 0; k < waiting.length; k++) {
        const s = waiting[k]!;
        if (s.exitAt !== null && s.exitAt <= t) {
          this.traffic.earlyExit(s);
          waiting.splice(k--, 1);
        }
      }
      if (waiting.length === 0) {
        if (i >= arrivals.length) break;
        t = arrivals[i]!.enter;
        continue;
      }
      const block = this.calendar.blockAt(t, lane);
      const schedEnd = lane.queue.officeHours ? this.calendar.scheduleOpensAt(t) : t;
      if (block || schedEnd > t) {
        const kind = block ? block.kind : "schedule";
        const until = block ? block.end : schedEnd;
        for (const s of waiting) {
          this.addWait(s, kind, Math.max(t, s.enter), until);
          if (!s.notStarted) {
            s.notStarted = true;
            this.out.checksNotStarted(s, t + 1, kind);
          }
        }
        lastBlock = { start: t, end: until, kind, baseRefs: null };
        t = until;
        continue;
      }
      t = this.runWave(lane, waiting, t, arrivals, i);
    }
  }

  /**
   * credits a hold from `from` to its end whole, as the leave event counts it; the session keeps the
   * hold so that leaving inside it (Traffic.earlyExit) takes back what it did not wait
   */
  private addWait(s: Session, kind: Block["kind"], from: number, end: number): void {
    const ms = end - from;
    if (ms <= 0) return;
    // a pause is idle capacity: it has no counter of its own in the leave event
    if (kind === "freeze") s.freezeWait += ms;
    else if (kind === "schedule") s.scheduleWait += ms;
    s.holdKind = kind;
    s.holdStart = from;
    s.holdEnd = end;
  }

  /** runs one wave of cars starting at t; returns when the lane can start the next one */
  private runWave(lane: Lane, waiting: Session[], t: number, arrivals: Session[], nextArrival: number): number {
    const rng = this.day.rng;
    const ci = this.ci;
    const q = lane.queue;
    const cars: Car[] = [];
    for (let c = 0; c < q.speculative && waiting.length > 0; c++) {
      const take = waiting.splice(0, Math.min(q.maxBatch, waiting.length));
      const first = take.every((s) => s.retry === 0);
      cars.push(ci.startCar(lane, take, t + c * 20_000, first ? "First time checks" : "Re-embarked pull requests"));
    }
    const failIdx = cars.findIndex((c) => c.outcome !== "success");
    const decisive = failIdx >= 0 ? cars[failIdx]!.end : Math.max(...cars.map((c) => c.end));
    const putBack = (sessions: Session[]) => waiting.unshift(...sessions);

    // a pause or freeze starting while the cars run stops them all
    const block = this.calendar.blockStartingIn(t, Math.min(...cars.map((c) => c.end)), lane);
    if (block) {
      const code = block.kind === "pause" ? "PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE" : "SCHEDULED_FREEZE_STATUS_CHANGED";
      for (let c = cars.length - 1; c >= 0; c--) {
        // (a car that was to start just after the block starts is stopped as it starts)
        ci.endCar(lane, cars[c]!, Math.max(block.start, cars[c]!.start + 1000), "cancelled", { code, status: "REEMBARKED" }, null);
        putBack(cars[c]!.sessions);
      }
      return block.start;
    }

    // an urgent pull request arriving while a lower-priority car runs takes its place
    const lastCar = cars[cars.length - 1]!;
    const s = arrivals[nextArrival];
    if (s !== undefined && s.enter < lastCar.end) {
      if (s.prioRank === 0 && lastCar.sessions.every((x) => x.prioRank > 0) && failIdx < 0 && rng.chance(0.5)) {
        const at = Math.max(s.enter + 5000, lastCar.start + 1000);
        for (let c = 0; c < cars.length - 1; c++) this.finishSuccess(lane, cars[c]!, 0);
        ci.endCar(lane, lastCar, at, "cancelled", { code: "PR_WITH_HIGHER_PRIORITY_QUEUED", status: "REEMBARKED" }, null);
        putBack(lastCar.sessions);
        return Math.max(at, ...cars.slice(0, -1).map((c) => c.end)) + 5000;
      }
    }

    let mergedUntil = 0;
    const limit = failIdx >= 0 ? failIdx : cars.length;
    for (let c = 0; c < limit; c++) mergedUntil = this.finishSuccess(lane, cars[c]!, mergedUntil, this.skippedBy(cars, c, limit));
    if (failIdx < 0) return mergedUntil + 5000;

    const failed = cars[failIdx]!;
    // the cars behind a failure were tested on top of it: re-embark them
    for (let c = cars.length - 1; c > failIdx; c--) {
      ci.endCar(
        lane,
        cars[c]!,
        Math.max(decisive, cars[c]!.start + 1000),
        "cancelled",
        { code: "BATCH_AHEAD_FAILED", status: "REEMBARKED" },
        null,
      );
      putBack(cars[c]!.sessions);
    }
    const failing = ci.failingCheck(failed);
    const state = failing.state;
    const code = failed.outcome === "timeout" ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
    const end = failed.end;
    if (failed.sessions.length === 1) {
      const s = failed.sessions[0]!;
      if (q.maxRetries !== null && s.retry < q.maxRetries && failed.outcome === "failure") {
        ci.endCar(lane, failed, end, state, { code: "CHECKS_RETRIED", status: "REEMBARKED" }, failing);
        ci.jobRetried(s, end + 4000, failing);
        s.retry += 1;
        putBack([s]);
        return end + 10_000;
      }
      ci.endCar(lane, failed, end, state, { code, status: "DEFINITIVE" }, failing);
      this.out.leave(s, end + 3000, code, false, failing);
      this.traffic.afterFailure(s, end + 3000, arrivals, nextArrival);
      return end + 5000;
    }
    return this.bisect(lane, failed, failing, code, arrivals, nextArrival);
  }

  /**
   * When a successful car's checks were cut short: a car behind it (tested on top of it) passed
   * at least SKIP_AHEAD_MS before it would have ended, so the queue stopped waiting for it
   * (skip_intermediate_results). Decided from the cars' times alone, no random draw, so the rest
   * of the day is the same whether or not it happens.
   */
  private skippedBy(cars: readonly Car[], c: number, limit: number): number | undefined {
    let first: number | undefined;
    for (let k = c + 1; k < limit; k++) {
      const end = cars[k]!.end;
      if (end + SKIP_AHEAD_MS <= cars[c]!.end && (first === undefined || end < first)) first = end;
    }
    return first;
  }

  /**
   * checks_end for a successful car (cut short at `skippedAt` + 1 s when a car behind it passed
   * first) and the merges, in queue order; returns the last merge time
   */
  private finishSuccess(lane: Lane, car: Car, after: number, skippedAt?: number): number {
    if (skippedAt === undefined) this.ci.endCar(lane, car, car.end, "success", null, null);
    else this.ci.endCar(lane, car, skippedAt + 1000, "cancelled", { code: "INTERMEDIATE_RESULTS_SKIPPED", status: "DEFINITIVE" }, null);
    let t = Math.max(car.end, after) + this.day.rng.int(2, 10) * 1000;
    for (const s of car.sessions) {
      this.traffic.merge(s, t);
      t += 2000;
    }
    return t;
  }

  /** a failed batch split in halves until the culprit is alone (or the queue gives up); the others merge */
  private bisect(lane: Lane, car: Car, failing: Failing, code: string, arrivals: Session[], nextArrival: number): number {
    const rng = this.day.rng;
    const original = car.sessions.map((s) => s.pr);
    const first = car.sessions[0]!;
    this.ci.endCar(lane, car, car.end, failing.state, { code, status: "REEMBARKED" }, failing);
    const culprit = rng.pick(car.sessions);
    const giveUp = car.sessions.length >= 3 && rng.chance(0.08);
    let set = car.sessions;
    let time = car.end + 5000;
    let depth = 1;
    let reachedMax = false;
    while (set.length > 1) {
      this.out.bisectionStart(lane, first, time, original, set, depth);
      const half = Math.ceil(set.length / 2);
      const parts = [set.slice(0, half), set.slice(half)];
      let failedPart = set;
      let latest = time;
      for (const part of parts) {
        const sub = this.ci.bisectionCar(lane, part, time + 10_000);
        if (part.includes(culprit)) {
          failedPart = part;
          this.ci.endCar(lane, sub, sub.end, failing.state, { code, status: part.length === 1 ? "DEFINITIVE" : "REEMBARKED" }, failing);
        } else {
          this.ci.endCar(lane, sub, sub.end, "success", null, null);
        }
        latest = Math.max(latest, sub.end);
      }
      time = latest + 5000;
      set = failedPart;
      depth += 1;
      // the queue gives up after one split, the culprit still among several
      if (giveUp && set.length > 1) {
        reachedMax = true;
        break;
      }
    }
    if (reachedMax) {
      // the failing half is dequeued unresolved; the pull requests whose half passed merge
      const unresolved = set;
      this.out.bisectionEnd(
        lane,
        first,
        time,
        original,
        null,
        original.filter((n) => !unresolved.some((s) => s.pr === n)),
      );
      let t = time + 3000;
      for (const s of unresolved) {
        this.out.leave(s, t, "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS", false, failing);
        t += 1000;
      }
      for (const s of car.sessions) {
        if (unresolved.includes(s)) continue;
        this.traffic.merge(s, t);
        t += 2000;
      }
      return t + 5000;
    }
    this.out.bisectionEnd(
      lane,
      first,
      time,
      original,
      culprit.pr,
      original.filter((n) => n !== culprit.pr),
    );
    this.out.leave(culprit, time + 3000, code, false, failing);
    this.traffic.afterFailure(culprit, time + 3000, arrivals, nextArrival);
    let t = time + 5000;
    for (const s of car.sessions) {
      if (s === culprit) continue;
      this.traffic.merge(s, t);
      t += 2000;
    }
    return t + 5000;
  }
}
