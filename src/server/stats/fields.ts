// What the statistics read of an event, and the few rules both of their readings share (over
// events and over the simulation's facts): a check run's outcome, what counts as a failure.
import type { StoredEvent } from "../store.js";

export function meta(e: StoredEvent): Record<string, unknown> {
  return e.metadata as Record<string, unknown>;
}

export const round = (n: number) => Math.round(n * 1000) / 1000;

export const FAILED_CONCLUSIONS: ReadonlySet<string> = new Set(["failure", "timed_out", "error"]);

/** a check run's outcome: its abort code, or SUCCESS, CHECKS_TIMEOUT or CHECKS_FAILED by its conclusion */
export function outcomeOf(abortCode: string | null, conclusion: string): string {
  if (abortCode !== null) return abortCode;
  if (conclusion === "success") return "SUCCESS";
  if (conclusion === "timed_out") return "CHECKS_TIMEOUT";
  return "CHECKS_FAILED";
}

function conclusionOf(e: StoredEvent): unknown {
  return (meta(e).speculative_check_pull_request as { checks_conclusion?: unknown } | undefined)?.checks_conclusion;
}

/** checks_end outcome: the abort code, or SUCCESS for a successful run */
export function checkOutcome(e: StoredEvent): string {
  const m = meta(e);
  const conclusion = conclusionOf(e);
  return outcomeOf(typeof m.abort_code === "string" ? m.abort_code : null, typeof conclusion === "string" ? conclusion : "success");
}

/** a checks_end counts as a failure when its conclusion is failure, timed_out or error */
export function isFailedCheck(e: StoredEvent): boolean {
  const conclusion = conclusionOf(e);
  return typeof conclusion === "string" && FAILED_CONCLUSIONS.has(conclusion);
}

// the events of one queue session share their queued_at string: parsed once, not per event and endpoint
let lastIso: string | undefined;
let lastIsoMs = NaN;
export function parseIso(s: string): number {
  if (s !== lastIso) {
    lastIso = s;
    lastIsoMs = Date.parse(s);
  }
  return lastIsoMs;
}

/** b - a in whole ms, for two ISO times */
export function millis(a: unknown, b: unknown): number | undefined {
  if (typeof a !== "string" || typeof b !== "string") return undefined;
  const d = Date.parse(b) - Date.parse(a);
  return Number.isFinite(d) && d >= 0 ? d : undefined;
}

/** ms from queued_at to t */
export function queueMillis(e: StoredEvent, t: number): number | undefined {
  const q = meta(e).queued_at;
  if (typeof q !== "string") return undefined;
  const d = t - parseIso(q);
  return Number.isFinite(d) && d >= 0 ? d : undefined;
}

/** seconds from queued_at to t */
export function queueTime(e: StoredEvent, t: number): number | undefined {
  const d = queueMillis(e, t);
  return d === undefined ? undefined : d / 1000;
}

export function sessionKey(e: StoredEvent): string | undefined {
  const s = meta(e).session_id;
  return typeof s === "string" ? s : undefined;
}

/** a dedupe key of the train car an event is of */
export const trainCar = (e: StoredEvent) =>
  typeof meta(e).train_car_id === "string" ? `car:${meta(e).train_car_id as string}` : undefined;
