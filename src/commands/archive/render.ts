// Output of the archive commands through the one exporter: json/ndjson/csv records as everywhere,
// and for the table a generic one over named columns (query results have no fixed shape), sized
// from the first rows and then streamed through the same widths.
import type { Context, OutputFormat } from "../../context.js";
import type { IOStreams } from "../../iostreams/iostreams.js";
import { colors } from "../../iostreams/color.js";
import { openExport, type Sink } from "../../output/exporter.js";

export type Row = Record<string, unknown>;

/** How many rows a table is sized from before its widths are fixed (as `mq logs`). */
const SIZING_ROWS = 500;

// Cells can hold whatever a server sent (event text) or a query computed: control and bidi
// characters are shown escaped so they cannot move the cursor or reorder the line.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function safeCell(text: string): string {
  return text
    .replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/\r?\n/g, "\\n")
    .replace(/\t/g, "\\t");
}

/** A value as a table shows it: "-" for none, JSON for a list or an object, controls escaped. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "object") return safeCell(JSON.stringify(value));
  return safeCell(String(value));
}

async function rowTable(io: IOStreams, columns: readonly string[]): Promise<Sink<Row>> {
  // the table code and its width tables only when a table is drawn (output/table.ts)
  const { renderTable, columnWidths } = await import("../../output/table.js");
  const c = colors(io, "stdout");
  const head = columns.map((h) => h.toUpperCase());
  const width = io.tableWidth();
  let widths: number[] | undefined;
  const pending: string[][] = [];
  const flush = async () => {
    if (pending.length === 0 && widths !== undefined) return;
    const withHead = widths === undefined;
    widths ??= columnWidths({ head, rows: pending, columns: width });
    const text = renderTable({ head, rows: pending, columns: width, colors: c, widths });
    pending.length = 0;
    await io.writeData(withHead ? text : text.slice(text.indexOf("\n") + 1));
  };
  return {
    async write(records) {
      for (const r of records) pending.push(columns.map((col) => cellText(r[col])));
      if (widths !== undefined || pending.length >= SIZING_ROWS) await flush();
    },
    async end() {
      await flush();
    },
  };
}

/** A sink for rows with these columns, in the format asked for. */
export async function openRows(ctx: Context, format: OutputFormat, columns: readonly string[]): Promise<Sink<Row>> {
  return openExport<Row>(format, ctx.io, { csvColumns: () => [...columns], table: () => rowTable(ctx.io, columns) });
}

export async function writeRows(ctx: Context, format: OutputFormat, columns: readonly string[], rows: readonly Row[]): Promise<void> {
  const sink = await openRows(ctx, format, columns);
  await sink.write(rows);
  await sink.end();
}
