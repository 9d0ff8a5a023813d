// `mq queue`: the merge queue now (or at --until), rebuilt from the event log: per base ref, queue and
// partition, each pull request's position, how long it has waited, what it is doing and when it is
// likely to merge. This file is its flags (NewCmdQueue); run.ts does the work, loaded by cli.ts.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { collectList, requireNonEmptyItems } from "../../cmdutil/lists.js";
import { closestMatches } from "../../closest.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addStayFilterFlags, parseStaysFlags, type StaysRawFlags } from "../../cmdutil/stays-flags.js";
import { TIME_VALUE_HELP } from "../../cmdutil/time.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { DEFAULT_QUEUE_LOOKBACK_MS } from "../../queue/reconstruct.js";
import { QUEUE_FIELDS } from "../../queue/records.js";
import { addWatchFlags, parseWatchFlags, type WatchRawFlags } from "../../watch/flags.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export interface QueueOptions {
  since: Date;
  until: Date;
  baseRef?: string;
  queues?: string[];
  partitions?: string[];
  fields?: string[];
  format: OutputFormat;
  archive: ArchiveMode;
  parallel: number;
  /** --watch: seconds between polls; undefined without it */
  watchSeconds?: number;
  /** without --until or --archive: the lookback at the server's present, learnt when it runs */
  atPresent?: (present: Date) => { since: Date; until: Date };
}

/** Seconds between the polls of --watch by default. */
export const DEFAULT_WATCH_INTERVAL_SECONDS = 10;

interface RawFlags extends StaysRawFlags, WatchRawFlags {
  partition?: string[];
  fields?: string[];
}

export function NewCmdQueue(ctx: Context, runF?: (opts: QueueOptions) => Promise<void>): Command {
  const cmd = new Command("queue")
    .description(describeCommand("queue"))
    .addOption(
      new Option(
        "--since <time>",
        `how far back to read the log (lookback): ${TIME_VALUE_HELP} (default: 7 days before --until); a stay entered earlier with no event since is not seen`,
      ),
    )
    .addOption(new Option("--until <time>", "the instant whose queue is shown (default: now, the server's present)"));
  addStayFilterFlags(cmd);
  return addArchiveFlags(
    addWatchFlags(
      cmd
        .addOption(new Option("--partition <name>", "only this partition (repeatable, comma-separated)").argParser(collectList))
        .addOption(new Option("--fields <fields>", `fields for json, ndjson and csv: ${QUEUE_FIELDS.join(", ")}`).argParser(collectList)),
      "follow the queue (only new events each poll)",
      DEFAULT_WATCH_INTERVAL_SECONDS,
    ),
  ).action(async (flags: RawFlags) => {
    const opts = parseQueueFlags(flags, ctx);
    await runF?.(opts);
  });
}

export function parseQueueFlags(flags: RawFlags, ctx: Context): QueueOptions {
  const format = resolveOutputFormat(ctx, { command: "mq queue" });
  const { since, until, baseRef, queues, archive, parallel, atPresent } = parseStaysFlags(flags, ctx, DEFAULT_QUEUE_LOOKBACK_MS);
  const partitions = flags.partition !== undefined ? requireNonEmptyItems("--partition", flags.partition) : undefined;
  let fields: string[] | undefined;
  if (flags.fields !== undefined) {
    if (format === "table") throw new UsageError("--fields applies to -o json, ndjson or csv, not to the table.");
    fields = requireNonEmptyItems("--fields", flags.fields);
    for (const f of fields) {
      if (!(QUEUE_FIELDS as readonly string[]).includes(f)) {
        const near = closestMatches(f, QUEUE_FIELDS);
        throw new UsageError(
          `--fields: unknown field "${f}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}; allowed: ${QUEUE_FIELDS.join(", ")}.`,
        );
      }
    }
  }
  const watchSeconds = parseWatchFlags(flags, {
    defaultSeconds: DEFAULT_WATCH_INTERVAL_SECONDS,
    format,
    refuse: [
      [flags.until !== undefined, "--watch follows the present: drop --until."],
      [flags.archive === true, "--watch reads new events from the API, not from --archive."],
    ],
  });
  return {
    since,
    until,
    baseRef,
    queues,
    partitions,
    fields,
    format,
    archive: flags.watch ? "never" : archive,
    parallel,
    watchSeconds,
    ...(atPresent ? { atPresent } : {}),
  };
}
