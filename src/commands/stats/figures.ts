// Statistics as figures over the window, for the formats that want one value per group rather than
// one row per interval: the headline table (-o markdown, the Actions step summary) and the gauges
// of -o openmetrics. Values come from the gate engine's targets, so a table, a gauge and a
// --fail-if verdict on the same figure always agree.
import { statsTargets, targetValue } from "../../stats/fail-if.js";
import type { StatsEndpoint } from "../../stats/endpoints.js";
import { describeKeys, toGroups, type KeyValue } from "../../stats/series.js";
import { findStatsEndpoint } from "../../stats/endpoints.js";
import { SUMMARY_SOURCES, type SummaryFigureName, type SummaryFigures } from "../../stats/summary.js";
import { onTimeGrid } from "../../output/chart.js";
import { catalogueNameOf, figure, type Figure } from "../../figures/catalogue.js";
import type { MarkdownTable } from "../../output/markdown.js";
import type { MetricFamily } from "../../output/openmetrics.js";
import { formatCell } from "./render.js";
import { maxOf, minOf } from "../../arrays.js";

/** Rows of the headline table beyond which the rest is summed up in one line. */
const MAX_ROWS = 50;

function groupLabel(scope: "all" | "each", keys: ReadonlyArray<[string, KeyValue]>): string {
  if (scope === "all") return keys.length ? `all groups, ${describeKeys({ keys: [...keys] })}` : "all groups";
  return describeKeys({ keys: [...keys] });
}

/** One row per group (and outcome) with each figure over the window, the all-groups rows first. */
export function statsHeadline(endpoint: StatsEndpoint, body: unknown): MarkdownTable {
  const rows = new Map<string, { label: string; all: boolean; cells: Map<string, unknown> }>();
  for (const field of endpoint.fields) {
    for (const t of statsTargets(endpoint, body, field, "both")) {
      const id = `${t.scope}\u0000${JSON.stringify(t.keys)}`;
      let row = rows.get(id);
      if (!row) rows.set(id, (row = { label: groupLabel(t.scope, t.keys), all: t.scope === "all", cells: new Map() }));
      row.cells.set(field, targetValue(t, field));
    }
  }
  const ordered = [...rows.values()].sort((a, b) => Number(b.all) - Number(a.all));
  const shown = ordered
    .slice(0, MAX_ROWS)
    .map((r) => [r.label, ...endpoint.fields.map((f) => formatCell(endpoint, f, r.cells.get(f), true))]);
  if (ordered.length > MAX_ROWS)
    shown.push([`… ${ordered.length - MAX_ROWS} more groups (-o ndjson for all)`, ...endpoint.fields.map(() => "")]);
  return { head: ["group", ...endpoint.fields], rows: shown, right: [false, ...endpoint.fields.map(() => true)] };
}

const LABEL_NAMES: Readonly<Record<string, string>> = {
  queue_name: "queue",
  partition_name: "partition",
  partition_names: "partition",
  priority_rule_name: "priority_rule",
};

/** A field's catalogue entry: its OpenMetrics name and the sentence its HELP gives. */
function entryOf(endpoint: StatsEndpoint, field: string): Figure {
  return figure(catalogueNameOf(endpoint.name, field))!;
}

function labelValue(v: KeyValue | undefined): string {
  if (v === null || v === undefined) return "";
  return Array.isArray(v) ? v.join(",") : String(v);
}

/** One gauge family per figure, one sample per group (and outcome), labelled with the repository. */
export function statsMetrics(endpoint: StatsEndpoint, body: unknown, repository: string): MetricFamily[] {
  return endpoint.fields.map((field) => {
    const spec = endpoint.figures[field]!;
    const samples = statsTargets(endpoint, body, field, "each").flatMap((t) => {
      const value = targetValue(t, field);
      if (value === undefined) return [];
      const labels: Array<readonly [string, string]> = [["repository", repository]];
      for (const [k, v] of t.keys) labels.push([LABEL_NAMES[k] ?? k, labelValue(v)]);
      return [{ labels, value }];
    });
    const entry = entryOf(endpoint, field);
    return {
      name: entry.metric!,
      help: `${entry.name} over the window, per group (mq stats ${endpoint.name}): ${entry.definition}`,
      unit: spec.kind === "duration" ? ("seconds" as const) : undefined,
      samples,
    };
  });
}

function summarySources(): Array<[SummaryFigureName, StatsEndpoint, string]> {
  return (Object.entries(SUMMARY_SOURCES) as Array<[SummaryFigureName, readonly [string, string]]>).map(([name, [e, field]]) => [
    name,
    findStatsEndpoint(e)!,
    field,
  ]);
}

/** The summary's figures as gauges named as the subcommands name them, labelled with the repository only. */
export function summaryMetrics(figures: SummaryFigures, repository: string): MetricFamily[] {
  return summarySources().map(([name, endpoint, field]) => {
    const value = figures[name];
    const entry = entryOf(endpoint, field);
    return {
      name: entry.metric!,
      help: `${name} over the window, all groups (mq stats summary; from mq stats ${endpoint.name}): ${entry.definition}`,
      unit: endpoint.figures[field]!.kind === "duration" ? ("seconds" as const) : undefined,
      samples: value === null ? [] : [{ labels: [["repository", repository]] as const, value }],
    };
  });
}

/** The summary as a two-column table: figure, value (humanised). */
export function summaryHeadline(figures: SummaryFigures): MarkdownTable {
  return {
    head: ["figure", "value"],
    rows: summarySources().map(([name, endpoint, field]) => [name, formatCell(endpoint, field, figures[name], true)]),
    right: [false, true],
  };
}

/** The main figure over time, all groups together, for the step summary's sparkline. */
export function statsChart(
  endpoint: StatsEndpoint,
  body: unknown,
): { label: string; values: Array<number | null>; min: string; max: string } | undefined {
  const field = endpoint.mainField;
  if (!field || endpoint.category) return undefined;
  const [all] = statsTargets(endpoint, body, field, "all");
  if (!all || all.records.length < 2) return undefined;
  const { values } = onTimeGrid(
    all.records.map((r) => ({
      start: String(r.start),
      end: String(r.end),
      value: typeof r[field] === "number" ? (r[field] as number) : null,
    })),
  );
  const present = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (!present.length) return undefined;
  return {
    label: field,
    values: values.map((v) => (typeof v === "number" ? v : null)),
    min: formatCell(endpoint, field, minOf(present), true),
    max: formatCell(endpoint, field, maxOf(present), true),
  };
}

/** The span the response covers: from the first interval's start to the last one's end. */
export function statsWindow(endpoint: StatsEndpoint, body: unknown): { start: string; end: string } | undefined {
  let start: string | undefined;
  let end: string | undefined;
  for (const g of toGroups(endpoint, body)) {
    for (const r of g.records) {
      const s = typeof r.start === "string" ? r.start : undefined;
      const e = typeof r.end === "string" ? r.end : undefined;
      if (s && (!start || Date.parse(s) < Date.parse(start))) start = s;
      if (e && (!end || Date.parse(e) > Date.parse(end))) end = e;
    }
  }
  return start && end ? { start, end } : undefined;
}
