import { describe, expect, it } from "vitest";
import { compare, evaluateValue, judge, judgeStats, parseFailIf, statsTargets, type Target } from "../../src/stats/fail-if.js";
import { findStatsEndpoint } from "../../src/stats/endpoints.js";
import { formatVerdict, verdictRecord } from "../../src/output/gate.js";
import { UsageError } from "../../src/errors.js";

const FR = { total: "count", failures: "count", failure_rate: "rate" } as const;
const TQ = { avg_queue_time: "duration", max_queue_time: "duration", min_queue_time: "duration" } as const;

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
    expect(parseFailIf("failure_rate > 0.2", "mq stats failure-rate", FR)).toEqual({
      source: "failure_rate > 0.2",
      aggregation: undefined,
      field: "failure_rate",
      op: ">",
      threshold: 0.2,
      unit: "ratio",
    });
    expect(parseFailIf("max(max_queue_time) >= 3600", "mq stats total-queue-time", TQ)).toEqual({
      source: "max(max_queue_time) >= 3600",
      aggregation: "max",
      field: "max_queue_time",
      op: ">=",
      threshold: 3600,
      unit: "seconds",
    });
    for (const op of [">", ">=", "<", "<=", "==", "!="]) {
      expect(parseFailIf(`total${op}5`, "mq stats failure-rate", FR).op).toBe(op);
    }
  });

  it("reads percentages and durations as thresholds", () => {
    expect(parseFailIf("failure_rate > 20%", "mq stats failure-rate", FR).threshold).toBe(0.2);
    expect(parseFailIf("max(max_queue_time) >= 1h", "mq stats total-queue-time", TQ).threshold).toBe(3600);
    expect(parseFailIf("max(max_queue_time) >= 1h30m", "mq stats total-queue-time", TQ).threshold).toBe(5400);
    expect(parseFailIf("avg_queue_time < 1e3", "mq stats total-queue-time", TQ).threshold).toBe(1000);
  });

  it("rejects bad expressions with one line naming the syntax", () => {
    expect(usage(() => parseFailIf("failure_rate", "mq stats failure-rate", FR))).toBe(
      '--fail-if "failure_rate" is not an expression: write FIELD OP VALUE or AGG(FIELD) OP VALUE, with OP one of > >= < <= == != and AGG one of avg, max, min, sum, last; fields of mq stats failure-rate: total, failures, failure_rate.',
    );
    expect(usage(() => parseFailIf("failure_rate => 1", "mq stats failure-rate", FR))).toMatch(/is not an expression/);
  });

  it("lists the endpoint's fields for an unknown field, with the closest names", () => {
    expect(usage(() => parseFailIf("rate > 0.2", "mq stats failure-rate", FR))).toBe(
      '--fail-if "rate > 0.2": unknown field "rate" for mq stats failure-rate. Did you mean failure_rate? Fields: total, failures, failure_rate (mq help figures).',
    );
    expect(usage(() => parseFailIf("entred > 1", "mq stats failure-rate", FR))).toBe(
      '--fail-if "entred > 1": unknown field "entred" for mq stats failure-rate. Fields: total, failures, failure_rate (mq help figures).',
    );
  });

  it("reads an alias silently and a former name with a warning", () => {
    const warnings: string[] = [];
    const names = {
      aliases: { check_failure_rate: "failure_rate" },
      formerly: { rate_of_failure: "failure_rate" },
      warn: (l: string) => warnings.push(l),
    };
    expect(parseFailIf("check_failure_rate > 0.2", "mq stats failure-rate", FR, names).field).toBe("failure_rate");
    expect(warnings).toEqual([]);
    expect(parseFailIf("max(rate_of_failure) > 0.2", "mq stats failure-rate", FR, names)).toMatchObject({
      field: "failure_rate",
      aggregation: "max",
    });
    expect(warnings).toEqual([
      'warning: --fail-if "max(rate_of_failure) > 0.2": rate_of_failure is a former name; it is read as failure_rate (mq help figures). Write failure_rate.',
    ]);
  });

  it("rejects an unknown aggregation and a bad value", () => {
    expect(usage(() => parseFailIf("p95(total) > 1", "mq stats failure-rate", FR))).toBe(
      '--fail-if "p95(total) > 1": unknown aggregation "p95"; use one of avg, max, min, sum, last.',
    );
    expect(usage(() => parseFailIf("total > lots", "mq stats failure-rate", FR))).toBe(
      '--fail-if "total > lots": "lots" is not a number, a percentage (20%) or a duration (30m).',
    );
  });

  it("refuses endpoints without figures", () => {
    expect(usage(() => parseFailIf("x > 1", "mq stats branches", {}))).toBe(
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
    expect(evaluateValue(parseFailIf("failure_rate > 0.2", "mq stats failure-rate", FR), records)).toBeCloseTo(0.14, 12);
    expect(evaluateValue(parseFailIf("avg(failure_rate) > 0.2", "mq stats failure-rate", FR), records)).toBeCloseTo(0.3, 12);
    expect(evaluateValue(parseFailIf("last(failure_rate) > 0.2", "mq stats failure-rate", FR), records)).toBe(0.1);
    expect(evaluateValue(parseFailIf("total > 0", "mq stats failure-rate", FR), records)).toBe(100);
  });

  it("reports each check, pass or fail, in the threshold's unit", () => {
    const exprs = [parseFailIf("failure_rate > 0.1", "mq stats failure-rate", FR), parseFailIf("total < 50", "mq stats failure-rate", FR)];
    const target: Target = { scope: "each", keys: [["queue_name", "default"]], records };
    const verdicts = exprs.flatMap((e) => judge(e, [target], { sample: { field: "total", noun: "checks" } }));
    expect(verdicts.map(formatVerdict)).toEqual([
      "FAIL  failure_rate 14.0% > 10% (14/100 checks, queue_name default)",
      "ok    total 100 >= 50 (100 checks, queue_name default)",
    ]);
  });

  it("an expression with no value anywhere fails, saying why, unless empty is allowed", () => {
    const expr = parseFailIf("failure_rate > 0.1", "mq stats failure-rate", FR);
    const empty = [{ start: "a", end: "b", total: 0, failures: 0, failure_rate: 0 }];
    const [v] = judge(expr, [{ scope: "all", keys: [], records: empty }]);
    expect([v!.status, v!.pass, formatVerdict(v!)]).toEqual(["empty", false, "FAIL  failure_rate > 10%: no value in the window"]);
    const [none] = judge(expr, [], { emptyReason: "no group matches the filters (--queue defualt) in the window" });
    expect(formatVerdict(none!)).toBe("FAIL  failure_rate > 10%: no group matches the filters (--queue defualt) in the window");
    const [allowed] = judge(expr, [], { allowEmpty: true });
    expect([allowed!.pass, formatVerdict(allowed!)]).toEqual([true, "skip  failure_rate > 10%: no group in the response (--allow-empty)"]);
  });

  it("compares with every operator", () => {
    expect([
      compare(1, ">", 1),
      compare(1, ">=", 1),
      compare(1, "<", 2),
      compare(2, "<=", 1),
      compare(1, "==", 1),
      compare(1, "!=", 1),
    ]).toEqual([false, true, true, false, true, false]);
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

describe("units: the threshold must fit the field, verdicts print in its unit", () => {
  it("refuses a rate above 1, a duration on a count, a percentage on a duration", () => {
    expect(usage(() => parseFailIf("failure_rate > 20", "mq stats failure-rate", FR))).toBe(
      '--fail-if "failure_rate > 20": failure_rate is a ratio from 0 to 1; write 0.2 or 20% for 20 percent.',
    );
    expect(usage(() => parseFailIf("total > 10m", "mq stats failure-rate", FR))).toBe(
      '--fail-if "total > 10m": total is a count or a size; give a plain number, not "10m".',
    );
    expect(usage(() => parseFailIf("avg_queue_time > 5%", "mq stats total-queue-time", TQ))).toBe(
      '--fail-if "avg_queue_time > 5%": avg_queue_time is a duration; give seconds (600) or a duration (10m), not "5%".',
    );
  });

  it("prints durations as durations and rates as percentages, never equal-looking when they differ", () => {
    // the examples: `1305.293528 (threshold > 600)` for > 10m, `0.3333333333` for > 15%
    const tq = parseFailIf("avg_queue_time > 10m", "mq stats total-queue-time", TQ);
    const recs = [{ start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z", avg_queue_time: 1305.293528 }];
    expect(formatVerdict(judge(tq, [{ scope: "all", keys: [], records: recs }])[0]!)).toBe(
      "FAIL  avg_queue_time 21m 45s > 10m (all groups)",
    );
    const fr = parseFailIf("failure_rate > 15%", "mq stats failure-rate", FR);
    const rr = [{ start: "a", end: "b", total: 3, failures: 1, failure_rate: 0.3333 }];
    expect(formatVerdict(judge(fr, [{ scope: "all", keys: [], records: rr }])[0]!)).toBe("FAIL  failure_rate 33.3% > 15% (all groups)");
    const close = [{ start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z", avg_queue_time: 600.4 }];
    expect(formatVerdict(judge(tq, [{ scope: "all", keys: [], records: close }])[0]!)).toBe(
      "FAIL  avg_queue_time 600.4s > 10m (all groups)",
    );
  });

  it("the JSON record carries expression, scope, value, threshold, unit, group, pass", () => {
    const fr = parseFailIf("failure_rate > 15%", "mq stats failure-rate", FR);
    const rr = [{ start: "a", end: "b", total: 3, failures: 1, failure_rate: 0.3333 }];
    const [v] = judge(fr, [{ scope: "each", keys: [["queue_name", "hotfix"]], records: rr }], {
      sample: { field: "total", noun: "checks" },
    });
    expect(verdictRecord(v!)).toEqual({
      expression: "failure_rate > 15%",
      field: "failure_rate",
      aggregation: null,
      op: ">",
      scope: "each",
      group: { queue_name: "hotfix" },
      value: 1 / 3,
      threshold: 0.15,
      unit: "ratio",
      status: "fail",
      pass: false,
      sample: { count: 3, part: 1, noun: "checks" },
      reason: null,
      line: "FAIL  failure_rate 33.3% > 15% (1/3 checks, queue_name hotfix)",
    });
  });
});

describe("scope and sample size", () => {
  const endpoint = findStatsEndpoint("failure-rate")!;
  const group = (queue: string, total: number, failures: number) => ({
    base_ref: "main",
    queue_name: queue,
    stats: [{ start: "2026-11-20T00:00:00Z", end: "2026-11-20T12:00:00Z", total, failures, failure_rate: total ? failures / total : 0 }],
  });
  // the case: the queue fails 13 of 119 checks, but small groups fail 1 of 2
  const body = { groups: [group("default", 117, 12), group("hotfix", 2, 1)] };
  const expr = parseFailIf("failure_rate > 20%", "mq stats failure-rate", FR);

  it("judges the all-groups figure by default", () => {
    expect(judgeStats([expr], endpoint, body, "all").map(formatVerdict)).toEqual([
      "ok    failure_rate 10.9% <= 20% (13/119 checks, all groups)",
    ]);
  });

  it("each group with --fail-if-scope each, both with both", () => {
    expect(judgeStats([expr], endpoint, body, "each").map(formatVerdict)).toEqual([
      "ok    failure_rate 10.3% <= 20% (12/117 checks, base_ref main, queue_name default)",
      "FAIL  failure_rate 50.0% > 20% (1/2 checks, base_ref main, queue_name hotfix)",
    ]);
    expect(judgeStats([expr], endpoint, body, "both")).toHaveLength(3);
  });

  it("--min-count skips and reports groups with fewer items", () => {
    expect(judgeStats([expr], endpoint, body, "each", { minCount: 20 }).map(formatVerdict)).toEqual([
      "ok    failure_rate 10.3% <= 20% (12/117 checks, base_ref main, queue_name default)",
      "skip  failure_rate 50.0% (1/2 checks, base_ref main, queue_name hotfix): fewer than 20 checks (--min-count 20)",
    ]);
    const [small] = judgeStats([expr], endpoint, body, "all", { minCount: 500 });
    expect([small!.status, small!.pass]).toEqual(["skip", true]);
  });

  it("time-to-merge is judged on the rows shown, never a mean of means", () => {
    const ttm = findStatsEndpoint("time-to-merge")!;
    const mean = parseFailIf("mean > 1h", "mq stats time-to-merge", { mean: "duration", median: "duration" });
    const rows = [
      {
        partition_name: "__default__",
        queues: [
          { queue_name: "default", time_to_merge: { mean: 1800, median: 1500 } },
          { queue_name: "hotfix", time_to_merge: { mean: 5400, median: 5000 } },
          { queue_name: "idle", time_to_merge: { mean: null, median: null } },
        ],
      },
    ];
    // the old all-groups value was (1800 + 5400) / 2 = 1h: not above 1h, and a figure nobody sent
    expect(statsTargets(ttm, rows, "mean", "all").map((t) => t.keys)).toEqual([
      [
        ["partition_name", "__default__"],
        ["queue_name", "default"],
      ],
      [
        ["partition_name", "__default__"],
        ["queue_name", "hotfix"],
      ],
      [
        ["partition_name", "__default__"],
        ["queue_name", "idle"],
      ],
    ]);
    expect(judgeStats([mean], ttm, rows, "all").map(formatVerdict)).toEqual([
      "ok    mean 30m <= 1h (partition_name __default__, queue_name default)",
      "FAIL  mean 1h 30m > 1h (partition_name __default__, queue_name hotfix)",
      "skip  mean (partition_name __default__, queue_name idle): no value in the window",
    ]);
  });

  it("outcome endpoints judge each outcome over all groups", () => {
    const oc = findStatsEndpoint("queues-checks-outcome-count")!;
    const rec = (o: string, count: number) => ({ start: "2026-11-20T00:00:00Z", end: "2026-11-20T12:00:00Z", check_outcome: o, count });
    const b = {
      groups: [
        { queue_name: "a", stats: [rec("SUCCESS", 5), rec("CHECKS_FAILED", 2)] },
        { queue_name: "b", stats: [rec("CHECKS_FAILED", 4)] },
      ],
    };
    const e = parseFailIf("count > 5", "mq stats queues-checks-outcome-count", { count: "count" });
    expect(judgeStats([e], oc, b, "all").map(formatVerdict)).toEqual([
      "ok    count 5 <= 5 (all groups, check_outcome SUCCESS)",
      "FAIL  count 6 > 5 (all groups, check_outcome CHECKS_FAILED)",
    ]);
  });
});
