// When to try a request again, as one pure function: what happened (a status with its Retry-After,
// or a network error code), which attempt it was, and a jitter draw in, "wait N ms" or "give up"
// out. The transport only carries the decision out, so the policy is tested without a server.

export const MAX_ATTEMPTS = 4;
/** the longest Retry-After mq waits for; a longer one fails at once, saying when to come back */
export const MAX_RETRY_AFTER_MS = 30_000;
const BACKOFF_BASE_MS = 500;
/** overloaded or briefly unavailable: worth another try */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** the connection dropped under the request: worth another try */
export const RESET_CODES: ReadonlySet<string> = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"]);

export type Outcome =
  /** an HTTP answer; retryAfterMs from its Retry-After header, when it had a readable one */
  | { kind: "status"; status: number; retryAfterMs?: number }
  /** no answer: the error code undici or Node gave (undefined when none) */
  | { kind: "error"; code: string | undefined };

export type RetryDecision =
  /** wait this long, then send again; `why` completes the --debug line "retrying in N s…" */
  | { action: "retry"; waitMs: number; why: string }
  /** the server asked for a wait longer than MAX_RETRY_AFTER_MS: fail now, saying when to come back */
  | { action: "come-back-later"; retryAfterMs: number }
  | { action: "give-up" };

/**
 * What to do after attempt number `attempt` (1-based) of `maxAttempts` ended with `outcome`.
 * `jitter` is a draw in [0, 1), used only when the wait is mq's own backoff.
 */
export function decideRetry(outcome: Outcome, attempt: number, maxAttempts: number, jitter: number): RetryDecision {
  const more = attempt < maxAttempts;
  if (outcome.kind === "error") {
    if (more && outcome.code !== undefined && RESET_CODES.has(outcome.code)) {
      return { action: "retry", waitMs: backoff(attempt, jitter), why: " after a connection reset" };
    }
    return { action: "give-up" };
  }
  if (!RETRY_STATUSES.has(outcome.status)) return { action: "give-up" };
  const { retryAfterMs } = outcome;
  if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) return { action: "come-back-later", retryAfterMs };
  if (!more) return { action: "give-up" };
  if (retryAfterMs !== undefined) return { action: "retry", waitMs: retryAfterMs, why: " (Retry-After)" };
  return { action: "retry", waitMs: backoff(attempt, jitter), why: "" };
}

/** Exponential backoff from 500 ms with "equal jitter": at least half the step, so clients that failed together spread out. */
export function backoff(attempt: number, jitter: number): number {
  const base = BACKOFF_BASE_MS * 2 ** (attempt - 1);
  return Math.round(base / 2 + jitter * (base / 2));
}

// RFC 9110's HTTP-date in its three forms (IMF-fixdate, obsolete RFC 850, asctime): Date.parse
// alone reads "-5", "1.5" or "+2" as dates in the past, so a retry fired at once instead of backing off
const HTTP_DATE =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * Retry-After in milliseconds: delta-seconds (a non-negative integer) or an HTTP-date; undefined
 * when absent or anything else ("-5", "1.5", "+2", "soon"), which leaves the wait to the backoff.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const trimmed = v.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed.endsWith("GMT") ? trimmed : `${trimmed} GMT`);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}
