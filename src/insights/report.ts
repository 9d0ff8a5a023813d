// One window's figures against another's: what every output format of `mq insights` shows.
import { change, FIGURE_BY_NAME, FIGURES, verdict, type Unit, type WindowFigures } from "./figures.js";
import { stayRecord, type StayRecord } from "./records.js";

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");

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
  return {
    repository,
    since: iso(cur.window.since),
    until: iso(cur.window.until),
    compare: compared ? { since: iso(compared.window.since), until: iso(compared.window.until) } : null,
    ...(previousUnavailable !== undefined && compared ? { previousUnavailable } : {}),
    figures,
    exitReasons,
    slowest: cur.slowest.map((r) => stayRecord(r.stay, cur.window.until.getTime())),
  };
}
