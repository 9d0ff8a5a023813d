// `mq logs` from the API, one repository: the run prepared once (client, page checks, spinner,
// output), the pages walked and written one by one, the header line after them, and the error a
// failed run ends with, carrying the command that resumes it.
import type { Context } from "../../context.js";
import { InterruptedError, MqError, OutputError } from "../../errors.js";
import { type ApiClient, type ApiResponse, invalidUtf8Warning, type QueryInput } from "../../api/client.js";
import { cursorOf, paginate } from "../../api/pagination.js";
import { METADATA_SHAPES_OF, type PageCheckOptions, pageCheck } from "../../api/schema/page-check.js";
import { attachElementTexts } from "../../api/raw-json.js";
import { checkEventIds, eventIdKey } from "../../api/event-ids.js";
import { walkSlices } from "../../api/slices.js";
import { filterQuery } from "../../cmdutil/logs-filters.js";
import type { Sink } from "../../output/exporter.js";
import type { LogEvent } from "../../api/events.js";
import { LOG_ORDER } from "../../api/pagination-guard.js";
import { type Spinner, startSpinner } from "../../iostreams/spinner.js";
import { formatCount } from "../../output/format.js";
import { formatInstant } from "../../cmdutil/time.js";
import { MAX_PER_PAGE, type LogsOptions } from "./options.js";
import { ContractMismatches, openLogsOutput, ShownPoint, WaitingLine, prose, stdoutClosed } from "./output.js";
import { resumeCommand, headerLine } from "./messages.js";

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

/** What a run needs once flags are parsed: where, how to parse pages, where events go. */
export interface LogsRun {
  opts: LogsOptions;
  ctx: Context;
  client: ApiClient;
  path: string;
  repoName: string;
  query: QueryInput;
  parse: (body: unknown, url: URL, res: ApiResponse) => LogEvent[] | Promise<LogEvent[]>;
  mismatches: ContractMismatches;
  sink: Sink<LogEvent>;
  spinner: Spinner;
  /** --follow's status line on a terminal's stderr while nothing arrives */
  waiting: WaitingLine;
  paginate: typeof paginate;
  cursorOf: typeof cursorOf;
  formatCount: (n: number) => string;
}

/** How far a paginated run got: what the header and a resume command say. */
export interface Progress {
  count: number;
  pages: number;
  truncated: boolean;
  /** the cursor of the page being fetched: what `--cursor` needs to resume after a failure */
  pendingCursor: string | undefined;
  /** with parallel slices: the end of the window still to fetch (--until of the resume command) */
  pendingUntil: string | undefined;
  /**
   * where the last pages ended in the output (bytes the sink had written), newest last: a failed
   * write rewinds to the last of them the file still holds whole (rewind)
   */
  checkpoints?: Checkpoint[];
  /** stdout's size when the run began, when it is a regular file */
  fileStart?: number;
  /** the count and resume point the reader has seen (the rows a table holds to size its columns are not) */
  shown?: ShownPoint<ResumePoint>;
}

type ResumePoint = Pick<Progress, "count" | "pendingCursor" | "pendingUntil">;

function resumePointOf(progress: Progress): ResumePoint {
  return { count: progress.count, pendingCursor: progress.pendingCursor, pendingUntil: progress.pendingUntil };
}

interface Checkpoint {
  count: number;
  pendingCursor: string | undefined;
  pendingUntil: string | undefined;
  bytes: number;
}

/** how many page ends a run remembers: a failed write can only have cut the last page or two */
const CHECKPOINTS = 16;

/** Counts a page as written, once the output has taken it, and remembers where it ended. */
function written(run: LogsRun, progress: Progress, events: number, pendingCursor: string | undefined, pendingUntil: string | undefined) {
  progress.pages++;
  progress.count += events;
  progress.pendingCursor = pendingCursor;
  progress.pendingUntil = pendingUntil;
  const bytes = run.sink.bytes;
  if (bytes === undefined) return;
  const checkpoints = (progress.checkpoints ??= []);
  checkpoints.push({ count: progress.count, pendingCursor, pendingUntil, bytes });
  if (checkpoints.length > CHECKPOINTS) checkpoints.shift();
}

/**
 * After a failed write: the count and the resume point are those of the last page the output holds
 * whole. A regular file is cut back to the end of that page (a full disk may have taken part of
 * the next one, and Node's file stream does not report a short write); elsewhere (a pipe, a
 * device) what was accepted is all mq knows, and the note says what a cut line would be.
 */
function rewind(run: LogsRun, progress: Progress): string {
  const first: Checkpoint = { count: 0, pendingCursor: run.opts.cursor, pendingUntil: undefined, bytes: 0 };
  const { whole, note } = rewindOutput(run.ctx, run.sink, progress.fileStart, first, progress.checkpoints ?? []);
  if (whole !== undefined) {
    progress.count = whole.count;
    progress.pendingCursor = whole.pendingCursor;
    progress.pendingUntil = whole.pendingUntil;
  }
  return note;
}

const CUT_LINE_NOTE = "If the output ends with part of a line, it is the start of the event after them: remove it before appending.";

/**
 * The last of `checkpoints` (places where whole pages ended in the output, `first` its start) that
 * the output still holds, the file cut back to it when stdout is a regular file, and the sentence
 * that says so; no checkpoint when only what the output accepted is known (a pipe, a device), and
 * the caller's count stands. The API's pages and the archive's batches share it.
 */
export function rewindOutput<C extends { bytes: number }>(
  ctx: Context,
  sink: { bytes?: number },
  fileStart: number | undefined,
  first: C,
  checkpoints: readonly C[],
): { whole: C | undefined; note: string } {
  const file = ctx.io.stdoutFile;
  if (file === undefined || fileStart === undefined || sink.bytes === undefined) return { whole: undefined, note: CUT_LINE_NOTE };
  let size: number;
  try {
    size = file.size();
  } catch {
    return { whole: undefined, note: "" };
  }
  const whole = [first, ...checkpoints].filter((c) => fileStart + c.bytes <= size).pop() ?? first;
  try {
    if (fileStart + whole.bytes < size) file.truncate(fileStart + whole.bytes);
  } catch {
    return { whole: undefined, note: CUT_LINE_NOTE };
  }
  return { whole, note: "The file ends with the last of them, whole." };
}

export async function prepareRun(opts: LogsOptions, ctx: Context): Promise<LogsRun> {
  const repo = await ctx.resolveRepo();
  const client = await ctx.apiClient();
  const checkPage = await pageCheck(opts.dialect.name);
  const repoName = `${repo.owner}/${repo.name}`;
  const spinner = await startSpinner(ctx, `fetching events of ${repoName}…`, { stdoutStreams: opts.format !== "table" });
  const waiting = new WaitingLine(ctx);
  const mismatches = new ContractMismatches((line) => {
    waiting.clear();
    spinner.log(line);
  }, METADATA_SHAPES_OF[opts.dialect.name]);
  const withEvents = (events: unknown[], res: ApiResponse): LogEvent[] => {
    // -o ndjson/json/csv write each event's text as the API sent it (the table reads values only)
    if (opts.format !== "table") attachElementTexts(events, res, "events");
    // ids beyond 2^53 kept exact, ids beyond int64 refused, before the page is written
    checkEventIds(events, res);
    return events as LogEvent[];
  };
  // a valid page is known valid without zod; any other is parseEventsPage's (api/schema/page-check.ts)
  const parseOptions: PageCheckOptions = {
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

/** Writes pages as they arrive; a sequential walk asks for the next page while this one is written (one ahead). */
/** Writes pages as they arrive, each before the next is asked for. */
export async function fetchPages(run: LogsRun, progress: Progress): Promise<void> {
  const { opts, ctx, spinner, cursorOf, formatCount } = run;
  const shown = new ShownPoint(run.sink, resumePointOf(progress));
  progress.shown = shown;
  // a page that repeats a cursor or events, or goes back in time, is a server bug: the walk stops
  // with exit 6 (api/pagination-guard.ts) before writing it
  // the progress text only where a spinner shows it: a pipe run of a thousand pages builds none
  const showProgress = () => {
    if (spinner.active)
      spinner.update(
        `fetching events of ${run.repoName}… ${formatCount(progress.count)} events, ${formatCount(progress.pages)} page${progress.pages === 1 ? "" : "s"}`,
      );
  };
  if (opts.since !== undefined && opts.limit === undefined && opts.cursor === undefined && opts.parallel > 1) {
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
      idOf: eventIdKey,
    });
    for await (const page of pages) {
      await run.sink.write(page.events);
      written(run, progress, page.events.length, page.resumeCursor, page.resumeUntil);
      shown.note(resumePointOf(progress));
      run.mismatches.written();
      showProgress();
    }
    return;
  }
  for await (const page of run.paginate(run.client, run.path, run.query, {
    limit: opts.limit,
    signal: ctx.signal,
    parse: run.parse,
    order: LOG_ORDER,
    prefetch: true,
  })) {
    await run.sink.write(page.events);
    written(run, progress, page.events.length, cursorOf(page.nextUrl), undefined);
    shown.note(resumePointOf(progress));
    progress.truncated = page.truncated;
    run.mismatches.written();
    showProgress();
  }
}

/**
 * The error a failed run ends with. Whatever was received stays on stdout, complete (json gets its
 * closing bracket), and a typed error carries the command that resumes where the run stopped.
 * Undefined when the reader of stdout left (`mq logs | head`): main() then ends with 0.
 */
export async function failure(run: LogsRun, err: unknown, progress: Progress, startedAt: Date): Promise<unknown> {
  const { opts, ctx } = run;
  // the output failed (a full disk): count only what it holds whole, before json's `]` is tried
  const note = err instanceof OutputError || ctx.signal.reason instanceof OutputError ? rewind(run, progress) : "";
  await run.sink.end().catch(() => undefined);
  // rows the table held to size its columns and could not show (Ctrl-C on a terminal): the count
  // and the resume point are those from before them
  if (progress.shown) Object.assign(progress, progress.shown.resumePoint(progress));
  // `mq logs | head`: the reader left; a resume hint would be noise
  if (ctx.signal.aborted && stdoutClosed(ctx)) return undefined;
  const error = ctx.signal.aborted ? new InterruptedError() : err;
  const { count, pendingCursor, pendingUntil } = progress;
  if (error instanceof MqError && (pendingCursor !== undefined || pendingUntil !== undefined) && count > 0) {
    const remaining = opts.limit !== undefined ? opts.limit - count : undefined;
    // parallel slices: the rest of the window is everything up to the slice being written
    const resumeOpts = pendingUntil !== undefined ? { ...opts, until: new Date(pendingUntil) } : opts;
    error.addHint(
      `${run.formatCount(count)} ${count === 1 ? "event was" : "events were"} written before this.${note ? ` ${note}` : ""} To resume:\n  ${resumeCommand(resumeOpts, run.repoName, pendingCursor, remaining, ctx.globals, startedAt)}`,
    );
  }
  return error;
}

/** Closes the output and writes the header line: above the table, or after streamed data on a terminal. */
export async function finish(run: LogsRun, progress: Progress): Promise<void> {
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
