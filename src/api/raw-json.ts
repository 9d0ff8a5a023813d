// Values that arrived with their JSON text. The event log's pages are parsed (for validation, the
// table, --follow's ordering), but what `-o ndjson`, `json` and `csv` write is the text the API
// sent: JSON.parse turns 12345678901234567890 into 12345678901234567000, `1.0` into `1`, `1e2` into
// `100`, and JSON.stringify rewrites escapes. The pagination step attaches each event's text to the
// parsed object; the record writer asks for it and falls back to JSON.stringify for values built by
// mq itself. A WeakMap: the text lives exactly as long as the event it belongs to.
import { compactJson, memberSpans, type Span } from "./json-scan.js";

interface RawJson {
  text: string;
  span: Span;
  compact?: string;
  members?: Map<string, Span>;
}

const RAW = new WeakMap<object, RawJson>();

/** Remembers that `value` was parsed from `text` at `span`. */
export function attachRawJson(value: object, text: string, span: Span): void {
  RAW.set(value, { text, span });
}

/** The value's JSON text as sent, on one line (white space outside strings removed), or undefined. */
export function rawJsonOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = RAW.get(value);
  if (raw === undefined) return undefined;
  raw.compact ??= compactJson(raw.text, raw.span);
  return raw.compact;
}

/** The JSON text of one member of the value (an object) as sent, or undefined when absent or unknown. */
export function rawMemberOf(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = RAW.get(value);
  if (raw === undefined) return undefined;
  raw.members ??= memberSpans(raw.text, raw.span);
  const span = raw.members.get(key);
  return span === undefined ? undefined : compactJson(raw.text, span);
}

/** Whether the value carries its text. */
export function hasRawJson(value: unknown): boolean {
  return typeof value === "object" && value !== null && RAW.has(value);
}

/**
 * Attaches to each element of `items` (parsed from the response's `key` array) its text in the
 * response. Nothing is attached when the two do not line up (a body the scanner could not map).
 */
export function attachElementTexts(items: readonly unknown[], res: { text?: string; rootArrays?: Map<string, Span[]> }, key: string): void {
  const spans = res.rootArrays?.get(key);
  if (res.text === undefined || spans === undefined || spans.length !== items.length) return;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === "object" && item !== null) attachRawJson(item, res.text, spans[i]!);
  }
}
