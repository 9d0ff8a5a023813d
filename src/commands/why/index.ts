// `mq why N`: why pull request N left the queue (or is still in it, or never entered it): the
// outcome in words and its cause — failing checks with their links, the culprit of a batch, who
// dequeued it — how often it was requeued, and the next step. This file is its flags (NewCmdWhy);
// run.ts does the work, loaded by cli.ts when it runs.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addWindowFlags, parseParallelFlag, parseStaysWindow, presentWindow } from "../../cmdutil/stays-flags.js";
import { resolveArchiveMode } from "../../cmdutil/archive.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { parsePullRequestArgument } from "../../cmdutil/pull-request.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export const DEFAULT_WHY_WINDOW_MS = 30 * 86_400_000;

export interface WhyOptions {
  pullRequest: number;
  since: Date;
  until: Date;
  /** every stay of the window, not only the latest */
  all: boolean;
  format: OutputFormat;
  archive: ArchiveMode;
  parallel: number;
  /** without --until or --archive: the window at the server's present, learnt when it runs */
  atPresent?: (present: Date) => { since: Date; until: Date };
}

interface RawFlags {
  since?: string;
  until?: string;
  all?: boolean;
  archive?: boolean;
  parallel?: string;
}

export function NewCmdWhy(ctx: Context, runF?: (opts: WhyOptions) => Promise<void>): Command {
  const cmd = new Command("why").description(describeCommand("why")).argument("<number>", "the pull request number");
  addWindowFlags(cmd, "30 days");
  return addArchiveFlags(cmd.addOption(new Option("--all", "every stay in the window, not only the latest"))).action(
    async (number: string, flags: RawFlags) => {
      const opts = parseWhyFlags(number, flags, ctx);
      await runF?.(opts);
    },
  );
}

export function parseWhyFlags(number: string, flags: RawFlags, ctx: Context): WhyOptions {
  const format = resolveOutputFormat(ctx, { command: "mq why" });
  if (format === "csv") throw new UsageError("mq why writes text or -o json (one document); -o csv has no rows to write.");
  const pullRequest = parsePullRequestArgument(number);
  const { since, until } = parseStaysWindow(flags, ctx.now(), DEFAULT_WHY_WINDOW_MS);
  const archive = resolveArchiveMode(flags.archive, ctx.env);
  const atPresent = presentWindow(flags, archive, DEFAULT_WHY_WINDOW_MS);
  return {
    pullRequest,
    since,
    until,
    all: flags.all === true,
    format,
    archive,
    parallel: parseParallelFlag(flags),
    ...(atPresent ? { atPresent } : {}),
  };
}
