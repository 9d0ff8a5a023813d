// One window's figures against another's: what every output format of `mq insights` shows.
import { change, FIGURE_BY_NAME, FIGURES, verdict, type Unit, type WindowFigures } from "./figures.js";
import { stayRecord, type StayRecord } from "./records.js";
import { DISTRIBUTION_OVER, figure } from "../figures/catalogue.js";
import { formatInstant } from "../iostreams/human.js";

const iso = (d: Date) => formatInstant(d);

export interface FigureRow {
  figure: string;
  value: number | null;
  /** the same figure over the comparison window */
  previous: number | null;
  /** relative change (0.2 = 20% more), null without a comparison or a base */
  change: number | null;
  unit: Unit;
  /** 1 better, -1 worse, 0 neither */
  verdict: 1 | -1 | 0;
}

export interface InsightsReport {
  repository: string;
  since: string;
  until: string;
  compare: { since: string; until: string } | null;
  /**
   * why the comparison gives no previous figures and no change although a comparison window was
   * asked for: a window lies partly or wholly outside the data the source holds
   */
  previousUnavailable?: string;
  figures: FigureRow[];
  /**
   * why a figure (or its change, `change(NAME)`, an exit reason's `change(exit_reason(CODE))`) is
   * null although the window was read: a ratio or mean over nothing (0 ÷ 0), a change from 0; the
   * catalogue's wording
   */
  unavailable?: Record<string, string>;
  exitReasons: Array<{ reason: string; count: number; previous: number | null; change: number | null }>;
  slowest: StayRecord[];
}

export function buildReport(
  repository: string,
  cur: WindowFigures,
  compared: WindowFigures | undefined,
  previousUnavailable?: string,
): InsightsReport {
  // a window outside the data held counts events that are missing, not events that did not happen:
  // nothing is compared with it
  const prev = previousUnavailable === undefined ? compared : undefined;
  const figures = FIGURES.map((spec): FigureRow => {
    const value = cur.values[spec.name] ?? null;
    const previous = prev ? (prev.values[spec.name] ?? null) : null;
    const delta = prev ? change(value, previous) : null;
    return { figure: spec.name, value, previous, change: delta, unit: spec.unit, verdict: verdict(FIGURE_BY_NAME.get(spec.name)!, delta) };
  });
  const prevReasons = new Map(prev?.exitReasons.map((r) => [r.reason, r.count]));
  const reasons = new Set([...cur.exitReasons.map((r) => r.reason)]);
  const exitReasons = cur.exitReasons.map((r) => {
    const p = prev ? (prevReasons.get(r.reason) ?? 0) : null;
    return { reason: r.reason, count: r.count, previous: p, change: prev ? change(r.count, p) : null };
  });
  // reasons that disappeared are news too
  for (const r of prev?.exitReasons ?? [])
    if (!reasons.has(r.reason)) exitReasons.push({ reason: r.reason, count: 0, previous: r.count, change: -1 });
  const unavailable: Record<string, string> = {};
  for (const f of figures) {
    const why = f.value === null ? nullReason(f.figure) : undefined;
    if (why) unavailable[f.figure] = why;
    if (prev && f.change === null && f.previous === 0 && f.value !== null) unavailable[`change(${f.figure})`] = fromZero(f.value);
  }
  for (const e of exitReasons)
    if (e.change === null && e.previous === 0) unavailable[`change(exit_reason(${e.reason}))`] = fromZero(e.count);
  return {
    repository,
    since: iso(cur.window.since),
    until: iso(cur.window.until),
    compare: compared ? { since: iso(compared.window.since), until: iso(compared.window.until) } : null,
    ...(previousUnavailable !== undefined && compared ? { previousUnavailable } : {}),
    figures,
    unavailable,
    exitReasons,
    slowest: cur.slowest.map((r) => stayRecord(r.stay, cur.window.until.getTime())),
  };
}

const fromZero = (value: number) => `the previous value is 0: ${value} against 0 is no percentage`;

/** Why a figure over a window that was read has no value: its denominator is 0 (the catalogue says what it is over). */
export function nullReason(name: string): string | undefined {
  const ratio = figure(name)?.ratio;
  if (ratio) return `${ratio.numerator} ÷ ${ratio.denominator} is 0 ÷ 0 in the window`;
  const dist = /^\w+\((\w+)\)$/.exec(name)?.[1];
  const over = dist ? DISTRIBUTION_OVER[dist] : undefined;
  return over ? `none of ${over.replace(/ \(.*\)$/, "")}` : undefined;
}
