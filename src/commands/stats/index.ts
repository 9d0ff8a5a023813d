// `mq stats`: one subcommand per statistics endpoint, built from the endpoint records of
// src/stats/endpoints.ts, plus `mq stats summary`. This file is flags and wiring: the constructors
// parse and validate flags into options (nothing is sent on bad input); runStats and runStatsSummary
// fetch, hand the domain's results to the exporter and apply --fail-if, loading all that on demand.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { CheckFailedError, UsageError } from "../../errors.js";
import { STATS_ENDPOINTS, type StatsEndpoint } from "../../stats/endpoints.js";
import { acceptedFlags, STATS_FLAGS, type StatsFlag } from "../../stats/flags.js";
import { parseFailIf, type FailIfExpr } from "../../stats/fail-if.js";
import { SUMMARY_DESCRIPTION } from "../../stats/summary.js";
import { collectList, closestMatches, requireNonEmptyItems } from "../shared/lists.js";
import { checkWindowOrder, formatInstant, parseTimeFlag, parseTimeWindow, TIME_VALUE_HELP } from "../shared/time.js";
import { resolveOutputFormat } from "../shared/output.js";
import { recordFieldNames } from "../../stats/series.js";

export type StatsQuery = Record<string, string | string[]>;

export interface StatsOptions {
  endpoint: StatsEndpoint;
  /** the query parameters to send, in a stable order */
  query: StatsQuery;
  chart: boolean;
  /** on a table: a row per interval of each group instead of one row per group */
  intervals: boolean;
  /** the fields of the flat records to keep (json, ndjson, csv) */
  fields?: string[];
  /** the format: -o, else ndjson with --fields, else what suits stdout */
  format: OutputFormat;
  /** the filter flags as typed, repeated when the result is empty */
  filterWords: string[];
  failIf: FailIfExpr[];
}

export interface StatsSummaryOptions {
  /** the array filters of F (base_ref, partition_name, queue_name, priority_rule_name) */
  filters: StatsQuery;
  since: Date;
  until: Date;
}

// ---------------------------------------------------------------------------------------------
// flags

type RawFlags = { [K in StatsFlag["key"]]?: K extends "since" | "until" | "at" | "branch" ? string : string[] } & {
  chart?: boolean;
  intervals?: boolean;
  fields?: string[];
  failIf?: string[];
};

/** What `mq stats summary` accepts: the figures it combines all take the filter set F. */
const SUMMARY_ACCEPTS = acceptedFlags("filters");

function collectRepeat(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function listWords(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function flagHelp(f: StatsFlag): string {
  return f.flag === "--since" ? `${f.help}: ${TIME_VALUE_HELP} (default: --until minus 1 day)` : f.help;
}

/** Every subcommand knows every flag, so a misplaced one gets mq's own message, not "unknown option". */
function addStatsFlags(cmd: Command, accepted: readonly string[]): Command {
  for (const f of STATS_FLAGS) {
    const o = new Option(`${f.flag} ${f.value}`, flagHelp(f));
    if (f.filterParam) o.argParser(collectList);
    if (!accepted.includes(f.flag)) o.hideHelp();
    cmd.addOption(o);
  }
  return cmd;
}

function rejectForeignFlags(cmd: Command, name: string, accepted: readonly string[]): void {
  for (const { flag, key } of STATS_FLAGS) {
    if (accepted.includes(flag) || cmd.getOptionValueSource(key) !== "cli") continue;
    let why = `it takes ${listWords(accepted)}`;
    if (flag === "--priority-rule" && accepted.includes("--queue")) why = `its groups have no priority rule; it takes ${listWords(accepted)}`;
    else if (accepted.length === 2 && accepted[0] === "--since") why = `it takes only ${listWords(accepted)}`;
    else if (accepted[0] === "--at") why = `it takes only ${listWords(accepted)}`;
    throw new UsageError(`${flag} is not accepted by mq stats ${name}: ${why}.`);
  }
}

/** The array filters of F the user gave, as query parameters (only flags `accepted` reach here). */
function filterQuery(flags: RawFlags, accepted: readonly string[]): StatsQuery {
  const query: StatsQuery = {};
  for (const f of STATS_FLAGS) {
    const values = flags[f.key];
    if (!f.filterParam || values === undefined || !accepted.includes(f.flag)) continue;
    query[f.filterParam] = requireNonEmptyItems(f.flag, values as string[]);
    // the tables write a group without a priority rule as "(none)"; the API filters by name only
    if (f.filterParam === "priority_rule_name" && (query[f.filterParam] as string[]).some((v) => /^\(?none\)?$/i.test(v))) {
      throw new UsageError(
        `--priority-rule selects rules by name, and the API has no filter for groups without one; leave --priority-rule out: those groups are the rows labelled (none).`,
      );
    }
  }
  return query;
}

/** The filter and window flags as typed, for the message of an empty result. */
function filterWords(flags: RawFlags, accepted: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of STATS_FLAGS) {
    const v = flags[f.key];
    if (v === undefined || !accepted.includes(f.flag)) continue;
    out.push(`${f.flag} ${Array.isArray(v) ? v.join(",") : v}`);
  }
  return out;
}

/** --fields: known names of the endpoint's flat records; implies ndjson when no -o is given. */
export function parseStatsFields(endpoint: StatsEndpoint, raw: string[] | undefined, ctx: Context): { fields?: string[]; format: OutputFormat } {
  if (raw === undefined) return { format: resolveOutputFormat(ctx) };
  const fields = requireNonEmptyItems("--fields", raw);
  const known = recordFieldNames(endpoint);
  for (const f of fields) {
    if (!known.includes(f)) throw new UsageError(`--fields: unknown field "${f}" for mq stats ${endpoint.name}; available fields: ${known.join(", ")}.`);
  }
  const format = ctx.globals.output ?? "ndjson";
  if (format === "table") throw new UsageError("--fields applies to -o json, ndjson or csv, not to the table.");
  return { fields, format };
}

/** Validates the flags of one endpoint's subcommand into the options runStats needs. */
export function parseStatsFlags(cmd: Command, endpoint: StatsEndpoint, flags: RawFlags, ctx: Context): StatsOptions {
  rejectForeignFlags(cmd, endpoint.name, endpoint.accepts);
  let query: StatsQuery = {};
  if (endpoint.params === "time-to-merge") {
    if (flags.at !== undefined) query.at = formatInstant(parseTimeFlag("--at", flags.at, ctx.now()));
    if (flags.branch !== undefined) {
      const [branch] = requireNonEmptyItems("--branch", [flags.branch]);
      query.branch = branch!;
    }
  } else {
    query = filterQuery(flags, endpoint.accepts);
    const { since, until } = parseTimeWindow(flags, ctx.now());
    if (since) query.start_at = formatInstant(since);
    if (until) query.end_at = formatInstant(until);
  }
  const chart = Boolean(flags.chart);
  const intervals = Boolean(flags.intervals);
  const { fields, format } = parseStatsFields(endpoint, flags.fields, ctx);
  if (chart && intervals) throw new UsageError("--chart and --intervals cannot be used together: the chart already shows every interval.");
  if (intervals && (endpoint.shape === "list" || endpoint.shape === "time-to-merge" || endpoint.shape === "checks-outcome")) {
    throw new UsageError(`--intervals is not available for mq stats ${endpoint.name}: its response has no intervals.`);
  }
  if (chart && fields) throw new UsageError("--chart draws on the terminal and cannot be combined with --fields: drop one of them.");
  if (chart && !endpoint.mainField) {
    throw new UsageError(
      `--chart is not available for mq stats ${endpoint.name}: it has no figure over time; charts exist for ${STATS_ENDPOINTS.filter((e) => e.mainField).map((e) => e.name).join(", ")}.`,
    );
  }
  if (chart && ctx.globals.output && ctx.globals.output !== "table") {
    throw new UsageError(`--chart draws on the terminal and cannot be combined with -o ${ctx.globals.output}: drop one of them.`);
  }
  const failIf = (flags.failIf ?? []).map((e) => parseFailIf(e, endpoint.name, endpoint.fields));
  return { endpoint, query, chart, intervals, fields, format: chart ? "table" : format, filterWords: filterWords(flags, endpoint.accepts), failIf };
}

// ---------------------------------------------------------------------------------------------
// constructors

export function NewCmdStats(
  ctx: Context,
  runF?: (opts: StatsOptions) => Promise<void>,
  runSummaryF?: (opts: StatsSummaryOptions) => Promise<void>,
): Command {
  const stats = new Command("stats")
    .description("queue and CI statistics: one subcommand per endpoint, charts, CI thresholds")
    .argument("[subcommand]", "the statistics endpoint; without one, the list of them")
    .action(async (sub: string | undefined) => {
      if (sub !== undefined) {
        const names = [...STATS_ENDPOINTS.map((e) => e.name), "summary"];
        const near = closestMatches(sub, names);
        throw new UsageError(`unknown stats subcommand "${sub}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}; run mq stats to list them.`);
      }
      ctx.io.stdout.write(statsListing());
    });

  for (const endpoint of STATS_ENDPOINTS) {
    const cmd = new Command(endpoint.name).description(endpoint.summary);
    addStatsFlags(cmd, endpoint.accepts);
    // known everywhere (a misplaced one gets mq's own message), shown only where they apply
    const chart = new Option("--chart", "draw the main figure over time for each group instead of tables");
    if (!endpoint.mainField) chart.hideHelp();
    const failIf = new Option("--fail-if <expr>", "exit 1 when FIELD OP VALUE or AGG(FIELD) OP VALUE holds (repeatable)").argParser(collectRepeat);
    if (endpoint.fields.length === 0) failIf.hideHelp();
    const intervals = new Option("--intervals", "a table row per interval of each group, instead of one row per group over the window");
    if (!endpoint.mainField) intervals.hideHelp();
    cmd.addOption(chart);
    cmd.addOption(intervals);
    cmd.addOption(new Option("--fields <fields>", "fields for json, ndjson and csv (implies -o ndjson): " + recordFieldNames(endpoint).join(",")).argParser(collectList));
    cmd.addOption(failIf);
    if (endpoint.fields.length) {
      cmd.addHelpText("after", `\nNumeric fields (for --fail-if): ${endpoint.fields.join(", ")}`);
    }
    cmd.action(async (flags: RawFlags) => {
      const opts = parseStatsFlags(cmd, endpoint, flags, ctx);
      await (runF ?? ((o) => runStats(o, ctx)))(opts);
    });
    stats.addCommand(cmd);
  }
  stats.addCommand(NewCmdStatsSummary(ctx, runSummaryF));
  return stats;
}

export function NewCmdStatsSummary(ctx: Context, runF?: (opts: StatsSummaryOptions) => Promise<void>): Command {
  const cmd = new Command("summary").description(SUMMARY_DESCRIPTION);
  addStatsFlags(cmd, SUMMARY_ACCEPTS);
  cmd.action(async (flags: RawFlags) => {
    rejectForeignFlags(cmd, "summary", SUMMARY_ACCEPTS);
    const filters = filterQuery(flags, SUMMARY_ACCEPTS);
    const now = ctx.now();
    const window = parseTimeWindow(flags, now);
    // one explicit window for every request: fetched concurrently, each would otherwise take its
    // own "now" on the server and the figures would not describe quite the same window
    const until = window.until ?? now;
    const since = window.since ?? new Date(until.getTime() - 86_400_000);
    checkWindowOrder(since, until);
    await (runF ?? ((o) => runStatsSummary(o, ctx)))({ filters, since, until });
  });
  return cmd;
}

export function statsListing(): string {
  const rows: Array<[string, string]> = [...STATS_ENDPOINTS.map((e) => [e.name, e.summary] as [string, string]), ["summary", SUMMARY_DESCRIPTION]];
  const width = Math.max(...rows.map(([n]) => n.length));
  return rows.map(([n, s]) => `${n.padEnd(width)}  ${s}`).join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// run

function statsPath(owner: string, name: string, endpoint: StatsEndpoint): string {
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/stats/${endpoint.path}`;
}

async function fetchStats(ctx: Context, endpoint: StatsEndpoint, query: StatsQuery): Promise<unknown> {
  const repo = await ctx.resolveRepo();
  const client = await ctx.apiClient();
  const res = await client.get(statsPath(repo.owner, repo.name, endpoint), query);
  const { parseStatsResponse } = await import("../../api/schema/stats.js");
  // validated, but the body as sent is what is rendered: -o json must not lose fields mq does not know
  parseStatsResponse(endpoint.name, res.body, {
    strict: ctx.globals.strict,
    // the real service omits partition keys on every call: worth a line under --debug, not each time
    onMismatch: (name, message) => {
      if (ctx.globals.debug) ctx.io.stderr.write(`mq: ${name} response differs from the contract (${message}); --strict makes this an error.\n`);
    },
  });
  return res.body;
}

function warnDeprecated(ctx: Context, endpoint: StatsEndpoint): void {
  if (!endpoint.deprecatedUse) return;
  ctx.io.stderr.write(`mq: warning: the ${endpoint.name} endpoint is deprecated; use ${endpoint.deprecatedUse} instead.\n`);
}

export async function runStats(opts: StatsOptions, ctx: Context): Promise<void> {
  const { endpoint } = opts;
  const { format } = opts;
  warnDeprecated(ctx, endpoint);
  const repo = await ctx.resolveRepo();
  const { startSpinner } = await import("../../output/spinner.js");
  const spinner = await startSpinner(ctx, `fetching ${endpoint.name} of ${repo.owner}/${repo.name}…`);
  let body: unknown;
  try {
    body = await fetchStats(ctx, endpoint, opts.query);
  } finally {
    spinner.stop();
  }
  const [{ exportAll }, { statsExport }] = await Promise.all([import("../../output/exporter.js"), import("../../output/stats-render.js")]);
  const out = statsExport(ctx.io, endpoint, body, {
    chart: opts.chart,
    intervals: opts.intervals,
    fields: opts.fields,
    repo: `${repo.owner}/${repo.name}`,
    filters: opts.filterWords,
    window: endpoint.params === "time-to-merge" ? undefined : windowWords(opts.query),
  });
  await exportAll(format, ctx.io, out, out.records);
  if (opts.failIf.length) await applyFailIf(ctx, opts.failIf, endpoint, body);
}

/** The window asked for, in words: the API's default is the day before now. */
function windowWords(query: StatsQuery): string | undefined {
  const short = (v: string | string[] | undefined) => String(v).slice(0, 16).replace("T", " ") + "Z";
  if (query.start_at === undefined && query.end_at === undefined) return "the last 24 hours";
  if (query.start_at === undefined) return `the 24 hours before ${short(query.end_at)}`;
  return `${short(query.start_at)} → ${query.end_at === undefined ? "now" : short(query.end_at)}`;
}

/** Warnings for expressions with no value, a line per breach, and exit 1 when any breached. */
async function applyFailIf(ctx: Context, exprs: readonly FailIfExpr[], endpoint: StatsEndpoint, body: unknown): Promise<void> {
  const { check, checkTargets, describeBreach } = await import("../../stats/fail-if.js");
  const result = check(exprs, checkTargets(endpoint, body));
  for (const expr of result.unevaluated) {
    ctx.io.stderr.write(`mq: warning: --fail-if '${expr.source}' not evaluated: no ${expr.field} value in the window.\n`);
  }
  for (const b of result.breaches) ctx.io.stderr.write(`mq: ${describeBreach(b)}\n`);
  if (result.breaches.length) {
    const n = result.breaches.length;
    throw new CheckFailedError(`${n} --fail-if threshold${n === 1 ? "" : "s"} breached.`);
  }
}

// ---------------------------------------------------------------------------------------------
// summary

export async function runStatsSummary(opts: StatsSummaryOptions, ctx: Context): Promise<void> {
  const format = resolveOutputFormat(ctx);
  const query: StatsQuery = { ...opts.filters, start_at: formatInstant(opts.since), end_at: formatInstant(opts.until) };
  const { summaryEndpoints, summaryFigures } = await import("../../stats/summary.js");
  const endpoints = summaryEndpoints();
  const { startSpinner } = await import("../../output/spinner.js");
  const repo = await ctx.resolveRepo();
  const spinner = await startSpinner(ctx, `fetching ${endpoints.length} statistics of ${repo.owner}/${repo.name}…`);
  let bodies: Map<string, unknown>;
  try {
    // all at once: the summary takes as long as the slowest request, not the sum
    const results = await Promise.all(endpoints.map((e) => fetchStats(ctx, e, query)));
    bodies = new Map(endpoints.map((e, i) => [e.name, results[i]]));
  } finally {
    spinner.stop();
  }
  const figures = { start_at: query.start_at as string, end_at: query.end_at as string, ...summaryFigures(bodies) };
  const [{ exportAll }, { summaryExport }] = await Promise.all([import("../../output/exporter.js"), import("../../output/stats-render.js")]);
  await exportAll(format, ctx.io, summaryExport(ctx.io, `${repo.owner}/${repo.name}`, figures), () => [figures]);
}
