// `mq insights --watch`: the plain run of run.ts at each poll (handed in: this file does not import
// it), its windows moved on by the time since the flags were read and read again from the API, its
// gate reporting only a breach; the loop, the screen and the records are src/watch/'s.
import type { Context } from "../../context.js";
import { watchFigures } from "../../watch/figures.js";
import type { InsightsOptions } from "./index.js";

export function watchInsights(
  opts: InsightsOptions,
  ctx: Context,
  runOnce: (opts: InsightsOptions, ctx: Context) => Promise<void>,
): Promise<never> {
  const watch = opts.watch!;
  const move = (d: Date, by: number) => new Date(d.getTime() + by);
  return watchFigures(ctx, {
    command: "mq insights",
    intervalSeconds: watch.intervalSeconds,
    format: opts.format,
    once: (caught, at) => {
      const by = at.getTime() - watch.at.getTime();
      return runOnce(
        {
          ...opts,
          watch: undefined,
          since: move(opts.since, by),
          until: move(opts.until, by),
          compare: opts.compare && { since: move(opts.compare.since, by), until: move(opts.compare.until, by) },
          format: caught.globals.output === "table" ? "table" : "ndjson",
          gate: { ...opts.gate, onlyBreach: true },
        },
        caught,
      );
    },
  });
}
