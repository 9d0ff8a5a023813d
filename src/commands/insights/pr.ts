// `mq pr N`: why did #N take so long? Its stays in the queue, step by step with the wait before
// each step, its check runs (batches, bisections, retries) and how each stay ended.
import { Command } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addWindowFlags, parseParallelFlag, parseStaysWindow } from "../../cmdutil/stays-flags.js";
import { resolveArchiveMode } from "../../cmdutil/archive.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { MAX_PULL_REQUEST } from "../../cmdutil/logs-filters.js";

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
  const cmd = new Command("pr")
    .description("one pull request's way through the queue: each stay step by step, the wait before each step, its checks")
    .argument("<number>", "the pull request number");
  addWindowFlags(cmd, "30 days");
  return addArchiveFlags(cmd)
    .action(async (number: string, flags: RawFlags) => {
      const opts = parsePrFlags(number, flags, ctx);
      await (runF ?? ((o) => runPr(o, ctx)))(opts);
    });
}

export function parsePrFlags(number: string, flags: RawFlags, ctx: Context): PrOptions {
  const format = resolveOutputFormat(ctx);
  const text = number.trim().replace(/^#/, "");
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_PULL_REQUEST) {
    throw new UsageError(`pull request number must be an integer from 1 to ${MAX_PULL_REQUEST}, not "${number}".`);
  }
  const { since, until } = parseStaysWindow(flags, ctx.now(), DEFAULT_PR_WINDOW_MS);
  return { pullRequest: n, since, until, format, archive: resolveArchiveMode(flags.archive, ctx.env), parallel: parseParallelFlag(flags) };
}

export async function runPr(opts: PrOptions, ctx: Context): Promise<void> {
  const repo = await ctx.resolveRepo();
  const [{ openEventSource }, { timelineOf, bisectionNames }, { startSpinner }] = await Promise.all([
    import("../../archive/event-source.js"),
    import("../../insights/timeline.js"),
    import("../../iostreams/spinner.js"),
  ]);
  const source = await openEventSource(ctx, {
    mode: opts.archive,
    repositories: [`${repo.owner}/${repo.name}`],
    spans: [{ since: opts.since, until: opts.until }],
    what: `events of #${opts.pullRequest}`,
  });
  const spinner = await startSpinner(ctx, `reading the events of #${opts.pullRequest}`);
  const events: import("../../api/events.js").LogEvent[] = [];
  try {
    // one pull request's events: few, kept to be put in time order with the bisections
    for await (const e of source.events({ owner: repo.owner, name: repo.name, since: opts.since, until: opts.until, pullRequest: opts.pullRequest, parallel: opts.parallel })) {
      events.push(e);
    }
    // batch bisections name their pull requests in the metadata, not the envelope: read them over
    // the span of the stays that were tested in a batch
    const batched = timelineOf(opts.pullRequest, events).filter((s) => s.stay.runs.some((r) => r.pullRequests.length > 1));
    if (batched.length) {
      const from = Math.min(...batched.map((s) => s.stay.enteredAt));
      const to = Math.max(...batched.map((s) => s.stay.leftAt ?? opts.until.getTime()));
      for await (const e of source.events({
        owner: repo.owner,
        name: repo.name,
        since: new Date(Math.max(from, opts.since.getTime())),
        until: new Date(Math.min(to, opts.until.getTime())),
        types: ["action.queue.batch_bisection_start", "action.queue.batch_bisection_end"],
        parallel: opts.parallel,
      })) {
        if (bisectionNames(e, opts.pullRequest)) events.push(e);
      }
    }
  } finally {
    spinner.stop();
  }
  const timeline = timelineOf(opts.pullRequest, events);
  const { writeTimeline } = await import("./stays-render.js");
  await writeTimeline(ctx, `${repo.owner}/${repo.name}`, opts, timeline);
  if (timeline.length === 0) {
    const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
    ctx.io.stderr.write(`mq: #${opts.pullRequest} has no queue stay from ${iso(opts.since)} to ${iso(opts.until)}; --since reaches further back.\n`);
  }
}
