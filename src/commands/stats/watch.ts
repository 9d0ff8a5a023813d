// `mq stats <endpoint> --watch` and `mq stats summary --watch`: the plain run of run.ts at each poll
// (handed in: this file does not import it), its window moved on by the time since the flags were
// read, its gate reporting only a breach; the loop, the screen and the records are src/watch/'s.
import type { Context } from "../../context.js";
import { formatInstant } from "../../cmdutil/time.js";
import { watchFigures } from "../../watch/figures.js";
import type { StatsOptions, StatsQuery, StatsSummaryOptions } from "./index.js";

/** QUERY's window moved on by BY milliseconds (a window the server chooses moves by itself). */
function moved(query: StatsQuery, by: number): StatsQuery {
  const out = { ...query };
  for (const k of ["start_at", "end_at"] as const) {
    const v = out[k];
    if (typeof v === "string") out[k] = formatInstant(new Date(Date.parse(v) + by));
  }
  return out;
}

export function watchStats(opts: StatsOptions, ctx: Context, runOnce: (opts: StatsOptions, ctx: Context) => Promise<void>): Promise<never> {
  const watch = opts.watch!;
  return watchFigures(ctx, {
    command: `mq stats ${opts.endpoint.name}`,
    intervalSeconds: watch.intervalSeconds,
    format: opts.format,
    once: (caught, at) => {
      const screen = caught.globals.output === "table";
      return runOnce(
        {
          ...opts,
          watch: undefined,
          query: moved(opts.query, at.getTime() - watch.at.getTime()),
          format: screen ? "table" : "ndjson",
          chart: screen && opts.chart,
          gate: { ...opts.gate, onlyBreach: true },
        },
        caught,
      );
    },
  });
}

export function watchStatsSummary(
  opts: StatsSummaryOptions,
  ctx: Context,
  runOnce: (opts: StatsSummaryOptions, ctx: Context) => Promise<void>,
): Promise<never> {
  const watch = opts.watch!;
  return watchFigures(ctx, {
    command: "mq stats summary",
    intervalSeconds: watch.intervalSeconds,
    format: ctx.globals.output ?? (ctx.io.isStdoutTerminal() ? "table" : "ndjson"),
    once: (caught, at) => {
      const by = at.getTime() - watch.at.getTime();
      return runOnce(
        {
          ...opts,
          watch: undefined,
          since: new Date(opts.since.getTime() + by),
          until: new Date(opts.until.getTime() + by),
          gate: { ...opts.gate, onlyBreach: true },
        },
        caught,
      );
    },
  });
}
