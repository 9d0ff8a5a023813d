// Values that arrived with their JSON text. The event log's pages are parsed (for validation, the
// table, --follow's ordering), but what `-o ndjson`, `json` and `csv` write is the text the API
// sent: JSON.parse turns 12345678901234567890 into 12345678901234567000, `1.0` into `1`, `1e2` into
// `100`, and JSON.stringify rewrites escapes. The pagination step attaches each event's text to the
// parsed object; the record writer asks for it and falls back to JSON.stringify for values built by
// mq itself. A WeakMap: the text lives exactly as long as the event it belongs to.
import { compactJson, fillMemberTable, memberAt, memberSpans, type Span } from "./json-scan.js";

interface RawJson {
  text: string;
  span: Span;
  /** the response's bytes when they are `text` one byte a character: the span is theirs too */
  ascii: Buffer | undefined;
  compact: string | undefined;
  /** the members by key, when a key with an escape needs decoding */
  members: Map<string, Span> | undefined;
}

// The text rides on the value itself, in a private field (invisible to keys, spreads, JSON and
// every reflection), so it lives exactly as long as the value. Not a WeakMap: V8's young-generation
// GC keeps the value of a WeakMap entry alive while the map itself is old, whether or not its key
// survives, so every page's text and spans were copied by each scavenge that met them (45 MB over
// 100,000 events, GC twice the rest of the walk's allocations took).

/** A constructor that returns the object it is given: RawSlot's private field is installed on that object. */
const Itself = function (this: unknown, value: object) {
  return value;
} as unknown as new (
  value: object,
) => object;

class RawSlot extends Itself {
  #raw: RawJson;
  private constructor(value: object, raw: RawJson) {
    super(value);
    this.#raw = raw;
  }
  static set(value: object, raw: RawJson): void {
    if (#raw in value) (value as RawSlot).#raw = raw;
    else new RawSlot(value, raw);
  }
  static get(value: object): RawJson | undefined {
    return #raw in value ? (value as RawSlot).#raw : undefined;
  }
}

/** Remembers that `value` was parsed from `text` at `span` (and `ascii`, the same text as bytes, when it is ASCII). */
export function attachRawJson(value: object, text: string, span: Span, ascii?: Buffer): void {
  RawSlot.set(value, { text, span, ascii, compact: undefined, members: undefined });
}

/** The value's JSON text as sent, on one line (white space outside strings removed), or undefined. */
export function rawJsonOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = RawSlot.get(value);
  if (raw === undefined) return undefined;
  raw.compact ??= compactJson(raw.text, raw.span);
  return raw.compact;
}

/** The JSON text of one member of the value (an object) as sent, or undefined when absent or unknown. */
export function rawMemberOf(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = RawSlot.get(value);
  if (raw === undefined) return undefined;
  if (raw.members === undefined) {
    // one walk of the event for all the members csv asks of it, one after another: the table of
    // the last event asked about is kept (not one per event, which a long walk would leave to the GC)
    if (tableOf !== raw) {
      tableOf = raw;
      tableLength = fillMemberTable(raw.text, raw.span, table);
    }
    const at = memberAt(raw.text, table, key, tableLength);
    if (at === undefined) return undefined;
    if (at >= 0) {
      const start = table[at + 2]!;
      const end = table[at + 3]!;
      return table[at + 4] === 1 ? compactJson(raw.text, { start, end, spaced: true }) : raw.text.slice(start, end);
    }
    // a key with an escape: decoded by a walk that builds each key
    raw.members = memberSpans(raw.text, raw.span);
  }
  const span = raw.members.get(key);
  return span === undefined ? undefined : compactJson(raw.text, span);
}

/** memberTable's output for `tableOf`, reused from one event to the next. */
const table: number[] = [];
let tableLength = 0;
let tableOf: RawJson | undefined;

/**
 * NDJSON lines of `values` as bytes: each value's bytes as the API sent them and a newline, copied
 * from the response without decoding or encoding text. Undefined when a value has no such bytes
 * (built by mq, a response that was not ASCII, a pretty-printed event): the caller then writes
 * rawJsonOf's text, which is the same once encoded.
 */
export function rawJsonLines(values: readonly unknown[]): Buffer | undefined {
  const raws: RawJson[] = new Array(values.length);
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const raw = typeof value === "object" && value !== null ? RawSlot.get(value) : undefined;
    if (raw === undefined || raw.ascii === undefined || raw.span.spaced) return undefined;
    raws[i] = raw;
    size += raw.span.end - raw.span.start + 1;
  }
  const out = Buffer.allocUnsafe(size);
  if (raws.length > 0 && adjacent(raws)) {
    // a whole page as sent, the events one after another with a comma between: one copy of their
    // bytes, each comma then made the newline that ends a line (the same bytes as a copy an event)
    const first = raws[0]!.span.start;
    raws[0]!.ascii!.copy(out, 0, first, raws[raws.length - 1]!.span.end);
    for (const raw of raws) out[raw.span.end - first] = 0x0a;
    return out;
  }
  let at = 0;
  for (const raw of raws) {
    at += raw.ascii!.copy(out, at, raw.span.start, raw.span.end);
    out[at++] = 0x0a;
  }
  return out;
}

/** Each value's bytes follow the one before in the same response, a single comma between them. */
function adjacent(raws: readonly RawJson[]): boolean {
  const bytes = raws[0]!.ascii!;
  for (let i = 1; i < raws.length; i++) {
    const before = raws[i - 1]!;
    const raw = raws[i]!;
    if (raw.ascii !== bytes || raw.span.start !== before.span.end + 1 || bytes[before.span.end] !== 0x2c) return false;
  }
  return true;
}

/** Whether the value carries its text. */
export function hasRawJson(value: unknown): boolean {
  return typeof value === "object" && value !== null && RawSlot.get(value) !== undefined;
}

/**
 * Attaches to each element of `items` (parsed from the response's `key` array) its text in the
 * response. Nothing is attached when the two do not line up (a body the scanner could not map).
 */
export function attachElementTexts(
  items: readonly unknown[],
  res: { text?: string; rootArrays?: Map<string, Span[]>; ascii?: Buffer },
  key: string,
): void {
  const spans = res.rootArrays?.get(key);
  if (res.text === undefined || spans === undefined || spans.length !== items.length) return;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === "object" && item !== null) attachRawJson(item, res.text, spans[i]!, res.ascii);
  }
}
