// `mq insights --watch`: the plain run of run.ts at each poll (handed in: this file does not import
// it), its windows moved on to end at the server's present, its gate reporting only a breach; the
// loop, the present, the screen and the records are src/watch/'s.
import type { Context } from "../../context.js";
import { watchCommand } from "../../watch/figures.js";
import type { InsightsOptions } from "./index.js";

export function watchInsights(
  opts: InsightsOptions,
  ctx: Context,
  run: (opts: InsightsOptions, ctx: Context) => Promise<void>,
): Promise<never> {
  const move = (d: Date, by: number) => new Date(d.getTime() + by);
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
    }),
  });
}
