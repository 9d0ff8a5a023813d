// Statistics for people and for machines. The table answers first: one row per group with its
// figures over the window (computed as --fail-if computes them), the figure over all groups, idle
// groups folded into one line; --intervals gives the per-interval detail, --chart a sparkline per
// series. Flat records for ndjson/csv, the summary screen.
import type { ChalkInstance } from "chalk";
import type { IOStreams } from "../../iostreams/iostreams.js";
import { totalUnavailable, windowValue } from "../../stats/aggregate.js";
import type { StatsEndpoint } from "../../stats/endpoints.js";
import {
  fieldsOfSection,
  flatten,
  formatKeyValue,
  listItemKey,
  listItems,
  toGroups,
  toSeries,
  type KeyValue,
  type StatsGroup,
} from "../../stats/series.js";
import type { SummaryFigures } from "../../stats/summary.js";
import { renderChart } from "../../output/chart.js";
import { colors } from "../../iostreams/color.js";
import { allKeys, type Export } from "../../output/exporter.js";
import { formatCount, formatDuration, formatFigure, formatPercent, formatTime } from "../../output/format.js";
import { columnWidths, renderTable } from "../../output/table.js";
import { alignDurationColumns, fitHeads, fitLine, keptColumns, naturalWidth, notShown } from "../../output/fitted-table.js";
import { terminalText } from "../../iostreams/terminal-text.js";

export interface RenderOptions {
  /** the width tables are fitted to; none off a terminal (-o table in a pipe) */
  columns: number | undefined;
  /** the width charts are drawn to */
  chartColumns: number;
  colors?: ChalkInstance;
  /** one table row per interval for each group, instead of one row per group */
  intervals?: boolean;
}

/** One value as a table cell: humanised when `human` (a table, wherever it goes), raw otherwise. */
export function formatCell(endpoint: StatsEndpoint, field: string, value: unknown, human: boolean): string {
  if (value === null || value === undefined) return human ? "-" : "";
  if (Array.isArray(value)) return value.join(",");
  if (!human) return String(value);
  if (typeof value === "number") return formatFigure(value, endpoint.figures[field]?.kind);
  if ((field === "start" || field === "end") && typeof value === "string") return shortTime(value);
  return String(value);
}

/** A time the API sent, in the one form of a time (formatTime); text that is no time as sent. */
export function shortTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatTime(t);
}

// ---------------------------------------------------------------------------------------------
// group labels

/** Short column titles for the group keys the API sends; another key is titled by its name. */
const KEY_TITLES: Readonly<Record<string, string>> = {
  section: "section",
  base_ref: "base",
  partition_name: "partition",
  partition_names: "partition",
  queue_name: "queue",
  priority_rule_name: "rule",
};

/** A key's value in a label: null is "(none)", which no name sent by the API can be mistaken for. */
function labelValue(v: KeyValue | undefined): string {
  if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) return "(none)";
  // a value from the server, through the one door for untrusted terminal text
  return terminalText(formatKeyValue(v));
}

/**
 * Short labels for groups: only the keys whose values differ between them, values not names
 * (`main · default · urgent`), every key when nothing differs; the title names the keys shown.
 */
export function groupLabels(groups: ReadonlyArray<Pick<StatsGroup, "keys">>): { title: string; labels: string[] } {
  const names: string[] = [];
  for (const g of groups) for (const [k] of g.keys) if (!names.includes(k)) names.push(k);
  const valueOf = (g: Pick<StatsGroup, "keys">, k: string) => labelValue(g.keys.find(([name]) => name === k)?.[1]);
  let shown = names.filter((k) => new Set(groups.map((g) => valueOf(g, k))).size > 1);
  if (shown.length === 0) shown = names;
  return {
    title: shown.map((k) => KEY_TITLES[k] ?? k).join(" · ") || "group",
    labels: groups.map((g) => shown.map((k) => valueOf(g, k)).join(" · ")),
  };
}

// ---------------------------------------------------------------------------------------------
// tables

type Rec = Record<string, unknown>;
type Value = number | undefined;

interface Row {
  label: string;
  values: Value[];
  /** why a column has no figure in this row (all groups: no rule combines it): written n/a */
  unavailable?: ReadonlyArray<string | undefined>;
}

/** A table before it is laid out: the header, and per column how a value is written. */
interface Layout {
  head: string[];
  format: (column: number, v: Value) => string;
}

/** Nothing but zeros or no value: nothing happened in this group (or interval). */
function idle(values: readonly Value[]): boolean {
  return values.every((v) => v === undefined || v === 0);
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
}

/** The figure groups are sorted by: the volume (the first count), else the main figure. */
function sortColumn(endpoint: StatsEndpoint, fields: readonly string[]): number {
  const count = fields.findIndex((f) => endpoint.figures[f]?.kind === "count");
  if (count >= 0) return count;
  const main = endpoint.mainField ? fields.indexOf(endpoint.mainField) : -1;
  return Math.max(main, 0);
}

function descendingBy(column: number): (a: Row, b: Row) => number {
  return (a, b) => (b.values[column] ?? -Infinity) - (a.values[column] ?? -Infinity) || a.label.localeCompare(b.label);
}

function layOut(layout: Layout, rows: readonly Row[], opts: RenderOptions, footer: Row[] = []): string {
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  // each column's durations to one precision (footer included), before the footer is set in bold
  const plain = alignDurationColumns(
    [...rows, ...footer].map((r) => [r.label, ...r.values.map((v, j) => (r.unavailable?.[j] ? "n/a" : layout.format(j, v)))]),
    layout.head.map((_, i) => i).slice(1),
  );
  const cells = plain.map((line, i) => (i >= rows.length ? line.map(bold) : line));
  const head = fitHeads(layout.head, cells, opts.columns);
  const natural = columnWidths({ head, rows: cells });
  // too wide even with the headers broken: figures give way, the rightmost first, and are named
  // under the table (fitted-table.ts); the label and the first figure stay
  const keep = keptColumns(head, cells, opts.columns);
  const pick = <T>(xs: readonly T[]) => keep.map((i) => xs[i]!);
  const align = keep.map((i) => (i === 0 ? ("left" as const) : ("right" as const)));
  // figures keep their width; a label that does not fit wraps onto more lines rather than being
  // cut in the middle, which would hide which group it is
  const widths = pick(natural);
  if (opts.columns !== undefined) {
    const figures = widths.slice(1).reduce((a, w) => a + 2 + w, 0);
    widths[0] = Math.max(8, Math.min(widths[0]!, opts.columns - figures));
  }
  const table = renderTable({ head: pick(head), rows: cells.map(pick), colors: opts.colors, align, wrap: true, widths });
  const left = layout.head.filter((_, i) => !keep.includes(i));
  return left.length === 0 || opts.columns === undefined ? table : `${table}${notShown(opts.columns, left)}\n`;
}

/** For outcome and exit-reason endpoints: per group, the figure over the window for each category. */
function byCategory(endpoint: StatsEndpoint, records: readonly Rec[], field: string): Map<string, number> {
  const split = new Map<string, Rec[]>();
  for (const r of records) {
    const name = terminalText(String(r[endpoint.category!]));
    if (!split.has(name)) split.set(name, []);
    split.get(name)!.push(r);
  }
  const out = new Map<string, number>();
  for (const [name, rs] of split) {
    const v = windowValue(field, rs);
    if (v !== undefined) out.set(name, v);
  }
  return out;
}

/**
 * The columns of a category table: the total, then one per category, the most frequent first, as
 * many as fit the terminal; the rest are added up under "other".
 */
function categoryColumns(
  endpoint: StatsEndpoint,
  field: string,
  title: string,
  labels: readonly string[],
  cells: ReadonlyArray<Map<string, number>>,
  opts: RenderOptions,
): { layout: Layout; rowValues: (m: Map<string, number>) => Value[] } {
  const totals = new Map<string, number>();
  for (const m of cells) for (const [k, v] of m) totals.set(k, (totals.get(k) ?? 0) + v);
  const categories = [...totals.keys()].sort((a, b) => totals.get(b)! - totals.get(a)! || a.localeCompare(b));
  const make = (shown: number) => {
    const rest = categories.slice(shown);
    const head = [title, "total", ...categories.slice(0, shown), ...(rest.length ? ["other"] : [])];
    const rowValues = (m: Map<string, number>): Value[] => {
      const sum = (names: readonly string[]) =>
        names.reduce<Value>((s, c) => (m.has(c) ? (s ?? 0) + m.get(c)! : s), m.size ? 0 : undefined);
      // a group (or interval) with data but none of an outcome counts 0 of it; no data at all is no value
      const of = (c: string) => m.get(c) ?? (m.size ? 0 : undefined);
      return [sum(categories), ...categories.slice(0, shown).map(of), ...(rest.length ? [sum(rest)] : [])];
    };
    const layout: Layout = { head, format: (_j, v) => formatCell(endpoint, field, v, true) };
    return { layout, rowValues };
  };
  let shown = categories.length;
  while (opts.columns !== undefined && shown > 1) {
    const { layout, rowValues } = make(shown);
    const text = cells.map((m, i) => [labels[i]!, ...rowValues(m).map((v) => layout.format(0, v))]);
    const head = fitHeads(layout.head, text, opts.columns);
    if (naturalWidth(head, text) <= opts.columns) break;
    shown--;
  }
  return make(shown);
}

/** The compact table of some groups (a whole response, or a bisection section). */
function overview(endpoint: StatsEndpoint, groups: readonly StatsGroup[], fields: readonly string[], opts: RenderOptions): string {
  const { title, labels } = groupLabels(groups);
  let layout: Layout;
  let rows: Row[];
  let total: Value[];
  let unavailable: Array<string | undefined> = [];
  let sortBy = 0;
  if (endpoint.category && fields.length === 1) {
    const field = fields[0]!;
    const cells = groups.map((g) => byCategory(endpoint, g.records, field));
    const columns = categoryColumns(endpoint, field, title, labels, cells, opts);
    layout = columns.layout;
    rows = groups.map((_, i) => ({ label: labels[i]!, values: columns.rowValues(cells[i]!) }));
    const merged = new Map<string, number>();
    for (const m of cells) for (const [k, v] of m) merged.set(k, (merged.get(k) ?? 0) + v);
    total = columns.rowValues(merged);
  } else {
    layout = { head: [title, ...fields], format: (j, v) => formatCell(endpoint, fields[j]!, v, true) };
    rows = groups.map((g, i) => ({ label: labels[i]!, values: fields.map((f) => windowValue(f, g.records)) }));
    // all groups together, computed as --fail-if and `mq stats summary` compute it
    const all = groups.flatMap((g) => g.records);
    // a figure with no rule to combine groups (time-to-merge's mean and median, an average without
    // its count, a percentile) is n/a, as --fail-if and the summary say
    unavailable = fields.map(
      (f) => groupsUnavailable(endpoint, f, all) ?? (groups.length > 1 ? totalUnavailable(f, all, "groups") : undefined),
    );
    total = fields.map((f, j) => (unavailable[j] ? undefined : windowValue(f, all)));
    sortBy = sortColumn(endpoint, fields);
  }
  const active = rows.filter((r) => !idle(r.values)).sort(descendingBy(sortBy));
  const quiet = rows.length - active.length;
  const footer = groups.length > 1 && active.length > 0 ? [{ label: "all groups", values: total, unavailable }] : [];
  let text = active.length ? layOut(layout, active, opts, footer) : "";
  if (footer.length) text += unavailableNotes(fields, unavailable, opts.columns);
  if (quiet > 0) text += `${active.length ? "+ " : ""}${plural(quiet, "group")} with no activity in the window\n`;
  return text;
}

/** Why the all-groups figure of `field` is not given, when no rule of its record combines groups. */
function groupsUnavailable(endpoint: StatsEndpoint, field: string, records: readonly Rec[]): string | undefined {
  // time-to-merge's rows have no interval and no count: the only combination left would be a mean of means
  if (endpoint.shape !== "time-to-merge" || !records.length) return undefined;
  const what =
    field === "median"
      ? "the median of each queue does not give the median of all"
      : "a mean of the means would be a figure nobody measured";
  return `one ${field} per partition and queue, without the number of merges behind it: ${what} (mq insights gives p50(time_to_merge) and avg(time_to_merge) over every queue)`;
}

/** One line under a table per reason an all-groups figure is n/a. */
function unavailableNotes(fields: readonly string[], unavailable: ReadonlyArray<string | undefined>, columns: number | undefined): string {
  return fields.flatMap((f, j) => (unavailable[j] ? [fitLine(`n/a: all groups ${f}: ${unavailable[j]}`, columns) + "\n"] : [])).join("");
}

/**
 * The start of every interval of the response (the API may leave out an interval with nothing in
 * it): the starts seen in any group, with the gaps of a regular grid filled in.
 */
function intervalGrid(groups: readonly StatsGroup[]): number[] {
  const starts = [
    ...new Set(groups.flatMap((g) => g.records.map((r) => Date.parse(String(r.start)))).filter((t) => !Number.isNaN(t))),
  ].sort((a, b) => a - b);
  if (starts.length < 3) return starts;
  const steps = starts
    .slice(1)
    .map((t, i) => t - starts[i]!)
    .sort((a, b) => a - b);
  const step = steps[Math.floor(steps.length / 2)]!;
  const out: number[] = [starts[0]!];
  for (const t of starts.slice(1)) {
    // the first interval of a window may be partial: fill from the second start on
    for (let next = out[out.length - 1]! + step; out.length > 1 && next < t && out.length < 10_000; next += step) out.push(next);
    out.push(t);
  }
  return out;
}

/** One table per group with a row per interval; an interval without data is a row of dashes, a count of 0 is 0. */
function perInterval(endpoint: StatsEndpoint, groups: readonly StatsGroup[], fields: readonly string[], opts: RenderOptions): string {
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  const { labels } = groupLabels(groups);
  const grid = intervalGrid(groups);
  const out: string[] = [];
  let quiet = 0;
  const category = endpoint.category && fields.length === 1 ? endpoint.category : undefined;
  const categoryNames = category ? [...new Set(groups.flatMap((g) => g.records.map((r) => String(r[category]))))] : [];
  groups.forEach((group, i) => {
    const at = new Map<number, Rec[]>();
    for (const r of group.records) {
      const t = Date.parse(String(r.start));
      if (!at.has(t)) at.set(t, []);
      at.get(t)!.push(r);
    }
    let layout: Layout;
    let valuesAt: (records: Rec[]) => Value[];
    if (category) {
      const field = fields[0]!;
      const present = categoryNames.filter((c) => group.records.some((r) => String(r[category]) === c));
      const columns = categoryColumns(endpoint, field, "start", [], [byCategory(endpoint, group.records, field)], opts);
      layout = columns.layout;
      valuesAt = (records) => (records.length ? columns.rowValues(byCategory(endpoint, records, field)) : []);
      if (!present.length) valuesAt = () => [];
    } else {
      layout = { head: ["start", ...fields], format: (j, v) => formatCell(endpoint, fields[j]!, v, true) };
      // each figure as it is over that interval: a count the API sent as 0 is 0, a rate of 0 of 0
      // has no value, and an interval the API sent nothing for is a row of dashes (no data)
      valuesAt = (records) => fields.map((f) => (records.length ? windowValue(f, records) : undefined));
    }
    const rows = grid.map((t) => ({ label: formatTime(t), values: valuesAt(at.get(t) ?? []) }));
    if (rows.every((r) => idle(r.values))) {
      quiet++;
      return;
    }
    const width = layout.head.length - 1;
    for (const r of rows) while (r.values.length < width) r.values.push(undefined);
    out.push(bold(labels[i]!) + "\n");
    out.push(layOut(layout, rows, opts) + "\n");
  });
  if (quiet > 0) out.push(`${out.length ? "+ " : ""}${plural(quiet, "group")} with no activity in the window\n`);
  return out.join("");
}

/**
 * The API's own figures over the window for a group (the real service's idle time: means, p95,
 * maxima), one line per group that has them, under the table.
 */
function groupSummaries(endpoint: StatsEndpoint, groups: readonly StatsGroup[], columns: number | undefined): string {
  if (!groups.some((g) => g.summary)) return "";
  const { labels } = groupLabels(groups);
  return groups
    .map((g, i) => {
      if (!g.summary) return "";
      const parts = Object.entries(g.summary).map(
        ([k, v]) => `${terminalText(k)} ${formatCell(endpoint, k.replace(/^(avg|p95|max)_/, ""), v, true)}`,
      );
      const label = groups.length > 1 && labels[i] ? ` ${labels[i]}` : "";
      // a dozen figures make a line of 300 columns: cut to the terminal like every other line (all are in -o json)
      return `${fitLine(`summary${label}: ${parts.join(", ")}`, columns)}\n`;
    })
    .join("");
}

/** The table of a response: one row per group (or, with `intervals`, per interval of each group). */
export function renderStatsTables(endpoint: StatsEndpoint, body: unknown, opts: RenderOptions): string {
  if (endpoint.shape === "list") {
    const items = listItems(endpoint, body);
    if (!items.length) return "";
    return renderTable({
      head: [listItemKey(endpoint)],
      rows: items.map((i) => [terminalText(i)]),
      columns: opts.columns,
      colors: opts.colors,
    });
  }
  const groups = toGroups(endpoint, body);
  if (endpoint.shape === "time-to-merge") {
    // one row per partition and queue: the API gives a value per queue and nothing to combine them by
    const flat = groups.flatMap((g) =>
      g.records.map((r) => ({ keys: [...g.keys, ["queue_name", r.queue_name as KeyValue]] as StatsGroup["keys"], records: [r] })),
    );
    return overview(endpoint, flat, endpoint.fields, { ...opts, intervals: false });
  }
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  const sections = endpoint.sections ? (Object.keys(endpoint.sections) as Array<"started" | "completed">) : [undefined];
  const out: string[] = [];
  for (const section of sections) {
    const inSection = groups.filter((g) => g.section === section);
    if (!inSection.length) continue;
    if (section) out.push(bold(section) + "\n");
    // an endpoint with many figures names the ones its table shows (the others are in json/ndjson/csv)
    const shown = endpoint.tableFields;
    const fields = fieldsOfSection(endpoint, section).filter(
      (f) => (!shown || shown.includes(f)) && inSection.some((g) => g.records.some((r) => f in r)),
    );
    const intervals = opts.intervals && endpoint.shape !== "checks-outcome";
    const text =
      (intervals ? perInterval : overview)(endpoint, inSection, fields, opts) + groupSummaries(endpoint, inSection, opts.columns);
    // one blank line between tables, none after the last
    out.push(section && !text.endsWith("\n\n") ? text + "\n" : text);
  }
  return out.join("").replace(/\n+$/, "\n");
}

/** A chart of the endpoint's main figure for each series, titled with the series' short label. */
export function renderStatsCharts(endpoint: StatsEndpoint, body: unknown, opts: RenderOptions): string {
  const field = endpoint.mainField;
  if (!field) return "";
  const series = toSeries(endpoint, toGroups(endpoint, body)).filter((s) => fieldsOfSection(endpoint, s.section).includes(field));
  const { labels } = groupLabels(series.map((s) => ({ keys: s.section ? [["section", s.section], ...s.keys] : s.keys })));
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  return series
    .map((s, i) =>
      renderChart({
        title: bold(fitLine(labels[i]!, opts.chartColumns)),
        label: field,
        points: s.records.map((r) => ({
          start: String(r.start),
          end: String(r.end),
          value: typeof r[field] === "number" ? (r[field] as number) : null,
        })),
        columns: opts.chartColumns,
        format: (v) => formatCell(endpoint, field, v, true),
      }),
    )
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// summary

export function renderSummary(repo: string, f: SummaryFigures, opts: RenderOptions): string {
  const dur = (v: number | null) => (v === null ? "-" : formatDuration(v));
  const cnt = (v: number | null) => (v === null ? "-" : formatCount(v));
  const pct = (v: number | null) => (v === null ? "-" : formatPercent(v));
  const rows: Array<[string, string]> = [
    ["entered", cnt(f.entered)],
    ["merged", cnt(f.merged)],
    ["check failure rate", `${pct(f.check_failure_rate)} (${cnt(f.check_failures)} of ${cnt(f.checks)} checks)`],
    ["queue time", `avg ${dur(f.avg_queue_time)}, max ${dur(f.max_queue_time)}`],
    ["CI runtime", `avg ${dur(f.avg_ci_runtime)}`],
    ["queue size", `avg ${cnt(f.avg_queue_size)}, max ${cnt(f.max_queue_size)}`],
    ["retries", `${cnt(f.total_retries)}, recovery rate ${pct(f.recovery_rate)}`],
  ];
  // a dash is no value, never 0: each says why under the figures
  const notes = Object.entries(f.unavailable ?? {}).map(([name, why]) => `-: ${name}: ${why}`);
  const title = `${repo}  ${shortTime(f.start_at)} → ${shortTime(f.end_at)}`;
  const width = Math.max(...rows.map(([k]) => k.length));
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  return (
    [
      bold(fitLine(title, opts.columns)),
      ...rows.map(([k, v]) => `${bold(k.padEnd(width))}  ${v}`),
      ...notes.map((n) => fitLine(n, opts.columns)),
    ].join("\n") + "\n"
  );
}

// ---------------------------------------------------------------------------------------------
// exports: what `mq stats` hands the exporter

/** -o table is for people wherever it goes: values humanised always, fitted and coloured only on a terminal. */
function renderOptions(io: IOStreams, intervals = false): RenderOptions {
  return { columns: io.tableWidth(), chartColumns: io.width(), colors: colors(io), intervals };
}

export interface StatsView {
  /** draw charts instead of tables */
  chart: boolean;
  /** a row per interval instead of per group */
  intervals: boolean;
  /** --fields: the record fields machine formats keep */
  fields?: string[];
  /** "acme/web": the line above the table names it with the window */
  repo?: string;
  /** the filters in effect, as typed (`--queue default`), for the message of an empty result */
  filters?: string[];
  /** the window asked for, in words ("the last 24 hours") */
  window?: string;
}

/**
 * A statistics response for the exporter: -o json is the body as sent (fields mq does not know
 * kept; with --fields, the selected fields of each flat record), ndjson and csv one flat record per
 * group and interval, the table one row per group (a table per group with --intervals, a chart per
 * series with --chart), under a line on stderr naming the repository and the window.
 */
export function statsExport(
  io: IOStreams,
  endpoint: StatsEndpoint,
  body: unknown,
  view: StatsView,
): Export<Record<string, unknown>> & { records(): Array<Record<string, unknown>> } {
  let records: Array<Record<string, unknown>> | undefined;
  const all = () => (records ??= flatten(endpoint, body));
  return {
    records: all,
    document: view.fields ? undefined : () => body,
    fields: view.fields,
    csvColumns: () => view.fields ?? allKeys(all()),
    csvJoinArrays: true,
    figures: endpoint.figures,
    table: () => ({
      async write() {},
      async end() {
        const opts = renderOptions(io, view.intervals);
        const text = view.chart ? renderStatsCharts(endpoint, body, opts) : renderStatsTables(endpoint, body, opts);
        if (view.repo && text)
          io.stderr.write(fitLine(`${view.repo} ${endpoint.name}${view.window ? `, ${view.window}` : ""}`, io.tableWidth()) + "\n");
        if (text) await io.writeData(text);
        else io.stderr.write(emptyMessage(endpoint, view));
      },
    }),
  };
}

/** Nothing to show: say what was asked (the filters in effect) and what to try next. */
function emptyMessage(endpoint: StatsEndpoint, view: StatsView): string {
  const where = `${view.repo ? ` for ${view.repo}` : ""}${view.window ? ` in ${view.window}` : ""}`;
  const filters = view.filters?.length ? ` with ${view.filters.join(" ")}` : "";
  const next = view.filters?.some((f) => !f.startsWith("--since") && !f.startsWith("--until"))
    ? "try fewer filters, a longer --since (e.g. --since 7d), or mq stats queues and mq stats branches for the names in use"
    : "try a longer --since (e.g. --since 7d)";
  return `mq: no ${endpoint.name} data${where}${filters}; ${next}.\n`;
}

/** The summary for the exporter: one record (the document for json), a short screen as a table. */
export function summaryExport(io: IOStreams, repo: string, figures: SummaryFigures): Export<SummaryFigures> {
  return {
    document: () => figures,
    table: () => ({
      async write() {},
      end: () => io.writeData(renderSummary(repo, figures, renderOptions(io))),
    }),
  };
}
