// Streaming writers for machine-readable output (json, ndjson, csv). Records go out as they are
// produced, one write call each, so memory stays flat with the size of the result, a reader such as
// `jq` sees data as it arrives, and an interrupted run never leaves half a record on stdout.
import { rawJsonLines, rawJsonOf, rawMemberOf } from "../api/raw-json.js";
import { guardCsvText } from "./csv-guard.js";
import { terminalJson, terminalText } from "../iostreams/terminal-text.js";
import { writeChunk } from "../iostreams/write.js";

/** writeChunk is the I/O module's: re-exported for the renderers that write a whole text */
export { writeChunk };

export type RecordFormat = "json" | "ndjson" | "csv";

export interface RecordWriterOptions {
  /** keep only these fields, in this order (--fields) */
  fields?: string[];
  /** csv header; defaults to `fields`, else the keys of the first record */
  csvColumns?: string[];
  /** neutralise cells a spreadsheet would run as a formula (default on; --no-csv-guard for programs) */
  csvGuard?: boolean;
  /**
   * The output is a terminal: a person reads it, not a program. JSON keeps its value but writes
   * controls, bidi and invisible characters as \u escapes; csv cells show them escaped.
   */
  terminal?: boolean;
  /** how a chunk reaches the output (default: writeChunk to the stream): IOStreams.writeData */
  write?: (chunk: string | Uint8Array) => Promise<void>;
}

export interface RecordWriter {
  write(record: Record<string, unknown>): Promise<void>;
  /** several records in one write call: fewer syscalls when a whole page is ready */
  writeMany(records: Iterable<Record<string, unknown>>): Promise<void>;
  /** closes the output (json's `]`); safe to call more than once */
  end(): Promise<void>;
  /** records written so far */
  readonly count: number;
  /** bytes the stream accepted so far (each write's callback said so) */
  readonly bytes: number;
}

export function createRecordWriter(format: RecordFormat, stream: NodeJS.WritableStream, opts: RecordWriterOptions = {}): RecordWriter {
  const fields = opts.fields;
  let columns = opts.csvColumns ?? fields;
  let count = 0;
  let bytes = 0;
  let ended = false;
  const put = async (chunk: string | Uint8Array) => {
    await (opts.write ? opts.write(chunk) : writeChunk(stream, chunk));
    bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
  };

  const guard = opts.csvGuard !== false;
  const terminal = opts.terminal === true;
  // ndjson of the API's events, to a program: each event's bytes as received, copied to stdout
  // without decoding and encoding text again (what the text path writes, byte for byte)
  const copyBytes = format === "ndjson" && !fields && !terminal;

  // An event from the API carries the text it was sent as (api/raw-json.ts): that text is written,
  // so integers beyond 2^53, `1.0`, `1e2`, escapes and key order come out as the API sent them.
  // Records mq builds itself are serialised.
  const toJson = (record: Record<string, unknown>): string => {
    let text: string;
    if (!fields) text = rawJsonOf(record) ?? JSON.stringify(record);
    // a field the record lacks is null, so every line has the same keys for jq and csv
    else text = `{${fields.map((f) => `${JSON.stringify(f)}:${f in record ? memberJson(record, f) : "null"}`).join(",")}}`;
    return terminal ? terminalJson(text) : text;
  };

  const cell = (record: Record<string, unknown>, column: string): string => {
    const value = record[column];
    let text: string;
    if (value === null || value === undefined) return "";
    if (typeof value === "string") text = value;
    else text = rawMemberOf(record, column) ?? (typeof value === "object" ? JSON.stringify(value) : String(value));
    return csvText(text);
  };
  const csvText = (text: string): string => {
    const guarded = guard ? guardCsvText(text) : text;
    return terminal ? terminalText(guarded) : guarded;
  };

  const encode = (record: Record<string, unknown>): string => {
    switch (format) {
      case "ndjson":
        return toJson(record) + "\n";
      case "json":
        // the separator travels with the record, so stopping between two writes leaves valid JSON
        // once end() adds the closing bracket
        return (count === 0 ? "[\n" : ",\n") + toJson(record);
      case "csv": {
        let header = "";
        if (count === 0) {
          columns ??= Object.keys(record);
          header = csvRow(columns.map(csvText));
        }
        // one string a row, no array of cells: this runs once per event of a long walk
        let row = "";
        for (let i = 0; i < columns!.length; i++) row += (i === 0 ? "" : ",") + quoteCsv(cell(record, columns![i]!));
        return header + row + "\r\n";
      }
    }
  };

  const writer: RecordWriter = {
    get count() {
      return count;
    },
    get bytes() {
      return bytes;
    },
    async write(record) {
      if (ended) throw new Error("record writer already ended");
      const text = encode(record);
      count++;
      await put(text);
    },
    async writeMany(records) {
      if (ended) throw new Error("record writer already ended");
      if (copyBytes) {
        const list = Array.isArray(records) ? (records as Record<string, unknown>[]) : [...records];
        const lines = rawJsonLines(list);
        if (lines !== undefined) {
          count += list.length;
          if (lines.length > 0) await put(lines);
          return;
        }
        records = list;
      }
      let text = "";
      for (const r of records) {
        text += encode(r);
        count++;
      }
      if (text) await put(text);
    },
    async end() {
      if (ended) return;
      ended = true;
      if (format === "json") await put(count === 0 ? "[]\n" : "\n]\n");
      else if (format === "csv" && count === 0 && columns) await put(csvRow(columns.map(csvText)));
    },
  };
  return writer;
}

/** A member's JSON: its text as sent when the record has it, else serialised (undefined as null). */
function memberJson(record: Record<string, unknown>, key: string): string {
  return rawMemberOf(record, key) ?? JSON.stringify(record[key]) ?? "null";
}

/** One RFC 4180 row with CRLF: objects and arrays as JSON, null and undefined as empty. */
export function csvRow(values: readonly unknown[]): string {
  return values.map(csvCell).join(",") + "\r\n";
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  return quoteCsv(typeof value === "object" ? JSON.stringify(value) : String(value));
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A cell's text as RFC 4180 writes it: quoted when it holds a quote, a comma or a line break. */
function quoteCsv(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
