// The retry policy alone: what happened, which attempt, Retry-After -> wait how long, or give up.
import { describe, expect, it } from "vitest";
import { backoff, decideRetry, MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, parseRetryAfter } from "../../src/api/retry.js";

const status = (s: number, retryAfterMs?: number) => ({ kind: "status" as const, status: s, retryAfterMs });
const error = (code: string | undefined) => ({ kind: "error" as const, code });

describe("decideRetry", () => {
  it.each([429, 502, 503, 504])("retries %i with backoff while attempts remain", (s) => {
    expect(decideRetry(status(s), 1, MAX_ATTEMPTS, 0)).toEqual({ action: "retry", waitMs: 250, why: "" });
    expect(decideRetry(status(s), 3, MAX_ATTEMPTS, 0.5)).toEqual({ action: "retry", waitMs: 1500, why: "" });
  });

  it.each([400, 401, 403, 404, 409, 422, 500, 501, 301])("gives up at once on %i", (s) => {
    expect(decideRetry(status(s), 1, MAX_ATTEMPTS, 0)).toEqual({ action: "give-up" });
  });

  it("gives up on the last attempt, and with retries off (one attempt)", () => {
    expect(decideRetry(status(503), MAX_ATTEMPTS, MAX_ATTEMPTS, 0)).toEqual({ action: "give-up" });
    expect(decideRetry(status(503), 1, 1, 0)).toEqual({ action: "give-up" });
    expect(decideRetry(error("ECONNRESET"), 1, 1, 0)).toEqual({ action: "give-up" });
  });

  it("waits what Retry-After says, up to the longest mq accepts", () => {
    expect(decideRetry(status(429, 2000), 1, MAX_ATTEMPTS, 0.9)).toEqual({ action: "retry", waitMs: 2000, why: " (Retry-After)" });
    expect(decideRetry(status(503, 0), 2, MAX_ATTEMPTS, 0.9)).toEqual({ action: "retry", waitMs: 0, why: " (Retry-After)" });
    expect(decideRetry(status(429, MAX_RETRY_AFTER_MS), 1, MAX_ATTEMPTS, 0)).toEqual({
      action: "retry",
      waitMs: MAX_RETRY_AFTER_MS,
      why: " (Retry-After)",
    });
  });

  it("a longer Retry-After fails now, even on the last attempt or with retries off", () => {
    const long = MAX_RETRY_AFTER_MS + 1000;
    expect(decideRetry(status(429, long), 1, MAX_ATTEMPTS, 0)).toEqual({ action: "come-back-later", retryAfterMs: long });
    expect(decideRetry(status(503, long), 1, 1, 0)).toEqual({ action: "come-back-later", retryAfterMs: long });
  });

  it("Retry-After on a status that is not retried changes nothing", () => {
    expect(decideRetry(status(500, 1000), 1, MAX_ATTEMPTS, 0)).toEqual({ action: "give-up" });
  });

  it.each(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"])("retries a connection reset (%s)", (code) => {
    expect(decideRetry(error(code), 2, MAX_ATTEMPTS, 1)).toEqual({ action: "retry", waitMs: 1000, why: " after a connection reset" });
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "UND_ERR_HEADERS_TIMEOUT", undefined])("does not retry %s", (code) => {
    expect(decideRetry(error(code), 1, MAX_ATTEMPTS, 0)).toEqual({ action: "give-up" });
  });
});

describe("backoff", () => {
  it("doubles from 500 ms, never less than half the step", () => {
    expect([1, 2, 3].map((a) => backoff(a, 0))).toEqual([250, 500, 1000]);
    expect([1, 2, 3].map((a) => backoff(a, 1))).toEqual([500, 1000, 2000]);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter(["4", "5"], now)).toBe(4000);
    expect(parseRetryAfter("Fri, 20 Nov 2026 12:01:00 GMT", now)).toBe(60000);
    expect(parseRetryAfter("Fri, 20 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("reads the obsolete HTTP-date forms (RFC 850, asctime) as GMT", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    expect(parseRetryAfter("Friday, 20-Nov-26 12:00:30 GMT", now)).toBe(30000);
    expect(parseRetryAfter("Fri Nov 20 12:00:10 2026", now)).toBe(10000);
  });

  it("anything but a non-negative integer or an HTTP-date falls back to the backoff (-5, 1.5, +2 were dates in the past: retried at once)", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    for (const v of ["-5", "1.5", "+2", "2026-11-20", "1e3", " ", "0x10", "20 Nov 2026"])
      expect(parseRetryAfter(v, now), v).toBeUndefined();
  });
});
