// `mq stats`: one subcommand per statistics endpoint (docs/api.md §4.2), built from the table in
// src/api/endpoints.ts, plus `mq stats summary`. The constructors only parse and validate flags;
// runStats and runStatsSummary do the work and load everything heavy on demand.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { CheckFailedError, UsageError } from "../../errors.js";
import { STATS_ENDPOINTS, findStatsEndpoint, type StatsEndpoint, type StatsParamKind } from "../../api/endpoints.js";
import { collectList, closestMatches, requireNonEmptyItems } from "../shared/lists.js";
import { checkWindowOrder, formatInstant, parseTimeFlag, parseTimeWindow, TIME_VALUE_HELP } from "../shared/time.js";
import { resolveOutputFormat } from "../shared/output.js";
import { check, describeBreach, parseFailIf, type CheckTarget, type FailIfExpr } from "./fail-if.js";
import { mergeIntervals, windowValue } from "./aggregate.js";
import { describeKeys, toGroups, toSeries } from "./series.js";

export type StatsQuery = Record<string, string | string[]>;

export interface StatsOptions {
  endpoint: StatsEndpoint;
  /** the query parameters to send, in a stable order */
  query: StatsQuery;
  chart: boolean;
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

interface RawFlags {
  baseRef?: string[];
  partition?: string[];
  queue?: string[];
  priorityRule?: string[];
  since?: string;
  until?: string;
  at?: string;
  branch?: string;
  chart?: boolean;
  failIf?: string[];
}

const FILTER_FLAGS = [
  { flag: "--base-ref", key: "baseRef", param: "base_ref", help: "only this base ref (repeatable, comma-separated)" },
  { flag: "--partition", key: "partition", param: "partition_name", help: "only this partition (repeatable, comma-separated)" },
  { flag: "--queue", key: "queue", param: "queue_name", help: "only this queue (repeatable, comma-separated)" },
  { flag: "--priority-rule", key: "priorityRule", param: "priority_rule_name", help: "only this priority rule (repeatable, comma-separated)" },
] as const;

/** The flags each kind of endpoint accepts, as users type them. */
const ACCEPTED: Record<StatsParamKind, readonly string[]> = {
  filters: ["--base-ref", "--partition", "--queue", "--priority-rule", "--since", "--until"],
  "filters-no-priority": ["--base-ref", "--partition", "--queue", "--since", "--until"],
  range: ["--since", "--until"],
  "time-to-merge": ["--at", "--branch"],
};

const FLAG_KEYS: Record<string, keyof RawFlags> = {
  "--base-ref": "baseRef",
  "--partition": "partition",
  "--queue": "queue",
  "--priority-rule": "priorityRule",
  "--since": "since",
  "--until": "until",
  "--at": "at",
  "--branch": "branch",
};

function collectRepeat(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function listWords(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Every subcommand knows every flag, so a misplaced one gets mq's own message, not "unknown option". */
function addStatsFlags(cmd: Command, kind: StatsParamKind | "summary"): Command {
  const accepted = kind === "summary" ? ACCEPTED.filters : ACCEPTED[kind];
  const option = (flags: string, help: string, name: string) => {
    const o = new Option(flags, help);
    if (!accepted.includes(name)) o.hideHelp();
    return o;
  };
  for (const f of FILTER_FLAGS) {
    cmd.addOption(option(`${f.flag} <name>`, f.help, f.flag).argParser(collectList));
  }
  cmd.addOption(option("--since <time>", `start of the window: ${TIME_VALUE_HELP} (default: --until minus 1 day)`, "--since"));
  cmd.addOption(option("--until <time>", "end of the window (default: now)", "--until"));
  cmd.addOption(option("--at <time>", "time to merge as of this instant", "--at"));
  cmd.addOption(option("--branch <name>", "time to merge for this branch", "--branch"));
  return cmd;
}

function rejectForeignFlags(cmd: Command, name: string, accepted: readonly string[]): void {
  for (const [flag, key] of Object.entries(FLAG_KEYS)) {
    if (accepted.includes(flag) || cmd.getOptionValueSource(key) !== "cli") continue;
    let why = `it takes ${listWords(accepted)}`;
    if (flag === "--priority-rule" && accepted.includes("--queue")) why = `its groups have no priority rule; it takes ${listWords(accepted)}`;
    else if (accepted.length === 2 && accepted[0] === "--since") why = `it takes only ${listWords(accepted)}`;
    else if (accepted[0] === "--at") why = `it takes only ${listWords(accepted)}`;
    throw new UsageError(`${flag} is not accepted by mq stats ${name}: ${why}.`);
  }
}

function filterQuery(flags: RawFlags, kind: StatsParamKind): StatsQuery {
  const query: StatsQuery = {};
  for (const f of FILTER_FLAGS) {
    const values = flags[f.key];
    if (values === undefined) continue;
    if (f.param === "priority_rule_name" && kind === "filters-no-priority") continue;
    query[f.param] = requireNonEmptyItems(f.flag, values);
  }
  return query;
}

/** Validates the flags of one endpoint's subcommand into the options runStats needs. */
export function parseStatsFlags(cmd: Command, endpoint: StatsEndpoint, flags: RawFlags, ctx: Context): StatsOptions {
  rejectForeignFlags(cmd, endpoint.name, ACCEPTED[endpoint.params]);
  let query: StatsQuery = {};
  if (endpoint.params === "time-to-merge") {
    if (flags.at !== undefined) query.at = formatInstant(parseTimeFlag("--at", flags.at, ctx.now()));
    if (flags.branch !== undefined) {
      const [branch] = requireNonEmptyItems("--branch", [flags.branch]);
      query.branch = branch!;
    }
  } else {
    query = filterQuery(flags, endpoint.params);
    const { since, until } = parseTimeWindow(flags, ctx.now());
    if (since) query.start_at = formatInstant(since);
    if (until) query.end_at = formatInstant(until);
  }
  const chart = Boolean(flags.chart);
  if (chart && !endpoint.mainField) {
    throw new UsageError(
      `--chart is not available for mq stats ${endpoint.name}: it has no figure over time; charts exist for ${STATS_ENDPOINTS.filter((e) => e.mainField).map((e) => e.name).join(", ")}.`,
    );
  }
  if (chart && ctx.globals.output && ctx.globals.output !== "table") {
    throw new UsageError(`--chart draws on the terminal and cannot be combined with -o ${ctx.globals.output}: drop one of them.`);
  }
  const failIf = (flags.failIf ?? []).map((e) => parseFailIf(e, endpoint.name, endpoint.fields));
  return { endpoint, query, chart, failIf };
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
    addStatsFlags(cmd, endpoint.params);
    // known everywhere (a misplaced one gets mq's own message), shown only where they apply
    const chart = new Option("--chart", "draw the main figure over time for each group instead of tables");
    if (!endpoint.mainField) chart.hideHelp();
    const failIf = new Option("--fail-if <expr>", "exit 1 when FIELD OP VALUE or AGG(FIELD) OP VALUE holds (repeatable)").argParser(collectRepeat);
    if (endpoint.fields.length === 0) failIf.hideHelp();
    cmd.addOption(chart);
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
  addStatsFlags(cmd, "summary");
  cmd.action(async (flags: RawFlags) => {
    rejectForeignFlags(cmd, "summary", ACCEPTED.filters);
    const filters = filterQuery(flags, "filters");
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

const SUMMARY_DESCRIPTION = "headline figures of the window: entered, merged, failure rate, queue time, CI runtime, queue size, retries";

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
  const { parseStatsResponse, isStatsEndpointName } = await import("../../api/schema/stats.js");
  if (!isStatsEndpointName(endpoint.name)) throw new Error(`no response schema for ${endpoint.name}`);
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

/** The series --fail-if evaluates: each group (and outcome), plus all of them together when several. */
export function checkTargets(endpoint: StatsEndpoint, body: unknown): CheckTarget[] {
  const series = toSeries(endpoint, toGroups(endpoint, body));
  const targets: CheckTarget[] = series.map((s) => ({ where: describeKeys(s), records: s.records }));
  if (series.length > 1) targets.push({ where: "all groups", records: mergeIntervals(series.flatMap((s) => s.records)) });
  return targets;
}

export async function runStats(opts: StatsOptions, ctx: Context): Promise<void> {
  const { endpoint } = opts;
  const format: OutputFormat = opts.chart ? "table" : resolveOutputFormat(ctx);
  warnDeprecated(ctx, endpoint);
  const { startSpinner } = await import("../../output/spinner.js");
  const spinner = await startSpinner(ctx, `Fetching ${endpoint.name}…`);
  let body: unknown;
  try {
    body = await fetchStats(ctx, endpoint, opts.query);
  } finally {
    spinner.stop();
  }
  await writeStats(ctx, endpoint, body, format, opts.chart);

  if (opts.failIf.length) {
    const result = check(opts.failIf, checkTargets(endpoint, body));
    for (const expr of result.unevaluated) {
      ctx.io.stderr.write(`mq: warning: --fail-if '${expr.source}' not evaluated: no ${expr.field} value in the window.\n`);
    }
    for (const b of result.breaches) ctx.io.stderr.write(`mq: ${describeBreach(b)}\n`);
    if (result.breaches.length) {
      const n = result.breaches.length;
      throw new CheckFailedError(`${n} --fail-if threshold${n === 1 ? "" : "s"} breached.`);
    }
  }
}

async function writeStats(ctx: Context, endpoint: StatsEndpoint, body: unknown, format: OutputFormat, chart: boolean): Promise<void> {
  const render = await import("../../output/stats-render.js");
  const { writeChunk } = await import("../../output/records.js");
  if (format === "json") {
    await writeChunk(ctx.io.stdout, JSON.stringify(body, null, 2) + "\n");
    return;
  }
  if (format === "ndjson" || format === "csv") {
    const { createRecordWriter } = await import("../../output/records.js");
    const records = render.statsRecords(endpoint, body, format === "csv");
    const writer = createRecordWriter(format, ctx.io.stdout, { csvColumns: format === "csv" ? render.csvColumns(records) : undefined });
    await writer.writeMany(records);
    await writer.end();
    return;
  }
  const { colors } = await import("../../output/color.js");
  const opts = { human: ctx.io.stdoutIsTTY, columns: ctx.io.columns, colors: colors(ctx) };
  const text = chart ? render.renderStatsCharts(endpoint, body, opts) : render.renderStatsTables(endpoint, body, opts);
  if (text) await writeChunk(ctx.io.stdout, text);
  else ctx.io.stderr.write(`mq: no ${endpoint.name} data in this window.\n`);
}

// ---------------------------------------------------------------------------------------------
// summary

/** Where each headline figure comes from: the endpoint, and the field aggregated over the window. */
export const SUMMARY_SOURCES = {
  entered: ["queues-entered-count", "entered"],
  merged: ["queues-merged-count", "merged"],
  checks: ["failure-rate", "total"],
  failures: ["failure-rate", "failures"],
  failure_rate: ["failure-rate", "failure_rate"],
  avg_queue_time: ["total-queue-time", "avg_queue_time"],
  max_queue_time: ["total-queue-time", "max_queue_time"],
  avg_ci_runtime: ["average-ci-runtime", "runtime"],
  avg_queue_size: ["queue-size", "avg_size"],
  max_queue_size: ["queue-size", "max_size"],
  retries: ["checks-retries", "total_retries"],
  recovery_rate: ["checks-retries", "recovery_rate"],
} as const;

export type SummaryFigureName = keyof typeof SUMMARY_SOURCES;

/** The records of every group of a response together: the summary covers all of them at once. */
export function allRecords(endpoint: StatsEndpoint, body: unknown): Array<Record<string, unknown>> {
  return toGroups(endpoint, body).flatMap((g) => g.records);
}

/** Headline figures from the responses, aggregated exactly as --fail-if's "all groups" does. */
export function summaryFigures(bodies: ReadonlyMap<string, unknown>): Record<SummaryFigureName, number | null> {
  const out = {} as Record<SummaryFigureName, number | null>;
  for (const [name, [endpointName, field]] of Object.entries(SUMMARY_SOURCES) as Array<[SummaryFigureName, readonly [string, string]]>) {
    const endpoint = findStatsEndpoint(endpointName)!;
    out[name] = windowValue(field, allRecords(endpoint, bodies.get(endpointName))) ?? null;
  }
  return out;
}

export async function runStatsSummary(opts: StatsSummaryOptions, ctx: Context): Promise<void> {
  const format = resolveOutputFormat(ctx);
  const query: StatsQuery = { ...opts.filters, start_at: formatInstant(opts.since), end_at: formatInstant(opts.until) };
  const names = [...new Set(Object.values(SUMMARY_SOURCES).map(([e]) => e))];
  const { startSpinner } = await import("../../output/spinner.js");
  const spinner = await startSpinner(ctx, `Fetching ${names.length} statistics…`);
  let bodies: Map<string, unknown>;
  try {
    // all at once: the summary takes as long as the slowest request, not the sum
    const results = await Promise.all(names.map((n) => fetchStats(ctx, findStatsEndpoint(n)!, query)));
    bodies = new Map(names.map((n, i) => [n, results[i]]));
  } finally {
    spinner.stop();
  }
  const figures = { start_at: query.start_at as string, end_at: query.end_at as string, ...summaryFigures(bodies) };
  const { writeChunk, createRecordWriter } = await import("../../output/records.js");
  if (format === "json") {
    await writeChunk(ctx.io.stdout, JSON.stringify(figures, null, 2) + "\n");
  } else if (format === "ndjson" || format === "csv") {
    const writer = createRecordWriter(format, ctx.io.stdout);
    await writer.write(figures);
    await writer.end();
  } else {
    const { renderSummary } = await import("../../output/stats-render.js");
    const { colors } = await import("../../output/color.js");
    const repo = await ctx.resolveRepo();
    await writeChunk(
      ctx.io.stdout,
      renderSummary(`${repo.owner}/${repo.name}`, figures, { human: ctx.io.stdoutIsTTY, columns: ctx.io.columns, colors: colors(ctx) }),
    );
  }
}
