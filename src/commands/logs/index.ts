// `mq logs`: the repository's event log (docs/api.md §4.1, §6) for terminals, scripts and CI. The constructor
// only parses and validates flags (nothing is sent on bad input); runLogs (run.ts) does the work.
// The folder: options.ts (LogsOptions, limits), run.ts (which source), pages.ts (the API's pages),
// follow.ts (--follow), archive.ts (from the archive), many.ts (several repositories), messages.ts
// (header, banner, resume command), output.ts and table.ts, event-summary.ts (what is written),
// aggregate.ts (`mq logs aggregate`).
import { Command, Option } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { DIALECTS, type Dialect } from "../../api/dialects/index.js";
import { checkWindow, eventTypesHelp, LOGS_FILTERS, logsFilterOptions, parseLogsFilters } from "../../cmdutil/logs-filters.js";
import { type LogsAggregateOptions, NewCmdLogsAggregate } from "./aggregate.js";
import { collectList, parseIntFlag, requireNonEmptyItems, singleValue } from "../../cmdutil/lists.js";
import { parseTimeWindow, TIME_VALUE_HELP } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { shellWord } from "../../iostreams/terminal-text.js";
import { DEFAULT_PARALLEL, MAX_PARALLEL } from "../../api/slice-limits.js";
import { archiveOption, noArchiveOption, resolveArchiveMode } from "../../cmdutil/archive.js";
import { DEFAULT_INTERVAL_SECONDS, DEFAULT_TERMINAL_LIMIT, EVENT_FIELDS, MAX_PER_PAGE, type LogsOptions } from "./options.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

interface RawFlags {
  pr?: string[];
  baseRef?: string;
  type?: string[];
  [filter: string]: unknown;
  since?: string;
  until?: string;
  perPage?: string;
  limit?: string;
  all?: boolean;
  cursor?: string;
  follow?: boolean;
  interval?: string;
  fields?: string[];
  archive?: boolean;
  parallel?: string;
}

// ---------------------------------------------------------------------------------------------
// flags

/** What `mq logs` and `mq logs aggregate` run (run.ts, loaded by cli.ts when one runs; a spy in tests). */
export interface LogsRuns {
  logs: (opts: LogsOptions) => Promise<void>;
  aggregate: (opts: LogsAggregateOptions) => Promise<void>;
}

export function NewCmdLogs(ctx: Context, runs: LogsRuns): Command {
  const cmd = new Command("logs").description(describeCommand("logs"));
  for (const o of logsFilterOptions()) cmd.addOption(o);
  // Positional options: after `aggregate`, --type and the other filters are the subcommand's.
  cmd.enablePositionalOptions().addCommand(NewCmdLogsAggregate(ctx, runs.aggregate));
  return cmd
    .addOption(new Option("--base-ref <ref>", "only events of pull requests targeting this base ref").argParser(singleValue("--base-ref")))
    .addOption(new Option("--since <time>", `start of the window: ${TIME_VALUE_HELP} (default: 24h before --until)`))
    .addOption(new Option("--until <time>", "end of the window (default: now)"))
    .addOption(
      new Option("--per-page <n>", `events per request, 1 to ${MAX_PER_PAGE} (default: what --limit needs, at most ${MAX_PER_PAGE})`),
    )
    .addOption(
      new Option(
        "--limit <n>",
        `stop after n events (default: ${DEFAULT_TERMINAL_LIMIT} on a terminal, every event of the window otherwise)`,
      ),
    )
    .addOption(new Option("--all", "every event of the window, whatever the terminal"))
    .addOption(new Option("--cursor <cursor>", "start from this page cursor (printed when a run is interrupted)"))
    .addOption(new Option("--follow", "keep polling and print new events, oldest first, until Ctrl-C"))
    .addOption(new Option("--interval <seconds>", `seconds between polls with --follow (default ${DEFAULT_INTERVAL_SECONDS})`))
    .addOption(
      new Option("--fields <fields>", `fields for json, ndjson and csv (implies -o ndjson): ${EVENT_FIELDS.join(",")}`).argParser(
        collectList,
      ),
    )
    .addOption(
      new Option(
        "--parallel <n>",
        `requests in flight when a whole window given with --since is fetched (no --limit): 1 to ${MAX_PARALLEL}, 1 for one page after another (default ${DEFAULT_PARALLEL})`,
      ),
    )
    .addOption(archiveOption())
    .addOption(noArchiveOption())
    .addHelpText("after", eventTypesHelp())
    .action(async (flags: RawFlags) => {
      const { dialect } = await ctx.dialect();
      const opts = parseLogsFlags(flags, ctx, dialect);
      await runs.logs(opts);
    });
}

/** Turns raw flags into LogsOptions, or throws a one-line UsageError before anything is sent. */
export function parseLogsFlags(flags: RawFlags, ctx: Context, dialect: Dialect = DIALECTS.spec): LogsOptions {
  // --fields names record fields: without -o it means the records, as ndjson, wherever stdout goes
  const format =
    flags.fields !== undefined && ctx.globals.output === undefined ? "ndjson" : resolveOutputFormat(ctx, { command: "mq logs" });
  const filters = parseLogsFilters(flags, dialect);
  let baseRef: string | undefined;
  if (flags.baseRef !== undefined) baseRef = requireNonEmptyItems("--base-ref", [flags.baseRef], 255)[0];
  const types = filters.event_type as string[] | undefined;
  const { since, until } = parseTimeWindow({ since: flags.since, until: flags.until }, ctx.now());
  checkWindow(dialect, since, until, ctx.now());
  const perPage = flags.perPage !== undefined ? parseIntFlag("--per-page", flags.perPage, 1, MAX_PER_PAGE) : undefined;
  const limitFlag = flags.limit !== undefined ? parseIntFlag("--limit", flags.limit, 1, 1_000_000_000) : undefined;
  const all = flags.all === true;
  const follow = flags.follow === true;
  if (all && limitFlag !== undefined)
    throw new UsageError("--all and --limit cannot be used together: --all fetches every event, --limit stops after n.");
  if (follow && all) throw new UsageError("--follow and --all cannot be used together: --follow already prints every new event.");
  if (follow && flags.cursor !== undefined)
    throw new UsageError("--follow and --cursor cannot be used together: --follow starts from the newest events.");
  if (follow && flags.until !== undefined) throw new UsageError("--follow and --until cannot be used together: --follow has no end.");
  if (flags.interval !== undefined && !follow) throw new UsageError("--interval only applies with --follow.");
  const archiveMode = resolveArchiveMode(flags.archive, ctx.env);
  const archiveAsked = flags.archive === true;
  if (archiveAsked) {
    if (follow) throw new UsageError("--archive and --follow cannot be used together: the archive changes only when mq archive sync runs.");
    if (flags.cursor !== undefined)
      throw new UsageError("--archive and --cursor cannot be used together: cursors belong to the API's pages.");
    if (flags.perPage !== undefined) throw new UsageError("--per-page applies to the API's pages, not to --archive.");
    if (ctx.globals.repo !== undefined && /[,@]/.test(ctx.globals.repo))
      throw new UsageError(
        "--archive reads the log of one repository: give one --repo (mq insights and mq prs read several from the archive).",
      );
  }
  let parallel = DEFAULT_PARALLEL;
  if (flags.parallel !== undefined) {
    parallel = parseIntFlag("--parallel", flags.parallel, 1, MAX_PARALLEL);
    if (follow) throw new UsageError("--parallel and --follow cannot be used together: --follow polls for the newest events.");
    if (archiveAsked) throw new UsageError("--parallel applies to the API's pages, not to --archive.");
    if (flags.cursor !== undefined)
      throw new UsageError("--parallel and --cursor cannot be used together: a cursor resumes one walk, page after page.");
    if (limitFlag !== undefined)
      throw new UsageError(
        "--parallel and --limit cannot be used together: --limit reads the newest pages in order until it has n events.",
      );
  }
  // the archive indexes type, pull request and base ref; the service's other filters are the API's
  const apiOnlyFilter = LOGS_FILTERS.find((f) => f.param !== "event_type" && f.param !== "pull_request" && filters[f.param] !== undefined);
  const severalPrs = (filters.pull_request?.length ?? 0) > 1;
  if (archiveAsked) {
    if (apiOnlyFilter)
      throw new UsageError(`${apiOnlyFilter.flag} cannot be used with --archive: the archive filters by --type, --pr and --base-ref only.`);
    if (severalPrs) throw new UsageError("--pr takes one value with --archive.");
  }
  // following, resuming from a cursor, sizing pages and the API's own filters are the API's: those runs ask it
  const archive =
    follow || flags.cursor !== undefined || flags.perPage !== undefined || apiOnlyFilter !== undefined || severalPrs
      ? "never"
      : archiveMode;
  let interval = DEFAULT_INTERVAL_SECONDS;
  if (flags.interval !== undefined) {
    interval = Number(flags.interval);
    if (flags.interval.trim() === "" || !Number.isFinite(interval) || interval < 0.1 || interval > 3600) {
      throw new UsageError(`--interval must be a number of seconds from 0.1 to 3600, not "${flags.interval}".`);
    }
  }
  let cursor: string | undefined;
  if (flags.cursor !== undefined) {
    if (flags.cursor.trim() === "") throw new UsageError("--cursor is empty: give the cursor printed by an interrupted run.");
    cursor = flags.cursor;
  }
  let fields: string[] | undefined;
  if (flags.fields !== undefined) {
    if (format === "table") throw new UsageError("--fields applies to -o json, ndjson or csv, not to the table.");
    fields = requireNonEmptyItems("--fields", flags.fields);
    for (const f of fields) {
      if (!(EVENT_FIELDS as readonly string[]).includes(f)) {
        throw new UsageError(`--fields: unknown field "${f}"; available fields: ${EVENT_FIELDS.join(", ")}.`);
      }
    }
  }
  // On a terminal a person reads a screenful; a pipe gets the whole window, as a jq user expects.
  let limit = limitFlag;
  if (limit === undefined && !all) {
    if (follow ? since === undefined : ctx.io.isStdoutTerminal()) limit = DEFAULT_TERMINAL_LIMIT;
  }
  return {
    dialect,
    filters,
    typedFilters: typedFilterWords(flags),
    baseRef,
    types,
    since,
    until,
    perPage,
    limit,
    limitGiven: limitFlag !== undefined,
    all,
    cursor,
    follow,
    interval,
    fields,
    format,
    archive,
    parallel,
  };
}

/** The list filters as typed, each value as a shell reads it back (globs quoted). */
function typedFilterWords(flags: RawFlags): string[] {
  const out: string[] = [];
  for (const f of LOGS_FILTERS) {
    const raw = flags[f.key as keyof RawFlags] as string[] | undefined;
    for (const v of raw ?? []) out.push(`${f.flag} ${shellWord(v)}`);
  }
  return out;
}
