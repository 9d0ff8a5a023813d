// Every `mq logs` path against both sides of the API: the bundled server speaking the contract and
// speaking the real service's shape (`mq serve --dialect mergify`), in-process, with --strict: exit
// 0 and no warning on well-formed events of either dialect; filters that exist on one side only are
// refused in one line, before any request. The sweeps (every format, every event type) run here on
// a sample; dialects.e2e.test.ts runs the rest of them.
import { describe, expect, test } from "vitest";
import { DIALECTS } from "../../src/api/dialects/index.js";
import { spread } from "../helpers/sweep.js";
import { DIALECT_NAMES, dialectRuns, expectTwoDaysOfLogs, expectTypeServedAsSentences, LOGS_SAMPLE } from "./dialect-runs.js";

describe.each(DIALECT_NAMES)("mq logs against mq serve --dialect %s", (dialect) => {
  // a budget that holds the month of a --since 29d query (the default one refuses it: 422)
  const runs = dialectRuns(dialect, { memoryBudgetMb: 1024 });
  const { run, lastQuery } = runs;

  test.each(LOGS_SAMPLE.formats[dialect])("-o %s over two days: exit 0, no warning", (format) => expectTwoDaysOfLogs(runs, format));

  test("the table shows the outcome where the events carry one", async () => {
    const r = await run(["logs", "--limit", "3", "-o", "table"]);
    expect(r.code).toBe(0);
    const head = r.stdout.split("\n")[0]!.trim().split(/\s+/);
    expect(head).toEqual(
      DIALECTS[dialect].outcomes.length > 0
        ? ["TIME", "TYPE", "PR", "BASE", "OUTCOME", "SUMMARY"]
        : ["TIME", "TYPE", "PR", "BASE", "SUMMARY"],
    );
  });

  test("outcome is a default CSV column where the events carry one", async () => {
    const r = await run(["logs", "--limit", "3", "-o", "csv"]);
    const header = r.stdout.split(/\r?\n/)[0];
    expect(header).toBe(
      DIALECTS[dialect].outcomes.length > 0
        ? "id,received_at,trigger,repository,pull_request,base_ref,outcome,type,metadata"
        : "id,received_at,trigger,repository,pull_request,base_ref,type,metadata",
    );
  });

  test.each(["action.*", "action.queue.*", "ci_issue.*"])("--type %s: exit 0, no warning, only those types", async (glob) => {
    const r = await run(["logs", "--type", glob, "--since", "3d", "--limit", "500", "-o", "ndjson"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const types = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).type as string);
    const expected = DIALECTS[dialect].eventTypes.filter((t) => t.startsWith(glob.slice(0, -1)));
    for (const t of types) expect(expected).toContain(t);
    if (expected.length === 0) expect(types).toEqual([]);
    else expect(types.length).toBeGreaterThan(0);
  });

  test(`event types of the dialect (${LOGS_SAMPLE.types} spread over the list) are served, and the table gives each a sentence, never key=value`, async () => {
    for (const type of spread(DIALECTS[dialect].eventTypes, LOGS_SAMPLE.types))
      await expectTypeServedAsSentences(runs, type, LOGS_SAMPLE.since[dialect]);
  }, 120_000);

  if (dialect === "mergify") {
    test("every /logs filter of the service is sent as the OpenAPI names it, and honoured", async () => {
      const sample = JSON.parse((await run(["logs", "--limit", "1", "--type", "action.queue.checks_end", "-o", "json"])).stdout)[0];
      const batch = sample.metadata.speculative_check_pull_request.number;
      const cases: Array<[string[], string, string[]]> = [
        [["--pr", "1,2", "--pr", "3"], "pull_request", ["1", "2", "3"]],
        [["--not-pr", "7"], "not_pull_request", ["7"]],
        [["--not-type", "action.queue.*"], "not_event_type", DIALECTS.mergify.eventTypes.filter((t) => t.startsWith("action.queue."))],
        [["--outcome", "failure", "--outcome", "success"], "outcome", ["failure", "success"]],
        [["--not-outcome", "neutral"], "not_outcome", ["neutral"]],
        [["--trigger", "CI Insights"], "trigger", ["CI Insights"]],
        // a trigger holding a comma is one value (it was split into "Rule: a" and "b")
        [["--trigger", "Rule: a, b"], "trigger", ["Rule: a, b"]],
        [["--trigger", "Rule: a, b", "--trigger", "CI Insights"], "trigger", ["Rule: a, b", "CI Insights"]],
        [["--not-trigger", "CI Insights"], "not_trigger", ["CI Insights"]],
        [["--batch-pr", String(batch)], "batch_pull", [String(batch)]],
        [["--not-batch-pr", String(batch)], "not_batch_pull", [String(batch)]],
      ];
      for (const [flags, param, values] of cases) {
        const r = await run(["logs", ...flags, "--since", "7d", "--limit", "20", "-o", "ndjson"]);
        expect(r.stderr, flags.join(" ")).toBe("");
        expect(r.code).toBe(0);
        expect(lastQuery().getAll(param)).toEqual(values);
      }
      const failures = await run(["logs", "--outcome", "failure", "--limit", "50", "-o", "ndjson"]);
      for (const l of failures.stdout.split("\n").filter(Boolean)) expect(JSON.parse(l).outcome).toBe("failure");
    });

    test("a single-value flag given twice is exit 2 naming both values, nothing sent (--base-ref kept the last silently)", async () => {
      for (const args of [["logs"], ["logs", "aggregate"]]) {
        const before = runs.server.requests.length;
        const r = await run([...args, "--base-ref", "a", "--base-ref", "b"]);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.stderr).toBe(
          "mq: option '--base-ref <ref>' argument 'b' is invalid. --base-ref takes one value; it was given twice ('a', then 'b').\n",
        );
        expect(runs.server.requests.length).toBe(before);
      }
    });

    test("pairs the service refuses are refused here first: exit 2, one line, nothing sent", async () => {
      for (const [a, b] of [
        ["--pr", "--not-pr"],
        ["--outcome", "--not-outcome"],
        ["--trigger", "--not-trigger"],
        ["--batch-pr", "--not-batch-pr"],
        ["--type", "--not-type"],
      ]) {
        const before = runs.server.requests.length;
        const value = (f: string) =>
          f.includes("pr") ? "5" : f.includes("outcome") ? "success" : f.includes("type") ? "action.merge" : "x";
        const r = await run(["logs", a!, value(a!), b!, value(b!)]);
        expect(r.code, `${a} ${b}`).toBe(2);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toContain(`${a} and ${b} cannot be used together`);
        expect(runs.server.requests.length).toBe(before);
      }
    });

    test("a window over 93 days is refused before it becomes a 422; a contract type is refused by name", async () => {
      const before = runs.server.requests.length;
      const r = await run(["logs", "--since", "100d"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "mq: --since/--until spans 100 days: with the mergify dialect, the real service's OpenAPI answers at most 93 days at once.\n",
      );
      const t = await run(["logs", "--type", "ci_issue.created"]);
      expect(t.code).toBe(2);
      expect(t.stderr).toMatch(/"ci_issue.created" is a type of the spec dialect only/);
      expect(runs.server.requests.length).toBe(before);
    });

    test.each(["table", "json", "ndjson", "csv"])("mq logs aggregate -o %s: facet counts, filters sent, exit 0", async (format) => {
      const r = await run([
        "logs",
        "aggregate",
        "--since",
        "7d",
        "--not-type",
        "action.queue.change",
        "--outcome",
        "failure",
        "-o",
        format,
      ]);
      expect(r.stderr).not.toMatch(/warning|error/i);
      expect(r.code).toBe(0);
      const q = lastQuery();
      expect(new URL(runs.server.requests[runs.server.requests.length - 1]!.url, "http://x").pathname).toBe(
        "/v1/repos/acme/web/logs/aggregate",
      );
      expect(q.getAll("not_event_type")).toEqual(["action.queue.change"]);
      expect(q.getAll("outcome")).toEqual(["failure"]);
      if (format === "csv") expect(r.stdout.split(/\r?\n/)[0]).toBe("facet,value,count,start,end");
      if (format === "ndjson") {
        const rows = r.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l));
        expect(rows[0]).toMatchObject({ facet: "total" });
        expect(rows.filter((x) => x.facet === "outcome")).toEqual([{ facet: "outcome", value: "failure", count: rows[0].count }]);
      }
      if (format === "table") expect(r.stdout).toMatch(/^FACET\s+VALUE\s+COUNT\s+SHARE/);
    });

    test("the resume command carries the filters and the dialect", async () => {
      const { resumeCommand } = await import("../../src/commands/logs/messages.js");
      const opts = {
        format: "ndjson",
        all: true,
        filters: { pull_request: [1, 2], not_outcome: ["neutral"], trigger: ["a b", "Rule: x, y"] },
      } as never;
      expect(resumeCommand(opts, "acme/web", "c2", undefined, { offline: false, dialect: "mergify" })).toBe(
        "mq logs --repo acme/web --dialect mergify --pr 1,2 --not-outcome neutral --trigger 'a b' --trigger 'Rule: x, y' --all -o ndjson --cursor c2",
      );
    });
  } else {
    test.each([
      ["--outcome", "success"],
      ["--not-pr", "5"],
      ["--trigger", "x"],
      ["--batch-pr", "3"],
      ["--not-type", "action.merge"],
    ])("%s does not exist in the contract: exit 2, one line, nothing sent", async (flag, value) => {
      const before = runs.server.requests.length;
      const r = await run(["logs", flag, value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^mq: ${flag} is not available with the spec dialect: the contract of docs/api.md has no \\w+ filter .*\\n$`),
      );
      expect(runs.server.requests.length).toBe(before);
    });

    test("mq logs aggregate does not exist in the contract: exit 2, one line, nothing sent", async () => {
      const before = runs.server.requests.length;
      const r = await run(["logs", "aggregate"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^mq: mq logs aggregate needs the mergify dialect: .*\n$/);
      expect(runs.server.requests.length).toBe(before);
    });

    test("--pr takes one value in the contract", async () => {
      const r = await run(["logs", "--pr", "1,2"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--pr takes one value with the spec dialect/);
    });
  }
});
