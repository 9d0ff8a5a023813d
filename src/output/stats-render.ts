// Statistics for people and for machines: a table per group (with a "window" row computed like
// --fail-if computes it), csv-ready flat records, charts per series, and the summary screen.
import type { ChalkInstance } from "chalk";
import type { IOStreams } from "../context.js";
import { windowValue } from "../stats/aggregate.js";
import type { StatsEndpoint } from "../stats/endpoints.js";
import { describeKeys, fieldsOfSection, flatten, listItemKey, listItems, toGroups, toSeries, type StatsGroup } from "../stats/series.js";
import type { SummaryFigures } from "../stats/summary.js";
import { renderChart } from "./chart.js";
import { colors } from "./color.js";
import { allKeys, type Export } from "./exporter.js";
import { formatCount, formatDuration, formatPercent } from "./format.js";
import { writeChunk } from "./records.js";
import { renderTable } from "./table.js";
import { terminalText } from "./terminal-text.js";
import { displayWidth } from "./terminal-width.js";

export interface RenderOptions {
  /** humanise durations, rates, counts and times (a terminal) */
  human: boolean;
  columns: number;
  colors?: ChalkInstance;
}

/** One value as a table cell: humanised on a terminal, raw otherwise. */
export function formatCell(endpoint: StatsEndpoint, field: string, value: unknown, human: boolean): string {
  if (value === null || value === undefined) return human ? "-" : "";
  if (Array.isArray(value)) return value.join(",");
  if (!human) return String(value);
  if (typeof value === "number") {
    const kind = endpoint.figures[field]?.kind;
    if (kind === "duration") return formatDuration(value);
    if (kind === "rate") return formatPercent(value);
    return formatCount(value);
  }
  if ((field === "start" || field === "end") && typeof value === "string") return shortTime(value);
  return String(value);
}

/** 2026-11-20T11:00:00.123Z → 2026-11-20 11:00Z: minutes keep a column of intervals readable. */
export function shortTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toISOString().slice(0, 16).replace("T", " ") + "Z";
}

/**
 * The columns of a group's table. On a terminal the interval's end is left out: it is the next
 * row's start, and the width is better spent on figures (checks-retries has seven).
 */
function columnsOf(endpoint: StatsEndpoint, group: StatsGroup, human: boolean): string[] {
  const present = (f: string) => group.records.some((r) => f in r);
  const figures = fieldsOfSection(endpoint, group.section).filter(present);
  if (endpoint.shape === "time-to-merge") return ["queue_name", ...figures];
  if (endpoint.shape === "checks-outcome") return ["check_outcome", ...figures];
  const category = endpoint.category;
  return [...(human ? ["start"] : ["start", "end"]), ...(category ? [category] : []), ...figures];
}

function hasWindowRow(endpoint: StatsEndpoint): boolean {
  return (endpoint.shape === "groups" || endpoint.shape === "bisection") && !endpoint.category;
}

/** Tables, one per group under a heading line; list endpoints one name per row. */
export function renderStatsTables(endpoint: StatsEndpoint, body: unknown, opts: RenderOptions): string {
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  if (endpoint.shape === "list") {
    const items = listItems(endpoint, body);
    if (!items.length) return "";
    return renderTable({ head: [listItemKey(endpoint)], rows: items.map((i) => [terminalText(i)]), columns: opts.columns, colors: opts.colors });
  }
  const out: string[] = [];
  let section: StatsGroup["section"];
  for (const group of toGroups(endpoint, body)) {
    if (group.section && group.section !== section) {
      section = group.section;
      out.push(bold(`== ${section} ==`) + "\n");
    }
    const columns = columnsOf(endpoint, group, opts.human);
    // values from the server (a category such as an exit reason, a queue name) through the door
    const rows = group.records.map((r) => columns.map((c) => terminalText(formatCell(endpoint, c, r[c], opts.human))));
    if (hasWindowRow(endpoint) && group.records.length > 1) {
      rows.push(
        columns.map((c, i) => {
          if (c === "start") return "window";
          if (c === "end" || i === 0) return "";
          return formatCell(endpoint, c, windowValue(c, group.records), opts.human);
        }),
      );
    }
    const align = columns.map((c) => (endpoint.fields.includes(c) ? ("right" as const) : ("left" as const)));
    out.push(bold(terminalText(describeKeys({ keys: group.keys }))) + "\n");
    out.push(renderTable({ head: fitHead(columns, rows, opts), rows, columns: opts.columns, colors: opts.colors, align }));
    out.push("\n");
  }
  return out.join("");
}

/**
 * Field names stay the header (they are what --fail-if takes); when they make the table wider than
 * the terminal, they break at underscores onto several lines instead of being cut.
 */
function fitHead(columns: string[], rows: string[][], opts: RenderOptions): string[] {
  if (!opts.human) return columns;
  const width = columns.reduce((sum, c, i) => sum + Math.max(displayWidth(c), ...rows.map((r) => displayWidth(r[i]!))), 0) + 2 * (columns.length - 1);
  return width <= opts.columns ? columns : columns.map((c) => c.replace(/_/g, "\n"));
}

/** Formats a figure for min/max labels of a chart. */
function chartFormat(endpoint: StatsEndpoint, field: string, human: boolean): (v: number) => string {
  return (v) => (human ? formatCell(endpoint, field, v, true) : String(Number(v.toPrecision(6))));
}

/** A chart of the endpoint's main figure for each series. */
export function renderStatsCharts(endpoint: StatsEndpoint, body: unknown, opts: RenderOptions): string {
  const field = endpoint.mainField;
  if (!field) return "";
  const out: string[] = [];
  for (const series of toSeries(endpoint, toGroups(endpoint, body))) {
    if (!fieldsOfSection(endpoint, series.section).includes(field)) continue;
    out.push(
      renderChart({
        title: opts.colors ? opts.colors.bold(terminalText(describeKeys(series))) : terminalText(describeKeys(series)),
        label: field,
        points: series.records.map((r) => ({
          start: String(r.start),
          end: String(r.end),
          value: typeof r[field] === "number" ? (r[field] as number) : null,
        })),
        columns: opts.columns,
        format: chartFormat(endpoint, field, opts.human),
      }),
    );
  }
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------
// summary

export function renderSummary(repo: string, f: SummaryFigures, opts: RenderOptions): string {
  const h = opts.human;
  const dur = (v: number | null) => (v === null ? "-" : h ? formatDuration(v) : String(v));
  const cnt = (v: number | null) => (v === null ? "-" : h ? formatCount(v) : String(v));
  const pct = (v: number | null) => (v === null ? "-" : h ? formatPercent(v) : String(v));
  const rows: Array<[string, string]> = [
    ["entered", cnt(f.entered)],
    ["merged", cnt(f.merged)],
    ["failure rate", `${pct(f.failure_rate)} (${cnt(f.failures)} of ${cnt(f.checks)} checks)`],
    ["queue time", `avg ${dur(f.avg_queue_time)}, max ${dur(f.max_queue_time)}`],
    ["CI runtime", `avg ${dur(f.avg_ci_runtime)}`],
    ["queue size", `avg ${cnt(f.avg_queue_size)}, max ${cnt(f.max_queue_size)}`],
    ["retries", `${cnt(f.retries)}, recovery rate ${pct(f.recovery_rate)}`],
  ];
  const title = `${repo}  ${h ? shortTime(f.start_at) : f.start_at} → ${h ? shortTime(f.end_at) : f.end_at}`;
  const width = Math.max(...rows.map(([k]) => k.length));
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  return [bold(title), ...rows.map(([k, v]) => `${bold(k.padEnd(width))}  ${v}`)].join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// exports: what `mq stats` hands the exporter

function renderOptions(io: IOStreams): RenderOptions {
  return { human: io.isStdoutTerminal(), columns: io.width(), colors: colors(io) };
}

/**
 * A statistics response for the exporter: -o json is the body as sent (fields mq does not know
 * kept), ndjson and csv one flat record per group and interval, the table a table per group (or a
 * chart per series with `chart`).
 */
export function statsExport(io: IOStreams, endpoint: StatsEndpoint, body: unknown, chart: boolean): Export<Record<string, unknown>> & { records(): Array<Record<string, unknown>> } {
  let records: Array<Record<string, unknown>> | undefined;
  const all = () => (records ??= flatten(endpoint, body));
  return {
    records: all,
    document: () => body,
    csvColumns: () => allKeys(all()),
    csvJoinArrays: true,
    figures: endpoint.figures,
    table: () => ({
      async write() {},
      async end() {
        const opts = renderOptions(io);
        const text = chart ? renderStatsCharts(endpoint, body, opts) : renderStatsTables(endpoint, body, opts);
        if (text) await writeChunk(io.stdout, text);
        else io.stderr.write(`mq: no ${endpoint.name} data in this window.\n`);
      },
    }),
  };
}

/** The summary for the exporter: one record (the document for json), a short screen on a terminal. */
export function summaryExport(io: IOStreams, repo: string, figures: SummaryFigures): Export<SummaryFigures> {
  return {
    document: () => figures,
    table: () => ({
      async write() {},
      end: () => writeChunk(io.stdout, renderSummary(repo, figures, renderOptions(io))),
    }),
  };
}
