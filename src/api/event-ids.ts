// An event's id exactly as the server wrote it. The API's ids are signed 64-bit integers (the
// OpenAPI's int64); JSON.parse rounds any beyond 2^53, so 9007199254740993 reads as
// 9007199254740992 and two distinct events share an id. Whatever compares or keys events by id
// (the pagination guard, the time slices' boundaries, --follow's de-duplication, the archive) asks
// here for the id's text as sent; the output formats write that text already (raw-json.ts). Events
// mq holds without their page's text (the bundled server's replayed log) keep the exact id beside
// them (keepExactId) and are written with it (eventJson).
import { ContractError } from "../errors.js";
import { messageText } from "../iostreams/terminal-text.js";
import { attachElementTexts, hasRawJson, rawMemberOf } from "./raw-json.js";
import { compactJson, memberSpans, type Span } from "./json-scan.js";

/** The API's range for an event id: a signed 64-bit integer, DuckDB's BIGINT. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** the API's range for an event id, in words */
export const ID_RANGE_TEXT = "a signed 64-bit integer, -2^63 to 2^63-1";

const INTEGER_TEXT = /^-?\d+$/;

/**
 * Exact ids (decimal digits) of events beyond 2^53 that mq holds without their text. Few, and
 * held as long as the event (the server's replayed log): a WeakMap costs nothing for the others.
 */
const exactIds = new WeakMap<object, string>();

/**
 * Reads the id of an event parsed from `text` (the JSON of that one event) exactly, and keeps it
 * beside the event. Undefined when the id is an integer inside the API's int64 range (kept when
 * beyond 2^53); else the id's text, for the caller's message.
 */
export function keepExactId(event: { id: unknown }, text: string): string | undefined {
  if (typeof event.id === "number" && Number.isSafeInteger(event.id)) return undefined;
  const span = memberSpans(text, { start: 0, end: text.length, spaced: true }).get("id");
  const idText = span === undefined ? String(event.id) : compactJson(text, span);
  if (!INTEGER_TEXT.test(idText)) return idText;
  const exact = BigInt(idText);
  if (exact < INT64_MIN || exact > INT64_MAX) return idText;
  exactIds.set(event, exact.toString());
  return undefined;
}

/** `to` (an event built from `from`, with the same id) keeps `from`'s exact id. */
export function carryExactId<T extends object>(from: object, to: T): T {
  const exact = exactIds.get(from);
  if (exact !== undefined) exactIds.set(to, exact);
  return to;
}

/** The event's JSON, its id as exact as kept (JSON.stringify would write the rounded number). */
export function eventJson(event: object): string {
  const exact = exactIds.get(event);
  if (exact === undefined) return JSON.stringify(event);
  const members: string[] = [];
  for (const [key, value] of Object.entries(event)) {
    const text = key === "id" ? exact : JSON.stringify(value);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}

/**
 * The event's id as a key: its decimal digits, exact. A safe integer is its own text; a larger
 * one is read from the event's text as sent, when the event carries it (checkEventIds sees to it
 * for every page of the log).
 */
export function eventIdKey(event: { id: unknown }): string {
  const id = event.id;
  if (typeof id === "number" && Number.isSafeInteger(id)) return String(id);
  const kept = exactIds.get(event);
  if (kept !== undefined) return kept;
  const text = rawMemberOf(event, "id");
  return text !== undefined && INTEGER_TEXT.test(text) ? BigInt(text).toString() : String(id);
}

/** Orders two events' ids exactly (ids beyond 2^53 by their text). */
export function compareEventIds(a: { id: unknown }, b: { id: unknown }): number {
  if (typeof a.id === "number" && typeof b.id === "number" && Number.isSafeInteger(a.id) && Number.isSafeInteger(b.id)) return a.id - b.id;
  const x = BigInt(eventIdKey(a));
  const y = BigInt(eventIdKey(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Orders two events oldest first: by received_at, then by exact id (the log's own order). */
export function compareEventTimes(a: { received_at: string; id: unknown }, b: { received_at: string; id: unknown }): number {
  return Date.parse(a.received_at) - Date.parse(b.received_at) || compareEventIds(a, b);
}

/**
 * The contract error for an event whose id is outside the API's range, naming it; `what` says what
 * became of its page.
 */
export function idOutOfRange(idText: string, what: string, hint = "report the event to the API provider"): ContractError {
  return new ContractError(`the event with id ${messageText(idText)} has an id outside the API's range (${ID_RANGE_TEXT}): ${what}`, hint);
}

/**
 * Checks a page's ids before any of it is written: an id beyond 2^53 gets its text attached (from
 * the response) so that it stays exact, and an id outside the API's int64 range is a contract
 * error (exit 6) naming the event. Most pages hold only safe integers and cost one loop.
 */
export function checkEventIds(
  events: readonly unknown[],
  res: { text?: string; rootArrays?: Map<string, Span[]>; ascii?: Buffer },
  what = "its page was not written",
): void {
  let attached = false;
  for (const event of events) {
    const id = (event as { id?: unknown }).id;
    if (typeof id === "number" && Number.isSafeInteger(id)) continue;
    if (!attached) {
      if (!hasRawJson(event)) attachElementTexts(events, res, "events");
      attached = true;
    }
    const text = rawMemberOf(event, "id");
    const exact =
      text !== undefined && INTEGER_TEXT.test(text)
        ? BigInt(text)
        : typeof id === "number" && Number.isInteger(id)
          ? BigInt(id)
          : undefined;
    if (exact === undefined || exact < INT64_MIN || exact > INT64_MAX) throw idOutOfRange(text ?? String(id), what);
  }
}
