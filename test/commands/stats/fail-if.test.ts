// mq stats --fail-if on the fixtures: its verdicts, its lines inside GitHub Actions, and its flags'
// refusals (exit 2, one line, nothing sent). The rest of mq stats on the fixtures: stats.test.ts.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { testContext } from "../../helpers/context.js";
import { tempDir } from "../../helpers/tmp.js";
import { useFixtureServer } from "./fixture-mq.js";
import { FIXTURES, startFixtureServer } from "./fixture-server.js";

const fixture = useFixtureServer();
const { mq } = fixture;

describe("--fail-if on known data", () => {
  // failure-rate fixture: totals 20+25+5+18 = 68, failures 2+4+0+3 = 9 → 9/68 = 13.2%
  it("passes with one ok line per check on stderr, output printed", async () => {
    const { code, out, err } = await mq([
      "stats",
      "failure-rate",
      "-o",
      "ndjson",
      "--fail-if",
      "failure_rate > 0.2",
      "--fail-if",
      "max(failures) > 4",
    ]);
    expect(code).toBe(0);
    expect(err).toBe("ok    failure_rate 13.2% <= 20% (9/68 checks, all groups)\nok    max(failures) 4 <= 4 (68 checks, all groups)\n");
    expect(out.split("\n").filter(Boolean)).toHaveLength(4);
  });

  it("fails with exit 1 and a line per check, output still printed", async () => {
    const { code, out, err } = await mq([
      "stats",
      "failure-rate",
      "-o",
      "ndjson",
      "--fail-if",
      "failure_rate > 0.13",
      "--fail-if",
      "sum(total) >= 68",
      "--fail-if",
      "last(failure_rate) < 0.1",
    ]);
    expect(code).toBe(1);
    expect(out.split("\n").filter(Boolean)).toHaveLength(4);
    expect(err).toBe(
      "FAIL  failure_rate 13.2% > 13% (9/68 checks, all groups)\n" +
        "FAIL  sum(total) 68 >= 68 (68 checks, all groups)\n" +
        "ok    last(failure_rate) 16.7% >= 10% (3/18 checks, all groups)\n" +
        "mq: 2 of 3 --fail-if checks failed.\n",
    );
  });

  it("colours the status word when stderr takes colour, never otherwise", async () => {
    const { err } = await mq([
      "stats",
      "failure-rate",
      "-o",
      "none",
      "--fail-if",
      "failure_rate > 0.2",
      "--fail-if",
      "total < 100",
      "--color",
      "always",
    ]);
    expect(err).toBe(
      "\u001b[32mok    \u001b[39mfailure_rate 13.2% <= 20% (9/68 checks, all groups)\n" +
        "\u001b[31m\u001b[1mFAIL  \u001b[22m\u001b[39mtotal 68 < 100 (68 checks, all groups)\n" +
        "mq: 1 of 2 --fail-if checks failed.\n",
    );
  });

  it("judges all groups by default, each group or both on request", async () => {
    // entered: default 14+17+3+12 = 46, hotfix 1+0+0+2 = 3, together 49
    const all = await mq(["stats", "queues-entered-count", "-o", "none", "--fail-if", "entered >= 46"]);
    expect(all.code).toBe(1);
    expect(all.out).toBe("");
    expect(all.err).toBe("FAIL  entered 49 >= 46 (all groups)\nmq: 1 of 1 --fail-if check failed.\n");
    const each = await mq(["stats", "queues-entered-count", "-o", "none", "--fail-if", "entered >= 46", "--fail-if-scope", "each"]);
    expect(each.err).toBe(
      "FAIL  entered 46 >= 46 (base_ref main, partition_name __default__, queue_name default, priority_rule_name none)\n" +
        "ok    entered 3 < 46 (base_ref main, partition_name __default__, queue_name hotfix, priority_rule_name urgent)\n" +
        "mq: 1 of 2 --fail-if checks failed.\n",
    );
    const both = await mq(["stats", "queues-entered-count", "-o", "none", "--fail-if", "entered >= 46", "--fail-if-scope", "both"]);
    expect(both.err.split("\n").filter((l) => /^(ok|FAIL) /.test(l))).toHaveLength(3);
  });

  it("aggregates all groups interval by interval, not group after group", async () => {
    // per interval, default 14 17 3 12 and hotfix 1 0 0 2: together 15 17 3 14
    const last = await mq(["stats", "queues-entered-count", "-o", "json", "--fail-if", "last(entered) >= 14"]);
    expect(last.code).toBe(1);
    expect(last.err).toBe("FAIL  last(entered) 14 >= 14 (all groups)\nmq: 1 of 1 --fail-if check failed.\n");
    const min = await mq(["stats", "queues-entered-count", "-o", "json", "--fail-if", "min(entered) <= 0"]);
    expect(min.code).toBe(0);
    expect(min.err).toBe("ok    min(entered) 3 > 0 (all groups)\n");
  });

  it("takes durations as thresholds and prints durations", async () => {
    const pass = await mq(["stats", "total-queue-time", "-o", "json", "--fail-if", "max(max_queue_time) >= 2h"]);
    expect(pass.code).toBe(0);
    const fail = await mq(["stats", "total-queue-time", "-o", "json", "--fail-if", "max_queue_time >= 3600"]);
    expect(fail.code).toBe(1);
    expect(fail.err).toContain("FAIL  max_queue_time 1h 58m >= 1h (all groups)\n");
  });

  it("a filter that matches no group fails the gate, saying why; --allow-empty lets it pass", async () => {
    const empty = await startFixtureServer({ bodies: { ...FIXTURES, "failure-rate": { groups: [] } } });
    try {
      const typo = await mq(["stats", "failure-rate", "--queue", "defualt", "-o", "none", "--fail-if", "failure_rate > 20%"], {
        url: empty.url,
      });
      expect(typo.code).toBe(1);
      expect(typo.err).toBe(
        "FAIL  failure_rate > 20%: no group matches the filters (--queue defualt) in the window\nmq: 1 of 1 --fail-if check failed.\n",
      );
      const allowed = await mq(
        ["stats", "failure-rate", "--queue", "defualt", "-o", "none", "--fail-if", "failure_rate > 20%", "--allow-empty"],
        { url: empty.url },
      );
      expect(allowed.code).toBe(0);
      expect(allowed.err).toBe("skip  failure_rate > 20%: no group matches the filters (--queue defualt) in the window (--allow-empty)\n");
      empty.verify();
    } finally {
      await empty.close();
    }
  });

  it("-o none prints nothing on stdout, --report writes the verdicts as JSON", async () => {
    const dir = tempDir("mq-report-");
    const file = join(dir, "gate.json");
    const { code, out, err } = await mq(["stats", "failure-rate", "-o", "none", "--fail-if", "failure_rate > 20%", "--report", file]);
    expect([code, out, err]).toEqual([0, "", "ok    failure_rate 13.2% <= 20% (9/68 checks, all groups)\n"]);
    const report = JSON.parse(readFileSync(file, "utf8"));
    expect(report).toMatchObject({ command: "mq stats failure-rate", repository: "acme/web", pass: true });
    expect(report.checks).toEqual([
      {
        expression: "failure_rate > 20%",
        field: "failure_rate",
        aggregation: null,
        op: ">",
        scope: "all",
        group: null,
        value: 9 / 68,
        threshold: 0.2,
        unit: "ratio",
        status: "ok",
        pass: true,
        sample: { count: 68, part: 9, noun: "checks" },
        reason: null,
        line: "ok    failure_rate 13.2% <= 20% (9/68 checks, all groups)",
      },
    ]);
  });
});

describe("inside GitHub Actions", () => {
  async function inActions(args: string[]) {
    const dir = tempDir("mq-actions-");
    const file = join(dir, "summary.md");
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234", GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: file } });
    const code = await main([...args, "--api-url", fixture.server.url, "--repo", "acme/web"], ctx);
    let summary = "";
    try {
      summary = readFileSync(file, "utf8");
    } catch {
      // no summary written
    }
    return { code, out: ctx.stdoutText(), err: ctx.stderrText(), summary };
  }

  it("a subcommand appends its figures, a sparkline and the verdicts to the step summary", async () => {
    const { code, out, summary } = await inActions([
      "stats",
      "failure-rate",
      "--since",
      "1d",
      "-o",
      "none",
      "--fail-if",
      "failure_rate > 20%",
    ]);
    expect([code, out]).toEqual([0, ""]);
    expect(summary).toBe(
      [
        "### `mq stats failure-rate` · acme/web — ✅ 1 check passed",
        "",
        "2026-11-19T12:00:00Z → 2026-11-20T12:00:00Z",
        "",
        "| group | total | failures | failure\\_rate |",
        "|---|---:|---:|---:|",
        "| all groups | 68 | 9 | 13.2% |",
        "| base\\_ref main, partition\\_name \\_\\_default\\_\\_, queue\\_name default, priority\\_rule\\_name none | 68 | 9 | 13.2% |",
        "",
        "failure\\_rate over time, all groups: `▅█▁█` (min 0.0%, max 16.7%)",
        "",
        "|  | check | verdict |",
        "|---|---|---|",
        "| ✅ | --fail-if 'failure\\_rate &gt; 20%' | ok    failure\\_rate 13.2% &lt;= 20% \\(9/68 checks, all groups\\) |",
        "",
        "",
      ].join("\n"),
    );
  });

  it("without --fail-if the summary still gets the figures; list endpoints add nothing", async () => {
    const withFigures = await inActions(["stats", "queues-entered-count", "-o", "json"]);
    expect(withFigures.code).toBe(0);
    expect(withFigures.summary).toMatch(/^### `mq stats queues-entered-count` · acme\/web\n/);
    expect(withFigures.summary).toContain("| all groups | 49 |");
    const list = await inActions(["stats", "branches", "-o", "json"]);
    expect([list.code, list.summary]).toEqual([0, ""]);
  });
});

describe("--fail-if flags: exit 2, one line, nothing sent", () => {
  const cases: Array<[string[], string]> = [
    [
      ["failure-rate", "--fail-if-scope", "every", "--fail-if", "failure_rate > 0.2"],
      '--fail-if-scope must be one of all, each, both, not "every".',
    ],
    [
      ["failure-rate", "--min-count", "0", "--fail-if", "failure_rate > 0.2"],
      '--min-count must be an integer from 1 to 1000000000, not "0".',
    ],
    [["failure-rate", "--min-count", "5"], "--min-count only applies to --fail-if checks: add --fail-if EXPR or drop --min-count."],
    [
      ["queue-size", "--min-count", "5", "--fail-if", "avg_size > 3"],
      "--min-count: avg_size has no count of the items behind it; --min-count applies to rates and to the figures of failure-rate and checks-retries (drop it, or gate avg_size without it in another step).",
    ],
    [
      ["failure-rate", "--fail-if", "failure_rate > 20"],
      '--fail-if "failure_rate > 20": failure_rate is a ratio from 0 to 1; write 0.2 or 20% for 20 percent.',
    ],
    [
      ["failure-rate", "--fail-if", "failure_rate > 0.2", "--report", "/nonexistent-dir/x.json"],
      "--report /nonexistent-dir/x.json: cannot write to the folder /nonexistent-dir (missing or not writable).",
    ],
    // a folder: it was an internal error (EISDIR, exit 70) after every request
    [
      ["failure-rate", "--fail-if", "failure_rate > 0.2", "--report", tmpdir()],
      `--report ${tmpdir()}: is a folder; give a file name (e.g. ${join(tmpdir(), "mq-report.json")}).`,
    ],
    [
      ["summary", "--fail-if", "rate > 0.2"],
      '--fail-if "rate > 0.2": unknown field "rate" for mq stats summary. Did you mean recovery_rate or check_failure_rate? Fields: entered, merged, checks, check_failures, check_failure_rate, avg_queue_time, max_queue_time, avg_ci_runtime, avg_queue_size, max_queue_size, total_retries, recovery_rate (mq help figures).',
    ],
    [
      ["branches", "-o", "openmetrics"],
      "-o openmetrics is for statistics (mq stats and mq stats summary); mq stats branches takes table, json, ndjson, csv, none.",
    ],
  ];
  for (const [args, message] of cases) it(`mq stats ${args.join(" ")}`, () => fixture.refuses(["stats", ...args], message));
});
