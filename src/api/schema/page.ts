// A page of the event log checked at two levels (docs/api.md §2.2-2.4, §6), against the dialect in
// effect: the page and each envelope are required (envelope.ts, by hand: it runs once per event);
// each typed event's metadata is checked by the dialect's generated validator
// (contract-checks.generated.ts, or the real service's dialects/mergify-checks.generated.ts), which
// also words what is wrong (issues.ts). No zod: a page of the real service's or of the contract's
// costs the validators alone.
import { ContractError } from "../../errors.js";
import { CONTRACT_METADATA_CHECKS } from "./contract-checks.generated.js";
import { describe, envelopeError, isObject, type MetadataChecks } from "./envelope.js";
import { issuesText } from "./issues.js";

export type { MetadataChecks } from "./envelope.js";

/** A page as parseEventsPage returns it: the body itself (events.ts gives it the event types). */
export interface CheckedPage {
  size: number;
  per_page: number;
  events: unknown[];
  [key: string]: unknown;
}

/** what the envelope check guarantees of an event */
type Envelope = { id: number; type: string; metadata: unknown };

export type EventValidation = { ok: true } | { ok: false; level: "envelope" | "metadata"; message: string };

function metadataError(type: string, metadata: unknown, checks: MetadataChecks = CONTRACT_METADATA_CHECKS): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(checks, type)) return undefined;
  const check = checks[type];
  if (check === undefined || check(metadata)) return undefined;
  return issuesText(check, metadata, "metadata");
}

/** Checks one event: the envelope first, then the metadata of its type (the contract's shapes by default). */
export function validateEvent(ev: unknown, checks?: MetadataChecks): EventValidation {
  const env = envelopeError(ev);
  if (env !== undefined) return { ok: false, level: "envelope", message: env };
  const e = ev as Envelope;
  const meta = metadataError(e.type, e.metadata, checks);
  if (meta !== undefined) return { ok: false, level: "metadata", message: meta };
  return { ok: true };
}

export interface ParseEventsPageOptions {
  /** Throw ContractError on a metadata shape that differs from the contract. */
  strict?: boolean;
  /** Called for each event whose metadata differs (outside strict); the caller warns once per type. */
  onMetadataMismatch?: (type: string, eventId: number, message: string) => void;
  /**
   * Whether to check the metadata of events of this type (default: every type). A caller that has
   * already warned about a type and needs no per-event verdict skips the check: against the real
   * service, whose queue events all differ from the contract, describing each mismatch was most of
   * the parse cost. Ignored with strict.
   */
  checkMetadataOf?: (type: string) => boolean;
  /** the metadata validators of the dialect in effect (default: the contract's) */
  metadata?: MetadataChecks;
  /** what those shapes come from, in the errors (default "the contract"; page-check.ts METADATA_SHAPES_OF) */
  against?: string;
}

/**
 * Validates a page of the event log at two levels. The page and each envelope are required: a
 * breach throws ContractError naming the path and the event id. A metadata shape that differs is
 * reported through onMetadataMismatch and kept as sent (or thrown with strict). Returns the body
 * itself, not a copy, so unknown fields and key order survive to `--json` output.
 */
export function parseEventsPage(body: unknown, opts: ParseEventsPageOptions = {}): CheckedPage {
  const prefix = `response does not match ${opts.against ?? "the contract"}`;
  if (!isObject(body)) throw new ContractError(`${prefix}: expected a JSON object, got ${describe(body)}`);
  if (!Number.isSafeInteger(body.size)) throw new ContractError(`${prefix}: size: expected an integer, got ${describe(body.size)}`);
  if (!Number.isSafeInteger(body.per_page))
    throw new ContractError(`${prefix}: per_page: expected an integer, got ${describe(body.per_page)}`);
  const events = body.events;
  if (!Array.isArray(events)) throw new ContractError(`${prefix}: events: expected an array, got ${describe(events)}`);
  const { strict = false, onMetadataMismatch, checkMetadataOf, metadata } = opts;
  for (let i = 0; i < events.length; i++) {
    const ev: unknown = events[i];
    const env = envelopeError(ev);
    if (env !== undefined) {
      const id = isObject(ev) && ev.id !== undefined ? String(ev.id) : "unknown";
      throw new ContractError(`${prefix}: events[${i}] (id ${id}): ${env}`);
    }
    const e = ev as Envelope;
    if (!strict && checkMetadataOf !== undefined && !checkMetadataOf(e.type)) continue;
    const meta = metadataError(e.type, e.metadata, metadata);
    if (meta === undefined) continue;
    if (strict) throw new ContractError(`${prefix}: events[${i}] (id ${e.id}) ${e.type}: ${meta}`);
    onMetadataMismatch?.(e.type, e.id, meta);
  }
  return body as unknown as CheckedPage;
}
