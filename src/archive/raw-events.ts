// The text of each event exactly as the server sent it. The client parses a page with JSON.parse,
// which loses the event's own bytes (key order, number spelling, escapes, whitespace); the archive
// keeps them. The transport's scanner (api/json-scan.ts, also behind `-o ndjson`) finds where each
// element of the top-level "events" array starts and ends; the text has already been parsed, so it
// is valid JSON.
import { scanJson } from "../api/json-scan.js";
import { ContractError } from "../errors.js";

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
