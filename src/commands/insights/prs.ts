// `mq prs`: one row per queue stay (a pull request's time in a queue, from entering to leaving) in
// the window: where its time went (waiting, CI), how many runs and retries, how it ended. Filters,
// --sort by any duration, --slowest N, --failed. Unsorted output streams as stays complete.
// This file is its flags (NewCmdPrs); prs-run.ts does the work, loaded by cli.ts when it runs.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { closestMatches } from "../../closest.js";
import { collectList, parseIntFlag, requireNonEmptyItems } from "../../cmdutil/lists.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addStayFilterFlags, addWindowFlags, parseStaysFlags, type StaysRawFlags } from "../../cmdutil/stays-flags.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { OUTCOMES, SORT_FIELDS, STAY_FIELDS, type SortField } from "../../insights/records.js";
import { MAX_PULL_REQUEST } from "../../cmdutil/logs-filters.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export const DEFAULT_PRS_WINDOW_MS = 7 * 86_400_000;

export interface PrsOptions {
  since: Date;
  until: Date;
  baseRef?: string;
  pullRequest?: number;
  queues?: string[];
  outcomes?: string[];
  reasons?: string[];
  sort?: SortField;
  limit?: number;
  fields?: string[];
  format: OutputFormat;
  /** read the archive instead of the API: always, never, or when it covers the window */
  archive: ArchiveMode;
  /** requests in flight over the API (--parallel) */
  parallel: number;
}

interface RawFlags extends StaysRawFlags {
  pr?: string;
  outcome?: string[];
  reason?: string[];
  failed?: boolean;
  sort?: string;
  slowest?: string;
  limit?: string;
  fields?: string[];
}

export function NewCmdPrs(ctx: Context, runF?: (opts: PrsOptions) => Promise<void>): Command {
  const cmd = new Command("prs").description(describeCommand("prs"));
  addWindowFlags(cmd, "7 days");
  addStayFilterFlags(cmd);
  return addArchiveFlags(
    cmd
      .addOption(new Option("--pr <number>", "only this pull request's stays"))
      .addOption(
        new Option("--outcome <outcome>", `only stays that ended so: ${OUTCOMES.join(", ")} (repeatable, comma-separated)`).argParser(
          collectList,
        ),
      )
      .addOption(
        new Option(
          "--reason <code>",
          "only stays that left for this exit reason, e.g. CHECKS_FAILED (repeatable, comma-separated)",
        ).argParser(collectList),
      )
      .addOption(new Option("--failed", "only stays that failed (same as --outcome failed)"))
      .addOption(new Option("--sort <field>", `sort by this field, largest (or newest) first: ${SORT_FIELDS.join(", ")}`))
      .addOption(new Option("--slowest <n>", "the n stays with the longest time in queue (--sort queue_time --limit n)"))
      .addOption(new Option("--limit <n>", "at most n rows (default: a screen, 30, on a terminal's table; every row otherwise)"))
      .addOption(new Option("--fields <fields>", `fields for json, ndjson and csv: ${STAY_FIELDS.join(", ")}`).argParser(collectList)),
  ).action(async (flags: RawFlags) => {
    const opts = parsePrsFlags(flags, ctx);
    await runF?.(opts);
  });
}

function oneOf(flag: string, items: readonly string[], allowed: readonly string[]): string[] {
  const values = requireNonEmptyItems(flag, items);
  for (const v of values) {
    if (!allowed.includes(v)) {
      const near = closestMatches(v, allowed);
      throw new UsageError(
        `${flag}: unknown value "${v}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}; allowed: ${allowed.join(", ")}.`,
      );
    }
  }
  return values;
}

export function parsePrsFlags(flags: RawFlags, ctx: Context): PrsOptions {
  const format = resolveOutputFormat(ctx);
  const { since, until, baseRef, queues, archive, parallel } = parseStaysFlags(flags, ctx, DEFAULT_PRS_WINDOW_MS);
  const pullRequest = flags.pr !== undefined ? parseIntFlag("--pr", flags.pr, 1, MAX_PULL_REQUEST) : undefined;
  let outcomes = flags.outcome !== undefined ? oneOf("--outcome", flags.outcome, OUTCOMES) : undefined;
  if (flags.failed) {
    if (outcomes && !outcomes.includes("failed"))
      throw new UsageError("--failed and --outcome cannot be combined: --failed is --outcome failed.");
    outcomes = ["failed"];
  }
  const reasons = flags.reason !== undefined ? requireNonEmptyItems("--reason", flags.reason).map((r) => r.toUpperCase()) : undefined;
  let sort = flags.sort !== undefined ? (oneOf("--sort", [flags.sort], SORT_FIELDS)[0] as SortField) : undefined;
  let limit = flags.limit !== undefined ? parseIntFlag("--limit", flags.limit, 1, 1_000_000_000) : undefined;
  if (flags.slowest !== undefined) {
    if (sort !== undefined && sort !== "queue_time")
      throw new UsageError(`--slowest sorts by queue_time: it cannot be combined with --sort ${sort}.`);
    if (limit !== undefined) throw new UsageError("--slowest n already limits the rows to n: drop --limit.");
    limit = parseIntFlag("--slowest", flags.slowest, 1, 1_000_000);
    sort = "queue_time";
  }
  let fields: string[] | undefined;
  if (flags.fields !== undefined) {
    if (format === "table") throw new UsageError("--fields applies to -o json, ndjson or csv, not to the table.");
    fields = oneOf("--fields", flags.fields, STAY_FIELDS);
  }
  return { since, until, baseRef, pullRequest, queues, outcomes, reasons, sort, limit, fields, format, archive, parallel };
}
