// `mq wait N`: waits until pull request N leaves its queue, following the log (only the pull
// request's new events each poll). Exit 0 when merged, 1 when it left without merging (with the
// `mq why` line), 124 when --max-wait runs out. This file is its flags (NewCmdWait); run.ts does
// the work, loaded by cli.ts when it runs.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { parsePullRequestArgument } from "../../cmdutil/pull-request.js";
import { parseTimeFlag, TIME_VALUE_HELP } from "../../cmdutil/time.js";
import { parseDurationSeconds } from "../../validators.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export const DEFAULT_WAIT_INTERVAL_SECONDS = 30;
export const DEFAULT_MAX_WAIT_SECONDS = 2 * 3600;
/** the longest --max-wait: a wait is a job's step, not a daemon */
export const MAX_MAX_WAIT_SECONDS = 7 * 86_400;
export const DEFAULT_WAIT_LOOKBACK_MS = 7 * 86_400_000;

export interface WaitOptions {
  pullRequest: number;
  /** how far back the first read looks for the pull request's stay (at mq's clock: see sinceAt) */
  since: Date;
  /** the same at the server's present, learnt when it runs: the log's "now" */
  sinceAt: (present: Date) => Date;
  intervalSeconds: number;
  maxWaitSeconds: number;
  format: OutputFormat;
}

interface RawFlags {
  since?: string;
  interval?: string;
  maxWait?: string;
}

export function NewCmdWait(ctx: Context, runF?: (opts: WaitOptions) => Promise<void>): Command {
  return new Command("wait")
    .description(describeCommand("wait"))
    .argument("<number>", "the pull request number")
    .addOption(
      new Option(
        "--max-wait <duration>",
        `give up after this long (30s, 20m, 2h; at most 7d), exit 124 (default ${DEFAULT_MAX_WAIT_SECONDS / 3600}h)`,
      ),
    )
    .addOption(new Option("--interval <seconds>", `seconds between polls, 0.1 to 3600 (default ${DEFAULT_WAIT_INTERVAL_SECONDS})`))
    .addOption(new Option("--since <time>", `how far back to look for its stay at the start: ${TIME_VALUE_HELP} (default 7d)`))
    .action(async (number: string, flags: RawFlags) => {
      const opts = parseWaitFlags(number, flags, ctx);
      await runF?.(opts);
    });
}

export function parseWaitFlags(number: string, flags: RawFlags, ctx: Context): WaitOptions {
  const format = resolveOutputFormat(ctx, { command: "mq wait" });
  if (format === "csv") throw new UsageError("mq wait writes a status line or -o ndjson/json records; -o csv has no fixed columns.");
  const pullRequest = parsePullRequestArgument(number);
  let intervalSeconds = DEFAULT_WAIT_INTERVAL_SECONDS;
  if (flags.interval !== undefined) {
    intervalSeconds = Number(flags.interval);
    if (flags.interval.trim() === "" || !Number.isFinite(intervalSeconds) || intervalSeconds < 0.1 || intervalSeconds > 3600)
      throw new UsageError(`--interval must be a number of seconds from 0.1 to 3600, not "${flags.interval}".`);
  }
  let maxWaitSeconds = DEFAULT_MAX_WAIT_SECONDS;
  if (flags.maxWait !== undefined) {
    const s = parseDurationSeconds(flags.maxWait);
    if (s === undefined || s < 1 || s > MAX_MAX_WAIT_SECONDS)
      throw new UsageError(`--max-wait must be a duration from 1s to 7d (30s, 20m, 2h), not "${flags.maxWait}".`);
    maxWaitSeconds = s;
  }
  const sinceAt = (now: Date) => {
    const since =
      flags.since !== undefined ? parseTimeFlag("--since", flags.since, now) : new Date(now.getTime() - DEFAULT_WAIT_LOOKBACK_MS);
    if (since.getTime() >= now.getTime()) throw new UsageError("--since must be before now.");
    return since;
  };
  return { pullRequest, since: sinceAt(ctx.now()), sinceAt, intervalSeconds, maxWaitSeconds, format };
}
