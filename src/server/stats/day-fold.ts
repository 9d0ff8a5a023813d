// A calendar day's statistics partials from the facts of the simulated days that reach into it,
// one calendar day at a time: the server's thread folds a window's days from its start and, for a
// long window, a helper thread (fold-helper.ts) folds blocks of them from its end. Both go through
// this one folder, so a day's partials are the same whichever thread folded it: the same facts,
// added in the same order (simulated day by simulated day, oldest first, each in time order),
// which is the order the endpoints' accumulators see them in over the events.
import { reachOf, SPILL_DAYS, simulateDayFactsSteps } from "../simulate/index.js";
import { FactAccumulation, type FactView } from "./facts.js";
import type { Partials } from "./engine.js";

const DAY = 86_400_000;

export interface DayFoldOptions {
  repo: string;
  seed: number;
  view: FactView;
  /** the history's first day: no day before it is simulated */
  historyDay: number;
}

/**
 * Folds calendar days in ascending order, each simulated day once, its facts folded as soon as it
 * is simulated into every listed calendar day it reaches (so they die young: holding a few days'
 * facts for the days after cost 45% more CPU, in the collector). A day may be skipped (another
 * thread folds it): what was folded into it is dropped.
 */
export class DayFolder {
  /** the listed days being folded: the one asked for and those after it that facts reached already */
  private readonly open = new Map<number, FactAccumulation>();
  private readonly listed: ReadonlySet<number>;
  /** the first simulated day not simulated yet */
  private nextSimulated = -Infinity;
  private last = -Infinity;

  constructor(
    private readonly options: DayFoldOptions,
    /** the calendar days that may be asked for */
    days: readonly number[],
  ) {
    this.listed = new Set(days);
  }

  /** the simulated days whose facts can fall on calendar day `day`, oldest first */
  simulatedDaysOf(day: number): number[] {
    const out: number[] = [];
    for (let s = Math.max(day - SPILL_DAYS, this.options.historyDay); s <= day; s++) if (s + reachOf(s) >= day) out.push(s);
    return out;
  }

  /**
   * Every endpoint's partials of calendar day `day` (listed, after the days asked for before), in
   * steps (a lane of a simulated day, or 256 facts folded) for a caller that paces them.
   */
  *fold(day: number): Generator<void, Partials, void> {
    if (day <= this.last || !this.listed.has(day)) throw new Error(`DayFolder: day ${day} is not listed after ${this.last}`);
    this.last = day;
    for (const d of this.open.keys()) if (d < day) this.open.delete(d);
    for (let s = Math.max(day - SPILL_DAYS, this.options.historyDay, this.nextSimulated); s <= day; s++) {
      this.nextSimulated = s + 1;
      // the listed days from `day` on that this simulated day reaches
      let reaches = false;
      for (let d = Math.max(s, day); d <= s + reachOf(s); d++) {
        if (!this.listed.has(d)) continue;
        reaches = true;
        if (!this.open.has(d)) this.open.set(d, new FactAccumulation(d, this.options.view));
      }
      if (!reaches) continue;
      const facts = yield* simulateDayFactsSteps({ repo: this.options.repo, seed: this.options.seed, day: s });
      for (let i = 0; i < facts.length; i++) {
        const f = facts[i]!;
        this.open.get(Math.floor(f.t / DAY))?.add(f);
        if ((i & 255) === 255) yield;
      }
    }
    const acc = this.open.get(day) ?? new FactAccumulation(day, this.options.view);
    this.open.delete(day);
    return acc.partials;
  }
}

/** runs a fold's steps to the end, in one go */
export function foldAll(steps: Generator<void, Partials, void>): Partials {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
