// The event table of `mq logs` on a terminal (and off one, when -o table is asked for): age (or the
// clock time when following), type coloured by family, pull request, base ref and a one-line
// summary, which gets the room. It streams: columns are sized from the first rows and later pages go
// through the same widths.
import type { LogEvent } from "../../api/events.js";
import type { IOStreams } from "../../iostreams/iostreams.js";
import { colors } from "../../iostreams/color.js";
import { eventFamily, summarizeEvent, type SummaryEvent } from "./event-summary.js";
import type { Sink } from "../../output/exporter.js";
import { formatAge, formatTime, formatTimeText } from "../../output/format.js";
import { columnWidths, fixedWidthRows, renderTable } from "../../output/table.js";
import { terminalText } from "../../iostreams/terminal-text.js";
import { fitType, SHORT_TYPE_WIDTH, typeLabel } from "./type-names.js";

/** How many rows a table is sized from before its column widths are fixed. */
export const TABLE_SIZING_ROWS = 500;

const GAP = 2;
const TYPE = 1;
const BASE = 3;

export interface EventTableOptions {
  now: () => Date;
  /** false for an event whose metadata differs from the contract: its summary is key=value */
  trusted: (event: LogEvent) => boolean;
  /** print each page at once (--follow) rather than waiting for TABLE_SIZING_ROWS to size columns */
  eager: boolean;
  /** the events carry an `outcome` (the real service): shown in its own column, coloured */
  outcome?: boolean;
  /** several repositories merged: the PR column names each event's repository */
  repository?: boolean;
  /** a live stream (--follow): clock times, which stay true, instead of ages, which go stale */
  clock?: boolean;
  /** called before each batch of rows reaches stdout (--follow clears its waiting line) */
  beforeWrite?: () => void;
}

/**
 * Column widths for a terminal: the summary (the last column) is what the operator reads, so it
 * keeps at least 40 characters where the terminal has room (half of it otherwise); type and base ref
 * give way first, down to a few characters, and the summary takes every column left. An OUTCOME
 * column, when there is one, keeps its width like time and PR.
 */
export function eventColumnWidths(natural: readonly number[], columns: number | undefined): number[] {
  const w = [...natural];
  if (columns === undefined) return w;
  const SUMMARY = w.length - 1;
  const room = columns - GAP * (w.length - 1);
  if (w.reduce((a, b) => a + b, 0) <= room) return w;
  const others = () => w.slice(0, SUMMARY).reduce((a, b) => a + b, 0);
  const want = Math.min(natural[SUMMARY]!, Math.max(Math.floor(room / 2), Math.min(40, room - 24)));
  const shrink = (i: number, floor: number) => {
    const excess = others() + want - room;
    if (excess > 0) w[i] = Math.max(Math.min(floor, w[i]!), w[i]! - excess);
  };
  shrink(TYPE, SHORT_TYPE_WIDTH);
  shrink(BASE, 6);
  shrink(BASE, 4);
  w[SUMMARY] = Math.max(8, Math.min(natural[SUMMARY]!, room - others()));
  return w;
}

export function createEventTable(io: IOStreams, opts: EventTableOptions): Sink<LogEvent> {
  const c = colors(io, "stdout");
  const familyColor: Record<string, (s: string) => string> = {
    "action.queue": c.cyan,
    action: c.blue,
    ci_insights: c.yellow,
    ci_issue: c.yellow,
    command: c.magenta,
    queue: c.red,
    scheduled_freeze: c.red,
  };
  // a terminal gets ages (or clock times when following) and short labels; elsewhere -o table is a
  // log: exact instants and full type names
  const terminal = io.isStdoutTerminal();
  // with events that carry the real service's derived outcome, an OUTCOME column before the summary
  const head = [
    opts.clock ? "TIME" : terminal ? "AGE" : "TIME",
    "TYPE",
    opts.repository ? "REPOSITORY#PR" : "PR",
    "BASE",
    ...(opts.outcome ? ["OUTCOME"] : []),
    "SUMMARY",
  ];
  const outcomeColor: Record<string, (s: string) => string> = { success: c.green, failure: c.red, pending: c.yellow };
  // a server's string: shown only when it is one of the plain words an outcome is
  const outcomeCell = (v: unknown): string =>
    typeof v === "string" && /^[a-z_]{1,20}$/.test(v) ? (outcomeColor[v] ?? ((s: string) => s))(v) : "-";
  const toCells = (ev: LogEvent): string[] => {
    // an instant in UTC is its own text, cut to the second (formatTimeText): no date parsed and
    // formatted for every row of a long log. A terminal gets ages (clock times when following: they
    // stay true); whole seconds keep the column aligned; the exact instant is in json/ndjson/csv
    const ageOnly = terminal && !opts.clock;
    const text = !ageOnly && typeof ev.received_at === "string" ? formatTimeText(ev.received_at) : undefined;
    const at = text === undefined ? new Date(ev.received_at) : undefined;
    const time =
      at === undefined
        ? text!
        : Number.isNaN(at.getTime())
          ? terminalText(String(ev.received_at))
          : ageOnly
            ? formatAge(at, opts.now())
            : formatTime(at);
    const pr = ev.pull_request !== null ? `#${ev.pull_request}` : "";
    // the repository as sent, quoted-escaped: no control character reaches the terminal
    // server text through the door (terminalText) before mq's colour goes around it
    const where = opts.repository ? `${terminalText(String(ev.repository))}${pr}` : pr || "-";
    const type = terminalText(ev.type);
    const row = [time, terminal ? typeLabel(type) : type, where, ev.base_ref !== null ? terminalText(ev.base_ref) : "-"];
    // the outcome cell shows only a short lower-case word (anything else is "-")
    if (opts.outcome) row.push(outcomeCell(ev.outcome));
    // the pages printed here went through the page check: every event's metadata is an object
    row.push(terminalText(summarizeEvent(ev as SummaryEvent, opts.trusted(ev))));
    return row;
  };
  const columns = io.tableWidth();
  let widths: number[] | undefined;
  const pending: Array<{ type: string; cells: string[] }> = [];
  // Columns are sized from the first rows (the first TABLE_SIZING_ROWS, or the first --follow
  // batch); later pages stream through the same widths, so `--all` on a terminal keeps no rows
  // around and every part of the table lines up.
  // Once fixed, rows go through a plain fixed-width writer (the same text renderTable would give,
  // without measuring each plain cell): a 100k-event table then streams about as fast as ndjson.
  let bodyRows: ((rows: readonly string[][]) => string) | undefined;
  // the type cell cut to its column (on a terminal) and coloured by family; without colour, chalk
  // would hand every text back as it is
  const typeCell = (type: string, cell: string, w: readonly number[]): string => {
    const text = columns === undefined ? cell : fitType(type, cell, w[TYPE]!);
    if (c.level === 0) return text;
    const paint = familyColor[eventFamily(type)];
    return paint === undefined ? text : paint(text);
  };
  const flush = async () => {
    if (pending.length === 0) return;
    const withHead = widths === undefined;
    widths ??= eventColumnWidths(columnWidths({ head, rows: pending.map((p) => p.cells) }), columns);
    const w = widths;
    const rows = pending.map(({ type, cells }) => {
      cells[TYPE] = typeCell(type, cells[TYPE]!, w);
      return cells;
    });
    // renderTable draws the head only: the sizing rows, 500 of them, go through the plain writer too
    bodyRows ??= fixedWidthRows(w);
    const text = withHead ? renderTable({ head, rows: [], columns, colors: c, widths: w }) + bodyRows(rows) : bodyRows(rows);
    opts.beforeWrite?.();
    await io.writeData(text);
    pending.length = 0;
  };
  return {
    async write(events) {
      if (bodyRows !== undefined && widths !== undefined) {
        // widths fixed: each page straight to its rows, one writeData a page
        if (events.length === 0) return;
        const w = widths;
        const rows: string[][] = [];
        for (const e of events) {
          const cells = toCells(e);
          cells[TYPE] = typeCell(e.type, cells[TYPE]!, w);
          rows.push(cells);
        }
        const text = bodyRows(rows);
        opts.beforeWrite?.();
        await io.writeData(text);
        return;
      }
      for (const e of events) pending.push({ type: e.type, cells: toCells(e) });
      if (opts.eager || widths !== undefined || pending.length >= TABLE_SIZING_ROWS) await flush();
    },
    async end() {
      await flush();
    },
    get held() {
      return pending.length;
    },
  };
}
