// The figures of `mq insights` over a window, from the stays that touch it: counts, exact
// distributions (nearest-rank percentiles over every stay, no sampling), rates, exit reasons and the
// slowest stays. Every figure has a flat name (`p95(queue_time)`, `stay_failure_rate`) that the JSON,
// NDJSON and CSV outputs and --fail-if share.
import { figure } from "../figures/catalogue.js";
import { stayTimes, type Stay, type StayTimes } from "./stays.js";
import { pushAll } from "../arrays.js";

export const DISTRIBUTIONS = ["time_to_merge", "queue_time", "ci_time", "wait_time"] as const;
export type DistributionName = (typeof DISTRIBUTIONS)[number];
export const STATISTICS = ["count", "avg", "p50", "p90", "p95", "p99", "max"] as const;
export type StatisticName = (typeof STATISTICS)[number];
export const PERCENTILES = { p50: 50, p90: 90, p95: 95, p99: 99 } as const;

export const COUNT_FIGURES = ["entered", "merged", "left", "failed", "stay_failure_rate", "throughput", "retries"] as const;
export type CountFigure = (typeof COUNT_FIGURES)[number];

export type Unit = "count" | "seconds" | "ratio" | "per_day";
/** Whether a rise is good news (+1), bad news (-1) or neither (0). */
export type Polarity = 1 | -1 | 0;

export interface FigureSpec {
  name: string;
  unit: Unit;
  polarity: Polarity;
  description: string;
}

/** Whether a rise is good news; what each figure is comes from the catalogue (mq help figures). */
const COUNT_POLARITY: Record<CountFigure, Polarity> = {
  entered: 0,
  merged: 1,
  left: 0,
  failed: -1,
  stay_failure_rate: -1,
  throughput: 1,
  retries: -1,
};

const UNITS: Readonly<Record<string, Unit>> = { count: "count", ratio: "ratio", per_day: "per_day", seconds: "seconds" };

function spec(name: string, polarity: Polarity): FigureSpec {
  const entry = figure(name)!;
  return { name, unit: UNITS[entry.unit]!, polarity, description: entry.definition };
}

/** Every figure insights computes, in display order. */
export const FIGURES: readonly FigureSpec[] = [
  ...COUNT_FIGURES.map((name) => spec(name, COUNT_POLARITY[name])),
  ...DISTRIBUTIONS.flatMap((d) => STATISTICS.map((st) => spec(`${st}(${d})`, st === "count" ? 0 : -1))),
];
export const FIGURE_NAMES: readonly string[] = FIGURES.map((f) => f.name);
export const FIGURE_BY_NAME: ReadonlyMap<string, FigureSpec> = new Map(FIGURES.map((f) => [f.name, f]));

/** Nearest-rank percentile of sorted values: the smallest value with at least p% of them at or below it. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export interface Distribution {
  count: number;
  avg: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export function distribution(values: number[]): Distribution {
  const v = Float64Array.from(values).sort();
  const n = v.length;
  let sum = 0;
  for (const x of v) sum += x;
  const arr = v as unknown as number[];
  return {
    count: n,
    avg: n ? round(sum / n) : null,
    p50: nearestRank(arr, 50),
    p90: nearestRank(arr, 90),
    p95: nearestRank(arr, 95),
    p99: nearestRank(arr, 99),
    max: n ? v[n - 1]! : null,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export interface Window {
  since: Date;
  until: Date;
}

/** A stay summarised for a row: what `mq prs` prints and insights lists as slowest. */
export interface StayRow extends StayTimes {
  stay: Stay;
}

export interface WindowFigures {
  window: Window;
  values: Record<string, number | null>;
  distributions: Record<DistributionName, Distribution>;
  /** exit reasons of the stays that left, most frequent first (SUCCESS included) */
  exitReasons: Array<{ reason: string; count: number }>;
  /** the stays that left with the longest queue time, longest first */
  slowest: StayRow[];
}

/**
 * Accumulates the stays of one window. A stay counts where its events fall: entered by its enter
 * event, merged by its merged event, left (with its reason and durations) by its leave, so the
 * counts are those of the statistics endpoints over the same [since, until).
 */
export class WindowAccumulator {
  private entered = 0;
  private merged = 0;
  private left = 0;
  private failed = 0;
  private retries = 0;
  private readonly values: Record<DistributionName, number[]> = { time_to_merge: [], queue_time: [], ci_time: [], wait_time: [] };
  private readonly reasons = new Map<string, number>();
  private slowest: StayRow[] = [];
  private readonly from: number;
  private readonly to: number;

  constructor(
    readonly window: Window,
    private readonly slowestCount = 5,
  ) {
    this.from = window.since.getTime();
    this.to = window.until.getTime();
  }

  private inWindow(t: number | null): boolean {
    return t !== null && t >= this.from && t < this.to;
  }

  add(s: Stay): void {
    if (this.inWindow(s.enterEventAt)) this.entered++;
    const mergedIn = this.inWindow(s.mergedAt);
    const leftIn = this.inWindow(s.leftAt);
    if (!mergedIn && !leftIn) return;
    const times = stayTimes(s, this.to);
    if (mergedIn) {
      this.merged++;
      this.values.time_to_merge.push(times.timeToMerge!);
    }
    if (!leftIn) return;
    this.left++;
    if (s.outcome === "failed") this.failed++;
    this.reasons.set(s.reason!, (this.reasons.get(s.reason!) ?? 0) + 1);
    // its entry time and leave are exact whatever the window (queued_at is on every queue event)
    this.values.queue_time.push(times.queueTime);
    // waiting, CI time and retries need the whole stay: a stay begun before the window (its enter
    // event outside it) has runs the window does not hold, so it is left out of them
    if (this.inWindow(s.enterEventAt)) {
      this.retries += times.retries;
      this.values.wait_time.push(times.waitTime);
      if (times.checkRuns > 0) this.values.ci_time.push(times.ciTime);
    }
    if (this.slowestCount > 0) {
      this.slowest.push({ ...times, stay: { ...s, steps: [] } });
      // keep the top N only: the list stays small whatever the window
      if (this.slowest.length > this.slowestCount * 4) this.trimSlowest();
    }
  }

  /** Adds another window's stays (another repository's, same window): the total of several. */
  merge(other: WindowAccumulator): void {
    this.entered += other.entered;
    this.merged += other.merged;
    this.left += other.left;
    this.failed += other.failed;
    this.retries += other.retries;
    for (const d of DISTRIBUTIONS) for (const v of other.values[d]) this.values[d].push(v);
    for (const [reason, n] of other.reasons) this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + n);
    pushAll(this.slowest, other.slowest);
    this.trimSlowest();
  }

  private trimSlowest(): void {
    this.slowest.sort((a, b) => b.queueTime - a.queueTime || a.stay.pullRequest - b.stay.pullRequest);
    this.slowest.length = Math.min(this.slowest.length, this.slowestCount);
  }

  result(): WindowFigures {
    this.trimSlowest();
    const days = (this.to - this.from) / 86_400_000;
    const distributions = Object.fromEntries(DISTRIBUTIONS.map((d) => [d, distribution(this.values[d])])) as Record<
      DistributionName,
      Distribution
    >;
    const values: Record<string, number | null> = {
      entered: this.entered,
      merged: this.merged,
      left: this.left,
      failed: this.failed,
      stay_failure_rate: this.left ? round(this.failed / this.left) : null,
      throughput: days > 0 ? round(this.merged / days) : null,
      retries: this.retries,
    };
    for (const d of DISTRIBUTIONS) for (const st of STATISTICS) values[`${st}(${d})`] = distributions[d][st];
    return {
      window: this.window,
      values,
      distributions,
      exitReasons: [...this.reasons]
        .map(([reason, count]) => ({ reason, count }))
        .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1)),
      slowest: this.slowest,
    };
  }
}

/** Relative change from `previous` to `current` (0.2 = 20% more); null when there is no base. */
export function change(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null) return null;
  if (previous === 0) return current === 0 ? 0 : null;
  return round((current - previous) / Math.abs(previous));
}

/** +1 better, -1 worse, 0 neither (no change, no polarity, or no base). */
export function verdict(spec: FigureSpec, delta: number | null): 1 | -1 | 0 {
  if (delta === null || delta === 0 || spec.polarity === 0) return 0;
  return (Math.sign(delta) * spec.polarity) as 1 | -1;
}
