// Output of the archive commands through the project's writers: a table for a person (sized from
// the first rows, then streamed through the same widths), json/ndjson/csv records for scripts.
import type { Context, OutputFormat } from "../../context.js";

/** How many rows a table is sized from before its widths are fixed (as `mq logs`). */
const SIZING_ROWS = 500;

// Cells can hold whatever a server sent (event text) or a query computed: control and bidi
// characters are shown escaped so they cannot move the cursor or reorder the line.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function safeCell(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).replace(/\r?\n/g, "\\n").replace(/\t/g, "\\t");
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "object") return safeCell(JSON.stringify(value));
  return safeCell(String(value));
}

export interface RowSink {
  rows(records: readonly Record<string, unknown>[]): Promise<void>;
  end(): Promise<void>;
}

export async function createRowSink(ctx: Context, format: OutputFormat, columns: readonly string[]): Promise<RowSink> {
  if (format !== "table") {
    const { createRecordWriter } = await import("../../output/records.js");
    const writer = createRecordWriter(format, ctx.io.stdout, { csvColumns: format === "csv" ? [...columns] : undefined });
    return { rows: (records) => writer.writeMany(records), end: () => writer.end() };
  }
  const [{ renderTable, columnWidths }, { colors }] = await Promise.all([import("../../output/table.js"), import("../../output/color.js")]);
  const c = colors(ctx, "stdout");
  const head = columns.map((h) => h.toUpperCase());
  const width = ctx.io.stdoutIsTTY ? ctx.io.columns : undefined;
  let widths: number[] | undefined;
  const pending: string[][] = [];
  const flush = () => {
    if (pending.length === 0 && widths !== undefined) return;
    const withHead = widths === undefined;
    widths ??= columnWidths({ head, rows: pending, columns: width });
    const text = renderTable({ head, rows: pending, columns: width, colors: c, widths });
    ctx.io.stdout.write(withHead ? text : text.slice(text.indexOf("\n") + 1));
    pending.length = 0;
  };
  return {
    async rows(records) {
      for (const r of records) pending.push(columns.map((col) => cellText(r[col])));
      if (widths !== undefined || pending.length >= SIZING_ROWS) flush();
    },
    async end() {
      flush();
    },
  };
}

export async function writeRecords(ctx: Context, format: OutputFormat, columns: readonly string[], records: readonly Record<string, unknown>[]): Promise<void> {
  const sink = await createRowSink(ctx, format, columns);
  await sink.rows(records);
  await sink.end();
}
