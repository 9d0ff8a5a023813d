// `mq pr N`: why did #N take so long? Its stays in the queue, step by step with the wait before
// each step, its check runs (batches, bisections, retries) and how each stay ended.
// This file is its flags (NewCmdPr); pr-run.ts does the work, loaded by cli.ts when it runs.
import { Command } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addWindowFlags, parseParallelFlag, parseStaysWindow } from "../../cmdutil/stays-flags.js";
import { resolveArchiveMode } from "../../cmdutil/archive.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { parsePullRequestArgument } from "../../cmdutil/pull-request.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export const DEFAULT_PR_WINDOW_MS = 30 * 86_400_000;

export interface PrOptions {
  pullRequest: number;
  since: Date;
  until: Date;
  format: OutputFormat;
  /** read the archive instead of the API: always, never, or when it covers the window */
  archive: ArchiveMode;
  /** requests in flight over the API (--parallel) */
  parallel: number;
}

interface RawFlags {
  since?: string;
  until?: string;
  archive?: boolean;
  parallel?: string;
}

export function NewCmdPr(ctx: Context, runF?: (opts: PrOptions) => Promise<void>): Command {
  const cmd = new Command("pr").description(describeCommand("pr")).argument("<number>", "the pull request number");
  addWindowFlags(cmd, "30 days");
  return addArchiveFlags(cmd).action(async (number: string, flags: RawFlags) => {
    const opts = parsePrFlags(number, flags, ctx);
    await runF?.(opts);
  });
}

export function parsePrFlags(number: string, flags: RawFlags, ctx: Context): PrOptions {
  const format = resolveOutputFormat(ctx);
  const n = parsePullRequestArgument(number);
  const { since, until } = parseStaysWindow(flags, ctx.now(), DEFAULT_PR_WINDOW_MS);
  return { pullRequest: n, since, until, format, archive: resolveArchiveMode(flags.archive, ctx.env), parallel: parseParallelFlag(flags) };
}
