// `mq logs`: the repository's event log (docs/api.md §4.1, §6) for terminals, scripts and CI. The constructor
// only parses and validates flags (nothing is sent on bad input); runLogs fetches page after page,
// writing each out before asking for the next, so memory stays flat however many events there are.
import { Command, Option } from "commander";
import type { Context, GlobalOptions, OutputFormat } from "../context.js";
import { InterruptedError, MqError, UsageError } from "../errors.js";
import type { ApiResponse, QueryInput } from "../api/client.js";
import { DIALECTS, type Dialect } from "../api/dialects/index.js";
import { checkWindow, eventTypesHelp, filterArgs, filterQuery, LOGS_FILTERS, logsFilterOptions, parseLogsFilters, type LogsFilterValues } from "../cmdutil/logs-filters.js";
import { NewCmdLogsAggregate } from "./logs-aggregate.js";
import type { Sink } from "../output/exporter.js";
import type { LogEvent } from "../api/events.js";
import type { Spinner } from "../iostreams/spinner.js";
import { messageText, shellWord } from "../iostreams/terminal-text.js";
import { collectList, parseIntFlag, requireNonEmptyItems } from "../cmdutil/lists.js";
import { formatInstant, parseTimeWindow, TIME_VALUE_HELP } from "../cmdutil/time.js";
import { resolveOutputFormat } from "../cmdutil/output.js";
import { DEFAULT_PARALLEL, MAX_PARALLEL } from "../api/slice-limits.js";
import { archiveOption, noArchiveOption, resolveArchiveMode } from "../cmdutil/archive.js";
import type { ArchiveMode } from "../archive/choose.js";
import type { Archive } from "../archive/db.js";

/** Events shown on a terminal when neither --limit nor --all is given (and the --follow backlog). */
export const DEFAULT_TERMINAL_LIMIT = 30;
export { MAX_PULL_REQUEST, expandTypes, checkWindow } from "../cmdutil/logs-filters.js";
export const MAX_PER_PAGE = 100;
export const DEFAULT_INTERVAL_SECONDS = 5;

/** Fields of the event envelope that --fields can select; `outcome` is sent by the real service. */
export const EVENT_FIELDS = ["id", "received_at", "trigger", "repository", "pull_request", "base_ref", "outcome", "type", "metadata"] as const;
/** CSV columns without --fields: the contract's envelope, metadata as JSON. */
export const CSV_COLUMNS = ["id", "received_at", "trigger", "repository", "pull_request", "base_ref", "type", "metadata"];

/** CSV columns without --fields: the envelope of the dialect's events (the real service adds `outcome`). */
export function csvColumns(d: Dialect): string[] {
  return d.outcomes.length > 0 ? ["id", "received_at", "trigger", "repository", "pull_request", "base_ref", "outcome", "type", "metadata"] : CSV_COLUMNS;
}

export interface LogsOptions {
  /** the dialect in effect: its event types, filters and metadata shapes */
  dialect: Dialect;
  /** the list filters (--pr, --type, --outcome, their exclusions, ...) by query parameter */
  filters: LogsFilterValues;
  baseRef?: string;
  /** event types after family globs are expanded, in the order given (filters.event_type) */
  types?: string[];
  since?: Date;
  until?: Date;
  perPage?: number;
  /** stop after this many events; undefined means every page of the window */
  limit?: number;
  /** true when the user typed --limit (the header names the flag only then) */
  limitGiven: boolean;
  all: boolean;
  cursor?: string;
  follow: boolean;
  /** poll period for --follow, in seconds */
  interval: number;
  fields?: string[];
  format: OutputFormat;
  /** read the local archive (`mq archive sync`) instead of the API: always, never, or when it covers the window */
  archive: ArchiveMode;
  /** requests in flight for a whole window (--since, no --limit): parallel time slices */
  parallel: number;
}

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

export function NewCmdLogs(ctx: Context, runF?: (opts: LogsOptions) => Promise<void>): Command {
  const cmd = new Command("logs").description("List the repository's merge queue events (newest first), or follow them as they arrive.");
  for (const o of logsFilterOptions()) cmd.addOption(o);
  // `mq logs aggregate`: its constructor only declares flags; what it runs is imported on use.
  // Positional options: after `aggregate`, --type and the other filters are the subcommand's.
  cmd.enablePositionalOptions().addCommand(NewCmdLogsAggregate(ctx));
  return cmd
    .addOption(new Option("--base-ref <ref>", "only events of pull requests targeting this base ref"))
    .addOption(new Option("--since <time>", `start of the window: ${TIME_VALUE_HELP} (default: 24h before --until)`))
    .addOption(new Option("--until <time>", "end of the window (default: now)"))
    .addOption(new Option("--per-page <n>", `events per request, 1 to ${MAX_PER_PAGE} (default: what --limit needs, at most ${MAX_PER_PAGE})`))
    .addOption(new Option("--limit <n>", `stop after n events (default: ${DEFAULT_TERMINAL_LIMIT} on a terminal, every event of the window otherwise)`))
    .addOption(new Option("--all", "every event of the window, whatever the terminal"))
    .addOption(new Option("--cursor <cursor>", "start from this page cursor (printed when a run is interrupted)"))
    .addOption(new Option("--follow", "keep polling and print new events, oldest first, until Ctrl-C"))
    .addOption(new Option("--interval <seconds>", `seconds between polls with --follow (default ${DEFAULT_INTERVAL_SECONDS})`))
    .addOption(new Option("--fields <fields>", `fields for json, ndjson and csv (implies -o ndjson): ${EVENT_FIELDS.join(",")}`).argParser(collectList))
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
      await (runF ?? runLogs)(opts, ctx);
    });
}

/** Turns raw flags into LogsOptions, or throws a one-line UsageError before anything is sent. */
export function parseLogsFlags(flags: RawFlags, ctx: Context, dialect: Dialect = DIALECTS.spec): LogsOptions {
  // --fields names record fields: without -o it means the records, as ndjson, wherever stdout goes
  const format = flags.fields !== undefined && ctx.globals.output === undefined ? "ndjson" : resolveOutputFormat(ctx, { command: "mq logs" });
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
  if (all && limitFlag !== undefined) throw new UsageError("--all and --limit cannot be used together: --all fetches every event, --limit stops after n.");
  if (follow && all) throw new UsageError("--follow and --all cannot be used together: --follow already prints every new event.");
  if (follow && flags.cursor !== undefined) throw new UsageError("--follow and --cursor cannot be used together: --follow starts from the newest events.");
  if (follow && flags.until !== undefined) throw new UsageError("--follow and --until cannot be used together: --follow has no end.");
  if (flags.interval !== undefined && !follow) throw new UsageError("--interval only applies with --follow.");
  const archiveMode = resolveArchiveMode(flags.archive, ctx.env);
  const archiveAsked = flags.archive === true;
  if (archiveAsked) {
    if (follow) throw new UsageError("--archive and --follow cannot be used together: the archive changes only when mq archive sync runs.");
    if (flags.cursor !== undefined) throw new UsageError("--archive and --cursor cannot be used together: cursors belong to the API's pages.");
    if (flags.perPage !== undefined) throw new UsageError("--per-page applies to the API's pages, not to --archive.");
    if (ctx.globals.repo !== undefined && /[,@]/.test(ctx.globals.repo)) throw new UsageError("--archive reads the log of one repository: give one --repo (mq insights and mq prs read several from the archive).");
  }
  let parallel = DEFAULT_PARALLEL;
  if (flags.parallel !== undefined) {
    parallel = parseIntFlag("--parallel", flags.parallel, 1, MAX_PARALLEL);
    if (follow) throw new UsageError("--parallel and --follow cannot be used together: --follow polls for the newest events.");
    if (archiveAsked) throw new UsageError("--parallel applies to the API's pages, not to --archive.");
    if (flags.cursor !== undefined) throw new UsageError("--parallel and --cursor cannot be used together: a cursor resumes one walk, page after page.");
    if (limitFlag !== undefined) throw new UsageError("--parallel and --limit cannot be used together: --limit reads the newest pages in order until it has n events.");
  }
  // the archive indexes type, pull request and base ref; the service's other filters are the API's
  const apiOnlyFilter = LOGS_FILTERS.find((f) => f.param !== "event_type" && f.param !== "pull_request" && filters[f.param] !== undefined);
  const severalPrs = (filters.pull_request?.length ?? 0) > 1;
  if (archiveAsked) {
    if (apiOnlyFilter) throw new UsageError(`${apiOnlyFilter.flag} cannot be used with --archive: the archive filters by --type, --pr and --base-ref only.`);
    if (severalPrs) throw new UsageError("--pr takes one value with --archive.");
  }
  // following, resuming from a cursor, sizing pages and the API's own filters are the API's: those runs ask it
  const archive =
    follow || flags.cursor !== undefined || flags.perPage !== undefined || apiOnlyFilter !== undefined || severalPrs ? "never" : archiveMode;
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

// ---------------------------------------------------------------------------------------------
// run

/** The query the API receives, in a stable key order. */
export function logsQuery(opts: LogsOptions): QueryInput {
  const perPage = opts.perPage ?? Math.min(opts.limit ?? MAX_PER_PAGE, MAX_PER_PAGE);
  const { pull_request, event_type, ...others } = filterQuery(opts.filters, opts.dialect);
  return {
    pull_request,
    base_ref: opts.baseRef,
    event_type,
    ...others,
    received_from: opts.since ? formatInstant(opts.since) : undefined,
    received_to: opts.until ? formatInstant(opts.until) : undefined,
    per_page: perPage,
    cursor: opts.cursor,
  };
}

/**
 * Events whose metadata differs from the contract (outside --strict): a warning once per type, and
 * the ids of such events until the table has written them (it shows them as key=value rather than
 * trusting the hand-written summary). Cleared after each write, so memory stays bounded.
 */
class ContractMismatches {
  private readonly warnedTypes = new Set<string>();
  private readonly unwritten = new Set<number>();

  constructor(
    private readonly warn: (line: string) => void,
    /** what the shapes come from: "the contract", or the real service's OpenAPI */
    private readonly reference = "the contract",
  ) {}

  /** Other formats only need the warning: each type is checked until it has warned once. */
  needsCheck(type: string): boolean {
    return !this.warnedTypes.has(type);
  }

  /** `against`: what this event's shapes come from, when not the run's (an archived event from another side) */
  record(type: string, id: number, message: string, against = this.reference): void {
    this.unwritten.add(id);
    if (this.warnedTypes.has(type)) return;
    this.warnedTypes.add(type);
    this.warn(`mq: warning: ${messageText(type)} event ${id} does not match ${against} (${messageText(message)}); shown as sent. --strict makes this an error.`);
  }

  trusted(id: number): boolean {
    return !this.unwritten.has(id);
  }

  /** The events parsed so far are on stdout. */
  written(): void {
    this.unwritten.clear();
  }
}

/** What a run needs once flags are parsed: where, how to parse pages, where events go. */
interface LogsRun {
  opts: LogsOptions;
  ctx: Context;
  client: import("../api/client.js").ApiClient;
  path: string;
  repoName: string;
  query: QueryInput;
  parse: (body: unknown, url: URL, res: ApiResponse) => LogEvent[] | Promise<LogEvent[]>;
  mismatches: ContractMismatches;
  sink: Sink<LogEvent>;
  spinner: Spinner;
  /** --follow's status line on a terminal's stderr while nothing arrives */
  waiting: WaitingLine;
  paginate: typeof import("../api/pagination.js").paginate;
  cursorOf: typeof import("../api/pagination.js").cursorOf;
  formatCount: (n: number) => string;
}

/** How far a paginated run got: what the header and a resume command say. */
interface Progress {
  count: number;
  pages: number;
  truncated: boolean;
  /** the cursor of the page being fetched: what `--cursor` needs to resume after a failure */
  pendingCursor: string | undefined;
  /** with parallel slices: the end of the window still to fetch (--until of the resume command) */
  pendingUntil: string | undefined;
}

export async function runLogs(opts: LogsOptions, ctx: Context): Promise<void> {
  // the server's default window ends at its "now": a resume command pins this instant instead
  const startedAt = ctx.now();
  const many = ctx.globals.repo !== undefined && /[,@]/.test(ctx.globals.repo);
  // several repositories are read from the API (with --archive they were refused with the flags)
  if (opts.archive === "always" || (opts.archive === "auto" && !many)) {
    const repo = await ctx.resolveRepo();
    const repoName = `${repo.owner}/${repo.name}`;
    const until = opts.until ?? startedAt;
    const since = opts.since ?? new Date(until.getTime() - DEFAULT_WINDOW_MS);
    const { chooseArchive } = await import("../archive/choose.js");
    const archive = await chooseArchive(ctx, { mode: opts.archive, repositories: [repoName], spans: [{ since, until }], what: "events" });
    if (archive) return runLogsFromArchive(opts, ctx, { archive, repoName, since, until });
  }
  // several repositories (--repo a/b,c/d): merged by time in logs-many.ts
  if (many) {
    const { runLogsMany } = await import("./logs-many.js");
    return runLogsMany(
      {
        opts,
        query: { ...logsQuery(opts), per_page: opts.perPage ?? MAX_PER_PAGE },
        openOutput: () => openLogsOutput(opts, ctx, { trusted: () => true }, { repository: true }),
      },
      ctx,
    );
  }
  const run = await prepareRun(opts, ctx);
  if (opts.types !== undefined && opts.types.length === 0) {
    // --type named only families this dialect has no type of: no event can match, nothing is asked
    run.spinner.stop();
    await finish(run, { count: 0, pages: 0, truncated: false, pendingCursor: undefined, pendingUntil: undefined });
    return;
  }
  const progress: Progress = { count: 0, pages: 0, truncated: false, pendingCursor: opts.cursor, pendingUntil: undefined };
  try {
    if (opts.follow) {
      await follow(run);
      return;
    }
    await fetchPages(run, progress);
  } catch (err) {
    run.spinner.stop();
    const error = await failure(run, err, progress, startedAt);
    if (error === undefined) return;
    throw error;
  } finally {
    run.spinner.stop();
  }
  await finish(run, progress);
}

async function prepareRun(opts: LogsOptions, ctx: Context): Promise<LogsRun> {
  const repo = await ctx.resolveRepo();
  const client = await ctx.apiClient();
  const [{ checkPage, METADATA_SHAPES_OF }, { paginate, cursorOf }, { startSpinner }, { formatCount }, { attachElementTexts }, { invalidUtf8Warning }] = await Promise.all([
    // the dialect's generated checks load with the rest, not after it
    import("../api/schema/page-check.js").then(async (m) => ({ ...m, checkPage: await m.pageCheck(opts.dialect.name) })),
    import("../api/pagination.js"),
    import("../iostreams/spinner.js"),
    import("../output/format.js"),
    import("../api/raw-json.js"),
    import("../api/client.js"),
  ]);
  const repoName = `${repo.owner}/${repo.name}`;
  const spinner = await startSpinner(ctx, `fetching events of ${repoName}…`, { stdoutStreams: opts.format !== "table" });
  const waiting = new WaitingLine(ctx);
  const mismatches = new ContractMismatches(
    (line) => {
      waiting.clear();
      spinner.log(line);
    },
    METADATA_SHAPES_OF[opts.dialect.name],
  );
  const withEvents = (events: unknown[], res: ApiResponse): LogEvent[] => {
    // -o ndjson/json/csv write each event's text as the API sent it (the table reads values only)
    if (opts.format !== "table") attachElementTexts(events, res, "events");
    return events as LogEvent[];
  };
  // a valid page is known valid without zod; any other is parseEventsPage's (api/schema/page-check.ts)
  const parseOptions: import("../api/schema/page-check.js").PageCheckOptions = {
    strict: ctx.globals.strict,
    // a table shows each mismatched event differently; the other formats need only the warning
    checkMetadataOf: opts.format === "table" ? undefined : (type) => mismatches.needsCheck(type),
    onMetadataMismatch: (type, id, message) => mismatches.record(type, id, message),
  };
  const parse = (body: unknown, url: URL, res: ApiResponse): LogEvent[] | Promise<LogEvent[]> => {
    if (res.invalidUtf8) spinner.log(invalidUtf8Warning(url));
    const events = checkPage(body, parseOptions);
    return Array.isArray(events) ? withEvents(events, res) : events.then((e) => withEvents(e, res));
  };
  return {
    opts,
    ctx,
    client,
    path: `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/logs`,
    repoName,
    query: logsQuery(opts),
    parse,
    mismatches,
    sink: await openLogsOutput(opts, ctx, mismatches, { waiting }),
    waiting,
    spinner,
    paginate,
    cursorOf,
    formatCount,
  };
}

/**
 * The events through the exporter: the table on a terminal, json/ndjson/csv records otherwise.
 * `repository`: several repositories merged (the table names each event's).
 */
export async function openLogsOutput(
  opts: LogsOptions,
  ctx: Context,
  mismatches: { trusted(id: number): boolean },
  o: { repository?: boolean; waiting?: WaitingLine } = {},
): Promise<Sink<LogEvent>> {
  const { openExport } = await import("../output/exporter.js");
  return openExport<LogEvent>(opts.format, ctx.io, {
    fields: opts.fields,
    csvColumns: () => opts.fields ?? csvColumns(opts.dialect),
    table: async () => {
      const { createEventTable } = await import("../output/logs-table.js");
      return createEventTable(ctx.io, {
        now: () => ctx.now(),
        trusted: (ev) => mismatches.trusted(ev.id),
        eager: opts.follow,
        clock: opts.follow,
        beforeWrite: () => o.waiting?.clear(),
        repository: o.repository,
        outcome: opts.dialect.outcomes.length > 0,
      });
    },
  });
}
/** Writes pages as they arrive; a sequential walk asks for the next page while this one is written (one ahead). */
/** Writes pages as they arrive, each before the next is asked for. */
async function fetchPages(run: LogsRun, progress: Progress): Promise<void> {
  const { opts, ctx, spinner, cursorOf, formatCount } = run;
  // a next link that repeats a page is a server bug; stopping silently would hide a short result
  const onRepeat = (url: URL) =>
    spinner.log(`mq: warning: the server's next-page link repeats a page already fetched (cursor ${messageText(cursorOf(url) ?? url.href)}); stopping there, the result may be incomplete.`);
  // the progress text only where a spinner shows it: a pipe run of a thousand pages builds none
  const showProgress = () => {
    if (spinner.active) spinner.update(`fetching events of ${run.repoName}… ${formatCount(progress.count)} events, ${formatCount(progress.pages)} page${progress.pages === 1 ? "" : "s"}`);
  };
  if (opts.since !== undefined && opts.limit === undefined && opts.cursor === undefined && opts.parallel > 1) {
    const { walkSlices } = await import("../api/slices.js");
    const pages = walkSlices<LogEvent>({
      client: run.client,
      path: run.path,
      query: run.query,
      since: opts.since,
      until: opts.until ?? ctx.now(),
      parallel: opts.parallel,
      parse: run.parse,
      signal: ctx.signal,
      timeOf: (ev) => Date.parse(ev.received_at),
      idOf: (ev) => ev.id,
      onRepeat,
    });
    for await (const page of pages) {
      progress.pages++;
      progress.count += page.events.length;
      progress.pendingCursor = page.resumeCursor;
      progress.pendingUntil = page.resumeUntil;
      await run.sink.write(page.events);
      run.mismatches.written();
      showProgress();
    }
    return;
  }
  for await (const page of run.paginate(run.client, run.path, run.query, { limit: opts.limit, signal: ctx.signal, parse: run.parse, onRepeat, prefetch: true })) {
    progress.pages++;
    progress.count += page.events.length;
    progress.truncated = page.truncated;
    progress.pendingCursor = cursorOf(page.nextUrl);
    await run.sink.write(page.events);
    run.mismatches.written();
    showProgress();
  }
}

/**
 * The error a failed run ends with. Whatever was received stays on stdout, complete (json gets its
 * closing bracket), and a typed error carries the command that resumes where the run stopped.
 * Undefined when the reader of stdout left (`mq logs | head`): main() then ends with 0.
 */
async function failure(run: LogsRun, err: unknown, progress: Progress, startedAt: Date): Promise<unknown> {
  const { opts, ctx } = run;
  await run.sink.end().catch(() => undefined);
  // `mq logs | head`: the reader left; a resume hint would be noise
  if (ctx.signal.aborted && stdoutClosed(ctx)) return undefined;
  const error = ctx.signal.aborted ? new InterruptedError() : err;
  const { count, pendingCursor, pendingUntil } = progress;
  if (error instanceof MqError && (pendingCursor !== undefined || pendingUntil !== undefined) && count > 0) {
    const remaining = opts.limit !== undefined ? opts.limit - count : undefined;
    // parallel slices: the rest of the window is everything up to the slice being written
    const resumeOpts = pendingUntil !== undefined ? { ...opts, until: new Date(pendingUntil) } : opts;
    error.addHint(
      `${run.formatCount(count)} ${count === 1 ? "event was" : "events were"} written before this. To resume:\n  ${resumeCommand(resumeOpts, run.repoName, pendingCursor, remaining, ctx.globals, startedAt)}`,
    );
  }
  return error;
}

/** Closes the output and writes the header line: above the table, or after streamed data on a terminal. */
async function finish(run: LogsRun, progress: Progress): Promise<void> {
  const { opts, ctx } = run;
  // built only when written: its number formatting loads ICU's locale data, a cost a piped run
  // would pay for a line nobody sees
  const header = () => headerLine(opts, run.repoName, progress.count, progress.truncated);
  if (opts.format === "table") {
    ctx.io.stderr.write((await prose(ctx, header())) + "\n");
    await run.sink.end();
  } else {
    await run.sink.end();
    if (ctx.io.isStderrTerminal()) ctx.io.stderr.write((await prose(ctx, header())) + "\n");
  }
}

/**
 * A line of prose for stderr (the header, the --follow banner), broken between words to the width
 * its reader sees. string-width is loaded only for a line that may not fit.
 */
async function prose(ctx: Context, text: string): Promise<string> {
  const width = ctx.io.messageWidth();
  if (width === undefined || text.length <= width) return text;
  const { wrapLine } = await import("../iostreams/terminal-width.js");
  return wrapLine(text, width);
}

/**
 * `mq logs` from the local archive (--archive, or a window it covers): the same window, filters,
 * order and output as the API gives. archive/choose.ts has warned about any part of the window
 * the archive lacks.
 */
async function runLogsFromArchive(opts: LogsOptions, ctx: Context, from: { archive: Archive; repoName: string; since: Date; until: Date }): Promise<void> {
  const { archive, repoName, since, until } = from;
  const [{ readArchivedEvents }, { archivedEventsCheck }, { attachRawJson }] = await Promise.all([
    import("../archive/reader.js"),
    import("../archive/check.js"),
    import("../api/raw-json.js"),
  ]);
  const mismatches = new ContractMismatches((line) => void ctx.io.stderr.write(line + "\n"));
  // the archive keeps events as sent, each with the side of the API that sent it: each is checked
  // against that side's shapes, as a page from it is (not the dialect this command is in)
  const check = await archivedEventsCheck({ strict: ctx.globals.strict, onMetadataMismatch: (type, id, message, against) => mismatches.record(type, id, message, against) });
  const sink = await openLogsOutput(opts, ctx, mismatches);
  let count = 0;
  let truncated = false;
  try {
    // one event more than --limit says whether more are available, as the API's next link does
    const limit = opts.limit !== undefined ? opts.limit + 1 : undefined;
    for await (const batch of readArchivedEvents(archive, { repository: repoName, since, until, types: opts.types, pullRequest: opts.filters.pull_request?.[0] as number | undefined, baseRef: opts.baseRef, limit })) {
      if (ctx.signal.aborted) throw new InterruptedError();
      // each event's text as the server sent it, as the API's pages carry theirs: json, ndjson
      // and csv write those bytes (integers past 2^53, 1.0, escapes), not a re-serialisation
      let kept = batch;
      if (opts.limit !== undefined && count + kept.length > opts.limit) {
        kept = kept.slice(0, opts.limit - count);
        truncated = true;
      }
      const events = kept.map((b) => {
        attachRawJson(b.event, b.raw, { start: 0, end: b.raw.length, spaced: true });
        return b.event as LogEvent;
      });
      await check(kept);
      count += events.length;
      await sink.write(events);
      mismatches.written();
      if (truncated) break;
    }
  } catch (err) {
    await sink.end().catch(() => undefined);
    if (ctx.signal.aborted && stdoutClosed(ctx)) return;
    throw ctx.signal.aborted ? new InterruptedError() : err;
  }
  const header = `${headerLine(opts, repoName, count, truncated)} (from the archive)`;
  if (opts.format === "table") {
    ctx.io.stderr.write((await prose(ctx, header)) + "\n");
    await sink.end();
  } else {
    await sink.end();
    if (ctx.io.isStderrTerminal()) ctx.io.stderr.write((await prose(ctx, header)) + "\n");
  }
}

function stdoutClosed(ctx: Context): boolean {
  const out = ctx.io.stdout as { destroyed?: boolean; writableEnded?: boolean };
  // EPIPE: the reader left (found at a write, or while idle: src/pipe-reader.ts)
  return out.destroyed === true || out.writableEnded === true || (ctx.signal.reason as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
}

/**
 * The command that picks up where a failed run stopped: the same server (never the token), the
 * same filters, the cursor, and the window made absolute. A run without --since/--until asked for
 * the last 24 hours as of when it started; left relative, a later resume would ask for a later
 * window and silently skip the oldest events.
 */
export function resumeCommand(
  opts: LogsOptions,
  repo: string,
  cursor: string | undefined,
  remaining?: number,
  globals: Pick<GlobalOptions, "apiUrl" | "offline" | "dialect"> = { offline: false },
  startedAt?: Date,
): string {
  const args = ["mq", "logs", "--repo", repo];
  if (globals.apiUrl !== undefined) args.push("--api-url", globals.apiUrl);
  if (globals.offline) args.push("--offline");
  if (globals.dialect !== undefined) args.push("--dialect", globals.dialect);
  args.push(...filterArgs(opts.filters));
  if (opts.baseRef !== undefined) args.push("--base-ref", opts.baseRef);
  const until = opts.until ?? startedAt;
  const since = opts.since ?? (until ? new Date(until.getTime() - DEFAULT_WINDOW_MS) : undefined);
  if (since) args.push("--since", formatInstant(since));
  if (until) args.push("--until", formatInstant(until));
  if (opts.perPage !== undefined) args.push("--per-page", String(opts.perPage));
  if (remaining !== undefined) args.push("--limit", String(remaining));
  else args.push("--all");
  args.push("-o", opts.format);
  if (opts.fields) args.push("--fields", opts.fields.join(","));
  if (cursor !== undefined) args.push("--cursor", cursor);
  // a cursor is the server's text, percent-decoded: `%1B` is a real ESC by now. shellWord shows it
  // escaped, in quotes a shell reads back to the same bytes
  return args.map(shellWord).join(" ");
}

/** The window in words: "in the last 24 hours", "from 2026-11-20T09:00:00Z to now". */
function windowWords(opts: LogsOptions): string {
  // minutes are enough to say which window; the resume command keeps the exact instants
  const at = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ") + "Z";
  return opts.since
    ? `from ${at(opts.since)} to ${opts.until ? at(opts.until) : "now"}`
    : opts.until
      ? `in the 24 hours before ${at(opts.until)}`
      : "in the last 24 hours";
}

/** The filters in effect as typed: what an empty result repeats. */
export function filterWords(opts: LogsOptions): string[] {
  const out: string[] = [];
  for (const f of LOGS_FILTERS) {
    const v = opts.filters[f.param];
    if (v === undefined || v.length === 0) continue;
    // a family glob expands to many types: the first few and how many
    const words = v.map(String);
    out.push(`${f.flag} ${words.length > 3 ? `${words.slice(0, 3).join(",")},… (${words.length} ${f.value === "event-type" ? "types" : "values"})` : words.join(",")}`);
  }
  if (opts.baseRef !== undefined) out.push(`--base-ref ${opts.baseRef}`);
  return out;
}

/**
 * The stderr line above the table, one sentence that is true in every case: the repository, how
 * many events, the window, and when more exist what brings them ("showing the newest 30; more
 * with --all"). An empty result repeats the filters and says what to try next.
 */
export function headerLine(opts: LogsOptions, repo: string, count: number, truncated: boolean): string {
  const window = windowWords(opts);
  const from = opts.cursor ? ` from cursor ${messageText(opts.cursor)}` : "";
  if (count === 0) {
    const filters = filterWords(opts);
    const next = [
      ...(opts.since === undefined ? ["a longer window (--since 7d)"] : []),
      ...(filters.length ? [`fewer filters than ${filters.join(" ")}`] : []),
    ];
    return `${repo}: no events ${window}${from}${filters.length ? ` matching ${filters.join(" ")}` : ""}${next.length ? `; try ${next.join(" or ")}` : ""}.`;
  }
  const n = `${count.toLocaleString("en-US")} event${count === 1 ? "" : "s"}`;
  if (!truncated) return `${repo}: ${n} ${window}${from}`;
  return `${repo}: the newest ${n} ${window}${from}; more with --all`;
}

/** The API's default window: received_from = received_to minus one day. */
const DEFAULT_WINDOW_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// --follow

/** "following acme/web (--type action.queue.*), newest 30 first; Ctrl-C to stop" */
export function followBanner(opts: LogsOptions, repo: string): string {
  const filters = filterWords(opts);
  const backlog = opts.since ? `events ${windowWords(opts)}` : `the newest ${opts.limit ?? DEFAULT_TERMINAL_LIMIT} events`;
  return `following ${repo}${filters.length ? ` (${filters.join(" ")})` : ""}: ${backlog}, then new ones every ${opts.interval}s; Ctrl-C to stop`;
}

/**
 * A quiet heartbeat while --follow waits: one line on a terminal's stderr, rewritten in place
 * after each poll ("waiting for new events · checked 12:04:05") and cleared before rows are
 * printed, so it never ends up between them. Nothing off a terminal: a log gets data only.
 */
class WaitingLine {
  private shown = false;

  constructor(private readonly ctx: Context) {}

  /** `lastEventMs`: when the newest event printed was received (-Infinity before any) */
  show(lastEventMs: number): void {
    if (!this.ctx.io.isStderrTerminal()) return;
    const pad = (n: number) => String(n).padStart(2, "0");
    const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    const last = Number.isFinite(lastEventMs) ? `, last event ${clock(new Date(lastEventMs))}` : "";
    const text = `waiting for new events · checked ${clock(this.ctx.now())}${last}`.slice(0, Math.max(this.ctx.io.width() - 1, 10));
    this.ctx.io.stderr.write(`\r\x1b[2K${this.ctx.io.colorEnabled("stderr") ? `\x1b[2m${text}\x1b[22m` : text}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.shown = false;
    this.ctx.io.stderr.write("\r\x1b[2K");
  }
}

function byTimeThenId(a: LogEvent, b: LogEvent): number {
  return Date.parse(a.received_at) - Date.parse(b.received_at) || a.id - b.id;
}

/**
 * Prints the newest events (the backlog) oldest first, then polls every --interval seconds for
 * events received since the newest one seen, de-duplicated by id, until ctx.signal aborts.
 */
async function follow(run: LogsRun): Promise<void> {
  const { opts, ctx } = run;
  const { setTimeout: sleep } = await import("node:timers/promises");
  // The next poll asks from the watermark: the newest instant seen, but never past now. An event
  // stamped in the future (a server's clock, or a hostile server) would otherwise move it there,
  // and every later poll would ask for events received after that instant: --follow gone blind.
  let watermarkMs = -Infinity;
  // ids printed at or after the watermark: a poll from that instant returns them again
  const printed = new Map<number, number>();

  const emit = async (events: LogEvent[]) => {
    events.sort(byTimeThenId);
    const fresh: LogEvent[] = [];
    let newestMs = watermarkMs;
    for (const ev of events) {
      const ms = Date.parse(ev.received_at);
      if (ms < watermarkMs || printed.has(ev.id)) continue;
      printed.set(ev.id, ms);
      if (Number.isFinite(ms)) newestMs = Math.max(newestMs, ms);
      fresh.push(ev);
    }
    const next = Math.min(newestMs, ctx.now().getTime());
    if (next > watermarkMs) {
      watermarkMs = next;
      for (const [id, ms] of printed) if (ms < watermarkMs) printed.delete(id);
    }
    await run.sink.write(fresh);
    run.mismatches.written();
  };

  // every page of a poll, so the batch is printed in time order
  const fetchAll = async (query: QueryInput, limit?: number): Promise<LogEvent[]> => {
    const out: LogEvent[] = [];
    for await (const page of run.paginate(run.client, run.path, query, { limit, signal: ctx.signal, parse: run.parse })) out.push(...page.events);
    return out;
  };

  try {
    run.spinner.stop();
    // like the header line: for a person at a terminal; a script's stderr stays for errors
    if (ctx.io.isStderrTerminal()) ctx.io.stderr.write((await prose(ctx, followBanner(opts, run.repoName))) + "\n");
    await emit(await fetchAll(run.query, opts.limit));
    for (;;) {
      run.waiting.show(watermarkMs);
      await sleep(opts.interval * 1000, undefined, { signal: ctx.signal });
      // The API has no "after id": ask from the newest instant seen and drop what was printed.
      // Before any event, the first query is repeated (the server's clock decides "now", not ours).
      const query: QueryInput =
        watermarkMs === -Infinity
          ? run.query
          : { ...run.query, received_from: formatInstant(new Date(watermarkMs)), per_page: opts.perPage ?? MAX_PER_PAGE };
      await emit(await fetchAll(query));
    }
  } catch (err) {
    run.waiting.clear();
    if (ctx.signal.aborted) {
      if (stdoutClosed(ctx)) return;
      await run.sink.end();
      throw new InterruptedError();
    }
    throw err;
  }
}
