// What every path of `mq logs` writes through: the exporter (the event table on a terminal), the
// contract mismatches the table shows as key=value, the --follow status line, and prose for stderr.
import type { Context } from "../../context.js";
import { openExport, type Sink } from "../../output/exporter.js";
import { formatAge, formatTime } from "../../output/format.js";
import type { LogEvent } from "../../api/events.js";
import { messageText } from "../../iostreams/terminal-text.js";
import { csvColumns, type LogsOptions } from "./options.js";

/**
 * Events whose metadata differs from the contract (outside --strict): a warning once per type, and
 * the ids of such events until the table has written them (it shows them as key=value rather than
 * trusting the hand-written summary). Cleared after each write, so memory stays bounded.
 */
export class ContractMismatches {
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
    this.warn(
      `mq: warning: ${messageText(type)} event ${id} does not match ${against} (${messageText(message)}); shown as sent. --strict makes this an error.`,
    );
  }

  trusted(id: number): boolean {
    return !this.unwritten.has(id);
  }

  /** The events parsed so far are on stdout. */
  written(): void {
    this.unwritten.clear();
  }
}

/**
 * Where a run may resume from, as far as its reader has seen: a point noted after a write counts
 * as shown only while the sink holds nothing unshown (Sink.held: the table sizes its columns from
 * its first rows). After end(), a sink still holding rows never showed them (Ctrl-C on a terminal
 * before the table was drawn): the count and the resume point are then the last shown ones. Every
 * path of `mq logs` that writes events (the API's pages, the archive's batches) notes through it.
 */
export class ShownPoint<P> {
  private shown: P;

  constructor(
    private readonly sink: { readonly held?: number },
    start: P,
  ) {
    this.shown = start;
  }

  /** the output has taken everything up to `point` */
  note(point: P): void {
    if (!this.sink.held) this.shown = point;
  }

  /** after the sink's end(): `current`, or the last point shown when the sink still holds rows */
  resumePoint(current: P): P {
    return this.sink.held ? this.shown : current;
  }
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
  return openExport<LogEvent>(opts.format, ctx.io, {
    fields: opts.fields,
    csvColumns: () => opts.fields ?? csvColumns(opts.dialect),
    table: async () => {
      // the table code and its width tables only when a table is drawn (output/table.ts)
      const { createEventTable } = await import("./table.js");
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
/**
 * A quiet heartbeat while --follow waits: one line on a terminal's stderr, rewritten in place
 * after each poll ("waiting for new events · checked 12:04:05") and cleared before rows are
 * printed, so it never ends up between them. Nothing off a terminal: a log gets data only.
 */
export class WaitingLine {
  private shown = false;

  constructor(private readonly ctx: Context) {}

  /** `lastEventMs`: when the newest event printed was received (-Infinity before any) */
  show(lastEventMs: number): void {
    if (!this.ctx.io.isStderrTerminal()) return;
    const age = formatAge(lastEventMs, this.ctx.now());
    const last = Number.isFinite(lastEventMs) ? `, last event ${age === "now" ? "now" : `${age} ago`}` : "";
    const text = `waiting for new events · checked ${formatTime(this.ctx.now())}${last}`.slice(0, Math.max(this.ctx.io.width() - 1, 10));
    this.ctx.io.stderr.write(`\r\x1b[2K${this.ctx.io.colorEnabled("stderr") ? `\x1b[2m${text}\x1b[22m` : text}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.shown = false;
    this.ctx.io.stderr.write("\r\x1b[2K");
  }
}

/**
 * A line of prose for stderr (the header, the --follow banner), broken between words to the width
 * its reader sees. The width tables are loaded only for a line that may not fit.
 */
export async function prose(ctx: Context, text: string): Promise<string> {
  const width = ctx.io.messageWidth();
  if (width === undefined || text.length <= width) return text;
  // the width tables and an Intl.Segmenter (ICU data) only for a line that may not fit
  const { wrapLine } = await import("../../iostreams/terminal-width.js");
  return wrapLine(text, width);
}

export function stdoutClosed(ctx: Context): boolean {
  const out = ctx.io.stdout as { destroyed?: boolean; writableEnded?: boolean };
  // EPIPE: the reader left (found at a write, or while idle: src/pipe-reader.ts)
  return out.destroyed === true || out.writableEnded === true || (ctx.signal.reason as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
}
