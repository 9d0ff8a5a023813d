// The event envelope and a page, checked by hand and by the dialect's generated validators
// (contract-checks.generated.ts, or the real service's dialects/mergify-checks.generated.ts):
// `surelyValidPage` says whether a page is valid as it is; parseEventsPage (page.ts) runs the same
// validators and words what is wrong.
import type { Check } from "./check-helpers.js";
import { CONTRACT_METADATA_CHECKS, DATE_TIME_RE } from "./contract-checks.generated.js";

export const DATE_TIME_MESSAGE = "expected an ISO 8601 date-time";

/** True for an ISO 8601 date-time with `Z` or a `±hh:mm` offset and a real calendar date (zod's pattern). */
export function isDateTime(value: unknown): value is string {
  return typeof value === "string" && DATE_TIME_RE.test(value);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

function show(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : describe(v);
}

// Hand-written because it runs once per event on pages of up to 100,000 events; it says the same
// as EventEnvelopeSchema (events.ts), in the words of the error messages.
export function envelopeError(ev: unknown): string | undefined {
  if (!isObject(ev)) return `expected an event object, got ${describe(ev)}`;
  // an integer beyond 2^53 is still an integer (the real service's ids are int64): its exact text
  // goes out with the event (api/raw-json.ts)
  if (!Number.isInteger(ev.id)) return `id: expected an integer, got ${describe(ev.id)}`;
  if (!isDateTime(ev.received_at)) return `received_at: ${DATE_TIME_MESSAGE}, got ${show(ev.received_at)}`;
  if (typeof ev.trigger !== "string") return `trigger: expected a string, got ${describe(ev.trigger)}`;
  if (typeof ev.repository !== "string") return `repository: expected a string, got ${describe(ev.repository)}`;
  if (ev.pull_request !== null && !Number.isInteger(ev.pull_request))
    return `pull_request: expected an integer or null, got ${describe(ev.pull_request)}`;
  if (ev.base_ref !== null && typeof ev.base_ref !== "string") return `base_ref: expected a string or null, got ${describe(ev.base_ref)}`;
  if (typeof ev.type !== "string") return `type: expected a string, got ${describe(ev.type)}`;
  if (!isObject(ev.metadata)) return `metadata: expected an object, got ${describe(ev.metadata)}`;
  return undefined;
}

/** event type -> the validator of its metadata (a generated table, see check-files.ts); undefined: not checked */
export type MetadataChecks = Readonly<Record<string, Check | undefined>>;

/**
 * True exactly when parseEventsPage would accept the page without a word (no breach, no metadata
 * mismatch) given the same `checks`: every envelope valid, every typed event's metadata its shape.
 * `checks` are the dialect's (the contract's by default, MERGIFY_METADATA_CHECKS for the real service).
 */
export function surelyValidPage(body: unknown, checks: MetadataChecks = CONTRACT_METADATA_CHECKS): boolean {
  if (!isObject(body) || !Number.isSafeInteger(body.size) || !Number.isSafeInteger(body.per_page)) return false;
  const events = body.events;
  if (!Array.isArray(events)) return false;
  for (let i = 0; i < events.length; i++) {
    const ev: unknown = events[i];
    if (envelopeError(ev) !== undefined) return false;
    const e = ev as { type: string; metadata: unknown };
    // an untyped or unknown type has no metadata shape: nothing to check (as parseEventsPage)
    if (!Object.prototype.hasOwnProperty.call(checks, e.type)) continue;
    const check = checks[e.type];
    if (check !== undefined && !check(e.metadata)) return false;
  }
  return true;
}
