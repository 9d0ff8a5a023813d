// The work of `mq pr N`: read one pull request's events (and the bisections that name it), rebuild
// its stays step by step and render the timeline. Loaded only when the command runs (cli.ts); its
// flags were checked before (pr.ts).
import type { Context } from "../../context.js";
import type { LogEvent } from "../../api/events.js";
import { openEventSource } from "../../archive/event-source.js";
import { outsideData } from "../../insights/held.js";
import { bisectionNames, timelineOf } from "../../insights/timeline.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { writeTimeline } from "./stays-render.js";
import type { PrOptions } from "./pr.js";
import { maxOf, minOf } from "../../arrays.js";
import { formatTime } from "../../output/format.js";

export async function runPr(opts: PrOptions, ctx: Context): Promise<void> {
  const repo = await ctx.resolveRepo();
  const source = await openEventSource(ctx, {
    mode: opts.archive,
    repositories: [`${repo.owner}/${repo.name}`],
    spans: [{ since: opts.since, until: opts.until }],
    what: `events of #${opts.pullRequest}`,
  });
  // the archive said already what it does not cover (choose.ts); the API's history or retention is said here
  const outside = source.fromArchive
    ? undefined
    : await outsideData(source, [`${repo.owner}/${repo.name}`], "the window", { since: opts.since, until: opts.until });
  if (outside) ctx.io.stderr.write(`mq: warning: ${outside}: #${opts.pullRequest}'s stays are rebuilt only from the events there are.\n`);
  const spinner = await startSpinner(ctx, `reading the events of #${opts.pullRequest}`);
  const events: LogEvent[] = [];
  try {
    // one pull request's events: few, kept to be put in time order with the bisections
    for await (const e of source.events({
      owner: repo.owner,
      name: repo.name,
      since: opts.since,
      until: opts.until,
      pullRequest: opts.pullRequest,
      parallel: opts.parallel,
    })) {
      events.push(e);
    }
    // batch bisections name their pull requests in the metadata, not the envelope: read them over
    // the span of the stays that were tested in a batch
    const batched = timelineOf(opts.pullRequest, events).filter((s) => s.stay.runs.some((r) => r.pullRequests.length > 1));
    if (batched.length) {
      const from = minOf(batched.map((s) => s.stay.enteredAt));
      const to = maxOf(batched.map((s) => s.stay.leftAt ?? opts.until.getTime()));
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
  await writeTimeline(ctx, `${repo.owner}/${repo.name}`, opts, timeline);
  if (timeline.length === 0) {
    ctx.io.stderr.write(
      // a window that reaches before the data held already starts as early as it can
      `mq: #${opts.pullRequest} has no queue stay from ${formatTime(opts.since)} to ${formatTime(opts.until)}${outside ? "" : "; --since reaches further back"}.\n`,
    );
  }
}
