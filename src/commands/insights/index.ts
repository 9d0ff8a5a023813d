// `mq insights`: what the statistics API does not answer, from the event log itself: exact
// percentiles of time to merge, time in queue, CI and waiting time, stay failure rate, throughput, the
// top exit reasons and the slowest pull requests, each against a comparison window, with --fail-if
// for CI. The log is read once, stays are rebuilt as it streams (src/insights/).
// This file is its flags (NewCmdInsights); run.ts does the work, loaded by cli.ts when it runs.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { parseIntFlag } from "../../cmdutil/lists.js";
import { checkWindowOrder, parseTimeFlag } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addStayFilterFlags, addWindowFlags, parseStaysFlags, type StaysRawFlags } from "../../cmdutil/stays-flags.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { addGateFlags, parseGateFlags, type GateFlags, type GateRawFlags } from "../../cmdutil/gate.js";
import { insightsSampled, parseInsightsFailIf } from "../../insights/gate.js";
import type { EventSource } from "../../insights/walk.js";
import { addWatchFlags, parseWatchFlags, type FigureWatchOptions, type WatchRawFlags } from "../../watch/flags.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

/** Seconds between the polls of --watch by default. */
export const DEFAULT_INSIGHTS_WATCH_SECONDS = 60;

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
  /** --watch: poll every so many seconds, the windows moving with the present */
  watch?: FigureWatchOptions;
  /** where a poll of --watch reads its windows (the events kept since the poll before); else the API or the archive */
  source?: EventSource;
}

interface RawFlags extends GateRawFlags, StaysRawFlags, WatchRawFlags {
  compare?: string;
  slowest?: string;
}

const INSIGHTS_GATE_HELP = {
  failIf:
    "exit 1 when FIGURE OP VALUE or change(FIGURE) OP VALUE holds, e.g. 'p95(queue_time) > 2h' (repeatable); one verdict line per check on stderr",
  scope: "with several --repo: judge the total (all, default), each repository (each), or both; one repository takes only all",
  minCount: "skip (and report) figures with fewer than n stays behind them (distributions, stay_failure_rate)",
  allowEmpty: "pass when a check's figure has no value (no stays in the window, no base to change from); default: fail",
  sampled: "the distributions (STAT(DISTRIBUTION)) and stay_failure_rate, and their change()",
};

export function NewCmdInsights(ctx: Context, runF?: (opts: InsightsOptions) => Promise<void>): Command {
  const cmd = new Command("insights").description(describeCommand("insights"));
  addWindowFlags(cmd, "7 days");
  cmd.addOption(new Option("--compare <window>", "previous (the window of the same length just before, default), none, or SINCE..UNTIL"));
  addStayFilterFlags(cmd);
  cmd.addOption(new Option("--slowest <n>", `how many of the slowest pull requests to list, 0 to 100 (default ${DEFAULT_SLOWEST})`));
  addGateFlags(cmd, false, INSIGHTS_GATE_HELP);
  addArchiveFlags(cmd);
  addWatchFlags(cmd, "follow the report, its windows moving with the present", DEFAULT_INSIGHTS_WATCH_SECONDS);
  return cmd
    .addHelpText(
      "after",
      `\nFigures (for --fail-if): entered, merged, left, failed, stay_failure_rate, throughput, retries, and STAT(DISTRIBUTION)
with STAT one of count, avg, p50, p90, p95, p99, max and DISTRIBUTION one of time_to_merge, queue_time,
ci_time, wait_time. Percentiles are exact, nearest-rank, over every stay of the window.
What each figure is: mq help figures.`,
    )
    .action(async (flags: RawFlags) => {
      const opts = await parseInsightsFlags(flags, ctx);
      await runF?.(opts);
    });
}

/** Parses SINCE..UNTIL, each an ISO date-time or a duration ago; a bare date means its midnight UTC. */
export function parseRange(flag: string, value: string, now: Date): { since: Date; until: Date } {
  const parts = value.split("..");
  if (parts.length !== 2 || parts.some((p) => p.trim() === "")) {
    throw new UsageError(`${flag} "${value}" is not previous, none or SINCE..UNTIL (e.g. 2026-10-01..2026-10-08 or 14d..7d).`);
  }
  const since = parseTimeFlag(flag, parts[0]!.trim(), now);
  const until = parseTimeFlag(flag, parts[1]!.trim(), now);
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
  if (
    flags.failIf?.length ||
    flags.failIfScope !== undefined ||
    flags.minCount !== undefined ||
    flags.allowEmpty ||
    flags.report !== undefined
  ) {
    // the figures' names are checked only when a gate flag is given
    const warn = (line: string) => ctx.io.stderr.write(`mq: ${line}\n`);
    const failIf = (flags.failIf ?? []).map((e) => parseInsightsFailIf(e, { compare: compare !== undefined, warn }));
    gate = parseGateFlags(flags, failIf, insightsSampled, INSIGHTS_GATE_HELP);
  }
  const watchSeconds = parseWatchFlags(flags, {
    defaultSeconds: DEFAULT_INSIGHTS_WATCH_SECONDS,
    format,
    refuse: [
      [flags.until !== undefined, "--watch follows the present: drop --until (the window ends at each poll)."],
      [flags.archive === true, "--watch reads new events from the API, not from --archive."],
    ],
  });
  if (watchSeconds !== undefined) {
    const watch = { intervalSeconds: watchSeconds, at: now };
    return { since, until, compare, baseRef, queues, slowest, gate, format, archive: "never", parallel, watch };
  }
  return { since, until, compare, baseRef, queues, slowest, gate, format, archive, parallel };
}
