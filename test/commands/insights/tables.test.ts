// The tables of mq insights, mq prs and mq pr N: for people wherever they go, as mq stats' are
// (durations in words, rates as percentages, counts with separators in a pipe too: they printed
// raw seconds and fractions there), and on a terminal no wider than it at 60, 80 and 120 columns
// (the distribution table was 70 columns wide at 60, the prs table 98).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { runMq } from "../../reliability/harness.js";
import { displayWidth } from "../../../src/iostreams/terminal-width.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: NOW, days: 3 });
});
afterAll(() => server.close());

const mq = (args: string[], tty: { columns: number } | undefined = undefined) =>
  runMq([...args, "--color", "never"], {
    apiUrl: server.url,
    now: () => NOW,
    stdoutIsTTY: tty !== undefined,
    columns: tty?.columns,
    repo: !args.includes("--repo"),
  });

describe("-o table in a pipe: the table rules of mq stats", () => {
  it("mq insights", async () => {
    const r = await mq(["insights", "--since", "2h", "--compare", "none", "--slowest", "2", "-o", "table"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        "acme/web  2026-11-20 10:00:00Z \u2192 2026-11-20 12:00:00Z",
        "no comparison (--compare none)",
        "",
        "                   VALUE",
        "entered               70",
        "merged                67",
        "left                  72",
        "failed                 5",
        "stay failure rate   6.9%",
        "merged per day       804",
        "retries                2",
        "",
        "               COUNT      AVG      P50      P90    P95     P99     MAX",
        "time to merge     67  26m 26s  23m 35s  38m 18s    56m  1h 23m  1h 23m",
        "time in queue     72  26m 38s  22m 55s  50m 53s  1h 5m  1h 23m  1h 23m",
        "CI time           49  15m 41s  12m 41s  25m 37s    35m   1h 0m   1h 0m",
        "waiting time      52   7m 22s   4m 56s  17m 58s    23m     28m     28m",
        "",
        "EXIT REASON                COUNT",
        "SUCCESS                       67",
        "CONFLICT_WITH_BASE_BRANCH      3",
        "CHECKS_TIMEOUT                 2",
        "",
        "SLOWEST  BASE  QUEUE    ENTERED               IN QUEUE  WAITING     CI  OUTCOME",
        "#323082  main  default  2026-11-20 09:13:48Z    1h 23m   1h 16m     7m  merged",
        "#323143  main  lowrisk  2026-11-20 10:40:46Z    1h 12m      12m  1h 0m  CHECKS_TIMEOUT",
        "",
      ].join("\n"),
    );
  });

  it("mq prs", async () => {
    const r = await mq(["prs", "--since", "2h", "--limit", "3", "-o", "table"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        "     PR  BASE  QUEUE    ENTERED               IN QUEUE  WAITING   CI  RUNS  RETRIES  OUTCOME",
        "#323191  main  lowrisk  2026-11-20 11:59:35Z       24s      24s   0s     0        0  open",
        "#323190  main  lowrisk  2026-11-20 11:57:28Z    2m 31s   2m 31s   0s     0        0  open",
        "#323189  main  default  2026-11-20 11:56:15Z    3m 45s   3m 10s  35s     1        0  open",
        "",
      ].join("\n"),
    );
  });

  it("-o csv keeps raw seconds and fractions", async () => {
    const r = await mq(["insights", "--since", "2h", "--compare", "none", "--slowest", "0", "-o", "csv"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\r\n").filter((l) => /,(stay_failure_rate|p50\(queue_time\)),/.test(l))).toEqual([
      "acme/web,stay_failure_rate,0.069,,,ratio,,,",
      "acme/web,p50(queue_time),1375.191,,,seconds,,,",
    ]);
  });
});

describe("on a terminal, no line wider than it", () => {
  const commands: Array<[string, string[]]> = [
    ["insights", ["insights", "--since", "1d"]],
    ["insights --repo a,b", ["insights", "--since", "1d", "--repo", "acme/web,acme/api"]],
    ["prs", ["prs", "--since", "1d"]],
    ["prs --repo a,b", ["prs", "--since", "1d", "--repo", "acme/web,acme/api", "--limit", "50"]],
    // a stay with a failed batch: long step texts, several runs
    ["pr", ["pr", "322270", "--since", "1d"]],
  ];
  for (const [name, args] of commands) {
    it.each([60, 80, 120])(`${name} at %i columns`, async (columns) => {
      const r = await mq(args, { columns });
      expect(r.code, r.stderr).toBe(0);
      for (const line of r.stdout.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      // the summary under the table too (mq prs': 73 columns wide at 60)
      for (const line of r.stderr.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    });
  }

  it("-o json on a terminal is pretty-printed on many lines (it was one line, its breaks escaped as \\u000a)", async () => {
    const r = await mq(["insights", "--since", "2h", "--compare", "none", "-o", "json"], { columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('{\n  "repository": "acme/web",\n')).toBe(true);
    expect(r.stdout).not.toContain("\\u000a");
  });

  it("mq prs' summary line is broken between words to the terminal, not cut", async () => {
    const r = await mq(["prs", "--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z", "--limit", "12"], { columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("acme/web: the newest 12 of 439 queue stays from\n2026-11-19 12:00:00Z to 2026-11-20 12:00:00Z\n");
  });

  it("mq prs shows a screen (30 rows) on a terminal, says how many more and what shows them; a pipe gets every row", async () => {
    const window = ["prs", "--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z"];
    const r = await mq(window, { columns: 120 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter((l) => l.startsWith("#"))).toHaveLength(30);
    expect(r.stderr).toBe(
      "acme/web: the newest 30 of 439 queue stays from 2026-11-19 12:00:00Z to 2026-11-20 12:00:00Z; more with --limit 439\n",
    );
    const piped = await mq([...window, "-o", "csv"]);
    expect(piped.stdout.trimEnd().split("\n")).toHaveLength(440);
  });

  it("mq insights --slowest 40 shows a screen of them (30) on a terminal, then how many and what shows them; a pipe gets every one", async () => {
    const window = ["insights", "--since", "1d", "--compare", "none", "--slowest", "40"];
    const r = await mq(window, { columns: 120 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    const slowest = lines.slice(lines.findIndex((l) => l.startsWith("SLOWEST")) + 1);
    expect(slowest.filter((l) => l.startsWith("#"))).toHaveLength(30);
    expect(slowest.at(-1)).toBe("the slowest 30 of 40 pull requests; -o table | less shows them all (or mq prs --slowest 40)");
    const piped = await mq([...window, "-o", "table"]);
    const all = piped.stdout.trimEnd().split("\n");
    expect(all.slice(all.findIndex((l) => l.startsWith("SLOWEST")) + 1)).toHaveLength(40);
  });

  it("mq prs at 60 columns: columns give way, named under the table, and no row is printed twice (it was split in two parts)", async () => {
    const r = await mq(["prs", "--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z"], { columns: 60 });
    const lines = r.stdout.trimEnd().split("\n");
    const prs = lines.filter((l) => l.startsWith("#")).map((l) => l.split(" ")[0]);
    expect(prs).toHaveLength(30);
    expect(new Set(prs).size).toBe(30);
    expect(lines[0]).toBe("     PR  QUEUE    ENTERED  IN QUEUE  WAITING  OUTCOME");
    expect(lines.slice(-2)).toEqual(["not shown at 60 columns: BASE, CI, RUNS, RETRIES (a wider", "terminal or -o csv shows them)"]);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
  });
});

describe("mq insights --repo a,b with one that fails", () => {
  let two: RunningServer;
  beforeAll(async () => {
    two = await startServer({ now: NOW, days: 1, repos: ["acme/web", "acme/api"] });
  });
  afterAll(() => two.close());

  it("its row says failed with its exit code (the message is on stderr), as mq stats --repo a,b's does; the table still fits", async () => {
    const r = await runMq(["insights", "--since", "2h", "--compare", "none", "--repo", "acme/web,acme/nope", "--color", "never"], {
      apiUrl: two.url,
      now: () => NOW,
      stdoutIsTTY: true,
      columns: 60,
      repo: false,
    });
    expect(r.code).toBe(3);
    const table = r.stdout.split("\n\n")[0]!.split("\n");
    expect(table.filter((l) => l.startsWith("acme/nope"))).toEqual(["acme/nope   failed (exit 3)"]);
    for (const line of r.stdout.split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    expect(r.stderr).toMatch(/^mq: acme\/nope: .*404.* \(exit 3\)$/m);
  });
});

describe("mq prs: a --queue or --base-ref the window does not hold", () => {
  const window = ["prs", "--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z", "-o", "csv"];
  it("--queue names the queues that have stays in the window", async () => {
    const r = await mq([...window, "--queue", "nosuch"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe("mq: no queue named nosuch has stays in this window; queues that do: default, hotfix, lowrisk.\n");
  });

  it("--base-ref names the base refs that have stays in the window (a second walk, on every base ref)", async () => {
    const r = await mq([...window, "--base-ref", "nosuch", "--queue", "default"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("mq: no queue stays on base ref nosuch in this window; base refs with stays in it: main, release/v2.\n");
  });

  it("says nothing more when the names exist and other filters left nothing", async () => {
    const r = await mq([...window, "--queue", "hotfix", "--outcome", "merged", "--reason", "checks_failed"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe("");
  });
});
