// The event table of `mq logs` on a terminal (and off one, when -o table is asked for): time, type
// coloured by family, pull request, base ref and a one-line summary. It streams: columns are sized
// from the first rows and later pages go through the same widths.
import type { IOStreams } from "../context.js";
import { colors } from "./color.js";
import { eventFamily, summarizeEvent } from "./event-summary.js";
import type { Sink } from "./exporter.js";
import { formatInstant, formatRelativeTime } from "./format.js";
import { columnWidths, renderTable } from "./table.js";
import { terminalText } from "./terminal-text.js";

/** Loose view of an event: the schema module's types are loaded lazily. */
export interface LogEvent {
  id: number;
  received_at: string;
  type: string;
  pull_request: number | null;
  base_ref: string | null;
  metadata: Record<string, unknown>;
  [key: string]: unknown;
}

/** How many rows a table is sized from before its column widths are fixed. */
export const TABLE_SIZING_ROWS = 500;

const HEAD = ["TIME", "TYPE", "PR", "BASE", "SUMMARY"];

export interface EventTableOptions {
  now: () => Date;
  /** false for an event whose metadata differs from the contract: its summary is key=value */
  trusted: (event: LogEvent) => boolean;
  /** print each page at once (--follow) rather than waiting for TABLE_SIZING_ROWS to size columns */
  eager: boolean;
  /** several repositories merged: the PR column names each event's repository */
  repository?: boolean;
}

export function createEventTable(io: IOStreams, opts: EventTableOptions): Sink<LogEvent> {
  const c = colors(io, "stdout");
  const head = opts.repository ? ["TIME", "TYPE", "REPOSITORY#PR", "BASE", "SUMMARY"] : HEAD;
  const familyColor: Record<string, (s: string) => string> = {
    "action.queue": c.cyan,
    action: c.blue,
    ci_insights: c.yellow,
    ci_issue: c.yellow,
    command: c.magenta,
    queue: c.red,
    scheduled_freeze: c.red,
  };
  const human = io.isStdoutTerminal();
  const toRow = (ev: LogEvent): string[] => {
    const at = new Date(ev.received_at);
    // whole seconds keep the column aligned; the exact instant is in json/ndjson/csv
    const time = Number.isNaN(at.getTime())
      ? terminalText(String(ev.received_at))
      : human
        ? formatRelativeTime(at, opts.now())
        : formatInstant(new Date(Math.floor(at.getTime() / 1000) * 1000));
    const paint = familyColor[eventFamily(ev.type)] ?? ((s: string) => s);
    const pr = ev.pull_request !== null ? `#${ev.pull_request}` : "";
    // the repository as sent, through the door
    const where = opts.repository ? `${terminalText(String(ev.repository))}${pr}` : pr || "-";
    // server text through the door before mq's colour goes around it; a summary is mq's sentence
    // around the server's words, and mq's own words hold no control character
    return [
      time,
      paint(terminalText(ev.type)),
      where,
      ev.base_ref !== null ? terminalText(ev.base_ref) : "-",
      terminalText(summarizeEvent(ev, opts.trusted(ev))),
    ];
  };
  // Columns are sized from the first rows (the first TABLE_SIZING_ROWS, or the first --follow
  // batch); later pages stream through the same widths, so `--all` on a terminal keeps no rows
  // around and every part of the table lines up.
  const columns = io.tableWidth();
  let widths: number[] | undefined;
  const pending: string[][] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const withHead = widths === undefined;
    widths ??= columnWidths({ head, rows: pending, columns });
    const text = renderTable({ head, rows: pending, columns, colors: c, widths });
    io.stdout.write(withHead ? text : text.slice(text.indexOf("\n") + 1));
    pending.length = 0;
  };
  return {
    async write(events) {
      for (const e of events) pending.push(toRow(e));
      if (opts.eager || widths !== undefined || pending.length >= TABLE_SIZING_ROWS) flush();
    },
    async end() {
      flush();
    },
  };
}
