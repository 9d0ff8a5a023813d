import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { ContractError } from "../../../src/errors.js";
import { STATS_ENDPOINTS } from "../../../src/stats/endpoints.js";
import {
  QueueChecksOutcomeSchema,
  STATS_ENDPOINT_NAMES,
  STATS_RESPONSE_SCHEMAS,
  parseStatsResponse,
  type StatsEndpointName,
} from "../../../src/api/schema/stats.js";
import { CHECKS_OUTCOME_COUNTERS } from "../../../src/api/schema/common.js";
import { contractError } from "../../helpers/contract.js";

const stats = JSON.parse(readFileSync(new URL("../../../src/api/fixtures/stats.json", import.meta.url), "utf8")) as Record<
  StatsEndpointName,
  unknown
>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe("statistics schemas", () => {
  it("cover exactly the endpoints of src/stats/endpoints.ts, and the fixture has one of each", () => {
    const names = STATS_ENDPOINTS.map((e) => e.name);
    expect([...STATS_ENDPOINT_NAMES]).toEqual(names);
    expect(Object.keys(STATS_RESPONSE_SCHEMAS)).toEqual(names);
    // the contract's example responses; the real service's own endpoints are checked against its
    // OpenAPI instead (test/server/mergify-openapi.test.ts, test/commands/stats/dialects.test.ts)
    expect(Object.keys(stats)).toEqual(STATS_ENDPOINTS.filter((e) => e.dialects.includes("spec")).map((e) => e.name));
  });

  it.each(STATS_ENDPOINTS.filter((e) => e.dialects.includes("spec")).map((e) => [e.name]))(
    "%s fixture parses strictly and round-trips",
    (name) => {
      const body = stats[name];
      const mismatches: string[] = [];
      expect(parseStatsResponse(name, body, { strict: true, onMismatch: (_n, m) => mismatches.push(m) })).toBe(body);
      expect(mismatches).toEqual([]);
      expect(JSON.stringify(STATS_RESPONSE_SCHEMAS[name].parse(body))).toBe(JSON.stringify(body));
    },
  );

  it("keeps extra fields (loose objects)", () => {
    const body = clone(stats["average-ci-runtime"]) as {
      groups: Array<Record<string, unknown> & { stats: Array<Record<string, unknown>> }>;
    };
    body.groups[0]!.stats[0]!.sum_runtime = 2449.6;
    body.groups[0]!.summary = { p95: 1 };
    const parsed = STATS_RESPONSE_SCHEMAS["average-ci-runtime"].parse(body) as typeof body;
    expect(parsed.groups[0]!.stats[0]!.sum_runtime).toBe(2449.6);
    expect(parsed.groups[0]!.summary).toEqual({ p95: 1 });
  });

  it("QueueChecksOutcome: every abort code and SUCCESS optional, unknown counters kept, non-integers refused", () => {
    expect(CHECKS_OUTCOME_COUNTERS).toHaveLength(32);
    expect(QueueChecksOutcomeSchema.parse({})).toEqual({});
    expect(QueueChecksOutcomeSchema.parse({ SUCCESS: 3, BATCH_SCOPES_CHANGED: 1 })).toEqual({ SUCCESS: 3, BATCH_SCOPES_CHANGED: 1 });
    expect(QueueChecksOutcomeSchema.safeParse({ CHECKS_FAILED: 1.5 }).success).toBe(false);
  });

  it("time-to-merge is a top-level array; mean and median may be null", () => {
    expect(STATS_RESPONSE_SCHEMAS["time-to-merge"].safeParse({ partitions: [] }).success).toBe(false);
    expect(STATS_RESPONSE_SCHEMAS["time-to-merge"].safeParse([]).success).toBe(true);
  });

  it("running-speculative-checks groups need no priority_rule_name; other groups do", () => {
    const running = clone(stats["running-speculative-checks"]) as { groups: Array<Record<string, unknown>> };
    expect("priority_rule_name" in running.groups[0]!).toBe(false);
    const entered = clone(stats["queues-entered-count"]) as { groups: Array<Record<string, unknown>> };
    delete entered.groups[0]!.priority_rule_name;
    expect(contractError(() => parseStatsResponse("queues-entered-count", entered)).message).toBe(
      "response does not match the contract: queues-entered-count: groups[0].priority_rule_name: Invalid input: expected string, received undefined",
    );
  });

  it("a broken interval names its path", () => {
    const body = clone(stats["queues-entered-count"]) as { groups: Array<{ stats: Array<Record<string, unknown>> }> };
    body.groups[1]!.stats[2]!.entered = "3";
    expect(contractError(() => parseStatsResponse("queues-entered-count", body)).message).toBe(
      "response does not match the contract: queues-entered-count: groups[1].stats[2].entered: Invalid input: expected number, received string",
    );
    const bad = clone(stats["queue-size"]) as { groups: Array<{ stats: Array<Record<string, unknown>> }> };
    bad.groups[0]!.stats[0]!.start = "2026-11-19 12:00";
    expect(contractError(() => parseStatsResponse("queue-size", bad)).message).toBe(
      "response does not match the contract: queue-size: groups[0].stats[0].start: expected an ISO 8601 date-time",
    );
  });

  it("batch-bisection needs both lists", () => {
    const { started } = stats["batch-bisection"] as { started: unknown };
    expect(contractError(() => parseStatsResponse("batch-bisection", { started })).message).toBe(
      "response does not match the contract: batch-bisection: completed: Invalid input: expected array, received undefined",
    );
  });

  it("the real service's groups without partition_name: a mismatch, not an error (an error with strict)", () => {
    const body = clone(stats["queues-merged-count"]) as { groups: Array<Record<string, unknown>> };
    for (const g of body.groups) delete g.partition_names;
    const seen: string[] = [];
    expect(parseStatsResponse("queues-merged-count", body, { onMismatch: (n, m) => seen.push(`${n}: ${m}`) })).toBe(body);
    expect(seen).toEqual([
      "queues-merged-count: groups[0].partition_names: Invalid input: expected array, received undefined; groups[1].partition_names: Invalid input: expected array, received undefined",
    ]);
    expect(() => parseStatsResponse("queues-merged-count", body, { strict: true })).toThrow(ContractError);

    const ttm = clone(stats["time-to-merge"]) as Array<Record<string, unknown>>;
    delete ttm[0]!.partition_name;
    expect(parseStatsResponse("time-to-merge", ttm)).toBe(ttm);
  });
});
