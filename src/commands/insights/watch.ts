// `mq insights --watch`: the plain run of run.ts at each poll (handed in: this file does not import
// it), its windows moved on to end at the server's present and read from the queue events kept
// since the poll before (src/watch/window-log.ts: only new events are asked for, what leaves the
// windows is dropped), its gate reporting only a breach; the loop, the present, the screen and the
// records are src/watch/'s.
import type { Context } from "../../context.js";
import { resolveRepos } from "../../cmdutil/repos.js";
import { apiEventSource } from "../../insights/walk.js";
import { watchCommand } from "../../watch/figures.js";
import { WindowLog } from "../../watch/window-log.js";
import type { InsightsOptions } from "./index.js";

export async function watchInsights(
  opts: InsightsOptions,
  ctx: Context,
  run: (opts: InsightsOptions, ctx: Context) => Promise<void>,
): Promise<never> {
  const move = (d: Date, by: number) => new Date(d.getTime() + by);
  const repos = await resolveRepos(ctx);
  const log = new WindowLog(apiEventSource(ctx), { baseRef: opts.baseRef, parallel: opts.parallel });
  return watchCommand(ctx, {
    command: "mq insights",
    watch: opts.watch!,
    format: opts.format,
    run,
    moved: (by, format) => ({
      ...opts,
      watch: undefined,
      since: move(opts.since, by),
      until: move(opts.until, by),
      compare: opts.compare && { since: move(opts.compare.since, by), until: move(opts.compare.until, by) },
      format,
      gate: { ...opts.gate, onlyBreach: true },
      source: log,
    }),
    // the windows' events from the earliest start on (the comparison window's, when it is earlier)
    before: (o, at) => log.advance(repos, new Date(Math.min(o.since.getTime(), o.compare?.since.getTime() ?? Infinity)), at, ctx.signal),
  });
}
