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

/** The fields of a row of `mq queue` (json, ndjson, csv), in order. */
export const QUEUE_FIELDS = [
  "repository",
  "pull_request",
  "base_ref",
  "queue_name",
  "partition_name",
  "priority_rule_name",
  "position",
  "entered_at",
  "time_in_queue",
  "state",
  "state_since",
  "batch_with",
  "eta_p50",
  "eta_p90",
  "eta_sample",
  "entered_before_lookback",
] as const;

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
}

interface RawFlags extends StaysRawFlags {
  partition?: string[];
  fields?: string[];
}

export function NewCmdQueue(ctx: Context, runF?: (opts: QueueOptions) => Promise<void>): Command {
  const cmd = new Command("queue")
    .description("the merge queue now, rebuilt from the event log: position, state and estimated merge time of each pull request")
    .addOption(
      new Option(
        "--since <time>",
        `how far back to read the log (lookback): ${TIME_VALUE_HELP} (default: 7 days before --until); a stay entered earlier with no event since is not seen`,
      ),
    )
    .addOption(new Option("--until <time>", "the instant whose queue is shown (default: now)"));
  addStayFilterFlags(cmd);
  return addArchiveFlags(
    cmd
      .addOption(new Option("--partition <name>", "only this partition (repeatable, comma-separated)").argParser(collectList))
      .addOption(new Option("--fields <fields>", `fields for json, ndjson and csv: ${QUEUE_FIELDS.join(", ")}`).argParser(collectList)),
  ).action(async (flags: RawFlags) => {
    const opts = parseQueueFlags(flags, ctx);
    await runF?.(opts);
  });
}

export function parseQueueFlags(flags: RawFlags, ctx: Context): QueueOptions {
  const format = resolveOutputFormat(ctx, { command: "mq queue" });
  const { since, until, baseRef, queues, archive, parallel } = parseStaysFlags(flags, ctx, DEFAULT_QUEUE_LOOKBACK_MS);
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
  return { since, until, baseRef, queues, partitions, fields, format, archive, parallel };
}
