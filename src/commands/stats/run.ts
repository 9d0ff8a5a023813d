// The work of `mq stats`: fetch an endpoint (or the summary's endpoints), check the answer, hand
// the domain's results to the renderers and the exporter, apply --fail-if. Loaded only when a
// stats command runs (cli.ts); its flags were checked before (index.ts).
import type { Context } from "../../context.js";
import { ContractError } from "../../errors.js";
import { findStatsEndpoint, type StatsEndpoint } from "../../stats/endpoints.js";
import { STATS_FLAGS } from "../../stats/flags.js";
import { judgeStats, type Verdict } from "../../stats/fail-if.js";
import { summaryEndpoints, summaryFigures, summaryUnavailable, judgeSummary, type SummaryFigures } from "../../stats/summary.js";
import { combineRepos, combineSummaries, judgeMany, judgeSummaryMany, unavailableTotals } from "../../stats/many.js";
import { derivationOf } from "../../stats/derived.js";
import { DIALECTS, type Dialect } from "../../api/dialects/index.js";
import { invalidUtf8Warning } from "../../api/client.js";
import { isContractStatsAnswer, isMergifyStatsAnswer, mergifyStatsIssues, parseStatsResponse } from "../../api/schema/stats-check.js";
import { formatInstant } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { messageText } from "../../iostreams/terminal-text.js";
import { fitHelpText } from "../../output/help-text.js";
import { exportAll } from "../../output/exporter.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { eachRepo, someReposFailed, type RepoName } from "../../cmdutil/repos.js";
import type { GateFlags } from "../../cmdutil/gate.js";
import { reportGate } from "../../cmdutil/gate-report.js";
import { statsListing, statsRecords, type StatsOptions, type StatsQuery, type StatsSummaryOptions } from "./index.js";
import { shortTime, statsExport, summaryExport } from "./render.js";
import { manyHeadline, statsManyExport, summaryManyExport } from "./render-many.js";
import { statsChart, statsHeadline, statsMetrics, statsWindow, summaryHeadline, summaryMetrics } from "./figures.js";
import { watchStats, watchStatsSummary } from "./watch.js";
// ---------------------------------------------------------------------------------------------
// run

function statsPath(owner: string, name: string, endpoint: StatsEndpoint): string {
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/stats/${endpoint.path}`;
}

async function fetchStats(
  ctx: Context,
  endpoint: StatsEndpoint,
  query: StatsQuery,
  dialect: Dialect = DIALECTS.spec,
  repo?: RepoName,
): Promise<unknown> {
  repo ??= await ctx.resolveRepo();
  const client = await ctx.apiClient();
  const derived = derivationOf(endpoint.name, dialect.name);
  if (derived && !endpoint.dialects.includes(dialect.name)) {
    // the dialect has no such endpoint: the same figures from the ones it has, same query
    const sources = derived.from.map((n) => findStatsEndpoint(n)!);
    const bodies = await Promise.all(sources.map((e) => fetchStats(ctx, e, query, dialect, repo)));
    return derived.combine(new Map(sources.map((e, i) => [e.name, bodies[i]])));
  }
  const res = await client.get(statsPath(repo.owner, repo.name, endpoint), query);
  if (res.invalidUtf8) ctx.io.stderr.write(`${invalidUtf8Warning(res.url)}\n`);
  // an answer the dialect's generated validators accept is valid as it is (api/schema/stats-check.ts)
  if (await surelyValidStats(dialect, endpoint, res.body)) return res.body;
  if (dialect.name === "mergify") {
    // the real service's shapes are its OpenAPI's (no partitions, sums and counts, summaries)
    const issues = await mergifyStatsIssues(`stats/${endpoint.path}`, res.body);
    if (issues !== undefined) {
      const message = `${endpoint.name} response does not match the service's OpenAPI (${issues})`;
      if (ctx.globals.strict) throw new ContractError(message);
      ctx.io.stderr.write(`mq: warning: ${messageText(message)}; shown as sent. --strict makes this an error.\n`);
    }
    return res.body;
  }
  // validated, but the body as sent is what is rendered: -o json must not lose fields mq does not know
  parseStatsResponse(endpoint.name, res.body, {
    strict: ctx.globals.strict,
    // the real service omits partition keys on every call: worth a line under --debug, not each time
    onMismatch: (name, message) => {
      if (ctx.globals.debug)
        ctx.io.stderr.write(`mq: ${name} response differs from the contract (${messageText(message)}); --strict makes this an error.\n`);
    },
  });
  return res.body;
}

/** True when the dialect's generated validator accepts `body` as it is. */
async function surelyValidStats(dialect: Dialect, endpoint: StatsEndpoint, body: unknown): Promise<boolean> {
  if (dialect.name === "mergify") return isMergifyStatsAnswer(`stats/${endpoint.path}`, body);
  return isContractStatsAnswer(endpoint.name, body);
}

function warnDeprecated(ctx: Context, endpoint: StatsEndpoint): void {
  if (!endpoint.deprecatedUse) return;
  ctx.io.stderr.write(`mq: warning: the ${endpoint.name} endpoint is deprecated; use ${endpoint.deprecatedUse} instead.\n`);
}

export async function runStats(opts: StatsOptions, ctx: Context): Promise<void> {
  if (opts.watch) return watchStats(opts, ctx, runStats);
  if (opts.repos) return runStatsMany(opts, opts.repos, ctx);
  const { endpoint } = opts;
  const { format } = opts;
  warnDeprecated(ctx, endpoint);
  const repository = await repositoryName(ctx);
  const spinner = await startSpinner(ctx, `fetching ${endpoint.name} of ${repository}…`);
  let body: unknown;
  try {
    body = await fetchStats(ctx, endpoint, opts.query, opts.dialect);
  } finally {
    spinner.stop();
  }
  const out = {
    ...statsExport(ctx.io, endpoint, body, {
      chart: opts.chart,
      intervals: opts.intervals,
      fields: opts.fields,
      repo: repository,
      filters: opts.filterWords,
      window: endpoint.params === "time-to-merge" ? undefined : windowWords(opts.query),
    }),
    headline: () => statsHeadline(endpoint, body),
    metrics: () => statsMetrics(endpoint, body, repository),
  };
  await exportAll(format, ctx.io, out, out.records);
  let verdicts: Verdict[] = [];
  if (opts.gate.failIf.length) {
    verdicts = judgeStats(opts.gate.failIf, endpoint, body, opts.gate.scope, gateOptions(opts.gate, opts.query));
  }
  const command = `mq stats ${endpoint.name}`;
  await reportGate(ctx, opts.gate, verdicts, {
    command,
    repository,
    start_at: typeof opts.query.start_at === "string" ? opts.query.start_at : undefined,
    end_at: typeof opts.query.end_at === "string" ? opts.query.end_at : undefined,
    summary: endpoint.fields.length
      ? () => ({ headline: statsHeadline(endpoint, body), chart: statsChart(endpoint, body), window: statsWindow(endpoint, body) })
      : undefined,
  });
}

/**
 * Several repositories: fetched at most REPO_CONCURRENCY at once, a row each and a total. A
 * repository that fails is reported on stderr with its exit code and left out; the others are
 * written, and the exit code is the first failure's.
 */
async function runStatsMany(opts: StatsOptions, repos: RepoName[], ctx: Context): Promise<void> {
  const { endpoint } = opts;
  warnDeprecated(ctx, endpoint);
  const spinner = await startSpinner(ctx, `fetching ${endpoint.name} of ${repos.length} repositories…`);
  const { results, failed, error } = await eachRepo(
    ctx,
    repos,
    (repo) => fetchStats(ctx, endpoint, opts.query, opts.dialect, repo),
    (line) => spinner.log(line),
  ).finally(() => spinner.stop());
  const done = results.map((r) => ({ repository: r.repository, body: r.value }));
  const many = combineRepos(endpoint, done);
  const out = statsManyExport(ctx.io, endpoint, many, done, {
    fields: opts.fields,
    window: windowWords(opts.query),
    filters: opts.filterWords,
    failed,
  });
  await exportAll(opts.format, ctx.io, out, out.records);
  if (opts.format !== "table" && opts.format !== "none") {
    // the table says it under itself; elsewhere stdout is data, so the reasons go to stderr
    for (const [field, why] of unavailableTotals(many)) ctx.io.stderr.write(`mq: total ${field} not available: ${messageText(why)}\n`);
  }
  const verdicts = opts.gate.failIf.length
    ? judgeMany(
        opts.gate.failIf,
        endpoint,
        done,
        opts.gate.scope,
        gateOptions(opts.gate, opts.query),
        failed.map((f) => messageText(f.repository)),
      )
    : [];
  const gate = reportGate(ctx, opts.gate, verdicts, {
    command: `mq stats ${endpoint.name}`,
    repository: repos.map((r) => `${r.owner}/${r.name}`).join(","),
    start_at: typeof opts.query.start_at === "string" ? opts.query.start_at : undefined,
    end_at: typeof opts.query.end_at === "string" ? opts.query.end_at : undefined,
    summary: () => ({ headline: manyHeadline(endpoint, many, failed) }),
  });
  if (!error) return gate;
  // a repository that could not be read says more than a gate over the others: its exit code wins
  await gate.catch(() => undefined);
  throw someReposFailed(failed, repos.length, error);
}

/** The window asked for, in words: the API's default is the day before now. */
function windowWords(query: StatsQuery): string | undefined {
  // the one form of a time, to the second, as every other time mq shows
  const short = (v: string | string[] | undefined) => shortTime(String(v));
  if (query.start_at === undefined && query.end_at === undefined) return "the last 24 hours";
  if (query.start_at === undefined) return `the 24 hours before ${short(query.end_at)}`;
  return `${short(query.start_at)} → ${query.end_at === undefined ? "now" : short(query.end_at)}`;
}

async function repositoryName(ctx: Context): Promise<string> {
  const repo = await ctx.resolveRepo();
  return `${repo.owner}/${repo.name}`;
}

/** Why a check found nothing, in the user's terms: the filters and window they gave. */
function emptyReason(query: StatsQuery): string {
  const given: string[] = [];
  for (const f of STATS_FLAGS) {
    const v = f.filterParam ? query[f.filterParam] : undefined;
    if (v !== undefined) given.push(`${f.flag} ${Array.isArray(v) ? v.join(",") : v}`);
  }
  return given.length ? `no group matches the filters (${given.join(" ")}) in the window` : "no data in the window";
}

function gateOptions(gate: GateFlags, query: StatsQuery): { minCount?: number; allowEmpty: boolean; emptyReason: string } {
  return { minCount: gate.minCount, allowEmpty: gate.allowEmpty, emptyReason: emptyReason(query) };
}

// ---------------------------------------------------------------------------------------------
// summary

export async function runStatsSummary(opts: StatsSummaryOptions, ctx: Context): Promise<void> {
  if (opts.watch) return watchStatsSummary(opts, ctx, runStatsSummary);
  if (opts.repos) return runStatsSummaryMany(opts, opts.repos, ctx);
  const format = resolveOutputFormat(ctx, { figures: true });
  const query: StatsQuery = { ...opts.filters, start_at: formatInstant(opts.since), end_at: formatInstant(opts.until) };
  const endpoints = summaryEndpoints();
  const spinner = await startSpinner(ctx, `fetching ${endpoints.length} statistics of ${await repositoryName(ctx)}…`);
  let bodies: Map<string, unknown>;
  try {
    // all at once: the summary takes as long as the slowest request, not the sum
    const results = await Promise.all(endpoints.map((e) => fetchStats(ctx, e, query, opts.dialect)));
    bodies = new Map(endpoints.map((e, i) => [e.name, results[i]]));
  } finally {
    spinner.stop();
  }
  const values = summaryFigures(bodies);
  const unavailable = summaryUnavailable(bodies, values);
  const figures: SummaryFigures = {
    start_at: query.start_at as string,
    end_at: query.end_at as string,
    ...values,
    ...(Object.keys(unavailable).length ? { unavailable } : {}),
  };
  const repository = await repositoryName(ctx);
  // the repository is named only on the terminal's title line
  const out = {
    ...summaryExport(ctx.io, format === "table" ? repository : "", figures),
    headline: () => summaryHeadline(figures),
    metrics: () => summaryMetrics(figures, repository),
  };
  await exportAll(format, ctx.io, out, () => [figures]);
  const verdicts = opts.gate.failIf.length ? judgeSummary(opts.gate.failIf, bodies, opts.gate.scope, gateOptions(opts.gate, query)) : [];
  await reportGate(ctx, opts.gate, verdicts, {
    command: "mq stats summary",
    repository,
    start_at: figures.start_at,
    end_at: figures.end_at,
    summary: () => ({ headline: summaryHeadline(figures) }),
  });
}

/** The summary of several repositories: each one's endpoints fetched together, four repositories at once. */
async function runStatsSummaryMany(opts: StatsSummaryOptions, repos: RepoName[], ctx: Context): Promise<void> {
  const format = resolveOutputFormat(ctx, { figures: true });
  const query: StatsQuery = { ...opts.filters, start_at: formatInstant(opts.since), end_at: formatInstant(opts.until) };
  const endpoints = summaryEndpoints();
  const spinner = await startSpinner(ctx, `fetching ${endpoints.length} statistics of ${repos.length} repositories…`);
  const { results, failed, error } = await eachRepo(
    ctx,
    repos,
    async (repo) => {
      const bodies = await Promise.all(endpoints.map((e) => fetchStats(ctx, e, query, opts.dialect, repo)));
      return new Map(endpoints.map((e, i) => [e.name, bodies[i]])) as ReadonlyMap<string, unknown>;
    },
    (line) => spinner.log(line),
  ).finally(() => spinner.stop());
  const done = results.map((r) => ({ repository: r.repository, bodies: r.value }));
  const many = combineSummaries(done);
  const out = summaryManyExport(ctx.io, many, done, { start_at: query.start_at as string, end_at: query.end_at as string, failed });
  await exportAll(format, ctx.io, out, out.records);
  if (format !== "table" && format !== "none") {
    for (const [name, why] of Object.entries(many.unavailable))
      ctx.io.stderr.write(`mq: total ${name} not available: ${messageText(why)}\n`);
  }
  const verdicts = opts.gate.failIf.length
    ? judgeSummaryMany(
        opts.gate.failIf,
        done,
        opts.gate.scope,
        gateOptions(opts.gate, query),
        failed.map((f) => messageText(f.repository)),
      )
    : [];
  const gate = reportGate(ctx, opts.gate, verdicts, {
    command: "mq stats summary",
    repository: repos.map((r) => `${r.owner}/${r.name}`).join(","),
    start_at: query.start_at as string,
    end_at: query.end_at as string,
    summary: () => ({ headline: out.headline!() }),
  });
  if (!error) return gate;
  await gate.catch(() => undefined);
  throw someReposFailed(failed, repos.length, error);
}

// ---------------------------------------------------------------------------------------------
// the list of subcommands

/** `mq stats` alone: the subcommands, as text a person reads or as records a script reads. */
export async function runStatsList(ctx: Context): Promise<void> {
  // without -o, the text listing a person reads (piped too: `mq stats | grep queue`); with
  // -o json/ndjson/csv, records a script can read (it got the text and broke `| jq`)
  if (ctx.globals.output === undefined || ctx.globals.output === "table") {
    // on a terminal, descriptions broken under their column as help is; piped, a line each for grep
    const width = ctx.io.tableWidth();
    return void ctx.io.stdout.write(width === undefined ? statsListing() : fitHelpText(statsListing(), width));
  }
  const format = resolveOutputFormat(ctx, { command: "mq stats (the list of subcommands)" });
  await exportAll(
    format,
    ctx.io,
    { table: () => ({ async write() {}, end: () => ctx.io.writeData(statsListing()) }), csvJoinArrays: true },
    statsRecords,
  );
}
