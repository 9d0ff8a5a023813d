// The one exporter: every command that prints data (logs, stats, config, and the commands to come)
// describes what it has as an Export and writes it through here; no command switches on -o itself.
// A format is one entry of FORMATS, so openmetrics or markdown is one more entry (and one more name
// in OUTPUT_FORMATS) that reads what it needs from the Export.
import type { OutputFormat } from "../globals.js";
import type { IOStreams } from "../iostreams/iostreams.js";
import type { FieldSpec } from "../stats/endpoints.js";
import { type MarkdownTable, renderMarkdownTable } from "./markdown.js";
import { type MetricFamily, renderOpenMetrics } from "./openmetrics.js";
import { createRecordWriter } from "./records.js";
import { terminalJson } from "../iostreams/terminal-text.js";

/** Where a command's items go, page by page; end() closes the output (json's `]`, a buffered table). */
export interface Sink<T> {
  write(items: readonly T[]): Promise<void>;
  end(): Promise<void>;
  /** bytes the output accepted so far (json, ndjson, csv; undefined for buffered formats) */
  readonly bytes?: number;
  /**
   * Items write() took that the output does not show yet (a table sizing its columns from its
   * first rows): if end() cannot write them (Ctrl-C on a terminal), they were never shown.
   */
  readonly held?: number;
}

export interface Export<T> {
  /** the terminal rendering (the only format that knows what the items are) */
  table(): Sink<T> | Promise<Sink<T>>;
  /** -o json prints this one document, pretty-printed, instead of an array of the records */
  document?: () => unknown;
  /** an item as the flat record ndjson, csv and json write (the item itself when absent) */
  toRecord?: (item: T) => Record<string, unknown>;
  /** keep only these fields, in this order (--fields) */
  fields?: string[];
  /** the csv header (default: `fields`, else the keys of the first record); asked only for csv */
  csvColumns?: () => string[];
  /** csv cells hold arrays joined with commas rather than as JSON */
  csvJoinArrays?: boolean;
  /**
   * What each numeric field of the records is (count, rate, duration, size) and how it aggregates,
   * for formats that type their values (openmetrics); the other fields are labels.
   */
  figures?: Readonly<Record<string, FieldSpec>>;
  /** the figures over the window as a table (-o markdown); commands without one refuse the format */
  headline?: () => MarkdownTable;
  /** the figures over the window as gauges (-o openmetrics) */
  metrics?: () => MetricFamily[];
}

type FormatEntry = <T>(io: IOStreams, x: Export<T>) => Sink<T> | Promise<Sink<T>>;

function recordSink<T>(format: "json" | "ndjson" | "csv", io: IOStreams, x: Export<T>): Sink<T> {
  const writer = createRecordWriter(format, io.stdout, {
    fields: x.fields,
    csvColumns: format === "csv" ? x.csvColumns?.() : undefined,
    csvGuard: io.csvGuarded(),
    // a person reads it: server text shown escaped, JSON with the same value
    terminal: io.isStdoutTerminal(),
    write: (chunk) => io.writeData(chunk),
  });
  const toRecord = x.toRecord ?? ((item: T) => item as unknown as Record<string, unknown>);
  const prepare =
    format === "csv" && x.csvJoinArrays
      ? (item: T) => Object.fromEntries(Object.entries(toRecord(item)).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v]))
      : x.toRecord === undefined
        ? undefined
        : toRecord;
  return {
    // the items are the records (events from the API): no copy of a long walk's every page
    write: (items) =>
      writer.writeMany(prepare === undefined ? (items as unknown as readonly Record<string, unknown>[]) : items.map(prepare)),
    end: () => writer.end(),
    get bytes() {
      return writer.bytes;
    },
  };
}

/** One document written at the end (the items are not needed). */
function documentSink<T>(io: IOStreams, document: () => unknown): Sink<T> {
  return {
    async write() {},
    end: () => {
      const json = JSON.stringify(document(), null, 2);
      return io.writeData((io.isStdoutTerminal() ? terminalJson(json) : json) + "\n");
    },
  };
}

/** Text made at the end from what the Export describes (the items are not needed). */
function textSink<T>(io: IOStreams, what: string, make: (() => string) | undefined): Sink<T> {
  // commands check the format while parsing flags (resolveOutputFormat), so this is a bug if reached
  if (!make) throw new Error(`this output has no ${what}`);
  return {
    async write() {},
    end: () => io.writeData(make()),
  };
}

export const FORMATS: Readonly<Record<OutputFormat, FormatEntry>> = {
  table: (_io, x) => x.table(),
  json: (io, x) => (x.document ? documentSink(io, x.document) : recordSink("json", io, x)),
  ndjson: (io, x) => recordSink("ndjson", io, x),
  csv: (io, x) => recordSink("csv", io, x),
  // -o none: a gate in CI wants its verdicts, not the data
  none: () => ({ async write() {}, async end() {} }),
  markdown: (io, x) => textSink(io, "figures for markdown", x.headline && (() => renderMarkdownTable(x.headline!()))),
  openmetrics: (io, x) => textSink(io, "figures for openmetrics", x.metrics && (() => renderOpenMetrics(x.metrics!()))),
};

/** A sink for streaming output: write pages as they arrive, then end(). */
export async function openExport<T>(format: OutputFormat, io: IOStreams, x: Export<T>): Promise<Sink<T>> {
  return FORMATS[format](io, x);
}

/** Everything at once: items already in memory (a statistics response, a config file). */
export async function exportAll<T>(format: OutputFormat, io: IOStreams, x: Export<T>, items: () => readonly T[]): Promise<void> {
  const sink = await openExport(format, io, x);
  // json with a document needs no item list
  if (!(format === "json" && x.document)) await sink.write(items());
  await sink.end();
}

/** Every key of every record, in order of first appearance: a csv header for records that differ. */
export function allKeys(records: ReadonlyArray<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}
