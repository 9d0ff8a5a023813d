// `mq stats`: one subcommand per statistics endpoint, built from the endpoint records of
// src/stats/endpoints.ts, plus `mq stats summary`. This file is flags and wiring: the constructors
// parse and validate flags into options (nothing is sent on bad input) and hand them to the run
// functions they are given; run.ts (loaded by cli.ts when a stats command runs) fetches, hands the
// domain's results to the exporter and applies --fail-if.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { STATS_ENDPOINTS, type StatsEndpoint } from "../../stats/endpoints.js";
import { acceptedFlags, STATS_FLAGS, type StatsFlag } from "../../stats/flags.js";
import { parseFailIf, type FailIfExpr } from "../../stats/fail-if.js";
import { ruleOf } from "../../stats/aggregate.js";
import { SUMMARY_DESCRIPTION, SUMMARY_FORMERLY, SUMMARY_SOURCES, summaryKinds, type SummaryFigureName } from "../../stats/summary.js";
import { catalogueNameOf } from "../../figures/catalogue.js";
import { derivationOf } from "../../stats/derived.js";
import { DIALECTS, type Dialect } from "../../api/dialects/index.js";
import { checkWindow } from "../../cmdutil/logs-filters.js";
import { collectList, requireNonEmptyItems } from "../../cmdutil/lists.js";
import { closestMatches } from "../../closest.js";
import { examplesBlock } from "../../help/command-examples.js";
import { checkWindowOrder, formatInstant, parseTimeFlag, parseTimeWindow, TIME_VALUE_HELP } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { recordFieldNames, summaryFieldName } from "../../stats/series.js";
import { manyRepoList, type RepoName } from "../../cmdutil/repos.js";
import { addGateFlags, parseGateFlags, type GateFlags } from "../../cmdutil/gate.js";
import { addWatchFlags, parseWatchFlags, type FigureWatchOptions, type WatchRawFlags } from "../../watch/flags.js";
import { STATS_WATCH, watchRefusals } from "./watch-flags.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export type { GateFlags } from "../../cmdutil/gate.js";

export type StatsQuery = Record<string, string | string[]>;

export interface StatsOptions {
  endpoint: StatsEndpoint;
  /** the dialect in effect: which endpoints exist, how responses are checked */
  dialect: Dialect;
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
  gate: GateFlags;
  /** several repositories (--repo a/b,c/d, repeated, @FILE): a row each and a total */
  repos?: RepoName[];
  /** --watch: poll every so many seconds, the window moving with the present */
  watch?: FigureWatchOptions;
}

export interface StatsSummaryOptions {
  dialect: Dialect;
  /** the array filters of F (base_ref, partition_name, queue_name, priority_rule_name) */
  filters: StatsQuery;
  since: Date;
  until: Date;
  gate: GateFlags;
  /** several repositories: a row each and the total */
  repos?: RepoName[];
  /** --watch: poll every so many seconds, the window moving with the present */
  watch?: FigureWatchOptions;
}

// ---------------------------------------------------------------------------------------------
// flags

type RawFlags = { [K in StatsFlag["key"]]?: K extends "since" | "until" | "at" | "branch" ? string : string[] } & {
  chart?: boolean;
  intervals?: boolean;
  fields?: string[];
  failIf?: string[];
  failIfScope?: string;
  minCount?: string;
  allowEmpty?: boolean;
  report?: string;
} & WatchRawFlags;

/** What `mq stats summary` accepts: the figures it combines all take the filter set F. */
const SUMMARY_ACCEPTS = acceptedFlags("filters");

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
    if (flag === "--priority-rule" && accepted.includes("--queue"))
      why = `its groups have no priority rule; it takes ${listWords(accepted)}`;
    else if (accepted.length === 2 && accepted[0] === "--since") why = `it takes only ${listWords(accepted)}`;
    else if (accepted[0] === "--at") why = `it takes only ${listWords(accepted)}`;
    throw new UsageError(`${flag} is not accepted by mq stats ${name}: ${why}.`);
  }
}

function endpointSampled(endpoint: StatsEndpoint): (expr: FailIfExpr) => boolean {
  return (expr) => endpoint.sample !== undefined || ruleOf(expr.field).by === "ratio";
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

/** --fields: names of the endpoint's flat records in the dialect spoken; implies ndjson when no -o is given. */
export function parseStatsFields(
  endpoint: StatsEndpoint,
  raw: string[] | undefined,
  ctx: Context,
  subject: string,
  dialect: Dialect = DIALECTS.spec,
): { fields?: string[]; format: OutputFormat } {
  if (raw === undefined) return { format: resolveOutputFormat(ctx, { figures: endpoint.fields.length > 0, command: subject }) };
  const fields = requireNonEmptyItems("--fields", raw);
  const known = dialectRecordFields(endpoint, dialect);
  for (const f of fields) {
    if (!known.includes(f)) {
      const spoken = dialect.name === "spec" ? "" : ` with the ${dialect.name} dialect`;
      throw new UsageError(`--fields: unknown field "${f}" for ${subject}${spoken}; available fields: ${known.join(", ")}.`);
    }
  }
  const format = ctx.globals.output ?? "ndjson";
  if (!["json", "ndjson", "csv"].includes(format))
    throw new UsageError(`--fields applies to -o json, ndjson or csv, not to ${format === "table" ? "the table" : `-o ${format}`}.`);
  return { fields, format };
}

/**
 * The fields of the endpoint's flat records as the dialect sends them: its groups' keys, an
 * interval record's fields and each group's summary (summary_X) where the dialect states them, else
 * the endpoint record's fields, without partitions where the dialect has none.
 */
export function dialectRecordFields(endpoint: StatsEndpoint, dialect: Dialect): string[] {
  const sent = dialect.statsRecords?.[`stats/${endpoint.path}`];
  if (sent && endpoint.dialects.includes(dialect.name)) {
    return [...(endpoint.sections ? ["section"] : []), ...sent.keys, ...sent.record, ...sent.summary.map(summaryFieldName)];
  }
  const fields = recordFieldNames(endpoint);
  return dialect.partitions ? fields : fields.filter((f) => f !== "partition_name" && f !== "partition_names");
}

/** A subcommand or flag the dialect in effect lacks: one line, before anything is sent. */
function checkDialect(name: string, endpoint: StatsEndpoint | undefined, flags: RawFlags, dialect: Dialect): void {
  if (endpoint && !endpoint.dialects.includes(dialect.name) && !derivationOf(endpoint.name, dialect.name)) {
    const other = endpoint.dialects.map((d) => `--dialect ${d}`).join(" or ");
    throw new UsageError(
      `mq stats ${name} is not available with the ${dialect.name} dialect: ${dialect.title} has no /stats/${endpoint.path} (it exists with ${other}).`,
    );
  }
  if (!dialect.partitions && flags.partition !== undefined) {
    throw new UsageError(
      `--partition is not available with the ${dialect.name} dialect: ${dialect.title} has no partitions in its statistics and would ignore the filter.`,
    );
  }
}

/** Validates the flags of one endpoint's subcommand into the options runStats needs. */
export function parseStatsFlags(
  cmd: Command,
  endpoint: StatsEndpoint,
  flags: RawFlags,
  ctx: Context,
  dialect: Dialect = DIALECTS.spec,
): StatsOptions {
  rejectForeignFlags(cmd, endpoint.name, endpoint.accepts);
  checkDialect(endpoint.name, endpoint, flags, dialect);
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
    checkWindow(dialect, since, until, ctx.now());
    if (since) query.start_at = formatInstant(since);
    if (until) query.end_at = formatInstant(until);
  }
  const chart = Boolean(flags.chart);
  if (chart && !endpoint.mainField) {
    throw new UsageError(
      `--chart is not available for mq stats ${endpoint.name}: it has no figure over time; charts exist for ${STATS_ENDPOINTS.filter(
        (e) => e.mainField,
      )
        .map((e) => e.name)
        .join(", ")}.`,
    );
  }
  if (chart && ctx.globals.output && ctx.globals.output !== "table") {
    throw new UsageError(`--chart draws on the terminal and cannot be combined with -o ${ctx.globals.output}: drop one of them.`);
  }
  const subject = `mq stats ${endpoint.name}`;
  const kinds = Object.fromEntries(endpoint.fields.map((f) => [f, endpoint.figures[f]!.kind]));
  // the API's field names (what its tables show) and their catalogue names (mq help figures) alike
  const aliases = Object.fromEntries(
    endpoint.fields.map((f) => [catalogueNameOf(endpoint.name, f), f] as const).filter(([name, f]) => name !== f),
  );
  const failIf = (flags.failIf ?? []).map((e) => parseFailIf(e, subject, kinds, { aliases }));
  const gate = parseGateFlags(flags, failIf, endpointSampled(endpoint));
  const intervals = Boolean(flags.intervals);
  const repos = manyRepoList(ctx);
  const { fields, format } = repos
    ? parseManyFields(endpoint, flags.fields, ctx, subject)
    : parseStatsFields(endpoint, flags.fields, ctx, subject, dialect);
  if (chart && intervals) throw new UsageError("--chart and --intervals cannot be used together: the chart already shows every interval.");
  if (intervals && (endpoint.shape === "list" || endpoint.shape === "time-to-merge" || endpoint.shape === "checks-outcome")) {
    throw new UsageError(`--intervals is not available for ${subject}: its response has no intervals.`);
  }
  if (chart && fields) throw new UsageError("--chart draws on the terminal and cannot be combined with --fields: drop one of them.");
  const watchSeconds = parseWatchFlags(flags, { ...STATS_WATCH, format, refuse: watchRefusals(flags) });
  const watch = watchSeconds === undefined ? {} : { watch: { intervalSeconds: watchSeconds, at: ctx.now() } };
  if (repos) {
    checkManyRepos(endpoint, { chart, intervals });
    // one explicit window for every repository: fetched at different moments, each would otherwise
    // take its own "now" on the server and the rows would not describe the same window
    const end = typeof query.end_at === "string" ? new Date(query.end_at) : ctx.now();
    const start = typeof query.start_at === "string" ? new Date(query.start_at) : new Date(end.getTime() - 86_400_000);
    const { start_at: _s, end_at: _e, ...filters } = query;
    query = { ...filters, start_at: formatInstant(start), end_at: formatInstant(end) };
  }
  return {
    endpoint,
    dialect,
    query,
    chart,
    intervals,
    fields,
    // --chart is refused with several repositories, so only one repository's table can be forced
    format: chart ? "table" : format,
    filterWords: filterWords(flags, endpoint.accepts),
    gate,
    ...(repos ? { repos } : {}),
    ...watch,
  };
}

/** What several repositories cannot do, said before anything is sent. */
function checkManyRepos(endpoint: StatsEndpoint, view: { chart: boolean; intervals: boolean }): void {
  const subject = `mq stats ${endpoint.name}`;
  if (endpoint.shape === "list") {
    throw new UsageError(
      `${subject} lists the names of one repository: give one --repo (mq stats queues-entered-count --repo a/b,c/d compares the activity of several).`,
    );
  }
  if (endpoint.shape === "time-to-merge") {
    throw new UsageError(
      `${subject} reads one repository: its means and medians per queue carry no counts to combine; mq insights --repo a/b,c/d gives time to merge across repositories.`,
    );
  }
  if (view.chart)
    throw new UsageError(
      "--chart draws the groups of one repository: give one --repo, or drop --chart for a row per repository and a total.",
    );
  if (view.intervals)
    throw new UsageError(
      "--intervals shows the groups of one repository: give one --repo, or drop --intervals for a row per repository and a total.",
    );
}

/** --fields over several repositories: the repository, the part keys and the figures. */
function parseManyFields(
  endpoint: StatsEndpoint,
  raw: string[] | undefined,
  ctx: Context,
  subject: string,
): { fields?: string[]; format: OutputFormat } {
  if (raw === undefined) return { format: resolveOutputFormat(ctx, { figures: true, command: subject }) };
  const fields = requireNonEmptyItems("--fields", raw);
  const known = [
    "repository",
    ...(endpoint.sections ? ["section"] : []),
    ...(endpoint.category ? [endpoint.category] : []),
    ...endpoint.fields,
  ];
  for (const f of fields) {
    if (!known.includes(f))
      throw new UsageError(
        `--fields: unknown field "${f}" for ${subject} over several repositories; available fields: ${known.join(", ")}.`,
      );
  }
  const format = ctx.globals.output ?? "ndjson";
  if (!["json", "ndjson", "csv"].includes(format))
    throw new UsageError(`--fields applies to -o json, ndjson or csv, not to ${format === "table" ? "the table" : `-o ${format}`}.`);
  return { fields, format };
}

// ---------------------------------------------------------------------------------------------
// constructors

/** What the stats commands run once their flags are checked (run.ts, loaded by cli.ts). */
export interface StatsRuns {
  /** one endpoint's subcommand */
  stats(opts: StatsOptions): Promise<void>;
  /** `mq stats summary` */
  summary(opts: StatsSummaryOptions): Promise<void>;
  /** `mq stats` alone: the list of subcommands */
  list(): Promise<void>;
}

export function NewCmdStats(
  ctx: Context,
  runF?: StatsRuns["stats"],
  runSummaryF?: StatsRuns["summary"],
  runListF?: StatsRuns["list"],
): Command {
  const stats = new Command("stats")
    .description(describeCommand("stats"))
    .argument("[subcommand]", "the statistics endpoint; without one, the list of them")
    .action(async (sub: string | undefined) => {
      if (sub !== undefined) {
        const names = [...STATS_ENDPOINTS.map((e) => e.name), "summary"];
        const near = closestMatches(sub, names);
        throw new UsageError(
          `unknown stats subcommand "${sub}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}; run mq stats to list them.`,
        );
      }
      await runListF?.();
    });

  // in the listing's order (statsRecords): the summary, the current endpoints, the deprecated ones
  stats.addCommand(NewCmdStatsSummary(ctx, runSummaryF));
  for (const endpoint of listedEndpoints()) {
    const cmd = new Command(endpoint.name).description(endpointDescription(endpoint));
    addStatsFlags(cmd, endpoint.accepts);
    // known everywhere (a misplaced one gets mq's own message), shown only where they apply
    const chart = new Option("--chart", "draw the main figure over time for each group instead of tables");
    if (!endpoint.mainField) chart.hideHelp();
    const intervals = new Option("--intervals", "a table row per interval of each group, instead of one row per group over the window");
    if (!endpoint.mainField) intervals.hideHelp();
    cmd.addOption(chart);
    cmd.addOption(intervals);
    cmd.addOption(
      new Option(
        "--fields <fields>",
        "fields for json, ndjson and csv (implies -o ndjson): " + recordFieldNames(endpoint).join(","),
      ).argParser(collectList),
    );
    addGateFlags(cmd, endpoint.fields.length === 0);
    addWatchFlags(cmd, STATS_WATCH.what, STATS_WATCH.defaultSeconds);
    if (endpoint.fields.length) {
      cmd.addHelpText("after", `\nNumeric fields (for --fail-if): ${endpoint.fields.join(", ")}`);
    }
    const derived = derivationOf(endpoint.name, "mergify");
    if (endpoint.dialects.length === 1 || derived) {
      cmd.addHelpText(
        "after",
        `\nDialects: ${endpoint.dialects.join(", ")}${derived ? `; with mergify, ${derived.note}` : ""} (see --dialect).`,
      );
    }
    // its examples last, as cli.ts appends the other commands' (their table has no endpoint's)
    cmd.addHelpText("after", examplesBlock(endpoint.examples));
    cmd.action(async (flags: RawFlags) => {
      const { dialect } = await ctx.dialect();
      const opts = parseStatsFlags(cmd, endpoint, flags, ctx, dialect);
      await runF?.(opts);
    });
    stats.addCommand(cmd);
  }
  return stats;
}

export function NewCmdStatsSummary(ctx: Context, runF?: StatsRuns["summary"]): Command {
  const cmd = new Command("summary").description(SUMMARY_DESCRIPTION);
  addStatsFlags(cmd, SUMMARY_ACCEPTS);
  addGateFlags(cmd, false);
  addWatchFlags(cmd, STATS_WATCH.what, STATS_WATCH.defaultSeconds);
  cmd.addHelpText("after", `\nFigures (for --fail-if): ${Object.keys(SUMMARY_SOURCES).join(", ")}`);
  cmd.action(async (flags: RawFlags) => {
    rejectForeignFlags(cmd, "summary", SUMMARY_ACCEPTS);
    const { dialect } = await ctx.dialect();
    checkDialect("summary", undefined, flags, dialect);
    const failIf = (flags.failIf ?? []).map((e) =>
      parseFailIf(e, "mq stats summary", summaryKinds(), {
        formerly: SUMMARY_FORMERLY,
        warn: (line) => ctx.io.stderr.write(`mq: ${line}\n`),
      }),
    );
    const gate = parseGateFlags(flags, failIf, (expr) => {
      const [endpointName, field] = SUMMARY_SOURCES[expr.field as SummaryFigureName];
      return endpointSampled(STATS_ENDPOINTS.find((e) => e.name === endpointName)!)({ ...expr, field });
    });
    const format = resolveOutputFormat(ctx, { figures: true, command: "mq stats summary" });
    const watchSeconds = parseWatchFlags(flags, { ...STATS_WATCH, format, refuse: watchRefusals(flags) });
    const filters = filterQuery(flags, SUMMARY_ACCEPTS);
    const now = ctx.now();
    const window = parseTimeWindow(flags, now);
    // one explicit window for every request: fetched concurrently, each would otherwise take its
    // own "now" on the server and the figures would not describe quite the same window
    const until = window.until ?? now;
    const since = window.since ?? new Date(until.getTime() - 86_400_000);
    checkWindowOrder(since, until);
    checkWindow(dialect, since, until, now);
    const repos = manyRepoList(ctx);
    await runF?.({
      dialect,
      filters,
      since,
      until,
      gate,
      ...(repos ? { repos } : {}),
      ...(watchSeconds === undefined ? {} : { watch: { intervalSeconds: watchSeconds, at: now } }),
    });
  });
  return cmd;
}

/** The endpoints in the order they are listed: the current ones, then the deprecated ones. */
function listedEndpoints(): StatsEndpoint[] {
  return [...STATS_ENDPOINTS.filter((e) => !e.deprecatedUse), ...STATS_ENDPOINTS.filter((e) => e.deprecatedUse)];
}

/** What an endpoint answers, marked when one dialect alone has it and when it is deprecated. */
export function endpointDescription(e: StatsEndpoint): string {
  const marks: string[] = [];
  if (e.dialects.length === 1)
    marks.push(e.dialects[0] === "mergify" ? "real service only: --dialect mergify" : "contract only: --dialect spec");
  if (e.deprecatedUse) marks.push(`deprecated: use ${e.deprecatedUse}`);
  return marks.length > 0 ? `${e.summary} (${marks.join("; ")})` : e.summary;
}

/** The subcommands as records, in the listing's order: name, what it answers, the dialects that have it. */
export function statsRecords(): Array<{ name: string; summary: string; dialects: string[] }> {
  return [
    { name: "summary", summary: SUMMARY_DESCRIPTION, dialects: Object.keys(DIALECTS) },
    ...listedEndpoints().map((e) => ({ name: e.name, summary: endpointDescription(e), dialects: [...e.dialects] })),
  ];
}

/** `mq stats` alone: the summary first, the current endpoints, then the deprecated ones, each marked. */
export function statsListing(): string {
  const rows = statsRecords().map((r) => [r.name, r.summary] as [string, string]);
  const width = Math.max(...rows.map(([n]) => n.length));
  return rows.map(([n, s]) => `${n.padEnd(width)}  ${s}`).join("\n") + "\n";
}
