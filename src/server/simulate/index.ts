// The deterministic merge-queue simulation behind `mq serve` and `mq --offline`.
//
// One repository is a set of lanes (base ref x partition x queue). A simulated day is made by
// cooperating parts that share its state (shape.ts: the repository's shape, the day's random
// stream and counters):
//   traffic.ts   pull requests arriving, their sessions and what happens to them around the queue
//   calendar.ts  pauses, scheduled freezes and the office-hours schedule
//   batches.ts   each lane's queue: waves of train cars, merges, retries, bisection
//   ci.ts        the checks of a car, CI Insights' retries, the day's CI issues
//   emission.ts  how it is all written: events for the log, or facts for the statistics
// Queue sizes and running-check counts are then derived from the enter/leave and start/end
// writes themselves, so every figure the statistics endpoints report is consistent with the log.
//
// Everything random comes from one seeded Rng (seed x repository x day): no Math.random, no clock.
// The parts draw from it in the order they are called, so that order is part of the history.
import { Batches } from "./batches.js";
import { Calendar } from "./calendar.js";
import { Ci } from "./ci.js";
import { dayOf, historyStart, timeOf } from "./days.js";
import { Emission } from "./emission.js";
import type { QueueFact, SimEvent, SimulationOptions } from "./model.js";
import { SimDay } from "./shape.js";
import { Traffic } from "./traffic.js";

export { dayOf, daysFor, historyStart, ID_PER_MS, reachOf, SPILL_DAYS, timeOf } from "./days.js";
export { FACT, type FactKind, type FactLane, type QueueFact, type SimEvent, type SimulationOptions } from "./model.js";

/** The history of one repository up to now, oldest first: its days, filtered and merged. */
export function simulateRepository(options: SimulationOptions): SimEvent[] {
  const nowMs = Math.floor(options.now.getTime());
  const startMs = historyStart(nowMs, options.days);
  const out: SimEvent[] = [];
  for (let d = dayOf(startMs); d <= dayOf(nowMs); d++) {
    for (const e of simulateDay({ repo: options.repo, seed: options.seed, day: d })) {
      const t = timeOf(e);
      if (t >= startMs && t <= nowMs) out.push(e);
    }
  }
  // ids are time-major, so id order is (received_at, id) order
  return out.sort((a, b) => a.id - b.id);
}

/**
 * Every event of the queue sessions, pauses, freezes and CI issues that start on UTC day `day`
 * (days since 1970-01-01), oldest first. A day starts with empty queues at 00:00 UTC and is
 * independent of every other day, so any window of history needs only its own days and the
 * few before it that reach into it (daysFor).
 */
export function simulateDay(options: { repo: string; seed: number; day: number }): SimEvent[] {
  return runAll(simulateDaySteps(options));
}

/**
 * simulateDay in steps of about a millisecond (a lane of the queue at a time): the server runs
 * one step per event-loop turn, so a day being simulated never holds up other answers for long.
 */
export function simulateDaySteps(options: { repo: string; seed: number; day: number }): Generator<void, SimEvent[], void> {
  return new Simulation(options.repo, options.seed, options.day, false).steps();
}

/**
 * The queue events of simulateDay as QueueFacts, in the same order (time, then emission), for
 * the statistics of whole days: the same simulation and random draws, without building the
 * events, their metadata or their times' text (several times faster). In steps, as simulateDaySteps.
 */
export function simulateDayFactsSteps(options: { repo: string; seed: number; day: number }): Generator<void, QueueFact[], void> {
  return new Simulation(options.repo, options.seed, options.day, true).factSteps();
}

/** simulateDayFactsSteps in one go */
export function simulateDayFacts(options: { repo: string; seed: number; day: number }): QueueFact[] {
  return runAll(simulateDayFactsSteps(options));
}

function runAll<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** One simulated day: its parts wired together, run in the order that makes the day's history. */
class Simulation {
  private readonly out: Emission;
  private readonly calendar: Calendar;
  private readonly traffic: Traffic;
  private readonly ci: Ci;
  private readonly batches: Batches;

  constructor(repo: string, seed: number, day: number, factsOnly: boolean) {
    const state = new SimDay(repo, seed, day, factsOnly);
    this.out = new Emission(state);
    this.calendar = new Calendar(state, this.out);
    this.traffic = new Traffic(state, this.out);
    this.ci = new Ci(state, this.out);
    this.batches = new Batches(state, this.out, this.calendar, this.traffic, this.ci);
  }

  *steps(): Generator<void, SimEvent[], void> {
    yield* this.run();
    this.ci.makeCiIssues();
    yield;
    return this.out.finish();
  }

  *factSteps(): Generator<void, QueueFact[], void> {
    yield* this.run();
    // CI issues come last and draw only for themselves: no statistic reads them
    return this.out.finishFacts();
  }

  private *run(): Generator<void, void, void> {
    this.calendar.makeBlocks();
    this.traffic.makeArrivals();
    yield;
    for (const lane of this.traffic.lanes.values()) {
      this.batches.runLane(lane);
      yield;
    }
    this.out.derived();
  }
}
