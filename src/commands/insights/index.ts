// `mq insights`: what the statistics API does not answer, from the event log itself: exact
// percentiles of time to merge, time in queue, CI and waiting time, failure rate, throughput, the
// top exit reasons and the slowest pull requests, each against a comparison window, with --fail-if
// for CI. The log is read once, stays are rebuilt as it streams (src/insights/).
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { parseIntFlag } from "../../cmdutil/lists.js";
import { checkWindowOrder, parseTimeFlag } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addStayFilterFlags, addWindowFlags, parseStaysFlags, type StaysRawFlags } from "../../cmdutil/stays-flags.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { addGateFlags, parseGateFlags, type GateFlags, type GateRawFlags } from "../../cmdutil/gate.js";

export const DEFAULT_INSIGHTS_WINDOW_MS = 7 * 86_400_000;
export const DEFAULT_SLOWEST = 5;

export interface InsightsOptions {
  since: Date;
  until: Date;
  /** the comparison window; undefined with --compare none */
  compare?: { since: Date; until: Date };
  baseRef?: string;
  queues?: string[];
  slowest: number;
  /** --fail-if and its companions: the gate engine of mq stats over the report's figures */
  gate: GateFlags;
  format: OutputFormat;
  /** read the archive instead of the API: always, never, or when it covers both windows */
  archive: ArchiveMode;
  /** requests in flight over the API (--parallel) */
  parallel: number;
}

interface RawFlags extends GateRawFlags, StaysRawFlags {
  compare?: string;
  slowest?: string;
}

const INSIGHTS_GATE_HELP = {
  failIf: "exit 1 when FIGURE OP VALUE or change(FIGURE) OP VALUE holds, e.g. 'p95(queue_time) > 2h' (repeatable); one verdict line per check on stderr",
  scope: "with several --repo: judge the total (all, default), each repository (each), or both; one repository takes only all",
  minCount: "skip (and report) figures with fewer than n stays behind them (distributions, failure_rate)",
  allowEmpty: "pass when a check's figure has no value (no stays in the window, no base to change from); default: fail",
  sampled: "the distributions (STAT(DISTRIBUTION)) and failure_rate, and their change()",
};

export function NewCmdInsights(ctx: Context, runF?: (opts: InsightsOptions) => Promise<void>): Command {
  const cmd = new Command("insights").description(
    "percentiles of time to merge, queue, CI and waiting time, failure rate, throughput, exit reasons and slowest PRs, against a previous window",
  );
  addWindowFlags(cmd, "7 days");
  cmd.addOption(new Option("--compare <window>", "previous (the window of the same length just before, default), none, or SINCE..UNTIL"));
  addStayFilterFlags(cmd);
  cmd.addOption(new Option("--slowest <n>", `how many of the slowest pull requests to list, 0 to 100 (default ${DEFAULT_SLOWEST})`));
  addGateFlags(cmd, false, INSIGHTS_GATE_HELP);
  addArchiveFlags(cmd);
  return cmd
    .addHelpText(
      "after",
      `\nFigures (for --fail-if): entered, merged, left, failed, failure_rate, throughput, retries, and STAT(DISTRIBUTION)
with STAT one of count, avg, p50, p90, p95, p99, max and DISTRIBUTION one of time_to_merge, queue_time,
ci_time, wait_time. Percentiles are exact, nearest-rank, over every stay of the window.`,
    )
    .action(async (flags: RawFlags) => {
      const opts = await parseInsightsFlags(flags, ctx);
      await (runF ?? ((o) => runInsights(o, ctx)))(opts);
    });
}

/** Parses SINCE..UNTIL, each an ISO date-time or a duration ago; a bare date means its midnight UTC. */
export function parseRange(flag: string, value: string, now: Date): { since: Date; until: Date } {
  const parts = value.split("..");
  if (parts.length !== 2 || parts.some((p) => p.trim() === "")) {
    throw new UsageError(`${flag} "${value}" is not previous, none or SINCE..UNTIL (e.g. 2026-10-01..2026-10-08 or 14d..7d).`);
  }
  const at = (p: string) => {
    const t = p.trim();
    return parseTimeFlag(flag, /^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : t, now);
  };
  const since = at(parts[0]!);
  const until = at(parts[1]!);
  checkWindowOrder(since, until, { since: `${flag} start`, until: `${flag} end` });
  return { since, until };
}

export async function parseInsightsFlags(flags: RawFlags, ctx: Context): Promise<InsightsOptions> {
  const format = resolveOutputFormat(ctx);
  const now = ctx.now();
  const { since, until, baseRef, queues, archive, parallel } = parseStaysFlags(flags, ctx, DEFAULT_INSIGHTS_WINDOW_MS);
  let compare: InsightsOptions["compare"];
  const c = (flags.compare ?? "previous").trim();
  if (c === "previous") compare = { since: new Date(2 * since.getTime() - until.getTime()), until: since };
  else if (c !== "none") compare = parseRange("--compare", c, now);
  if (compare && compare.since.getTime() < 0) throw new UsageError("--compare reaches back before 1970: give a shorter window.");
  const slowest = flags.slowest !== undefined ? parseIntFlag("--slowest", flags.slowest, 0, 100) : DEFAULT_SLOWEST;
  let gate: GateFlags = { failIf: [], scope: "all", allowEmpty: false };
  if (flags.failIf?.length || flags.failIfScope !== undefined || flags.minCount !== undefined || flags.allowEmpty || flags.report !== undefined) {
    const { parseInsightsFailIf, insightsSampled } = await import("../../insights/gate.js");
    const failIf = (flags.failIf ?? []).map((e) => parseInsightsFailIf(e, { compare: compare !== undefined }));
    gate = parseGateFlags(flags, failIf, insightsSampled, INSIGHTS_GATE_HELP);
  }
  return { since, until, compare, baseRef, queues, slowest, gate, format, archive, parallel };
}

export async function runInsights(opts: InsightsOptions, ctx: Context): Promise<void> {
  const [{ resolveRepos, eachRepo, someReposFailed }, { WindowAccumulator }, { walkStays }, { openEventSource }, { buildReport }, { startSpinner }, { formatCount }] = await Promise.all([
    import("../../cmdutil/repos.js"),
    import("../../insights/figures.js"),
    import("../../insights/walk.js"),
    import("../../archive/event-source.js"),
    import("../../insights/report.js"),
    import("../../iostreams/spinner.js"),
    import("../../output/format.js"),
  ]);
  const repos = await resolveRepos(ctx);
  if (repos.length === 1 && opts.gate.scope !== "all") {
    // one repository has no parts to judge one by one (mq stats judges its groups; insights has none):
    // refused rather than quietly judged as `all`, which a reader of the workflow would not expect
    const repository = `${repos[0]!.owner}/${repos[0]!.name}`;
    throw new UsageError(
      `--fail-if-scope ${opts.gate.scope} judges each of several repositories, and --repo names one (${repository}): give several --repo, or drop --fail-if-scope.`,
    );
  }
  const spans = [{ since: opts.since, until: opts.until }, ...(opts.compare ? [opts.compare] : [])];
  const source = await openEventSource(ctx, { mode: opts.archive, repositories: repos.map((r) => `${r.owner}/${r.name}`), spans, what: "queue stays" });
  const label = repos.length === 1 ? `${repos[0]!.owner}/${repos[0]!.name}` : `${repos.length} repositories`;
  const spinner = await startSpinner(ctx, `reading the queue events of ${label}`);
  const queues = opts.queues ? new Set(opts.queues) : undefined;
  let events = 0;
  const { results, failed, error } = await eachRepo(
    ctx,
    repos,
    async (repo, repository) => {
      const current = new WindowAccumulator({ since: opts.since, until: opts.until }, opts.slowest);
      const previous = opts.compare ? new WindowAccumulator(opts.compare, opts.slowest) : undefined;
      let seen = 0;
      await walkStays(source, {
        owner: repo.owner,
        name: repo.name,
        baseRef: opts.baseRef,
        parallel: opts.parallel,
        spans,
        onPage: (n) => {
          events += n - seen;
          seen = n;
          if (spinner.active) spinner.update(`${formatCount(events)} queue events of ${label}`);
        },
        onStay: (s) => {
          if (queues && (s.queue === null || !queues.has(s.queue))) return;
          current.add(s);
          previous?.add(s);
        },
      });
      return { repository, current, previous };
    },
    (line) => spinner.log(line),
  ).finally(() => spinner.stop());

  const done = results.map((r) => r.value);
  const reports = done.map((r) => buildReport(r.repository, r.current.result(), r.previous?.result()));
  let total = reports[0];
  if (repos.length > 1) {
    // the total pools the stays of every repository read: counts summed, percentiles over all of them
    const cur = new WindowAccumulator({ since: opts.since, until: opts.until }, opts.slowest);
    const prev = opts.compare ? new WindowAccumulator(opts.compare, opts.slowest) : undefined;
    for (const r of done) {
      cur.merge(r.current);
      if (prev && r.previous) prev.merge(r.previous);
    }
    total = buildReport("total", cur.result(), prev?.result());
  }
  const { writeInsights, insightsHeadline } = await import("./render.js");
  await writeInsights(ctx, repos.length > 1 ? { reports, total: total!, failed } : total!, opts.format);

  const verdicts = opts.gate.failIf.length
    ? (await import("../../insights/gate.js")).judgeInsights(opts.gate.failIf, { total: total!, repositories: repos.length > 1 ? reports : undefined }, opts.gate.scope, {
        minCount: opts.gate.minCount,
        allowEmpty: opts.gate.allowEmpty,
        emptyReason: "no stays in the window",
      })
    : [];
  const { reportGate } = await import("../../cmdutil/gate.js");
  const gate = reportGate(ctx, opts.gate, verdicts, {
    command: "mq insights",
    repository: repos.map((r) => `${r.owner}/${r.name}`).join(","),
    start_at: total!.since,
    end_at: total!.until,
    summary: () => ({ headline: insightsHeadline(total!) }),
  });
  // a repository that could not be read says more than a gate over the others: its exit code wins
  if (!error) return gate;
  await gate.catch(() => undefined);
  throw someReposFailed(failed, repos.length, error);
}
