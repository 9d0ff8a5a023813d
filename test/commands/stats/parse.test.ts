// The constructors only parse and validate: a spy stands in for the run functions.
import { describe, expect, it } from "vitest";
import { NewCmdStats, statsListing, type StatsOptions, type StatsSummaryOptions } from "../../../src/commands/stats/index.js";
import { UsageError } from "../../../src/errors.js";
import { testContext } from "../../helpers/context.js";

async function parse(args: string[]): Promise<{ opts?: StatsOptions; summary?: StatsSummaryOptions }> {
  // the contract's flags (--partition...): without an API URL the default one would pick the real service's dialect
  const ctx = testContext({ env: { MQ_DIALECT: "spec" } });
  const seen: { opts?: StatsOptions; summary?: StatsSummaryOptions } = {};
  const cmd = NewCmdStats(
    ctx,
    async (o) => void (seen.opts = o),
    async (o) => void (seen.summary = o),
  );
  await cmd.parseAsync(args, { from: "user" });
  return seen;
}

describe("NewCmdStats", () => {
  it("builds the query of the filter set F in a stable order", async () => {
    const { opts } = await parse([
      "failure-rate",
      "--until",
      "2026-11-20T10:00:00Z",
      "--priority-rule",
      "urgent",
      "--queue",
      "a,b",
      "--queue",
      "a",
      "--since",
      "7d",
      "--base-ref",
      "main",
    ]);
    expect(opts!.endpoint.name).toBe("failure-rate");
    expect(opts!.query).toEqual({
      base_ref: ["main"],
      queue_name: ["a", "b"],
      priority_rule_name: ["urgent"],
      start_at: "2026-11-13T12:00:00Z",
      end_at: "2026-11-20T10:00:00Z",
    });
    expect(Object.keys(opts!.query)).toEqual(["base_ref", "queue_name", "priority_rule_name", "start_at", "end_at"]);
    expect(opts!.chart).toBe(false);
    expect(opts!.gate.failIf).toEqual([]);
  });

  it("parses --chart and repeated --fail-if", async () => {
    const { opts } = await parse([
      "total-queue-time",
      "--chart",
      "--fail-if",
      "max(max_queue_time) >= 3600",
      "--fail-if",
      "avg_queue_time > 10m",
    ]);
    expect(opts!.chart).toBe(true);
    expect(opts!.gate.failIf.map((e) => [e.aggregation, e.field, e.op, e.threshold])).toEqual([
      ["max", "max_queue_time", ">=", 3600],
      [undefined, "avg_queue_time", ">", 600],
    ]);
  });

  it("parses the gate flags: scope, minimum sample, empty allowed, report file", async () => {
    const { opts } = await parse([
      "failure-rate",
      "--fail-if",
      "failure_rate > 20%",
      "--fail-if-scope",
      "both",
      "--min-count",
      "20",
      "--allow-empty",
      "--report",
      "gate.json",
    ]);
    expect({ ...opts!.gate, failIf: opts!.gate.failIf.map((e) => e.source) }).toEqual({
      failIf: ["failure_rate > 20%"],
      scope: "both",
      minCount: 20,
      allowEmpty: true,
      report: "gate.json",
    });
    const { summary } = await parse(["summary", "--fail-if", "failure_rate > 20%", "--min-count", "5"]);
    expect(summary!.gate.minCount).toBe(5);
  });

  it("gives time-to-merge its own parameters", async () => {
    const { opts } = await parse(["time-to-merge", "--at", "2h", "--branch", "main"]);
    expect(opts!.query).toEqual({ at: "2026-11-20T10:00:00Z", branch: "main" });
  });

  it("gives the summary an explicit one-day window by default", async () => {
    const { summary } = await parse(["summary", "--partition", "p1"]);
    expect(summary!.dialect.name).toBe("spec");
    const { dialect: _dialect, ...rest } = summary!;
    expect(rest).toEqual({
      filters: { partition_name: ["p1"] },
      since: new Date("2026-11-19T12:00:00Z"),
      until: new Date("2026-11-20T12:00:00Z"),
      gate: { failIf: [], scope: "all", minCount: undefined, allowEmpty: false, report: undefined },
    });
    const { summary: s2 } = await parse(["summary", "--until", "2026-11-10T00:00:00Z"]);
    expect(s2!.since).toEqual(new Date("2026-11-09T00:00:00Z"));
  });

  it("refuses misplaced flags before running", async () => {
    await expect(parse(["queues", "--priority-rule", "x"])).rejects.toThrow(UsageError);
    await expect(parse(["running-speculative-checks", "--priority-rule", "x"])).rejects.toThrow(
      "--priority-rule is not accepted by mq stats running-speculative-checks",
    );
  });

  it("lists the subcommands", () => {
    // the 17 contract endpoints, the real service's idle-queue-time and skip-intermediate-results, and summary
    expect(statsListing().split("\n").filter(Boolean)).toHaveLength(20);
    const names = statsListing()
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(/\s+/)[0]);
    // the summary first, the deprecated endpoints last
    expect(names[0]).toBe("summary");
    expect(names.slice(-2)).toEqual(["time-to-merge", "merge-queue-checks-outcome"]);
    const lineOf = (name: string) =>
      statsListing()
        .split("\n")
        .find((l) => l.startsWith(`${name} `));
    expect(lineOf("idle-queue-time")).toMatch(/\(real service only: --dialect mergify\)$/);
    expect(lineOf("average-queue-time")).toMatch(/\(contract only: --dialect spec\)$/);
    expect(lineOf("time-to-merge")).toMatch(/\(deprecated: use mq stats average-queue-time or mq stats total-queue-time\)$/);
    expect(lineOf("failure-rate")).not.toMatch(/\)$/);
  });
});
