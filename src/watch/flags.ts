// --watch and --interval for every command that follows the present (queue, stats, stats summary,
// insights): the flags and their checks, before any request. The loop is loop.ts.
import { type Command, Option } from "commander";
import type { Context, OutputFormat } from "../context.js";
import { UsageError } from "../errors.js";

export const MIN_INTERVAL_SECONDS = 0.1;
export const MAX_INTERVAL_SECONDS = 3600;

/** --watch over figures, as the commands' options carry it. */
export interface FigureWatchOptions {
  intervalSeconds: number;
  /** the clock when the flags were read: each poll's window is the one given, moved on by the time since */
  at: Date;
}

export interface WatchRawFlags {
  watch?: boolean;
  interval?: string;
}

/** --watch (what it does for this command) and --interval (its default). */
export function addWatchFlags(cmd: Command, what: string, defaultSeconds: number): Command {
  return cmd
    .addOption(new Option("--watch", `${what}: redrawn in place on a terminal, one ndjson record per change otherwise (Ctrl-C stops)`))
    .addOption(
      new Option(
        "--interval <seconds>",
        `with --watch: seconds between polls, ${MIN_INTERVAL_SECONDS} to ${MAX_INTERVAL_SECONDS} (default ${defaultSeconds})`,
      ),
    );
}

/** --interval's value: a number of seconds in the range, else exit 2 naming it. */
export function parseIntervalSeconds(raw: string): number {
  const seconds = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(seconds) || seconds < MIN_INTERVAL_SECONDS || seconds > MAX_INTERVAL_SECONDS)
    throw new UsageError(`--interval must be a number of seconds from ${MIN_INTERVAL_SECONDS} to ${MAX_INTERVAL_SECONDS}, not "${raw}".`);
  return seconds;
}

export interface WatchChecks {
  defaultSeconds: number;
  /** the output format in effect: a watch writes the table (on a terminal) or ndjson */
  format: OutputFormat;
  /** flags given that a watch cannot take, each with the line that refuses it */
  refuse?: ReadonlyArray<readonly [given: boolean, message: string]>;
}

/** The seconds between polls under --watch, undefined without it; a flag that makes no sense under it is exit 2. */
export function parseWatchFlags(flags: WatchRawFlags, checks: WatchChecks): number | undefined {
  if (flags.interval !== undefined && !flags.watch) throw new UsageError("--interval applies to --watch: give --watch too.");
  if (!flags.watch) return undefined;
  for (const [given, message] of checks.refuse ?? []) if (given) throw new UsageError(message);
  if (checks.format !== "table" && checks.format !== "ndjson")
    throw new UsageError(`--watch writes the table on a terminal or ndjson (a record per change), not -o ${checks.format}.`);
  return flags.interval !== undefined ? parseIntervalSeconds(flags.interval) : checks.defaultSeconds;
}

/** Whether a watch redraws the terminal (else it writes ndjson records). */
export function watchesScreen(ctx: Pick<Context, "io">, format: OutputFormat): boolean {
  return ctx.io.isStdoutTerminal() && format === "table";
}
