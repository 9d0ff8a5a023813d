// `mq stats <endpoint> --watch` and `mq stats summary --watch`: the plain run of run.ts at each poll
// (handed in: this file does not import it), its window moved on to end at the server's present,
// its gate reporting only a breach; the loop, the present, the screen and the records are src/watch/'s.
import type { Context } from "../../context.js";
import { formatInstant } from "../../cmdutil/time.js";
import { watchCommand } from "../../watch/figures.js";
import type { StatsOptions, StatsQuery, StatsSummaryOptions } from "./index.js";

const DAY_MS = 86_400_000;

/** QUERY's window moved on by BY ms from the one ending at AT (without --since, the day before it, as a plain run's). */
function moved(query: StatsQuery, at: Date, by: number): StatsQuery {
  const end = typeof query.end_at === "string" ? Date.parse(query.end_at) : at.getTime();
  const start = typeof query.start_at === "string" ? Date.parse(query.start_at) : end - DAY_MS;
  return { ...query, start_at: formatInstant(new Date(start + by)), end_at: formatInstant(new Date(end + by)) };
}

export function watchStats(opts: StatsOptions, ctx: Context, run: (opts: StatsOptions, ctx: Context) => Promise<void>): Promise<never> {
  const watch = opts.watch!;
  return watchCommand(ctx, {
    command: `mq stats ${opts.endpoint.name}`,
    watch,
    format: opts.format,
    run,
    moved: (by, format) => ({
      ...opts,
      watch: undefined,
      query: opts.endpoint.params === "time-to-merge" ? opts.query : moved(opts.query, watch.at, by),
      format,
      chart: format === "table" && opts.chart,
      gate: { ...opts.gate, onlyBreach: true },
    }),
  });
}

export function watchStatsSummary(
  opts: StatsSummaryOptions,
  ctx: Context,
  run: (opts: StatsSummaryOptions, ctx: Context) => Promise<void>,
): Promise<never> {
  const watch = opts.watch!;
  return watchCommand(ctx, {
    command: "mq stats summary",
    watch,
    format: ctx.globals.output ?? (ctx.io.isStdoutTerminal() ? "table" : "ndjson"),
    run,
    moved: (by) => ({
      ...opts,
      watch: undefined,
      since: new Date(opts.since.getTime() + by),
      until: new Date(opts.until.getTime() + by),
      gate: { ...opts.gate, onlyBreach: true },
    }),
  });
}
