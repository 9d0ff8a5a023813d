// `mq stats <endpoint> --repo a/b,c/d` for the exporter: one row per repository and part (check
// outcome, exit reason, bisection section) with each figure over the window, then the total rows.
// A total the API's figures cannot give exactly is "n/a" on the table (null elsewhere), with its
// reason under the table (on stderr for the machine formats). -o json is one document.
import type { IOStreams } from "../../iostreams/iostreams.js";
import { findStatsEndpoint, type StatsEndpoint } from "../../stats/endpoints.js";
import { unavailableTotals, type ManyRow, type ManyStats, type RepoBodies, type RepoBody, type SummaryMany } from "../../stats/many.js";
import { SUMMARY_SOURCES, type SummaryFigureName, type SummaryFigures } from "../../stats/summary.js";
import { fieldsOfSection, formatKeyValue, type KeyValue } from "../../stats/series.js";
import { colors } from "../../iostreams/color.js";
import type { Export } from "../../output/exporter.js";
import type { MarkdownTable } from "../../output/markdown.js";
import type { MetricFamily } from "../../output/openmetrics.js";
import { statsMetrics, summaryMetrics } from "./figures.js";
import { fitLine, fittedTable } from "../../output/fitted-table.js";
import { formatCell, shortTime } from "./render.js";
import { terminalText } from "../../iostreams/terminal-text.js";

/** A repository that could not be read: its message and the exit code it would have had alone. */
export interface RepoFailure {
  repository: string;
  message: string;
  exit_code: number;
}
// (the same shape as cmdutil/repos.ts's: output/ does not import the commands)

export interface StatsManyView {
  fields?: string[];
  /** the window in words, for the line above the table */
  window?: string;
  /** the filters in effect, as typed (`--queue default`), for the message of an empty result */
  filters?: string[];
  failed: RepoFailure[];
}

const repositories = (n: number) => `${n} ${n === 1 ? "repository" : "repositories"}`;

/** The row as a flat record: repository ("total" for the total), part keys, figures. */
function flatRow(r: ManyRow): Record<string, unknown> {
  const out: Record<string, unknown> = { repository: r.repository ?? "total" };
  for (const [k, v] of r.keys) out[k] = v;
  return { ...out, ...r.values };
}

/** The fields of the flat records, for --fields: repository, the part keys, the figures. */
export function manyRecordFieldNames(endpoint: StatsEndpoint): string[] {
  return ["repository", ...(endpoint.sections ? ["section"] : []), ...(endpoint.category ? [endpoint.category] : []), ...endpoint.fields];
}

function keyCell(v: KeyValue | undefined): string {
  return terminalText(formatKeyValue(v));
}

/** The parts of the response in order (one table each for sections, else one table). */
function sections(endpoint: StatsEndpoint): Array<"started" | "completed" | undefined> {
  return endpoint.sections ? (Object.keys(endpoint.sections) as Array<"started" | "completed">) : [undefined];
}

function sectionOf(r: ManyRow): string | undefined {
  const s = r.keys.find(([k]) => k === "section")?.[1];
  return typeof s === "string" ? s : undefined;
}

interface Grid {
  head: string[];
  rows: string[][];
  right: boolean[];
}

/** The rows of one section as cells: repository, category, each shown figure (humanised when `human`). */
function grid(
  endpoint: StatsEndpoint,
  m: ManyStats,
  section: string | undefined,
  failed: readonly RepoFailure[],
  human: boolean,
  bold: (s: string) => string,
): Grid {
  const shown = endpoint.tableFields;
  const fields = fieldsOfSection(endpoint, section as "started" | "completed" | undefined).filter((f) => !shown || shown.includes(f));
  const category = endpoint.category;
  const head = ["repository", ...(category ? [category] : []), ...fields];
  const cells = (r: ManyRow, total: boolean): string[] => [
    total ? bold("total") : terminalText(r.repository ?? ""),
    ...(category ? [keyCell(r.keys.find(([k]) => k === category)?.[1])] : []),
    ...fields.map((f) => (r.unavailable[f] ? "n/a" : formatCell(endpoint, f, r.values[f], human))),
  ];
  const inSection = (r: ManyRow) => sectionOf(r) === section;
  const rows = [
    ...m.rows.filter(inSection).map((r) => cells(r, false)),
    ...failed.map((f) => [terminalText(f.repository), `failed (exit ${f.exit_code})`, ...Array(head.length - 2).fill("")]),
    ...m.total.filter(inSection).map((r) => cells(r, true)),
  ];
  return { head, rows, right: head.map((_, i) => i > (category ? 1 : 0)) };
}

/** The lines under the table: why a total is not available, one per field. */
function unavailableLines(m: ManyStats, columns: number | undefined): string {
  const byReason = new Map<string, string[]>();
  for (const [f, why] of unavailableTotals(m)) {
    // the same reason for several fields (the p95 of each idle part) is one line
    const key = why.replace(new RegExp(`\\b${f}\\b`, "g"), "\u0000");
    byReason.set(key, [...(byReason.get(key) ?? []), f]);
  }
  return [...byReason]
    .map(([why, fs]) => fitLine(`n/a: total ${fs.join(", ")}: ${why.replace(/\u0000/g, fs.length === 1 ? fs[0]! : "it")}`, columns) + "\n")
    .join("");
}

export function statsManyExport(
  io: IOStreams,
  endpoint: StatsEndpoint,
  m: ManyStats,
  repos: readonly RepoBody[],
  view: StatsManyView,
): Export<Record<string, unknown>> & { records(): Array<Record<string, unknown>> } {
  const records = () => [...m.rows, ...m.total].map(flatRow);
  return {
    records,
    document: view.fields
      ? undefined
      : () => ({
          endpoint: endpoint.name,
          repositories: m.rows.map(flatRow),
          total: m.total.map((r) => {
            const { repository: _r, ...rest } = flatRow(r);
            return rest;
          }),
          unavailable: Object.fromEntries(unavailableTotals(m)),
          failed: view.failed,
        }),
    fields: view.fields,
    csvColumns: () => view.fields ?? manyRecordFieldNames(endpoint),
    csvJoinArrays: true,
    figures: endpoint.figures,
    table: () => ({
      async write() {},
      async end() {
        const c = colors(io);
        const columns = io.tableWidth();
        const out: string[] = [];
        for (const section of sections(endpoint)) {
          const g = grid(endpoint, m, section, section === sections(endpoint)[0] ? view.failed : [], true, (s) => c.bold(s));
          if (!g.rows.length) continue;
          if (section) out.push(c.bold(section) + "\n");
          out.push(
            fittedTable({
              head: g.head,
              rows: g.rows,
              columns,
              colors: c,
              align: g.right.map((r) => (r ? "right" : "left")),
              lead: endpoint.category ? 2 : 1,
              durations: g.right.flatMap((r, i) => (r ? [i] : [])),
            }) + "\n",
          );
        }
        io.stderr.write(
          fitLine(`${repositories(repos.length + view.failed.length)} ${endpoint.name}${view.window ? `, ${view.window}` : ""}`, columns) +
            "\n",
        );
        if (!m.rows.length && !view.failed.length) {
          // nothing in any repository: say what was asked, as one repository's empty table does
          const filters = view.filters?.length ? ` with ${view.filters.join(" ")}` : "";
          io.stderr.write(
            `mq: no ${endpoint.name} data in any of the ${repos.length} repositories${view.window ? ` in ${view.window}` : ""}${filters}; try fewer filters or a longer --since (e.g. --since 7d).\n`,
          );
          return;
        }
        await io.writeData(out.join("") + unavailableLines(m, columns));
      },
    }),
    headline: () => manyHeadline(endpoint, m, view.failed),
    metrics: () => manyMetrics(endpoint, repos),
  };
}

/** -o markdown and the step summary: the table's rows, unavailable totals as n/a. */
export function manyHeadline(endpoint: StatsEndpoint, m: ManyStats, failed: readonly RepoFailure[] = []): MarkdownTable {
  const parts = sections(endpoint).map((s) => grid(endpoint, m, s, s === sections(endpoint)[0] ? failed : [], true, (x) => x));
  if (parts.length === 1) return { head: parts[0]!.head, rows: parts[0]!.rows, right: parts[0]!.right };
  // batch-bisection: one table with the section as a column
  const fields = endpoint.fields;
  const head = ["section", "repository", ...fields];
  const rows = parts.flatMap((p, i) => {
    const section = sections(endpoint)[i]!;
    return p.rows.map((r) => [section, r[0]!, ...fields.map((f) => (p.head.includes(f) ? r[p.head.indexOf(f)]! : ""))]);
  });
  return { head, rows, right: head.map((_, i) => i > 1) };
}

/** -o openmetrics: each repository's gauges labelled with its name; a scraper sums them itself. */
export function manyMetrics(endpoint: StatsEndpoint, repos: readonly RepoBody[]): MetricFamily[] {
  const families = new Map<string, MetricFamily>();
  for (const r of repos) {
    for (const f of statsMetrics(endpoint, r.body, r.repository)) {
      const known = families.get(f.name);
      if (known) known.samples = [...known.samples, ...f.samples];
      else families.set(f.name, { ...f, samples: [...f.samples] });
    }
  }
  return [...families.values()];
}

// ---------------------------------------------------------------------------------------------
// mq stats summary --repo a/b,c/d

function summaryCells(
  figures: Record<SummaryFigureName, number | null>,
  unavailable: SummaryMany["unavailable"],
  human: boolean,
): string[] {
  return SUMMARY_NAMES.map((name) => {
    if (unavailable[name]) return "n/a";
    const [endpointName, field] = SUMMARY_SOURCES[name];
    return formatCell(findStatsEndpoint(endpointName)!, field, figures[name], human);
  });
}

const SUMMARY_NAMES = Object.keys(SUMMARY_SOURCES) as SummaryFigureName[];

function summaryGrid(m: SummaryMany, failed: readonly RepoFailure[], bold: (s: string) => string): Grid {
  const head = ["repository", ...SUMMARY_NAMES];
  const rows = [
    ...m.rows.map((r) => [terminalText(r.repository), ...summaryCells(r.figures, {}, true)]),
    ...failed.map((f) => [terminalText(f.repository), `failed (exit ${f.exit_code})`, ...Array(head.length - 2).fill("")]),
    [bold("total"), ...summaryCells(m.total, m.unavailable, true)],
  ];
  return { head, rows, right: head.map((_, i) => i > 0) };
}

function summaryUnavailableLines(m: SummaryMany, columns: number | undefined): string {
  return Object.entries(m.unavailable)
    .map(([name, why]) => fitLine(`n/a: total ${name}: ${why}`, columns) + "\n")
    .join("");
}

/**
 * The summary of several repositories: a row per repository and the total (the table, csv and
 * ndjson), one document for json, each repository's gauges for openmetrics.
 */
export function summaryManyExport(
  io: IOStreams,
  m: SummaryMany,
  repos: readonly RepoBodies[],
  view: { start_at: string; end_at: string; failed: RepoFailure[] },
): Export<Record<string, unknown>> & { records(): Array<Record<string, unknown>> } {
  const records = () => [...m.rows.map((r) => ({ repository: r.repository, ...r.figures })), { repository: "total", ...m.total }];
  return {
    records,
    document: () => ({
      start_at: view.start_at,
      end_at: view.end_at,
      repositories: records().slice(0, -1),
      total: m.total,
      unavailable: m.unavailable,
      failed: view.failed,
    }),
    csvColumns: () => ["repository", ...SUMMARY_NAMES],
    table: () => ({
      async write() {},
      async end() {
        const c = colors(io);
        const columns = io.tableWidth();
        const g = summaryGrid(m, view.failed, (s) => c.bold(s));
        io.stderr.write(
          fitLine(
            `${repositories(repos.length + view.failed.length)} summary, ${shortTime(view.start_at)} → ${shortTime(view.end_at)}`,
            columns,
          ) + "\n",
        );
        const table = fittedTable({
          head: g.head,
          rows: g.rows,
          columns,
          colors: c,
          align: g.right.map((r) => (r ? "right" : "left")),
          durations: g.right.flatMap((r, i) => (r ? [i] : [])),
        });
        await io.writeData(table + "\n" + summaryUnavailableLines(m, columns));
      },
    }),
    headline: () => {
      const g = summaryGrid(m, view.failed, (s) => s);
      return { head: g.head, rows: g.rows, right: g.right };
    },
    metrics: () => {
      const families = new Map<string, MetricFamily>();
      for (const r of m.rows) {
        for (const f of summaryMetrics(r.figures as SummaryFigures, r.repository)) {
          const known = families.get(f.name);
          if (known) known.samples = [...known.samples, ...f.samples];
          else families.set(f.name, { ...f, samples: [...f.samples] });
        }
      }
      return [...families.values()];
    },
  };
}
