import { describe, expect, it } from "vitest";
import {
  LogsQuerySchema,
  PathParamsSchema,
  RangeQuerySchema,
  RunningChecksQuerySchema,
  STATS_QUERY_SCHEMAS,
  StatsFilterSchema,
  TimeToMergeQuerySchema,
  decodePathParams,
  decodeQuery,
} from "../../../src/api/schema/params.js";
import { STATS_ENDPOINTS } from "../../../src/stats/endpoints.js";

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe("limits on both sides of each boundary", () => {
  it.each([
    [0, false],
    [1, true],
    [100, true],
    [101, false],
    [1.5, false],
  ])("per_page %s", (n, valid) => expect(ok(LogsQuerySchema, { per_page: n })).toBe(valid));

  it.each([
    [0, false],
    [1, true],
    [2147483646, true],
    [2147483647, false],
  ])("pull_request %s", (n, valid) => expect(ok(LogsQuerySchema, { pull_request: n })).toBe(valid));

  it.each([
    ["", false],
    ["a", true],
    ["x".repeat(255), true],
    ["x".repeat(256), false],
  ])("logs base_ref of length %#", (s, valid) => expect(ok(LogsQuerySchema, { base_ref: s })).toBe(valid));

  it("event_type accepts the 47 values only", () => {
    expect(ok(LogsQuerySchema, { event_type: ["action.queue.enter", "ci_issue.created"] })).toBe(true);
    expect(ok(LogsQuerySchema, { event_type: ["action.queue.nope"] })).toBe(false);
  });

  it.each([
    ["2026-11-20T10:00:00Z", true],
    ["2026-11-20T10:00:00+01:00", true],
    ["2026-11-20T10:00:00", false],
    ["2026-02-30T10:00:00Z", false],
  ])("received_from %s", (s, valid) => {
    expect(ok(LogsQuerySchema, { received_from: s })).toBe(valid);
    expect(ok(StatsFilterSchema, { end_at: s })).toBe(valid);
  });

  it.each([
    ["a".repeat(40), true],
    ["a".repeat(41), false],
    ["", false],
    ["my-org", true],
    ["my_org", false],
  ])("owner %s", (owner, valid) => expect(ok(PathParamsSchema, { owner, repository: "web" })).toBe(valid));

  it.each([
    ["web.app_2-x", true],
    ["", false],
    ["a".repeat(100), true],
    ["a".repeat(101), false],
    ["web/app", false],
  ])("repository %s", (repository, valid) => expect(ok(PathParamsSchema, { owner: "acme", repository })).toBe(valid));

  it("stats filters: names 1-255 chars, at most 255 of them", () => {
    expect(ok(StatsFilterSchema, { queue_name: ["x".repeat(255)] })).toBe(true);
    expect(ok(StatsFilterSchema, { queue_name: ["x".repeat(256)] })).toBe(false);
    expect(ok(StatsFilterSchema, { queue_name: [""] })).toBe(false);
    expect(ok(StatsFilterSchema, { base_ref: Array(255).fill("main") })).toBe(true);
    expect(ok(StatsFilterSchema, { base_ref: Array(256).fill("main") })).toBe(false);
  });

  it("the query schema of each kind has exactly its parameters", () => {
    const keys = (s: { shape: object }) => Object.keys(s.shape).sort();
    expect(keys(StatsFilterSchema)).toEqual(["base_ref", "end_at", "partition_name", "priority_rule_name", "queue_name", "start_at"]);
    expect(keys(RunningChecksQuerySchema)).toEqual(["base_ref", "end_at", "partition_name", "queue_name", "start_at"]);
    expect(keys(RangeQuerySchema)).toEqual(["end_at", "start_at"]);
    expect(keys(TimeToMergeQuerySchema)).toEqual(["at", "branch"]);
    for (const e of STATS_ENDPOINTS) expect(STATS_QUERY_SCHEMAS[e.params]).toBeDefined();
  });
});

describe("decodeQuery", () => {
  it("reads repeated keys into arrays, coerces integers, ignores unknown parameters", () => {
    const r = decodeQuery(
      new URLSearchParams("event_type=action.queue.enter&event_type=action.queue.leave&per_page=50&pull_request=7&outcome=success"),
      LogsQuerySchema,
    );
    expect(r).toEqual({
      ok: true,
      value: { event_type: ["action.queue.enter", "action.queue.leave"], per_page: 50, pull_request: 7 },
    });
  });

  it("a repeated scalar takes the last value, as FastAPI does", () => {
    expect(decodeQuery(new URLSearchParams("per_page=5&per_page=9"), LogsQuerySchema)).toEqual({
      ok: true,
      value: { per_page: 9 },
    });
  });

  it("a single value of an array field is a one-item array", () => {
    expect(decodeQuery(new URLSearchParams("queue_name=default"), StatsFilterSchema)).toEqual({
      ok: true,
      value: { queue_name: ["default"] },
    });
  });

  it.each([
    ["per_page=101", { loc: ["query", "per_page"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }],
    ["per_page=0", { loc: ["query", "per_page"], msg: "Input should be greater than or equal to 1", type: "greater_than_equal" }],
    [
      "per_page=ten",
      { loc: ["query", "per_page"], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" },
    ],
    ["pull_request=2147483647", { loc: ["query", "pull_request"], msg: "Input should be less than 2147483647", type: "less_than" }],
    ["base_ref=", { loc: ["query", "base_ref"], msg: "String should have at least 1 character", type: "string_too_short" }],
    [
      `base_ref=${"x".repeat(256)}`,
      { loc: ["query", "base_ref"], msg: "String should have at most 255 characters", type: "string_too_long" },
    ],
    ["received_to=2026-11-20T10:00:00", { loc: ["query", "received_to"], msg: "Input should have timezone info", type: "timezone_aware" }],
    ["received_to=yesterday", { loc: ["query", "received_to"], msg: "Input should be a valid datetime", type: "datetime_parsing" }],
  ])("%s gives a FastAPI detail", (qs, detail) => {
    expect(decodeQuery(new URLSearchParams(qs), LogsQuerySchema)).toEqual({ ok: false, detail: [detail] });
  });

  it("an unknown event type names the item index and the allowed values", () => {
    const r = decodeQuery(new URLSearchParams("event_type=action.queue.enter&event_type=nope"), LogsQuerySchema);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.detail).toHaveLength(1);
    expect(r.detail[0]!.loc).toEqual(["query", "event_type", 1]);
    expect(r.detail[0]!.type).toBe("enum");
    expect(r.detail[0]!.msg).toMatch(/^Input should be 'action\.assign', 'action\.backport', .* or 'scheduled_freeze\.update'$/);
  });

  it("reports every bad parameter", () => {
    const r = decodeQuery(new URLSearchParams("per_page=0&pull_request=0"), LogsQuerySchema);
    expect(r.ok ? [] : r.detail.map((d) => d.loc[1])).toEqual(["pull_request", "per_page"]);
  });

  it("too many filter names", () => {
    const qs = Array.from({ length: 256 }, (_, i) => `queue_name=q${i}`).join("&");
    expect(decodeQuery(new URLSearchParams(qs), StatsFilterSchema)).toEqual({
      ok: false,
      detail: [{ loc: ["query", "queue_name"], msg: "List should have at most 255 items after validation, not 256", type: "too_long" }],
    });
  });
});

describe("decodePathParams", () => {
  it("accepts valid identifiers", () => {
    expect(decodePathParams({ owner: "acme", repository: "web.app" })).toEqual({
      ok: true,
      value: { owner: "acme", repository: "web.app" },
    });
  });

  it("names the path parameter", () => {
    expect(decodePathParams({ owner: "my_org", repository: "web" })).toEqual({
      ok: false,
      detail: [{ loc: ["path", "owner"], msg: "String should match pattern '^[a-zA-Z0-9\\-]+$'", type: "string_pattern_mismatch" }],
    });
    expect(decodePathParams({ owner: "a".repeat(41), repository: "web" })).toEqual({
      ok: false,
      detail: [{ loc: ["path", "owner"], msg: "String should have at most 40 characters", type: "string_too_long" }],
    });
  });
});
