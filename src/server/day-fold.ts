// A calendar day's statistics partials from the facts of the simulated days that reach into it,
// one calendar day at a time, in either direction: the server's thread folds a window's days from
// its start and, for a long window, a helper thread (fold-helper.ts) folds them from its end. Both
// go through this one function, so a day's partials are the same whichever thread folded it: the
// same facts, added in the same order (simulated day by simulated day, oldest first, each in time
// order), which is the order the endpoints' accumulators see them in over the events.
import { reachOf, SPILL_DAYS, simulateDayFactsSteps, type QueueFact } from "./simulate.js";
import { FactAccumulation, type FactView } from "./stats-facts.js";
import type { Partials } from "./stats.js";

const DAY = 86_400_000;
const NONE: readonly QueueFact[] = [];

export interface DayFoldOptions {
  repo: string;
  seed: number;
  view: FactView;
  /** the history's first day: no day before it is simulated */
  historyDay: number;
}

/** Folds calendar days one at a time, keeping the facts of the few simulated days next days need. */
export class DayFolder {
  /** simulated day -> its facts by calendar day */
  private readonly sims = new Map<number, Map<number, QueueFact[]>>();

  constructor(private readonly options: DayFoldOptions) {}

  /** the simulated days whose facts can fall on calendar day `day`, oldest first */
  simulatedDaysOf(day: number): number[] {
    const out: number[] = [];
    for (let s = Math.max(day - SPILL_DAYS, this.options.historyDay); s <= day; s++) if (s + reachOf(s) >= day) out.push(s);
    return out;
  }

  /**
   * Every endpoint's partials of calendar day `day`, in steps (a lane of a simulated day, or 256
   * facts folded) for a caller that paces them; the simulated days next to it stay held for the
   * days after or before it.
   */
  *fold(day: number): Generator<void, Partials, void> {
    const sources = this.simulatedDaysOf(day);
    for (const s of sources) {
      if (this.sims.has(s)) continue;
      const facts = yield* simulateDayFactsSteps({ repo: this.options.repo, seed: this.options.seed, day: s });
      this.sims.set(s, byCalendarDay(facts));
    }
    // the days a neighbour of `day` needs, whichever way the caller walks
    for (const s of this.sims.keys()) if (s < day - SPILL_DAYS || s > day + SPILL_DAYS) this.sims.delete(s);
    const acc = new FactAccumulation(day, this.options.view);
    let n = 0;
    for (const s of sources) {
      const facts = this.sims.get(s)!.get(day) ?? NONE;
      for (let i = 0; i < facts.length; i++) {
        acc.add(facts[i]!);
        if ((++n & 255) === 0) yield;
      }
    }
    return acc.partials;
  }
}

/** a simulated day's facts (in time order) split by calendar day, each part in time order */
function byCalendarDay(facts: readonly QueueFact[]): Map<number, QueueFact[]> {
  const out = new Map<number, QueueFact[]>();
  let day = NaN;
  let part: QueueFact[] = [];
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i]!;
    const d = Math.floor(f.t / DAY);
    if (d !== day) {
      day = d;
      let p = out.get(d);
      if (!p) out.set(d, (p = []));
      part = p;
    }
    part.push(f);
  }
  return out;
}

/** runs a fold's steps to the end, in one go */
export function foldAll(steps: Generator<void, Partials, void>): Partials {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
