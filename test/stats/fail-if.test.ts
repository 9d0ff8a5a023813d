import { describe, expect, it } from "vitest";
import { check, compare, describeBreach, evaluateValue, parseFailIf } from "../../src/stats/fail-if.js";
import { UsageError } from "../../src/errors.js";

const FR = ["total", "failures", "failure_rate"];
const TQ = ["avg_queue_time", "max_queue_time", "min_queue_time"];

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("parseFailIf", () => {
  it("parses a bare field, an aggregation, every operator", () => {
    expect(parseFailIf("failure_rate > 0.2", "failure-rate", FR)).toEqual({
      source: "failure_rate > 0.2", aggregation: undefined, field: "failure_rate", op: ">", threshold: 0.2,
    });
    expect(parseFailIf("max(max_queue_time) >= 3600", "total-queue-time", TQ)).toEqual({
      source: "max(max_queue_time) >= 3600", aggregation: "max", field: "max_queue_time", op: ">=", threshold: 3600,
    });
    for (const op of [">", ">=", "<", "<=", "==", "!="]) {
      expect(parseFailIf(`total${op}5`, "failure-rate", FR).op).toBe(op);
    }
  });

  it("reads percentages and durations as thresholds", () => {
    expect(parseFailIf("failure_rate > 20%", "failure-rate", FR).threshold).toBe(0.2);
    expect(parseFailIf("max(max_queue_time) >= 1h", "total-queue-time", TQ).threshold).toBe(3600);
    expect(parseFailIf("avg_queue_time < 1e3", "total-queue-time", TQ).threshold).toBe(1000);
  });

  it("rejects bad expressions with one line naming the syntax", () => {
    expect(usage(() => parseFailIf("failure_rate", "failure-rate", FR))).toBe(
      '--fail-if "failure_rate" is not an expression: write FIELD OP VALUE or AGG(FIELD) OP VALUE, with OP one of > >= < <= == != and AGG one of avg, max, min, sum, last; fields of mq stats failure-rate: total, failures, failure_rate.',
    );
    expect(usage(() => parseFailIf("failure_rate => 1", "failure-rate", FR))).toMatch(/is not an expression/);
  });

  it("lists the endpoint's fields for an unknown field", () => {
    expect(usage(() => parseFailIf("rate > 0.2", "failure-rate", FR))).toBe(
      '--fail-if "rate > 0.2": unknown field "rate" for mq stats failure-rate; fields: total, failures, failure_rate.',
    );
  });

  it("rejects an unknown aggregation and a bad value", () => {
    expect(usage(() => parseFailIf("p95(total) > 1", "failure-rate", FR))).toBe(
      '--fail-if "p95(total) > 1": unknown aggregation "p95"; use one of avg, max, min, sum, last.',
    );
    expect(usage(() => parseFailIf("total > lots", "failure-rate", FR))).toBe(
      '--fail-if "total > lots": "lots" is not a number, a percentage (20%) or a duration (30m).',
    );
  });

  it("refuses endpoints without figures", () => {
    expect(usage(() => parseFailIf("x > 1", "branches", []))).toBe(
      "--fail-if is not available for mq stats branches: it returns names, not figures.",
    );
  });
});

describe("evaluation", () => {
  const records = [
    { start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z", total: 10, failures: 5, failure_rate: 0.5 },
    { start: "2026-11-20T11:00:00Z", end: "2026-11-20T12:00:00Z", total: 90, failures: 9, failure_rate: 0.1 },
  ];

  it("computes a rate over the window from the counts, not the mean of rates", () => {
    expect(evaluateValue(parseFailIf("failure_rate > 0.2", "failure-rate", FR), records)).toBeCloseTo(0.14, 12);
    expect(evaluateValue(parseFailIf("avg(failure_rate) > 0.2", "failure-rate", FR), records)).toBeCloseTo(0.3, 12);
    expect(evaluateValue(parseFailIf("last(failure_rate) > 0.2", "failure-rate", FR), records)).toBe(0.1);
    expect(evaluateValue(parseFailIf("total > 0", "failure-rate", FR), records)).toBe(100);
  });

  it("reports each breach with value, threshold and group", () => {
    const exprs = [parseFailIf("failure_rate > 0.1", "failure-rate", FR), parseFailIf("total < 50", "failure-rate", FR)];
    const result = check(exprs, [{ where: "queue_name default", records }]);
    expect(result.breaches.map(describeBreach)).toEqual([
      "--fail-if 'failure_rate > 0.1' breached: failure_rate = 0.14 (threshold > 0.1) for queue_name default",
    ]);
    expect(result.unevaluated).toEqual([]);
  });

  it("does not evaluate a window without values", () => {
    const expr = parseFailIf("failure_rate > 0.1", "failure-rate", FR);
    const empty = [{ start: "a", end: "b", total: 0, failures: 0, failure_rate: 0 }];
    expect(check([expr], [{ where: "g", records: empty }])).toEqual({ breaches: [], unevaluated: [expr] });
  });

  it("compares with every operator", () => {
    expect([compare(1, ">", 1), compare(1, ">=", 1), compare(1, "<", 2), compare(2, "<=", 1), compare(1, "==", 1), compare(1, "!=", 1)]).toEqual([
      false, true, true, false, true, false,
    ]);
  });
});

describe("MqError hints", () => {
  it("addHint appends a line and keeps the class and exit code (the resume hint of mq logs)", async () => {
    const { NetworkError, ExitCode } = await import("../../src/errors.js");
    const err = new NetworkError("connection reset", "check the network");
    err.addHint("To resume:\n  mq logs --cursor abc");
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.exitCode).toBe(ExitCode.NETWORK);
    expect(err.hint).toBe("check the network\nTo resume:\n  mq logs --cursor abc");
    const bare = new NetworkError("timeout");
    expect(bare.hint).toBeUndefined();
    bare.addHint("one");
    expect(bare.hint).toBe("one");
  });
});
