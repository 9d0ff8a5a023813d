// The text of each event exactly as the server sent it. The client parses a page with JSON.parse,
// which loses the event's own bytes (key order, number spelling, escapes, whitespace); the archive
// keeps them. The transport's scanner (api/json-scan.ts, also behind `-o ndjson`) finds where each
// element of the top-level "events" array starts and ends; the text has already been parsed, so it
// is valid JSON.
import { memberSpans, scanJson } from "../api/json-scan.js";
import { ContractError } from "../errors.js";
import { idOutOfRange, INT64_MAX, INT64_MIN } from "../api/event-ids.js";

/**
 * The source text of each element of the page's top-level `events` array, in order. When the
 * object repeats the key, the last one wins, as with JSON.parse.
 */
export function rawEventTexts(pageText: string): string[] {
  if (!/^\s*\{/.test(pageText)) throw new ContractError("the events page is not a JSON object the archive can read");
  const spans = scanJson(pageText).rootArrays.get("events");
  if (spans === undefined) throw new ContractError("the events page has no events array");
  return spans.map((s) => pageText.slice(s.start, s.end));
}

/**
 * An event's id exactly as the server wrote it, from the event's own text: JSON.parse rounds an
 * integer beyond 2^53 (two distinct ids became one key, and the archive kept one of them). An id
 * outside the API's int64 range is a contract error naming the event, before its page is written.
 */
export function exactEventId(raw: string, parsed: number): bigint {
  const span = memberSpans(raw, { start: 0, end: raw.length, spaced: true }).get("id");
  const text = span === undefined ? "" : raw.slice(span.start, span.end).trim();
  // 1.0 or 1e2 for an id: an integer by value, written another way; exact when safe
  const id = /^-?\d+$/.test(text) ? BigInt(text) : Number.isSafeInteger(parsed) ? BigInt(parsed) : undefined;
  if (id === undefined || id < INT64_MIN || id > INT64_MAX)
    throw idOutOfRange(
      text || String(parsed),
      "its page was not archived",
      "report the event to the API provider; the archive keeps what came before it",
    );
  return id;
}
