// `mq logs`: the repository's event log (docs/api.md §4.1, §6) for terminals, scripts and CI. The constructor
// only parses and validates flags (nothing is sent on bad input); runLogs fetches page after page,
// writing each out before asking for the next, so memory stays flat however many events there are.
import { Command, Option } from "commander";
import type { Context, GlobalOptions, OutputFormat } from "../context.js";
import { InterruptedError, MqError, UsageError } from "../errors.js";
import type { QueryInput } from "../api/client.js";
import { DIALECTS, type Dialect } from "../api/dialects/index.js";
import { checkWindow, eventTypesHelp, filterArgs, filterQuery, logsFilterOptions, parseLogsFilters, type LogsFilterValues } from "./shared/logs-filters.js";
import { NewCmdLogsAggregate } from "./logs-aggregate.js";
import type { RecordWriter } from "../output/records.js";
import type { Spinner } from "../output/spinner.js";
import { collectList, parseIntFlag, requireNonEmptyItems } from "./shared/lists.js";
import { formatInstant, parseTimeWindow, TIME_VALUE_HELP } from "./shared/time.js";
import { resolveOutputFormat } from "./shared/output.js";

/** Events shown on a terminal when neither --limit nor --all is given (and the --follow backlog). */
export const DEFAULT_TERMINAL_LIMIT = 30;
export { MAX_PULL_REQUEST, expandTypes, checkWindow } from "./shared/logs-filters.js";
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
    .addOption(new Option("--fields <fields>", `fields for json, ndjson and csv: ${EVENT_FIELDS.join(",")}`).argParser(collectList))
    .addHelpText("after", eventTypesHelp())
    .action(async (flags: RawFlags) => {
      const { dialect } = await ctx.dialect();
      const opts = parseLogsFlags(flags, ctx, dialect);
      await (runF ?? runLogs)(opts, ctx);
    });
}

/** Turns raw flags into LogsOptions, or throws a one-line UsageError before anything is sent. */
export function parseLogsFlags(flags: RawFlags, ctx: Context, dialect: Dialect = DIALECTS.spec): LogsOptions {
  const format = resolveOutputFormat(ctx);
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
    if (follow ? since === undefined : ctx.io.stdoutIsTTY) limit = DEFAULT_TERMINAL_LIMIT;
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

/** Loose view of an event: the schema module's types are loaded lazily. */
interface RawEvent {
  id: number;
  received_at: string;
  type: string;
  pull_request: number | null;
  base_ref: string | null;
  metadata: Record<string, unknown>;
  [key: string]: unknown;
}

interface Sink {
  /** writes one page; resolves once it is handed to stdout */
  page(events: readonly RawEvent[], mismatched: ReadonlySet<number>): Promise<void>;
  /** closes the output (json's `]`, the buffered table) */
  end(): Promise<void>;
}

export async function runLogs(opts: LogsOptions, ctx: Context): Promise<void> {
  // the server's default window ends at its "now": a resume command pins this instant instead
  const startedAt = ctx.now();
  const repo = await ctx.resolveRepo();
  const client = await ctx.apiClient();
  const [{ parseEventsPage }, { paginate, cursorOf }, { startSpinner }, { formatCount }] = await Promise.all([
    import("../api/schema/events.js"),
    import("../api/pagination.js"),
    import("../output/spinner.js"),
    import("../output/format.js"),
  ]);
  const path = `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/logs`;
  // the metadata shapes of the dialect in effect (the contract's are the schema module's default)
  const metadata = opts.dialect.name === "mergify" ? (await import("../api/dialects/mergify-metadata.js")).MERGIFY_METADATA_SCHEMAS : undefined;
  const reference = opts.dialect.name === "spec" ? "the contract" : "the service's OpenAPI";
  const repoName = `${repo.owner}/${repo.name}`;

  // One spinner line on a terminal stderr, unless stdout streams to the same terminal.
  const streaming = opts.format !== "table";
  const spinner: Spinner =
    streaming && ctx.io.stdoutIsTTY
      ? { update() {}, log: (l) => void ctx.io.stderr.write(l + "\n"), stop() {} }
      : await startSpinner(ctx, `fetching events of ${repoName}`);

  // Metadata that differs from the contract: one warning per type, the event shown as sent.
  const warnedTypes = new Set<string>();
  let mismatched = new Set<number>();
  const parse = (body: unknown): RawEvent[] => {
    mismatched = new Set();
    const page = parseEventsPage(body, {
      strict: ctx.globals.strict,
      metadata,
      // a table shows each mismatched event differently; the other formats need only the warning
      checkMetadataOf: opts.format === "table" ? undefined : (type) => !warnedTypes.has(type),
      onMetadataMismatch(type, id, message) {
        mismatched.add(id);
        if (warnedTypes.has(type)) return;
        warnedTypes.add(type);
        spinner.log(`warning: ${type} event ${id} does not match ${reference} (${message}); shown as sent. --strict makes this an error.`);
      },
    });
    return page.events as unknown as RawEvent[];
  };

  const sink = await createSink(opts, ctx);
  if (opts.types !== undefined && opts.types.length === 0) {
    // --type named only families this dialect has no type of: no event can match, nothing is asked
    spinner.stop();
    await sink.end();
    const header = headerLine(opts, repoName, 0, false);
    if (opts.format === "table" || ctx.io.stderrIsTTY) ctx.io.stderr.write(header + "\n");
    return;
  }
  let count = 0;
  let pages = 0;
  let truncated = false;
  // The cursor of the page being fetched: what `--cursor` needs to resume after a failure.
  let pendingCursor = opts.cursor;
  const query = logsQuery(opts);

  try {
    if (opts.follow) {
      await follow(opts, ctx, { client, path, query, parse, sink, spinner, mismatched: () => mismatched, paginate });
      return;
    }
    // a next link that repeats a page is a server bug; stopping silently would hide a short result
    const onRepeat = (url: URL) =>
      spinner.log(`warning: the server's next-page link repeats a page already fetched (cursor ${cursorOf(url) ?? url.href}); stopping there, the result may be incomplete.`);
    for await (const page of paginate(client, path, query, { limit: opts.limit, signal: ctx.signal, parse, onRepeat })) {
      pages++;
      count += page.events.length;
      truncated = page.truncated;
      pendingCursor = cursorOf(page.nextUrl);
      await sink.page(page.events, mismatched);
      spinner.update(`${formatCount(count)} events, ${formatCount(pages)} page${pages === 1 ? "" : "s"}`);
    }
  } catch (err) {
    spinner.stop();
    // whatever was received stays on stdout, complete: json gets its closing bracket
    await sink.end().catch(() => undefined);
    // `mq logs | head`: the reader left and main() ends with 0; a resume hint would be noise
    if (ctx.signal.aborted && stdoutClosed(ctx)) return;
    const failure = ctx.signal.aborted ? new InterruptedError() : err;
    if (failure instanceof MqError && pendingCursor !== undefined && count > 0) {
      const remaining = opts.limit !== undefined ? opts.limit - count : undefined;
      withHint(
        failure,
        `${formatCount(count)} ${count === 1 ? "event was" : "events were"} written before this. To resume:\n  ${resumeCommand(opts, repoName, pendingCursor, remaining, ctx.globals, startedAt)}`,
      );
    }
    throw failure;
  } finally {
    spinner.stop();
  }
  const header = headerLine(opts, repoName, count, truncated);
  if (opts.format === "table") {
    ctx.io.stderr.write(header + "\n");
    await sink.end();
  } else {
    await sink.end();
    if (ctx.io.stderrIsTTY) ctx.io.stderr.write(header + "\n");
  }
}

function stdoutClosed(ctx: Context): boolean {
  const out = ctx.io.stdout as { destroyed?: boolean; writableEnded?: boolean };
  return out.destroyed === true || out.writableEnded === true;
}

/** Attaches the resume hint to an error that is already typed (keeping its class and exit code). */
function withHint(err: MqError, hint: string): void {
  Object.defineProperty(err, "hint", { value: err.hint ? `${err.hint}\n${hint}` : hint, configurable: true });
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
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
  cursor: string,
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
  args.push("--cursor", cursor);
  return args.map(shellQuote).join(" ");
}

/** The stderr line above the table: repository, window, and whether --limit cut the result. */
export function headerLine(opts: LogsOptions, repo: string, count: number, truncated: boolean): string {
  const window = opts.since
    ? `from ${formatInstant(opts.since)} to ${opts.until ? formatInstant(opts.until) : "now"}`
    : opts.until
      ? `in the 24 hours before ${formatInstant(opts.until)}`
      : "in the last 24 hours";
  const n = `${count.toLocaleString("en-US")} event${count === 1 ? "" : "s"}`;
  let cut = "";
  if (truncated) {
    cut = opts.limitGiven
      ? `; stopped at --limit ${opts.limit}, more are available (--all for every event)`
      : `; showing the newest ${opts.limit}, more are available (--limit N or --all)`;
  }
  return `${repo}: ${n} ${window}${opts.cursor ? ` from cursor ${opts.cursor}` : ""}${cut}`;
}

// ---------------------------------------------------------------------------------------------
// output

async function createSink(opts: LogsOptions, ctx: Context): Promise<Sink> {
  if (opts.format === "table") return createTableSink(opts, ctx);
  const { createRecordWriter } = await import("../output/records.js");
  const writer: RecordWriter = createRecordWriter(opts.format, ctx.io.stdout, {
    fields: opts.fields,
    csvColumns: opts.format === "csv" ? (opts.fields ?? csvColumns(opts.dialect)) : undefined,
  });
  return {
    page: (events) => writer.writeMany(events),
    end: () => writer.end(),
  };
}

async function createTableSink(opts: LogsOptions, ctx: Context): Promise<Sink> {
  const [{ renderTable, columnWidths }, { colors }, { summarizeEvent, eventFamily }, { formatRelativeTime }] = await Promise.all([
    import("../output/table.js"),
    import("../output/color.js"),
    import("../output/event-summary.js"),
    import("../output/format.js"),
  ]);
  const c = colors(ctx, "stdout");
  const familyColor: Record<string, (s: string) => string> = {
    "action.queue": c.cyan,
    action: c.blue,
    ci_insights: c.yellow,
    ci_issue: c.yellow,
    command: c.magenta,
    queue: c.red,
    scheduled_freeze: c.red,
  };
  const head = ["TIME", "TYPE", "PR", "BASE", "SUMMARY"];
  const toRow = (ev: RawEvent, trusted: boolean): string[] => {
    const at = new Date(ev.received_at);
    // whole seconds keep the column aligned; the exact instant is in json/ndjson/csv
    const time = Number.isNaN(at.getTime())
      ? ev.received_at
      : ctx.io.stdoutIsTTY
        ? formatRelativeTime(at, ctx.now())
        : formatInstant(new Date(Math.floor(at.getTime() / 1000) * 1000));
    const paint = familyColor[eventFamily(ev.type)] ?? ((s: string) => s);
    return [time, paint(ev.type), ev.pull_request !== null ? `#${ev.pull_request}` : "-", ev.base_ref ?? "-", summarizeEvent(ev, trusted)];
  };
  // Columns are sized from the first rows (the first SIZING_ROWS, or the first --follow batch);
  // later pages stream through the same widths, so `--all` on a terminal keeps no rows around and
  // every part of the table lines up.
  const columns = ctx.io.stdoutIsTTY ? ctx.io.columns : undefined;
  let widths: number[] | undefined;
  const pending: string[][] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const withHead = widths === undefined;
    widths ??= columnWidths({ head, rows: pending, columns });
    const text = renderTable({ head, rows: pending, columns, colors: c, widths });
    ctx.io.stdout.write(withHead ? text : text.slice(text.indexOf("\n") + 1));
    pending.length = 0;
  };
  return {
    async page(events, mismatched) {
      for (const e of events) pending.push(toRow(e, !mismatched.has(e.id)));
      if (opts.follow || widths !== undefined || pending.length >= TABLE_SIZING_ROWS) flush();
    },
    async end() {
      flush();
    },
  };
}

/** The API's default window: received_from = received_to minus one day. */
const DEFAULT_WINDOW_MS = 86_400_000;

/** How many rows a table is sized from before its column widths are fixed. */
export const TABLE_SIZING_ROWS = 500;

// ---------------------------------------------------------------------------------------------
// --follow

interface FollowDeps {
  client: import("../api/client.js").ApiClient;
  path: string;
  query: QueryInput;
  parse: (body: unknown) => RawEvent[];
  sink: Sink;
  spinner: Spinner;
  mismatched: () => ReadonlySet<number>;
  paginate: typeof import("../api/pagination.js").paginate;
}

function byTimeThenId(a: RawEvent, b: RawEvent): number {
  return Date.parse(a.received_at) - Date.parse(b.received_at) || a.id - b.id;
}

/**
 * Prints the newest events (the backlog) oldest first, then polls every --interval seconds for
 * events received since the newest one seen, de-duplicated by id, until ctx.signal aborts.
 */
async function follow(opts: LogsOptions, ctx: Context, d: FollowDeps): Promise<void> {
  const { setTimeout: sleep } = await import("node:timers/promises");
  // ids at the newest timestamp seen: a poll from that instant returns them again
  let watermark: string | undefined;
  let watermarkMs = -Infinity;
  let seenAtWatermark = new Set<number>();
  const mismatchedIds = new Set<number>();

  const emit = async (events: RawEvent[]) => {
    events.sort(byTimeThenId);
    const fresh: RawEvent[] = [];
    for (const ev of events) {
      const ms = Date.parse(ev.received_at);
      if (ms < watermarkMs || (ms === watermarkMs && seenAtWatermark.has(ev.id))) continue;
      if (ms > watermarkMs) {
        watermarkMs = ms;
        watermark = ev.received_at;
        seenAtWatermark = new Set();
      }
      seenAtWatermark.add(ev.id);
      fresh.push(ev);
    }
    await d.sink.page(fresh, mismatchedIds);
    mismatchedIds.clear();
  };

  const fetchAll = async (query: QueryInput, limit?: number): Promise<RawEvent[]> => {
    const out: RawEvent[] = [];
    for await (const page of d.paginate(d.client, d.path, query, { limit, signal: ctx.signal, parse: d.parse })) {
      for (const id of d.mismatched()) mismatchedIds.add(id);
      out.push(...page.events);
    }
    return out;
  };

  try {
    d.spinner.stop();
    await emit(await fetchAll(d.query, opts.limit));
    for (;;) {
      await sleep(opts.interval * 1000, undefined, { signal: ctx.signal });
      // The API has no "after id": ask from the newest instant seen and drop what was printed.
      // Before any event, the first query is repeated (the server's clock decides "now", not ours).
      const query: QueryInput =
        watermark === undefined
          ? d.query
          : { ...d.query, received_from: formatInstant(new Date(watermark)), per_page: opts.perPage ?? MAX_PER_PAGE };
      await emit(await fetchAll(query));
    }
  } catch (err) {
    if (ctx.signal.aborted) {
      if (stdoutClosed(ctx)) return;
      await d.sink.end();
      throw new InterruptedError();
    }
    throw err;
  }
}
