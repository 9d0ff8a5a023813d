// Statistics for people and for machines: a table per group (with a "window" row computed like
// --fail-if computes it), csv-ready flat records, charts per series, and the summary screen.
import type { ChalkInstance } from "chalk";
import type { StatsEndpoint } from "../api/endpoints.js";
import { windowValue } from "../commands/stats/aggregate.js";
import {
  CATEGORY_FIELD,
  describeKeys,
  fieldsOfSection,
  flatten,
  listItemKey,
  listItems,
  toGroups,
  toSeries,
  type StatsGroup,
} from "../commands/stats/series.js";
import { renderChart } from "./chart.js";
import { formatCount, formatDuration, formatPercent } from "./format.js";
import { renderTable } from "./table.js";

const RATE_FIELDS = new Set(["failure_rate", "recovery_rate"]);

export interface RenderOptions {
  /** humanise durations, rates, counts and times (a terminal) */
  human: boolean;
  columns: number;
  colors?: ChalkInstance;
}

/** One value as a table cell: humanised on a terminal, raw otherwise. */
export function formatCell(endpoint: StatsEndpoint | undefined, field: string, value: unknown, human: boolean): string {
  if (value === null || value === undefined) return human ? "-" : "";
  if (Array.isArray(value)) return value.join(",");
  if (!human) return String(value);
  if (typeof value === "number") {
    if (endpoint?.durationFields?.includes(field)) return formatDuration(value);
    if (RATE_FIELDS.has(field)) return formatPercent(value);
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
  const category = CATEGORY_FIELD[endpoint.name];
  return [...(human ? ["start"] : ["start", "end"]), ...(category ? [category] : []), ...figures];
}

function hasWindowRow(endpoint: StatsEndpoint): boolean {
  return (endpoint.shape === "groups" || endpoint.shape === "bisection") && !CATEGORY_FIELD[endpoint.name];
}

/** Tables, one per group under a heading line; list endpoints one name per row. */
export function renderStatsTables(endpoint: StatsEndpoint, body: unknown, opts: RenderOptions): string {
  const bold = (s: string) => (opts.colors ? opts.colors.bold(s) : s);
  if (endpoint.shape === "list") {
    const items = listItems(endpoint, body);
    if (!items.length) return "";
    return renderTable({ head: [listItemKey(endpoint)], rows: items.map((i) => [i]), columns: opts.columns, colors: opts.colors });
  }
  const out: string[] = [];
  let section: StatsGroup["section"];
  for (const group of toGroups(endpoint, body)) {
    if (group.section && group.section !== section) {
      section = group.section;
      out.push(bold(`== ${section} ==`) + "\n");
    }
    const columns = columnsOf(endpoint, group, opts.human);
    const rows = group.records.map((r) => columns.map((c) => formatCell(endpoint, c, r[c], opts.human)));
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
    out.push(bold(describeKeys({ keys: group.keys })) + "\n");
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
  const width = columns.reduce((sum, c, i) => sum + Math.max(c.length, ...rows.map((r) => r[i]!.length)), 0) + 2 * (columns.length - 1);
  return width <= opts.columns ? columns : columns.map((c) => c.replace(/_/g, "\n"));
}

/** Flat records for ndjson (arrays kept) or csv (arrays joined with commas). */
export function statsRecords(endpoint: StatsEndpoint, body: unknown, forCsv: boolean): Array<Record<string, unknown>> {
  const records = flatten(endpoint, body);
  if (!forCsv) return records;
  return records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v])));
}

/** Every key of every record, in order of first appearance: the csv header. */
export function csvColumns(records: ReadonlyArray<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
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
        title: opts.colors ? opts.colors.bold(describeKeys(series)) : describeKeys(series),
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

export interface SummaryFigures {
  start_at: string;
  end_at: string;
  entered: number | null;
  merged: number | null;
  checks: number | null;
  failures: number | null;
  failure_rate: number | null;
  avg_queue_time: number | null;
  max_queue_time: number | null;
  avg_ci_runtime: number | null;
  avg_queue_size: number | null;
  max_queue_size: number | null;
  retries: number | null;
  recovery_rate: number | null;
}

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
