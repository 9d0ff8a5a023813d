// `mq insights` on screen and in files: the same report as a one-screen summary (terminal), one JSON
// document, or one record per figure (ndjson, csv).
import type { ChalkInstance } from "chalk";
import type { Context, OutputFormat } from "../../context.js";
import type { FigureRow, InsightsReport } from "../../insights/report.js";
import { DISTRIBUTIONS, STATISTICS } from "../../insights/figures.js";
import { exportAll } from "../../output/exporter.js";
import { formatChange, formatFigure, formatTime } from "../../output/format.js";
import { ALL_ROWS_HINT, SCREEN_ROWS, shownOf } from "../../iostreams/long-list.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import type { FieldKind } from "../../stats/endpoints.js";
import type { Unit } from "../../insights/figures.js";
import { fitLine, fittedTable } from "../../output/fitted-table.js";
import { colors } from "../../iostreams/color.js";
import { printable } from "./stays-render.js";
import type { MarkdownTable } from "../../output/markdown.js";

/** Several repositories: each one's report, the total over all of them, those that failed. */
export interface InsightsMulti {
  reports: InsightsReport[];
  total: InsightsReport;
  failed: Array<{ repository: string; message: string; exit_code: number }>;
}

export async function writeInsights(ctx: Context, report: InsightsReport | InsightsMulti, format: OutputFormat): Promise<void> {
  const multi = "reports" in report ? report : undefined;
  const reports = multi ? [...multi.reports, multi.total] : [report as InsightsReport];
  await exportAll<Record<string, unknown>>(
    format,
    ctx.io,
    {
      document: () =>
        multi
          ? { repositories: multi.reports.map(insightsJson), total: insightsJson(multi.total), failed: multi.failed }
          : insightsJson(report as InsightsReport),
      csvColumns: () => [...RECORD_COLUMNS],
      table: () => ({
        async write() {},
        end: () => {
          // for people wherever it goes, as mq stats' tables: humanised always, fitted to a terminal only
          const o = { columns: ctx.io.tableWidth(), colors: colors(ctx.io) };
          const text = multi
            ? renderRepositories(multi, o) + "\n" + renderInsights(multi.total, o)
            : renderInsights(report as InsightsReport, o);
          return ctx.io.writeData(text);
        },
      }),
    },
    () => reports.flatMap(insightsRecords),
  );
}

/** One row per repository and one for the total: the headline figures side by side. */
export function renderRepositories(m: InsightsMulti, o: InsightsRenderOptions): string {
  const cols = ["entered", "merged", "stay_failure_rate", "p50(time_to_merge)", "p95(time_to_merge)", "p50(queue_time)", "p95(queue_time)"];
  const row = (r: InsightsReport) => {
    const by = new Map(r.figures.map((f) => [f.figure, f]));
    return [
      r.repository === "total" ? o.colors.bold("total") : r.repository,
      ...cols.map((c) => formatValue(by.get(c)!.value, by.get(c)!.unit)),
    ];
  };
  const head = ["REPOSITORY", "ENTERED", "MERGED", "FAILURE RATE", "P50 TO MERGE", "P95 TO MERGE", "P50 IN QUEUE", "P95 IN QUEUE"];
  // as wide as the terminal: headers broken into words, then columns left out (named under it)
  return fittedTable({
    head,
    rows: [
      ...m.reports.map(row),
      // its message is on stderr already (mq: acme/nope: ... (exit 3)); the row says which, as mq stats --repo a,b's do
      ...m.failed.map((f) => [
        printable(f.repository),
        o.colors.red(`failed (exit ${f.exit_code})`),
        ...Array<string>(head.length - 2).fill(""),
      ]),
      row(m.total),
    ],
    columns: o.columns,
    colors: o.colors,
    align: head.map((_, i) => (i === 0 ? "left" : "right")),
    breakHeadsAt: / /g,
    durations: [4, 5, 6, 7],
  });
}

/** The report's figures as a table (the GitHub Actions step summary of --fail-if): humanised, with the change. */
export function insightsHeadline(r: InsightsReport): MarkdownTable {
  const pct = (d: number | null) => (d === null ? "-" : formatChange(d));
  // no columns of a comparison with a window outside the data held
  const compared = r.compare !== null && r.previousUnavailable === undefined;
  return {
    head: ["figure", "value", ...(compared ? ["previous", "change"] : [])],
    rows: r.figures.map((f) => [
      f.figure,
      formatValue(f.value, f.unit),
      ...(compared ? [formatValue(f.previous, f.unit), pct(f.change)] : []),
    ]),
    right: [false, true, ...(compared ? [true, true] : [])],
  };
}

/** The JSON document: figures keyed by name (`.figures["p95(queue_time)"].value`). */
export function insightsJson(r: InsightsReport): Record<string, unknown> {
  return {
    repository: r.repository,
    since: r.since,
    until: r.until,
    compare: r.compare,
    ...(r.previousUnavailable !== undefined ? { previous_unavailable: r.previousUnavailable } : {}),
    figures: Object.fromEntries(r.figures.map((f) => [f.figure, { value: f.value, previous: f.previous, change: f.change, unit: f.unit }])),
    // why a figure or its change is null although the window was read (0 ÷ 0, a change from 0)
    ...(r.unavailable && Object.keys(r.unavailable).length ? { unavailable: r.unavailable } : {}),
    exit_reasons: r.exitReasons,
    slowest: r.slowest,
  };
}

/** The fields of a record of `-o ndjson` and the columns of `-o csv`, in order. */
export const RECORD_COLUMNS = [
  "repository",
  "figure",
  "value",
  "previous",
  "change",
  "unit",
  "unavailable",
  "previous_unavailable",
  "change_unavailable",
] as const;

/**
 * One record per figure, then one per exit reason (`exit_reason(CODE)`). A null says why in the
 * field named after it, as -o json's `unavailable` and `previous_unavailable` do: `unavailable`
 * (the value: 0 ÷ 0, a distribution over nothing), `previous_unavailable` (the comparison window
 * lies outside the data held: previous and change), `change_unavailable` (a change from 0).
 */
export function insightsRecords(r: InsightsReport): Array<Record<(typeof RECORD_COLUMNS)[number], unknown>> {
  const why = r.unavailable ?? {};
  const record = (figure: string, value: number | null, previous: number | null, change: number | null, unit: string) => ({
    repository: r.repository,
    figure,
    value,
    previous,
    change,
    unit,
    unavailable: why[figure] ?? null,
    previous_unavailable: r.previousUnavailable ?? null,
    change_unavailable: why[`change(${figure})`] ?? null,
  });
  return [
    ...r.figures.map((f) => record(f.figure, f.value, f.previous, f.change, f.unit)),
    ...r.exitReasons.map((e) => record(`exit_reason(${e.reason})`, e.count, e.previous, e.change, "count")),
  ];
}

export interface InsightsRenderOptions {
  /** the terminal's width; none off a terminal (-o table in a pipe): the tables are not fitted */
  columns: number | undefined;
  colors: ChalkInstance;
}

const LABELS: Record<string, string> = {
  time_to_merge: "time to merge",
  queue_time: "time in queue",
  ci_time: "CI time",
  wait_time: "waiting time",
  stay_failure_rate: "stay failure rate",
  throughput: "merged per day",
};

export function renderInsights(r: InsightsReport, o: InsightsRenderOptions): string {
  const c = o.colors;
  const byName = new Map(r.figures.map((f) => [f.figure, f]));
  const fig = (name: string) => byName.get(name)!;
  const value = (f: FigureRow) => formatValue(f.value, f.unit);
  // a comparison whose window lies outside the data held is shown as none, saying why
  const compare = r.previousUnavailable === undefined ? r.compare : null;
  const arrow = (f: { change: number | null; verdict?: 1 | -1 | 0 }) => changeText(f.change, f.verdict ?? 0, compare !== null, c);
  const out: string[] = [];
  const when = (s: string) => formatTime(Date.parse(s));
  // every table as wide as the terminal at most: headers broken into words, then columns left out
  // (named under it); a free-text last column is cut first
  const table = (head: string[], rows: string[][], more: Partial<Parameters<typeof fittedTable>[0]> = {}) =>
    fittedTable({
      head,
      rows,
      columns: o.columns,
      colors: c,
      align: head.map((_, i) => (i === 0 ? "left" : "right")),
      breakHeadsAt: / /g,
      // figures of several kinds share a column: its durations keep one precision
      durations: head.map((_, i) => i).slice(1),
      ...more,
    });
  out.push(c.bold(fitLine(`${r.repository}  ${when(r.since)} → ${when(r.until)}`, o.columns)));
  out.push(
    c.dim(
      fitLine(
        compare
          ? `compared with ${when(compare.since)} → ${when(compare.until)}`
          : r.previousUnavailable !== undefined
            ? `no comparison: ${r.previousUnavailable}`
            : "no comparison (--compare none)",
        o.columns,
      ),
    ),
  );
  out.push("");

  const counts = ["entered", "merged", "left", "failed", "stay_failure_rate", "throughput", "retries"].map((n) => fig(n));
  out.push(
    table(
      ["", "VALUE", ...(compare ? ["PREVIOUS", "CHANGE"] : [])],
      counts.map((f) => [LABELS[f.figure] ?? f.figure, value(f), ...(compare ? [formatValue(f.previous, f.unit), arrow(f)] : [])]),
    ),
  );

  const stats = STATISTICS;
  const rows: string[][] = [];
  for (const d of DISTRIBUTIONS) {
    rows.push([LABELS[d]!, ...stats.map((st) => value(fig(`${st}(${d})`)))]);
    if (compare) rows.push(["", ...stats.map((st) => arrow(fig(`${st}(${d})`)))]);
  }
  out.push(table(["", ...stats.map((s) => s.toUpperCase())], rows));
  // a "-" over nothing says why, once per figure (a distribution once, by its mean)
  const why = r.unavailable ?? {};
  const notes = ["stay_failure_rate", ...DISTRIBUTIONS.map((d) => `avg(${d})`)].flatMap((name) => {
    const label = LABELS[name] ?? LABELS[/\((\w+)\)/.exec(name)?.[1] ?? ""] ?? name;
    return why[name] ? [c.dim(fitLine(`-: ${label}: ${why[name]}`, o.columns))] : [];
  });
  if (notes.length) out[out.length - 1] += `\n${notes.join("\n")}\n`;

  const reasons = r.exitReasons.slice(0, 8);
  if (reasons.length) {
    out.push(
      table(
        ["EXIT REASON", "COUNT", ...(compare ? ["PREVIOUS", "CHANGE"] : [])],
        reasons.map((e) => [
          printable(e.reason),
          formatValue(e.count, "count"),
          ...(compare
            ? [
                formatValue(e.previous, "count"),
                changeText(e.change, e.reason === "SUCCESS" ? 1 : -1, true, c, e.reason === "SUCCESS" ? 1 : -1),
              ]
            : []),
        ]),
      ),
    );
  }
  if (r.slowest.length) {
    const d = (v: unknown) => (typeof v === "number" ? formatValue(v, "seconds") : "-");
    // a screen of them on a terminal (iostreams/long-list.ts); the rest named under the table
    const slowest = o.columns === undefined ? r.slowest : r.slowest.slice(0, SCREEN_ROWS);
    const more =
      slowest.length < r.slowest.length
        ? `${shownOf(slowest.length, r.slowest.length, "pull requests", "slowest")}; ${ALL_ROWS_HINT} (or mq prs --slowest ${r.slowest.length})`
        : undefined;
    out.push(
      table(
        ["SLOWEST", "BASE", "QUEUE", "ENTERED", "IN QUEUE", "WAITING", "CI", "OUTCOME"],
        slowest.map((s) => [
          r.repository === "total" ? `${printable(s.repository)}#${s.pull_request}` : `#${s.pull_request}`,
          printable(s.base_ref ?? "-"),
          printable(s.queue_name ?? "-"),
          when(String(s.entered_at).replace(/\.\d+Z$/, "Z")),
          d(s.queue_time),
          d(s.wait_time),
          d(s.ci_time),
          s.outcome === "merged" || s.outcome === "open" ? String(s.outcome) : printable(s.reason ?? s.outcome),
        ]),
        {
          freeLast: { min: 10 },
          align: ["right", "left", "left", "left", "right", "right", "right", "left"],
          // a slowest list keeps its time in queue: the entry time, base, CI and waiting give way first
          drop: [3, 1, 6, 5, 2, 7],
        },
      ) + (more !== undefined ? `${wrapLine(more, o.columns)}\n` : ""),
    );
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

/** What each unit of a figure is to the table rules of format.ts. */
const KIND: Record<Unit, FieldKind> = { seconds: "duration", ratio: "rate", count: "count", per_day: "count" };

/** A figure as a table cell: the same rules as mq stats' tables (formatFigure), "-" without a value. */
export function formatValue(v: number | null, unit: Unit): string {
  return v === null ? "-" : formatFigure(v, KIND[unit]);
}

/**
 * "▲ 12%" / "▼ 3%" / "= 0%" / "▲ ×2.3" (formatChange), green when better and red when worse; "-" without a base. `sign`
 * overrides the polarity for rows that are not figures (exit reasons).
 */
export function changeText(delta: number | null, verdict: 1 | -1 | 0, compared: boolean, c: ChalkInstance, polarity?: 1 | -1): string {
  if (!compared || delta === null) return compared ? c.dim("-") : "";
  const text = formatChange(delta);
  const v = polarity !== undefined ? (delta === 0 ? 0 : Math.sign(delta) * polarity) : verdict;
  return v > 0 ? c.green(text) : v < 0 ? c.red(text) : c.dim(text);
}
