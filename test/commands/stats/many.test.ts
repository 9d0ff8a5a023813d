// mq stats <endpoint> --repo a/b,c/d: a row per repository and a total computed from sums and
// counts (never an average of averages), one failing repository reported without losing the
// others, --fail-if per repository and on the total. A loopback server with a body per repository
// (many-bodies.ts), so every figure below was worked out by hand.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../src/main.js";
import { testContext } from "../../helpers/context.js";
import { tempDir } from "../../helpers/tmp.js";
import { BODIES } from "./many-bodies.js";

let url: string;
let requests: string[] = [];
let inFlight = 0;
let maxInFlight = 0;
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  requests.push(req.url ?? "");
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  const m = /^\/v1\/repos\/([^/]+)\/([^/]+)\/stats\/([a-z_]+)/.exec(req.url ?? "");
  const body = m ? BODIES[`${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`]?.[m[3]!] : undefined;
  // answered on the next turn, so that several requests can be in flight at once
  setImmediate(() => {
    inFlight--;
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body ?? { detail: "Not Found" }));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests = [];
  maxInFlight = 0;
});

const WINDOW = ["--since", "2026-11-20T10:00:00Z", "--until", "2026-11-20T12:00:00Z"];
const QUERY = "start_at=2026-11-20T10%3A00%3A00Z&end_at=2026-11-20T12%3A00%3A00Z";

async function mq(args: string[], init: { stdoutIsTTY?: boolean; columns?: number; cwd?: string; env?: Record<string, string> } = {}) {
  const ctx = testContext({
    stdoutIsTTY: init.stdoutIsTTY,
    columns: init.columns,
    cwd: init.cwd,
    env: { MQ_TOKEN: "test-token-1234", ...init.env },
  });
  const code = await main([...args, "--api-url", url], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

describe("mq stats --repo a,b: a row per repository and an exact total", () => {
  it("failure-rate: the total rate is Σfailures / Σtotal, each repository asked once with the same query", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "ndjson"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        { repository: "acme/web", total: 10, failures: 1, failure_rate: 0.1 },
        { repository: "acme/api", total: 30, failures: 9, failure_rate: 0.3 },
        { repository: "total", total: 40, failures: 10, failure_rate: 0.25 },
      ]
        .map((x) => JSON.stringify(x) + "\n")
        .join(""),
    );
    expect(requests.sort()).toEqual([`/v1/repos/acme/api/stats/failure_rate?${QUERY}`, `/v1/repos/acme/web/stats/failure_rate?${QUERY}`]);
  });

  it("without --since/--until, one explicit window for every repository: the day before now", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/web,acme/api", "-o", "none"]);
    expect(r.code).toBe(0);
    const window = "start_at=2026-11-19T12%3A00%3A00Z&end_at=2026-11-20T12%3A00%3A00Z";
    expect(requests.sort()).toEqual([`/v1/repos/acme/api/stats/failure_rate?${window}`, `/v1/repos/acme/web/stats/failure_rate?${window}`]);
  });

  it("repeated --repo and a file of repositories name the same set", async () => {
    const dir = tempDir("mq-repos-");
    writeFileSync(join(dir, "repos.txt"), "# the team's repositories\nacme/web\n\nacme/api  # and its API\n");
    const repeated = await mq(["stats", "failure-rate", "--repo", "acme/web", "--repo", "acme/api", ...WINDOW, "-o", "csv"]);
    const file = await mq(["stats", "failure-rate", "--repo", "@repos.txt", ...WINDOW, "-o", "csv"], { cwd: dir });
    expect(repeated.code).toBe(0);
    expect(repeated.out).toBe("repository,total,failures,failure_rate\r\nacme/web,10,1,0.1\r\nacme/api,30,9,0.3\r\ntotal,40,10,0.25\r\n");
    expect(file.out).toBe(repeated.out);
  });

  it("an average sent without its count has no total: null with the reason on stderr, extremes still combine", async () => {
    const r = await mq(["stats", "total-queue-time", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "json"]);
    expect(r.code).toBe(0);
    const reason =
      "the API sends avg_queue_time without the count behind it (no sum_queue_time and count_queue_time), and an average of averages would be wrong";
    expect(r.err).toBe(`mq: total avg_queue_time not available: ${reason}\n`);
    expect(JSON.parse(r.out)).toEqual({
      endpoint: "total-queue-time",
      repositories: [
        { repository: "acme/web", avg_queue_time: 600, max_queue_time: 900, min_queue_time: 300 },
        { repository: "acme/api", avg_queue_time: 1200, max_queue_time: 3600, min_queue_time: 60 },
      ],
      total: [{ avg_queue_time: null, max_queue_time: 3600, min_queue_time: 60 }],
      unavailable: { avg_queue_time: reason },
      failed: [],
    });
  });

  it("an average sent with sum and count has an exact total: Σsum / Σcount (700/4), not the mean of 100 and 400", async () => {
    const r = await mq([
      "stats",
      "total-queue-time",
      "--repo",
      "acme/sums1,acme/sums2",
      ...WINDOW,
      "-o",
      "ndjson",
      "--fields",
      "repository,avg_queue_time",
    ]);
    expect(r.err).toBe("");
    expect(r.out).toBe(
      '{"repository":"acme/sums1","avg_queue_time":100}\n{"repository":"acme/sums2","avg_queue_time":400}\n{"repository":"total","avg_queue_time":175}\n',
    );
  });

  it("the table: humanised rows, the total in bold, n/a with its reason cut to the terminal's width", async () => {
    const r = await mq(["stats", "total-queue-time", "--repo", "acme/web,acme/api", ...WINDOW, "--color", "never"], {
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      "repository  avg_queue_time  max_queue_time  min_queue_time\n" +
        "acme/web               10m             15m              5m\n" +
        "acme/api               20m           1h 0m              1m\n" +
        "total                  n/a           1h 0m              1m\n" +
        "\n" +
        "n/a: total avg_queue_time: the API sends avg_queue_time without the count behin…\n",
    );
    expect(r.err).toBe("2 repositories total-queue-time, 2026-11-20 10:00:00Z → 2026-11-20 12:00:00Z\n");
  });

  it("a table wider than the terminal leaves figures out, naming them under it, and prints each row once (checks-retries at 60, summary at 80; it split into parts that repeated every row)", async () => {
    for (const [args, columns] of [
      [["stats", "checks-retries"], 60],
      [["stats", "summary"], 80],
    ] as const) {
      const r = await mq([...args, "--repo", "acme/web,acme/api", ...WINDOW, "--color", "never"], { stdoutIsTTY: true, columns });
      expect(r.code, r.err).toBe(0);
      const lines = r.out.split("\n");
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
      expect(lines.filter((l) => l.startsWith("total"))).toHaveLength(1);
      expect(r.out.replace(/\n/g, " ")).toContain(`not shown at ${columns} columns: `);
    }
    const r = await mq(["stats", "checks-retries", "--repo", "acme/web,acme/api", ...WINDOW, "--color", "never"], {
      stdoutIsTTY: true,
      columns: 60,
    });
    // the figures that fit are shown; the others are named
    const text = r.out.replace(/\n/g, " ");
    for (const figure of ["total", "sessions", "recovered", "recovery_rate", "avg_retry_depth", "max_retry_depth"])
      expect(text).toMatch(new RegExp(`(^|\\s)${figure}(\\s|,|$)`));
  });

  it("a list that names one repository twice is one repository, and the line above the table says so in the singular", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/web,ACME/web", ...WINDOW, "--color", "never"], {
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(r.code).toBe(0);
    expect(r.err).toBe("1 repository failure-rate, 2026-11-20 10:00:00Z → 2026-11-20 12:00:00Z\n");
    expect(requests).toEqual([`/v1/repos/acme/web/stats/failure_rate?${QUERY}`]);
    const summary = await mq(["stats", "summary", "--repo", "acme/web,acme/web", ...WINDOW, "--color", "never"], {
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(summary.err.split("\n")[0]).toBe("1 repository summary, 2026-11-20 10:00:00Z → 2026-11-20 12:00:00Z");
  });

  it("no data in any repository: a line on stderr saying what was asked, nothing on stdout", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/empty1,acme/empty2", ...WINDOW, "--queue", "hotfix", "-o", "table"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      "2 repositories failure-rate, 2026-11-20 10:00:00Z → 2026-11-20 12:00:00Z\n" +
        "mq: no failure-rate data in any of the 2 repositories in 2026-11-20 10:00:00Z → 2026-11-20 12:00:00Z with --queue hotfix --since 2026-11-20T10:00:00Z --until 2026-11-20T12:00:00Z; try fewer filters or a longer --since (e.g. --since 7d).\n",
    );
  });

  it("exit reasons: a row per repository and reason, the total per reason", async () => {
    const r = await mq(["stats", "queues-pr-exit-reasons", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "csv"]);
    expect(r.out).toBe(
      "repository,exit_reason,count\r\nacme/web,SUCCESS,3\r\nacme/web,CHECKS_FAILED,1\r\nacme/api,SUCCESS,5\r\ntotal,SUCCESS,8\r\ntotal,CHECKS_FAILED,1\r\n",
    );
  });

  it("server text is escaped on the table and guarded in csv", async () => {
    const table = await mq(["stats", "queues-pr-exit-reasons", "--repo", "acme/evil,acme/api", ...WINDOW, "--color", "never"], {
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(table.code).toBe(0);
    expect(table.out).not.toContain("\u001b");
    expect(table.out).toContain("acme/evil   X\\x1b[2J\\nRED      1\n");
    const csv = await mq(["stats", "queues-pr-exit-reasons", "--repo", "acme/evil,acme/api", ...WINDOW, "-o", "csv"]);
    expect(csv.out).toContain("acme/evil,'=HYPERLINK(1),2\r\n");
    expect(csv.out).toContain("total,'=HYPERLINK(1),2\r\n");
  });

  it("openmetrics: each repository's gauges with a repository label", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "openmetrics"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'mq_queue_checks{repository="acme/web",base_ref="main",partition="__default__",queue="default",priority_rule=""} 10\n',
    );
    expect(r.out).toContain(
      'mq_queue_checks{repository="acme/api",base_ref="main",partition="__default__",queue="default",priority_rule=""} 30\n',
    );
    expect(r.out.endsWith("# EOF\n")).toBe(true);
  });

  it("markdown: the same rows as the table", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "markdown"]);
    expect(r.out).toBe(
      "| repository | total | failures | failure\\_rate |\n|---|---:|---:|---:|\n| acme/web | 10 | 1 | 10.0% |\n| acme/api | 30 | 9 | 30.0% |\n| total | 40 | 10 | 25.0% |\n",
    );
  });

  it("at most 4 repositories are asked at once", async () => {
    const many = ["acme/web", "acme/api", "acme/sums1", "acme/sums2", "acme/web2", "acme/web3"];
    const r = await mq(["stats", "total-queue-time", "--repo", many.join(","), ...WINDOW, "-o", "none"]);
    expect(requests).toHaveLength(6);
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(r.code).toBe(3);
  });
});

describe("mq stats summary --repo a,b", () => {
  it("a row per repository and the total, each figure from its endpoint's pooled records; averages without counts n/a", async () => {
    const r = await mq(["stats", "summary", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "ndjson"]);
    expect(r.code).toBe(0);
    const rows = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toEqual([
      {
        repository: "acme/web",
        entered: 6,
        merged: 3,
        checks: 10,
        check_failures: 1,
        check_failure_rate: 0.1,
        avg_queue_time: 600,
        max_queue_time: 900,
        avg_ci_runtime: 300,
        avg_queue_size: 1.5,
        max_queue_size: 3,
        total_retries: 2,
        recovery_rate: 0.5,
      },
      {
        repository: "acme/api",
        entered: 10,
        merged: 7,
        checks: 30,
        check_failures: 9,
        check_failure_rate: 0.3,
        avg_queue_time: 1200,
        max_queue_time: 3600,
        avg_ci_runtime: 900,
        avg_queue_size: 3.5,
        max_queue_size: 6,
        total_retries: 6,
        recovery_rate: 1,
      },
      // recovery_rate: 4 recovered of 5; queue size: the time average over every queue and hour
      {
        repository: "total",
        entered: 16,
        merged: 10,
        checks: 40,
        check_failures: 10,
        check_failure_rate: 0.25,
        avg_queue_time: null,
        max_queue_time: 3600,
        avg_ci_runtime: null,
        avg_queue_size: 2.5,
        max_queue_size: 6,
        total_retries: 8,
        recovery_rate: 0.8,
      },
    ]);
    expect(r.err).toBe(
      "mq: total avg_queue_time not available: the API sends avg_queue_time without the count behind it (no sum_queue_time and count_queue_time), and an average of averages would be wrong\n" +
        "mq: total avg_ci_runtime not available: the API sends runtime without the count behind it (no sum_runtime and count_runtime), and an average of averages would be wrong\n",
    );
    // the seven endpoints of each repository, same window
    expect(requests.filter((u) => u.includes("/acme/web/")).length).toBe(7);
    expect(requests.every((u) => u.endsWith(QUERY))).toBe(true);
  });

  it("--fail-if on the total and each repository", async () => {
    const r = await mq([
      "stats",
      "summary",
      "--repo",
      "acme/web,acme/api",
      ...WINDOW,
      "-o",
      "none",
      "--fail-if",
      "total_retries > 5",
      "--fail-if-scope",
      "both",
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "ok    total_retries 2 <= 5 (2 sessions with retries, repository acme/web)\n" +
        "FAIL  total_retries 6 > 5 (3 sessions with retries, repository acme/api)\n" +
        "FAIL  total_retries 8 > 5 (5 sessions with retries, all repositories)\n" +
        "mq: 2 of 3 --fail-if checks failed.\n",
    );
  });

  it("--fail-if with one repository failing: the total's verdict names what it covered", async () => {
    // before: "all repositories" while acme/nope answered 404 (mq stats --repo a,b,c said it already)
    const r = await mq([
      "stats",
      "summary",
      "--repo",
      "acme/web,acme/nope,acme/api",
      ...WINDOW,
      "-o",
      "none",
      "--fail-if",
      "total_retries > 5",
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toContain("FAIL  total_retries 8 > 5 (5 sessions with retries, 2 of 3 repositories; acme/nope could not be read)\n");
  });
});

describe("mq stats --repo a,b: one repository failing", () => {
  it("reports its error and exit code on stderr, writes the others and the total over them, exits with its code", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/web,acme/nope,acme/api", ...WINDOW, "-o", "ndjson"]);
    expect(r.code).toBe(3);
    expect(r.out).toBe(
      '{"repository":"acme/web","total":10,"failures":1,"failure_rate":0.1}\n{"repository":"acme/api","total":30,"failures":9,"failure_rate":0.3}\n{"repository":"total","total":40,"failures":10,"failure_rate":0.25}\n',
    );
    const lines = r.err.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^mq: acme\/nope: .*404.* \(exit 3\)$/);
    expect(lines[1]).toBe("mq: 1 of 3 repositories could not be read (acme/nope); the output covers the others.");
  });

  it("every repository failing: the closing line does not promise output from others", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/nope,acme/gone", ...WINDOW, "-o", "ndjson"]);
    expect(r.code).toBe(3);
    expect(r.err.trimEnd().split("\n").pop()).toBe("mq: none of the 2 repositories could be read (acme/nope, acme/gone).");
  });

  it("-o json names it under failed", async () => {
    const r = await mq(["stats", "failure-rate", "--repo", "acme/nope,acme/api", ...WINDOW, "-o", "json"]);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.out);
    expect(doc.failed).toEqual([{ repository: "acme/nope", message: expect.stringContaining("404"), exit_code: 3 }]);
    expect(doc.total).toEqual([{ total: 30, failures: 9, failure_rate: 0.3 }]);
  });
});

describe("mq stats --repo a,b --fail-if", () => {
  it("judges the total by default: 25% over all repositories", async () => {
    const r = await mq([
      "stats",
      "failure-rate",
      "--repo",
      "acme/web,acme/api",
      ...WINDOW,
      "-o",
      "none",
      "--fail-if",
      "failure_rate > 20%",
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toBe("FAIL  failure_rate 25.0% > 20% (10/40 checks, all repositories)\nmq: 1 of 1 --fail-if check failed.\n");
  });

  it("a total over the repositories that could be read names how many and which failed", async () => {
    // before: "all repositories" while acme/nope answered 404
    const r = await mq([
      "stats",
      "failure-rate",
      "--repo",
      "acme/web,acme/nope,acme/api",
      ...WINDOW,
      "-o",
      "none",
      "--fail-if",
      "failure_rate > 20%",
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toContain("FAIL  failure_rate 25.0% > 20% (10/40 checks, 2 of 3 repositories; acme/nope could not be read)\n");
  });

  it("--fail-if-scope each judges every repository, both adds the total", async () => {
    const r = await mq([
      "stats",
      "failure-rate",
      "--repo",
      "acme/web,acme/api",
      ...WINDOW,
      "-o",
      "none",
      "--fail-if",
      "failure_rate > 20%",
      "--fail-if-scope",
      "both",
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "ok    failure_rate 10.0% <= 20% (1/10 checks, repository acme/web)\n" +
        "FAIL  failure_rate 30.0% > 20% (9/30 checks, repository acme/api)\n" +
        "FAIL  failure_rate 25.0% > 20% (10/40 checks, all repositories)\n" +
        "mq: 2 of 3 --fail-if checks failed.\n",
    );
  });

  it("a total that is not available fails the check with its reason, unless --allow-empty", async () => {
    const args = ["stats", "total-queue-time", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "none", "--fail-if", "avg_queue_time > 1h"];
    const strict = await mq(args);
    expect(strict.code).toBe(1);
    expect(strict.err).toBe(
      "FAIL  avg_queue_time > 1h (all repositories): not available: the API sends avg_queue_time without the count behind it (no sum_queue_time and count_queue_time), and an average of averages would be wrong\nmq: 1 of 1 --fail-if check failed.\n",
    );
    const allowed = await mq([...args, "--allow-empty"]);
    expect(allowed.code).toBe(0);
    expect(allowed.err).toMatch(/^skip {2}avg_queue_time > 1h \(all repositories\): not available: .*\(--allow-empty\)\n$/);
  });

  it("in GitHub Actions: an annotation per failed check and the rows of every repository in the step summary", async () => {
    const dir = tempDir("mq-summary-");
    const summary = join(dir, "summary.md");
    const r = await mq(
      ["stats", "failure-rate", "--repo", "acme/web,acme/api", ...WINDOW, "-o", "none", "--fail-if", "failure_rate > 20%"],
      { env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary } },
    );
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      "FAIL  failure_rate 25.0% > 20% (10/40 checks, all repositories)\n" +
        "::error title=mq stats failure-rate%3A --fail-if 'failure_rate > 20%25'::failure_rate 25.0%25 > 20%25 (10/40 checks, all repositories)\n" +
        "mq: 1 of 1 --fail-if check failed.\n",
    );
    const md = readFileSync(summary, "utf8");
    expect(md).toContain("| acme/web | 10 | 1 | 10.0% |\n| acme/api | 30 | 9 | 30.0% |\n| total | 40 | 10 | 25.0% |\n");
  });

  it("--report writes the verdicts with the repository of each", async () => {
    const dir = tempDir("mq-report-");
    const file = join(dir, "report.json");
    const r = await mq([
      "stats",
      "failure-rate",
      "--repo",
      "acme/web,acme/api",
      ...WINDOW,
      "-o",
      "none",
      "--fail-if",
      "failure_rate > 50%",
      "--fail-if-scope",
      "each",
      "--report",
      file,
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(file, "utf8"));
    expect(report.repository).toBe("acme/web,acme/api");
    expect(report.checks.map((c: { group: unknown; status: string }) => [c.group, c.status])).toEqual([
      [{ repository: "acme/web" }, "ok"],
      [{ repository: "acme/api" }, "ok"],
    ]);
  });
});

describe("mq stats --repo a,b: refused before any request", () => {
  const cases: Array<[string[], string]> = [
    [
      ["stats", "failure-rate", "--chart"],
      "mq: --chart draws the groups of one repository: give one --repo, or drop --chart for a row per repository and a total.\n",
    ],
    [
      ["stats", "failure-rate", "--intervals"],
      "mq: --intervals shows the groups of one repository: give one --repo, or drop --intervals for a row per repository and a total.\n",
    ],
    [
      ["stats", "time-to-merge"],
      "mq: mq stats time-to-merge reads one repository: its means and medians per queue carry no counts to combine; mq insights --repo a/b,c/d gives time to merge across repositories.\n",
    ],
    [
      ["stats", "branches"],
      "mq: mq stats branches lists the names of one repository: give one --repo (mq stats queues-entered-count --repo a/b,c/d compares the activity of several).\n",
    ],
    [
      ["stats", "failure-rate", "--fields", "start"],
      'mq: --fields: unknown field "start" for mq stats failure-rate over several repositories; available fields: repository, total, failures, failure_rate.\n',
    ],
  ];
  for (const [args, message] of cases) {
    it(args.slice(1).join(" "), async () => {
      const r = await mq([...args, "--repo", "acme/web,acme/api"]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(message);
      expect(r.out).toBe("");
      expect(requests).toEqual([]);
    });
  }
});
