// `mq insights` and `mq prs` against the bundled server (`mq serve`'s simulated history), in
// process over loopback HTTP: the stays rebuilt from the log must give the counts the statistics
// endpoints give over the same windows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { testContext } from "../../helpers/context.js";
import { tempDir } from "../../helpers/tmp.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, now: NOW, seed: 42 });
});
afterAll(async () => {
  await server?.close();
});

async function mq(args: string[], opts: { tty?: boolean; columns?: number } = {}) {
  const ctx = testContext({ tty: opts.tty, columns: opts.columns, env: { MQ_TOKEN: "test-token-1234" } });
  const before = server.requests.length;
  const code = await main([...args, "--api-url", server.url, "--repo", "acme/web", "--color", "never"], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText(), requests: server.requests.slice(before).map((r) => r.url) };
}

const records = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The sum of a count field over every group and interval of a statistics endpoint. */
async function statTotal(name: string, field: string, since: string, until: string): Promise<number> {
  const r = await mq(["stats", name, "--since", since, "--until", until, "-o", "ndjson"]);
  expect(r.code).toBe(0);
  return records(r.out).reduce((sum, rec) => sum + Number(rec[field]), 0);
}

async function exitReasons(since: string, until: string): Promise<Record<string, number>> {
  const r = await mq(["stats", "queues-pr-exit-reasons", "--since", since, "--until", until, "-o", "ndjson"]);
  const out: Record<string, number> = {};
  for (const rec of records(r.out)) out[rec.exit_reason as string] = (out[rec.exit_reason as string] ?? 0) + Number(rec.count);
  return out;
}

describe("mq insights on the bundled data", () => {
  it("--since 7d --compare previous: counts equal the statistics endpoints over both windows", async () => {
    const r = await mq(["insights", "--since", "7d", "--compare", "previous", "-o", "json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc).toMatchObject({
      since: "2026-11-13T12:00:00Z",
      until: "2026-11-20T12:00:00Z",
      compare: { since: "2026-11-06T12:00:00Z", until: "2026-11-13T12:00:00Z" },
    });
    // one walk of the log over both windows, queue events only
    expect(r.requests[0]).toBe(
      "/v1/repos/acme/web/logs?event_type=action.queue.enter&event_type=action.queue.checks_not_started&event_type=action.queue.checks_start&event_type=action.queue.checks_end&event_type=action.queue.batch_bisection_start&event_type=action.queue.batch_bisection_end&event_type=action.queue.merged&event_type=action.queue.leave&received_from=2026-11-06T12%3A00%3A00Z&received_to=2026-11-20T12%3A00%3A00Z&per_page=100",
    );
    const f = doc.figures;
    for (const [key, since, until] of [
      ["value", "2026-11-13T12:00:00Z", "2026-11-20T12:00:00Z"],
      ["previous", "2026-11-06T12:00:00Z", "2026-11-13T12:00:00Z"],
    ] as const) {
      const entered = await statTotal("queues-entered-count", "entered", since, until);
      const merged = await statTotal("queues-merged-count", "merged", since, until);
      expect(entered).toBeGreaterThan(100);
      expect(f.entered[key]).toBe(entered);
      expect(f.merged[key]).toBe(merged);
      const reasons = await exitReasons(since, until);
      const left = Object.values(reasons).reduce((a, b) => a + b, 0);
      expect(f.left[key]).toBe(left);
      const ours = Object.fromEntries(
        doc.exit_reasons
          .map((e: { reason: string; count: number; previous: number }) => [e.reason, key === "value" ? e.count : e.previous])
          .filter(([, n]: [string, number]) => n > 0),
      );
      expect(ours).toEqual(reasons);
    }
    // the distributions are there, with their change
    for (const d of ["time_to_merge", "queue_time"]) {
      for (const p of ["p50", "p90", "p95", "p99"]) {
        const fig = f[`${p}(${d})`];
        expect(fig.value).toBeGreaterThan(0);
        expect(fig.change).toBeCloseTo(fig.value / fig.previous - 1, 2);
      }
    }
    expect(f["count(time_to_merge)"].value).toBe(f.merged.value);
  });

  it("the screen: percentiles of time to merge and time in queue with arrows, exit reasons, slowest", async () => {
    const r = await mq(["insights", "--since", "7d"], { tty: true, columns: 120 });
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toBe("acme/web  2026-11-13 12:00:00Z → 2026-11-20 12:00:00Z");
    expect(lines[1]).toBe("compared with 2026-11-06 12:00:00Z → 2026-11-13 12:00:00Z");
    expect(r.out).toMatch(/^ +COUNT +AVG +P50 +P90 +P95 +P99 +MAX$/m);
    for (const label of ["time to merge", "time in queue", "CI time", "waiting time"]) {
      const i = lines.findIndex((l) => l.startsWith(label + " "));
      expect(i).toBeGreaterThan(0);
      // values in words, then a line of changes under them
      expect(lines[i]).toMatch(/\d+m/);
      expect(lines[i + 1]).toMatch(/^ +[▲▼=] [\d.]+%( +[▲▼=] [\d.]+%){6}$/);
    }
    expect(r.out).toMatch(/^EXIT REASON +COUNT +PREVIOUS +CHANGE$/m);
    expect(r.out).toMatch(/^SUCCESS +[\d,]+ +[\d,]+ +[▲▼=]/m);
    expect(r.out).toMatch(/^SLOWEST +BASE +QUEUE/m);
  });

  it("--compare with a given window, and --compare none", async () => {
    const r = await mq(["insights", "--since", "7d", "--compare", "2026-10-01..2026-10-08", "-o", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).compare).toEqual({ since: "2026-10-01T00:00:00Z", until: "2026-10-08T00:00:00Z" });
    // two windows apart: two walks, each starting with its whole window (then cut into parallel
    // time slices); the comparison window's is exactly the one given
    const windows = r.requests.filter((u) => !u.includes("cursor=")).map((u) => new URL(u, "http://x").searchParams);
    expect(
      windows.filter((q) => q.get("received_from") === "2026-10-01T00:00:00Z" && q.get("received_to") === "2026-10-08T00:00:00Z"),
    ).toHaveLength(1);
    const none = await mq(["insights", "--since", "1d", "--compare", "none", "-o", "ndjson"]);
    const first = records(none.out)[0];
    expect(first).toMatchObject({ repository: "acme/web", figure: "entered", previous: null, change: null, unit: "count" });
  });

  it("csv: one row per figure", async () => {
    const r = await mq(["insights", "--since", "1d", "-o", "csv"]);
    const rows = r.out.split("\r\n");
    expect(rows[0]).toBe("repository,figure,value,previous,change,unit,unavailable,previous_unavailable,change_unavailable");
    expect(rows.some((l) => l.startsWith("acme/web,p95(queue_time),"))).toBe(true);
  });

  it("--fail-if on a figure and on a change: exit 1 with the breach, the report still written", async () => {
    const r = await mq([
      "insights",
      "--since",
      "7d",
      "-o",
      "json",
      "--fail-if",
      "p95(queue_time) > 1s",
      "--fail-if",
      "change(p50(time_to_merge)) > 1000%",
    ]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).figures["p95(queue_time)"].value).toBeGreaterThan(1);
    // the verdict lines of mq stats: one per check, ok ones too
    const lines = r.err.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^FAIL {2}p95\(queue_time\) \d+[dhms]( \d+[dhms])? > 1s \([\d,]+ stays, repository acme\/web\)$/);
    expect(lines[1]).toMatch(/^ok {4}change\(p50\(time_to_merge\)\) -?[\d.]+% <= 1000% \([\d,]+ stays, repository acme\/web\)$/);
    expect(lines[2]).toBe("mq: 1 of 2 --fail-if checks failed.");
  });

  it("--fail-if through the gate machinery of mq stats: --report, Actions annotations and step summary, -o none, --min-count, --allow-empty", async () => {
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = tempDir("mq-insights-gate-");
    const summary = join(dir, "summary.md");
    const report = join(dir, "report.json");
    const window = ["--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z"];
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234", GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary } });
    const code = await main(
      [
        "insights",
        ...window,
        "-o",
        "none",
        "--fail-if",
        "p95(queue_time) > 1s",
        "--fail-if",
        "merged < 1",
        "--report",
        report,
        "--api-url",
        server.url,
        "--repo",
        "acme/web",
      ],
      ctx,
    );
    expect(code).toBe(1);
    expect(ctx.stdoutText()).toBe("");
    const err = ctx.stderrText().split("\n");
    expect(err[0]).toMatch(/^FAIL {2}p95\(queue_time\) \d+[dhms]( \d+[dhms])? > 1s \([\d,]+ stays, repository acme\/web\)$/);
    expect(err[1]).toMatch(/^ok {4}merged [\d,]+ >= 1 \(repository acme\/web\)$/);
    expect(err[2]).toMatch(
      /^::error title=mq insights%3A --fail-if 'p95\(queue_time\) > 1s'::p95\(queue_time\) \d+[dhms]( \d+[dhms])? > 1s \([\d,]+ stays, repository acme\/web\)$/,
    );
    expect(err[3]).toBe("mq: 1 of 2 --fail-if checks failed.");
    const json = JSON.parse(readFileSync(report, "utf8"));
    expect(json).toMatchObject({
      command: "mq insights",
      repository: "acme/web",
      start_at: "2026-11-19T12:00:00Z",
      end_at: "2026-11-20T12:00:00Z",
      pass: false,
    });
    expect(json.checks.map((c: { expression: string; status: string }) => [c.expression, c.status])).toEqual([
      ["p95(queue_time) > 1s", "fail"],
      ["merged < 1", "ok"],
    ]);
    const md = readFileSync(summary, "utf8");
    expect(md).toContain("mq insights");
    // the figures with their change, escaped for Markdown
    expect(md).toMatch(/^\| p95\\\(queue\\_time\\\) \| \d+[dhms]( \d+[dhms])? \| \d+[dhms]( \d+[dhms])? \| [▲▼=] (×[\d.,]+|[\d.]+%) \|$/m);

    // --min-count sets aside small samples (and says so); counts have none: refused before any request
    const small = await mq(["insights", ...window, "-o", "none", "--fail-if", "p95(queue_time) > 1s", "--min-count", "100000"]);
    expect(small.code).toBe(0);
    expect(small.err).toMatch(
      /^skip {2}p95\(queue_time\) \d+[dhms]( \d+[dhms])? \([\d,]+ stays, repository acme\/web\): fewer than 100000 stays \(--min-count 100000\)\n$/,
    );
    const counted = await mq(["insights", ...window, "--fail-if", "merged < 1", "--min-count", "5"]);
    expect(counted.code).toBe(2);
    expect(counted.err).toBe(
      "mq: --min-count: merged has no count of the items behind it; --min-count applies to the distributions (STAT(DISTRIBUTION)) and stay_failure_rate, and their change() (drop it, or gate merged without it in another step).\n",
    );
    expect(counted.requests).toEqual([]);

    // a window without stays: the check fails unless --allow-empty
    const empty = [
      "insights",
      "--since",
      "2020-01-01T00:00:00Z",
      "--until",
      "2020-01-01T01:00:00Z",
      "--compare",
      "none",
      "-o",
      "none",
      "--fail-if",
      "p95(queue_time) > 1h",
    ];
    // (2020 is before the 90 days the service keeps: said first)
    const before =
      "mq: warning: the window 2020-01-01 00:00:00Z → 2020-01-01 01:00:00Z lies wholly before the 90 days of events the service keeps (from 2026-08-22 12:00:00Z): its figures count only the events there are.\n";
    const strict = await mq(empty);
    expect(strict.code).toBe(1);
    expect(strict.err).toBe(
      `${before}FAIL  p95(queue_time) > 1h (repository acme/web): no value in the window\nmq: 1 of 1 --fail-if check failed.\n`,
    );
    const allowed = await mq([...empty, "--allow-empty"]);
    expect(allowed.code).toBe(0);
    expect(allowed.err).toBe(`${before}skip  p95(queue_time) > 1h (repository acme/web): no value in the window (--allow-empty)\n`);
  });

  it("bad flags are usage errors before any request", async () => {
    const cases: Array<[string[], string]> = [
      [
        ["--compare", "lastweek"],
        'mq: --compare "lastweek" is not previous, none or SINCE..UNTIL (e.g. 2026-10-01..2026-10-08 or 14d..7d).\n',
      ],
      [
        ["--compare", "2026-10-08..2026-10-01"],
        "mq: --compare start (2026-10-08T00:00:00Z) is after --compare end (2026-10-01T00:00:00Z): --compare start must be earlier.\n",
      ],
      [["--slowest", "-1"], ""],
      [["--fail-if", "p97(queue_time) > 1h"], ""],
      [
        ["--compare", "none", "--fail-if", "change(merged) < 0"],
        'mq: --fail-if "change(merged) < 0": change() needs a comparison window; drop --compare none.\n',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await mq(["insights", ...args]);
      expect(r.code).toBe(2);
      if (message) expect(r.err).toBe(message);
      expect(r.requests).toEqual([]);
    }
  });
});

describe("mq prs on the bundled data", () => {
  it("one row per stay: its entries equal queues-entered-count", async () => {
    const r = await mq(["prs", "--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z", "-o", "ndjson"]);
    expect(r.code).toBe(0);
    const rows = records(r.out);
    const entered = rows.filter(
      (x) => !x.began_before_window && Date.parse(x.entered_at as string) < Date.parse("2026-11-20T12:00:00Z"),
    ).length;
    expect(entered).toBe(await statTotal("queues-entered-count", "entered", "2026-11-19T12:00:00Z", "2026-11-20T12:00:00Z"));
    // newest entry first, those begun before the window last
    const inWindow = rows.filter((x) => !x.began_before_window).map((x) => Date.parse(x.entered_at as string));
    expect(inWindow).toEqual([...inWindow].sort((a, b) => b - a));
  });

  it("--slowest, --sort, --failed, --fields, csv", async () => {
    const slow = records((await mq(["prs", "--since", "2d", "--slowest", "5", "-o", "ndjson"])).out);
    expect(slow).toHaveLength(5);
    const times = slow.map((x) => x.queue_time as number);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const ci = records((await mq(["prs", "--since", "2d", "--sort", "ci_time", "--limit", "3", "-o", "ndjson"])).out).map(
      (x) => x.ci_time as number,
    );
    expect(ci).toEqual([...ci].sort((a, b) => b - a));
    const failed = records((await mq(["prs", "--since", "2d", "--failed", "-o", "ndjson"])).out);
    expect(failed.length).toBeGreaterThan(0);
    expect(new Set(failed.map((x) => x.outcome))).toEqual(new Set(["failed"]));
    const csv = await mq(["prs", "--since", "1d", "--limit", "2", "-o", "csv", "--fields", "pull_request,outcome,queue_time"]);
    const lines = csv.out.split("\r\n");
    expect(lines[0]).toBe("pull_request,outcome,queue_time");
    expect(lines).toHaveLength(4);
  });

  it("bad flags are usage errors before any request", async () => {
    const cases: Array<[string[], string]> = [
      [
        ["--sort", "speed"],
        'mq: --sort: unknown value "speed"; allowed: queue_time, time_to_merge, wait_time, idle_capacity, idle_schedule, idle_freeze, ci_time, entered_at, retries, check_runs.\n',
      ],
      [["--outcome", "merge"], 'mq: --outcome: unknown value "merge" (did you mean merged?); allowed: merged, failed, dequeued, open.\n'],
      [["--slowest", "3", "--sort", "ci_time"], "mq: --slowest sorts by queue_time: it cannot be combined with --sort ci_time.\n"],
      [["--failed", "--outcome", "merged"], "mq: --failed and --outcome cannot be combined: --failed is --outcome failed.\n"],
      [["--fields", "pull_request", "-o", "table"], "mq: --fields applies to -o json, ndjson or csv, not to the table.\n"],
    ];
    for (const [args, message] of cases) {
      const r = await mq(["prs", ...args]);
      expect(r.err).toBe(message);
      expect(r.code).toBe(2);
      expect(r.requests).toEqual([]);
    }
  });
});

describe("several repositories", () => {
  let multi: RunningServer;
  beforeAll(async () => {
    multi = await startServer({ port: 0, now: NOW, seed: 42, days: 7, repos: ["acme/web", "acme/api"] });
  });
  afterAll(async () => {
    await multi?.close();
  });
  async function run(args: string[]) {
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
    const code = await main([...args, "--api-url", multi.url, "--color", "never"], ctx);
    return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
  }
  const window = ["--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z"];
  async function stat(repo: string, name: string, field: string) {
    const r = await run(["stats", name, "--repo", repo, ...window, "-o", "ndjson"]);
    return records(r.out).reduce((s, x) => s + Number(x[field]), 0);
  }

  it("insights --repo a,b: one report per repository and a total from sums and pooled stays", async () => {
    const r = await run(["insights", "--repo", "acme/web,acme/api", ...window, "-o", "json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.repositories.map((x: { repository: string }) => x.repository)).toEqual(["acme/web", "acme/api"]);
    for (const rep of doc.repositories) {
      expect(rep.figures.entered.value).toBe(await stat(rep.repository, "queues-entered-count", "entered"));
      expect(rep.figures.merged.value).toBe(await stat(rep.repository, "queues-merged-count", "merged"));
    }
    const [a, b] = doc.repositories;
    expect(doc.total.figures.entered.value).toBe(a.figures.entered.value + b.figures.entered.value);
    expect(doc.total.figures.merged.value).toBe(a.figures.merged.value + b.figures.merged.value);
    // a rate from the summed counts, not a mean of the two rates
    expect(doc.total.figures.stay_failure_rate.value).toBeCloseTo(
      (a.figures.failed.value + b.figures.failed.value) / (a.figures.left.value + b.figures.left.value),
      3,
    );
    // the pooled maximum is the larger maximum; the pooled p50 lies between the two
    expect(doc.total.figures["max(queue_time)"].value).toBe(
      Math.max(a.figures["max(queue_time)"].value, b.figures["max(queue_time)"].value),
    );
    const p50s = [a.figures["p50(queue_time)"].value, b.figures["p50(queue_time)"].value].sort((x, y) => x - y);
    expect(doc.total.figures["p50(queue_time)"].value).toBeGreaterThanOrEqual(p50s[0]);
    expect(doc.total.figures["p50(queue_time)"].value).toBeLessThanOrEqual(p50s[1]);
    expect(doc.failed).toEqual([]);
  });

  it("an unreachable repository: the others' output intact, its error on stderr, a non-zero exit", async () => {
    const r = await run(["insights", "--repo", "acme/web", "--repo", "acme/nope,acme/api", ...window, "-o", "ndjson"]);
    expect(r.code).toBe(3);
    const recs = records(r.out);
    expect([...new Set(recs.map((x) => x.repository))]).toEqual(["acme/web", "acme/api", "total"]);
    const entered = (repo: string) => recs.find((x) => x.repository === repo && x.figure === "entered")!.value as number;
    expect(entered("total")).toBe(entered("acme/web") + entered("acme/api"));
    expect(r.err).toMatch(/^mq: acme\/nope: .*404.* \(exit 3\)$/m);
    expect(r.err).toMatch(/^mq: 1 of 3 repositories could not be read \(acme\/nope\); the output covers the others\.$/m);
  });

  it("the total's percentiles are those of the pooled stays (mq prs --repo a,b), its counts those of mq stats --repo a,b", async () => {
    const r = await run(["insights", "--repo", "acme/web,acme/api", ...window, "--compare", "none", "-o", "json"]);
    expect(r.code).toBe(0);
    const total = JSON.parse(r.out).total.figures;
    const rows = records((await run(["prs", "--repo", "acme/web,acme/api", ...window, "-o", "ndjson"])).out);
    const [since, until] = [Date.parse(window[1]!), Date.parse(window[3]!)];
    const left = rows
      .filter((x) => x.left_at !== null && Date.parse(x.left_at as string) >= since && Date.parse(x.left_at as string) < until)
      .map((x) => x.queue_time as number)
      .sort((a, b) => a - b);
    const rank = (p: number) => left[Math.max(1, Math.ceil((p / 100) * left.length)) - 1];
    expect(total["count(queue_time)"].value).toBe(left.length);
    for (const p of [50, 90, 95, 99]) expect(total[`p${p}(queue_time)`].value, `p${p}`).toBe(rank(p));
    const stats = records((await run(["stats", "queues-entered-count", "--repo", "acme/web,acme/api", ...window, "-o", "ndjson"])).out);
    expect(stats.find((x) => x.repository === "total")!.entered).toBe(total.entered.value);
  });

  it("prs --repo a,b with one unreachable: the other's rows, its error with its exit code, exit 3", async () => {
    const r = await run(["prs", "--repo", "acme/web,acme/nope", "--since", "6h", "-o", "ndjson"]);
    expect(r.code).toBe(3);
    const rows = records(r.out);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((x) => x.repository))).toEqual(new Set(["acme/web"]));
    expect(r.err).toMatch(/^mq: acme\/nope: .*404.* \(exit 3\)$/m);
    expect(r.err).toMatch(/^mq: 1 of 2 repositories could not be read \(acme\/nope\); the output covers the others\.$/m);
  });

  it("prs --repo a,b: rows of both, the repository in every row, newest entry first", async () => {
    const r = await run(["prs", "--repo", "acme/web,acme/api", "--since", "6h", "-o", "ndjson"]);
    expect(r.code).toBe(0);
    const rows = records(r.out);
    expect(new Set(rows.map((x) => x.repository))).toEqual(new Set(["acme/web", "acme/api"]));
    const t = rows.map((x) => Date.parse(x.entered_at as string));
    expect(t).toEqual([...t].sort((x, y) => y - x));
  });

  it("a file of repositories, and several repositories refused where only one is read", async () => {
    const { writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const file = join(tempDir("mq-repos-"), "repos.txt");
    writeFileSync(file, "# our repositories\nacme/web\n\nacme/api  # the API\n");
    const r = await run(["insights", "--repo", `@${file}`, "--since", "1d", "-o", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).repositories.map((x: { repository: string }) => x.repository)).toEqual(["acme/web", "acme/api"]);
    const pr = await run(["pr", "7", "--repo", "acme/web,acme/api"]);
    expect(pr.code).toBe(2);
    expect(pr.err).toBe(
      'mq: --repo "acme/web,acme/api": this command reads one repository; several (a list or @FILE) are for mq stats, mq insights, mq prs and mq logs.\n',
    );
  });

  it("logs --repo a,b: one log, newest first, the repository in every event; a failing one reported", async () => {
    const r = await run([
      "logs",
      "--repo",
      "acme/web,acme/nope,acme/api",
      "--since",
      "2026-11-20T09:00:00Z",
      "--until",
      "2026-11-20T12:00:00Z",
      "--all",
      "-o",
      "ndjson",
    ]);
    expect(r.code).toBe(3);
    const events = records(r.out);
    const one = async (repo: string) =>
      records(
        (await run(["logs", "--repo", repo, "--since", "2026-11-20T09:00:00Z", "--until", "2026-11-20T12:00:00Z", "--all", "-o", "ndjson"]))
          .out,
      );
    const [web, api] = [await one("acme/web"), await one("acme/api")];
    expect(events).toHaveLength(web.length + api.length);
    expect(new Set(events.map((e) => e.repository))).toEqual(new Set(["acme/web", "acme/api"]));
    const key = (e: Record<string, unknown>) => [Date.parse(e.received_at as string), e.id as number] as const;
    for (let i = 1; i < events.length; i++) {
      const [t0, id0] = key(events[i - 1]!);
      const [t1, id1] = key(events[i]!);
      expect(t0 > t1 || (t0 === t1 && id0 >= id1)).toBe(true);
    }
    expect(r.err).toMatch(/^mq: acme\/nope: .*404.* \(exit 3\)$/m);
    expect(r.err).toMatch(/^mq: 1 of 3 repositories could not be read \(acme\/nope\); the output covers the others\.$/m);
    const limited = await run(["logs", "--repo", "acme/web,acme/api", "--since", "1d", "--limit", "7", "-o", "ndjson"]);
    expect(records(limited.out)).toHaveLength(7);
    const follow = await run(["logs", "--repo", "acme/web,acme/api", "--follow"]);
    expect(follow).toMatchObject({ code: 2, err: "mq: --follow reads one repository: give one --repo.\n" });
  });
});
