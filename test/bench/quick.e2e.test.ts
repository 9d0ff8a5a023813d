// `node bench/run.mjs --quick` runs every measurement once at small sizes. This checks only that it
// completes and prints every row and every target: timings are never asserted in tests.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("bench --quick", () => {
  it("completes and prints every row and target", () => {
    // dist/ is built by the global setup. The bench runs its processes one after the other, a
    // few of them waiting on purpose (a server's delay, an exporter's polls): on a machine running
    // other suites beside it (CI's runs side by side) it took more than 420 s, so the limit is for
    // a bench that hangs, not a busy machine
    const r = spawnSync(process.execPath, ["bench/run.mjs", "--quick", "--no-build"], { cwd: ROOT, encoding: "utf8", timeout: 900_000 });
    expect(r.stderr).not.toMatch(/bench: Error/);
    expect(r.status).toBe(0);
    const rows = r.stdout.split("\n").filter((l) => /^\| (start-up|streaming|memory|concurrency|server|insights|archive|feel) \|/.test(l));
    const names = rows.map((l) => l.split(" | ")[1]);
    expect(names).toEqual([
      'node -e "" (baseline)',
      "mq --version",
      "mq --help",
      "mq auth status",
      "mq logs --help",
      "(a) bash loop: curl + jq -c '.events[]', 500 events, 5 pages",
      "(b) bare undici loop in Node, 500 events, 5 pages",
      "mq logs --all -o ndjson, 500 events, 5 pages",
      "mq logs --all -o ndjson, 200 events: peak RSS",
      "mq logs --all -o ndjson, 500 events: peak RSS",
      "(b) bare undici loop, 500 events: peak RSS (for reference)",
      expect.stringMatching(/^slowest single request: mq stats [a-z-]+ \(\+50 ms server delay\)$/),
      expect.stringMatching(/^mq stats summary \(\d+ requests, \+50 ms each\)$/),
      "/logs page of 100, 2,000 events (baseline)",
      "/logs page of 100, 5,000 events",
      "30-day statistics query, 2,000 events (baseline)",
      "30-day statistics query, 5,000 events",
      expect.stringMatching(/^\(c\) mq logs --all -o ndjson, 1 day, [\d,]+ events$/),
      "mq insights --since 1d --compare none (same window)",
      "mq insights --since 1d: peak RSS",
      "(c) mq logs --all over the same window: peak RSS",
      expect.stringMatching(/^mq archive sync --parallel 6 \(the default\), 1 days?, [\d,]+ events, loopback \(once\)$/),
      expect.stringMatching(/^\(d\) mq insights over the API, 1 days?, [\d,]+ pages, \+20 ms per page$/),
      "(e) mq insights over the API, 1 day, loopback (no latency)",
      '(f) mq archive query "SELECT 1": start-up, DuckDB loaded, archive opened',
      "insights --archive vs over the API, 1 day",
      "bare node:http one-page fetch, 100 events (floor)",
      "mq logs, one page of 100 events -o ndjson",
      "(b) bare undici loop, 500 events (floor)",
      "(h) bare node:http loop, 500 events (floor on mq's transport)",
      "mq logs --all -o ndjson --parallel 1, 500 events",
      "mq logs --all -o json --parallel 1, 500 events",
      "mq logs --all -o csv --parallel 1, 500 events",
      "mq logs --all -o table --parallel 1, 500 events",
      "mq logs --all -o ndjson (default: parallel slices), 500 events",
      "peak RSS -o ndjson: 200 → 500 events",
      "peak RSS -o json: 200 → 500 events",
      "peak RSS -o csv: 200 → 500 events",
      "peak RSS -o table: 200 → 500 events",
      "mq logs --all, 1 day, +100 ms a request: sequential (--parallel 1)",
      "mq logs --all, 1 day, +100 ms a request: parallel slices (--parallel 6)",
    ]);
    const serve = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("| serve |"))
      .map((l) => l.split(" | ")[1]);
    expect(serve).toEqual([
      "mq serve --days 2: warm /logs page of 10 (floor)",
      "whole-window failure_rate (2 days), cold: first query of a fresh server",
      "whole-window failure_rate (2 days), warm",
      "mq serve --days 2 --memory-budget 512: peak RSS after every endpoint over the window",
      "warm /logs page of 10, idle (baseline)",
      "warm /logs page of 10 while 10 clients ask 20 cold requests over 2 repositories",
      "10 clients x 2 repositories: the whole load (20 requests)",
      "mq serve --memory-budget 512: peak RSS under that load",
      "--days 2: one repository's 4 statistics back to 2000 and its newest and oldest pages (each repository cold)",
      expect.stringMatching(/^--days 2: the server's CPU time over the 2 repositories \(wall: [\d.]+ m?s\)$/),
      "--days 2 --memory-budget 512: peak RSS after 2 repositories",
    ]);
    const exporter = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("| exporter |"))
      .map((l) => l.split(" | ")[1]);
    expect(exporter).toEqual([
      expect.stringMatching(/^5 repositories \([\d,]+ queue events each, 20 ms a request\): caught up \(\/readyz 200\)$/),
      expect.stringMatching(/^5 repositories \([\d,]+ queue events each, 20 ms a request\): peak RSS$/),
      expect.stringMatching(
        /^5 repositories \([\d,]+ queue events each, 20 ms a request\): scrape of \/metrics \([\d.]+ MB of text\), both formats$/,
      ),
      "1 simulated repositories (mq serve --latency 20 --days 1): caught up (/readyz 200)",
      "1 simulated repositories (mq serve --latency 20 --days 1): peak RSS",
      expect.stringMatching(
        /^1 simulated repositories \(mq serve --latency 20 --days 1\): scrape of \/metrics \([\d.]+ MB\), both formats$/,
      ),
    ]);
    const queue = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("| queue |"))
      .map((l) => l.split(" | ")[1]);
    expect(queue).toEqual([
      "one-page `mq logs` (floor)",
      "`mq queue` (7-day lookback, one repository)",
      "a `mq wait` poll: its one request, at the proxy",
      "one-page `mq logs`' request, at the proxy (floor)",
    ]);
    const targets = r.stdout.split("\n").filter((l) => /^- \*\*(met|NOT met|not measured)\*\* — /.test(l));
    // 22 of the other sections (7 of them serve), 6 of issue 18's rows (bench/feel.mjs), 3 of the exporter's (bench/exporter.mjs)
    expect(targets, targets.join("\n")).toHaveLength(31);
  }, 960_000);
});
