// The flags of the commands that read queue stays from the event log (mq prs, mq pr, mq insights):
// the window (--since/--until with the command's default length), the base ref and queue filters,
// and --archive/--no-archive. One definition and one parser, so the three say and check the same.
import { Option, type Command } from "commander";
import type { Context } from "../context.js";
import type { ArchiveMode } from "../archive/choose.js";
import { archiveOption, noArchiveOption, resolveArchiveMode } from "./archive.js";
import { collectList, requireNonEmptyItems, singleValue } from "./lists.js";
import { checkWindowOrder, parseTimeFlag, TIME_VALUE_HELP } from "./time.js";
import { parseIntFlag } from "./lists.js";
import { UsageError } from "../errors.js";
import { DEFAULT_PARALLEL, MAX_PARALLEL } from "../api/slice-limits.js";

export interface StaysRawFlags {
  since?: string;
  until?: string;
  baseRef?: string;
  queue?: string[];
  archive?: boolean;
  parallel?: string;
}

export interface StaysFlags {
  since: Date;
  until: Date;
  baseRef?: string;
  queues?: string[];
  archive: ArchiveMode;
  /** requests in flight over the API (parallel time slices; 1: page after page) */
  parallel: number;
  /**
   * Without --until (and not reading --archive, which keeps mq's clock): the window again at the
   * server's present, which run() learns (src/watch/present.ts); since/until above are at mq's clock,
   * only to check the flags before any request.
   */
  atPresent?: (present: Date) => { since: Date; until: Date };
}

/** --since and --until; `defaultWords` is the default length in words ("7 days"). */
export function addWindowFlags(cmd: Command, defaultWords: string): Command {
  return cmd
    .addOption(new Option("--since <time>", `start of the window: ${TIME_VALUE_HELP} (default: ${defaultWords} before --until)`))
    .addOption(new Option("--until <time>", "end of the window (default: now)"));
}

/** --base-ref and --queue. */
export function addStayFilterFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option("--base-ref <ref>", "only pull requests targeting this base ref").argParser(singleValue("--base-ref")))
    .addOption(new Option("--queue <name>", "only stays in this queue (repeatable, comma-separated)").argParser(collectList));
}

/** --archive, --no-archive and --parallel (how the API's pages are read when the archive does not answer). */
export function addArchiveFlags(cmd: Command): Command {
  return cmd
    .addOption(archiveOption())
    .addOption(noArchiveOption())
    .addOption(
      new Option(
        "--parallel <n>",
        `requests in flight when the log is read from the API (parallel time slices): 1 to ${MAX_PARALLEL}, 1 for one page after another (default ${DEFAULT_PARALLEL})`,
      ),
    );
}

/** --parallel, checked as mq logs checks it; it cannot be combined with --archive, which reads no pages. */
export function parseParallelFlag(flags: { parallel?: string; archive?: boolean }): number {
  if (flags.parallel === undefined) return DEFAULT_PARALLEL;
  const parallel = parseIntFlag("--parallel", flags.parallel, 1, MAX_PARALLEL);
  if (flags.archive === true) throw new UsageError("--parallel applies to the API's pages, not to --archive.");
  return parallel;
}

/** The window of a command that reads stays: --since/--until with a default length. */
export function parseStaysWindow(flags: { since?: string; until?: string }, now: Date, defaultMs: number): { since: Date; until: Date } {
  const until = flags.until !== undefined ? parseTimeFlag("--until", flags.until, now) : now;
  const since = flags.since !== undefined ? parseTimeFlag("--since", flags.since, now) : new Date(until.getTime() - defaultMs);
  checkWindowOrder(since, until, flags.until !== undefined ? undefined : { since: "--since", until: "now" });
  return { since, until };
}

/** The window, the filters and the archive mode, checked before any request. */
export function parseStaysFlags(flags: StaysRawFlags, ctx: Context, defaultMs: number): StaysFlags {
  const { since, until } = parseStaysWindow(flags, ctx.now(), defaultMs);
  const baseRef = flags.baseRef !== undefined ? requireNonEmptyItems("--base-ref", [flags.baseRef])[0] : undefined;
  const queues = flags.queue !== undefined ? requireNonEmptyItems("--queue", flags.queue) : undefined;
  const archive = resolveArchiveMode(flags.archive, ctx.env);
  const atPresent = presentWindow(flags, archive, defaultMs);
  return { since, until, baseRef, queues, archive, parallel: parseParallelFlag(flags), ...(atPresent ? { atPresent } : {}) };
}

/**
 * "Now" is the server's present when --until is not given, unless the archive alone is read
 * (--archive): the window at a present learnt in run(), relative flags counting back from it.
 */
export function presentWindow(
  flags: { since?: string; until?: string },
  archive: ArchiveMode,
  defaultMs: number,
): ((present: Date) => { since: Date; until: Date }) | undefined {
  if (flags.until !== undefined || archive === "always") return undefined;
  return (present) => parseStaysWindow(flags, present, defaultMs);
}
