// Every `mq stats` subcommand against both sides of the API, in-process with --strict: the bundled
// server speaking the contract and speaking the real service's shape (`mq serve --dialect mergify`).
// Every format, --chart, --fail-if; exit 0 and no warning but the deprecation notice of the two
// deprecated endpoints. Subcommands and flags one side lacks: one line, exit 2, nothing sent.
// The sweeps (every subcommand × every format, --chart and --fail-if on every subcommand) run here
// on a sample; stats-dialects.e2e.test.ts runs the rest of them.
import { describe, expect, test } from "vitest";
import { spread } from "../../helpers/sweep.js";
import { runMq } from "../../reliability/harness.js";
import { DIALECT_NAMES, dialectRuns, expectChartAndFailIf, expectStatsFormat, NOW, STATS_SAMPLE } from "../dialect-runs.js";

describe.each(DIALECT_NAMES)("mq stats against mq serve --dialect %s", (dialect) => {
  const runs = dialectRuns(dialect);
  const { run } = runs;

  test("every subcommand of the dialect in one format, every format on some: exit 0, no warning", async () => {
    for (const [e, format] of STATS_SAMPLE.formats(dialect)) await expectStatsFormat(runs, e, format);
  }, 120_000);

  test(`--chart and --fail-if on ${STATS_SAMPLE.charts} of the subcommands that have them`, async () => {
    for (const e of spread(STATS_SAMPLE.charted(dialect), STATS_SAMPLE.charts)) await expectChartAndFailIf(runs, e);
  }, 120_000);

  if (dialect === "mergify") {
    test("average-queue-time is computed from total-queue-time and idle-queue-time: the same figures, no 404", async () => {
      const avg = await run(["stats", "average-queue-time", "--since", "2d", "-o", "json"]);
      expect(avg.code, avg.stderr).toBe(0);
      const paths = runs.server.requests.slice(-2).map((q) => new URL(q.url, "http://x").pathname.split("/").pop());
      expect(paths.sort()).toEqual(["idle_queue_time", "total_queue_time"]);
      const total = JSON.parse((await run(["stats", "total-queue-time", "--since", "2d", "-o", "json"])).stdout);
      const body = JSON.parse(avg.stdout);
      expect(body.groups[0].stats[0].queue_time).toBe(total.groups[0].stats[0].avg_queue_time);
      expect(body.groups[0].stats[0]).toHaveProperty("idle_capacity");
    });

    test("idle-queue-time shows the per-group summary with its p95 figures", async () => {
      const r = await run(["stats", "idle-queue-time", "--since", "7d", "-o", "table"]);
      expect(r.code).toBe(0);
      // one line per group under the compact table, the group named when there are several
      expect(r.stdout).toMatch(/^summary( [^:]+)?: avg_idle_capacity .*p95_idle_capacity .*p95_ci_runtime /m);
    });

    test("idle-queue-time's summary lines fit an 80-column terminal (cut with an ellipsis, all of it in -o json)", async () => {
      const r = await runMq(["--dialect", dialect, "--strict", "stats", "idle-queue-time", "--since", "7d", "--color", "never"], {
        apiUrl: runs.server.url,
        now: () => NOW,
        stdoutIsTTY: true,
        columns: 80,
      });
      expect(r.code).toBe(0);
      const summaries = r.stdout.split("\n").filter((l) => l.startsWith("summary"));
      expect(summaries.length).toBeGreaterThan(0);
      for (const line of summaries) {
        expect(line.length).toBeLessThanOrEqual(80);
        expect(line.endsWith("…")).toBe(true);
      }
      for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    });

    test("--repo a,b: idle means total exactly from sum_X / count_idle, p95 has no total, counts add", async () => {
      const r = await run(["stats", "idle-queue-time", "--since", "2d", "-o", "json", "--repo", "acme/web,acme/api"]);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      const per = await Promise.all(
        ["acme/web", "acme/api"].map(async (repo) =>
          JSON.parse((await run(["stats", "idle-queue-time", "--since", "2d", "-o", "json", "--repo", repo])).stdout),
        ),
      );
      const records = per.flatMap((b) => b.groups.flatMap((g: { stats: Array<Record<string, number>> }) => g.stats));
      const sum = (k: string) => records.reduce((a: number, x: Record<string, number>) => a + x[k]!, 0);
      const [total] = doc.total;
      expect(total.count_idle).toBe(sum("count_idle"));
      expect(total.idle_capacity).toBeCloseTo(sum("sum_idle_capacity") / sum("count_idle"), 6);
      expect(total.ci_runtime).toBeCloseTo(sum("sum_ci_runtime") / sum("count_idle"), 6);
      expect(total.p95_idle_capacity).toBeNull();
      expect(Object.keys(doc.unavailable).sort()).toEqual(["p95_ci_runtime", "p95_idle_capacity", "p95_idle_freeze", "p95_idle_schedule"]);
      expect(r.stderr.split("\n").filter(Boolean)).toEqual(
        Object.entries(doc.unavailable).map(([f, why]) => `mq: total ${f} not available: ${why}`),
      );
    });

    test("--repo a,b: total-queue-time's average totals exactly from sum_queue_time / count_queue_time", async () => {
      const r = await run(["stats", "total-queue-time", "--since", "2d", "-o", "ndjson", "--repo", "acme/web,acme/api"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe("");
      const rows = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(rows.map((x) => x.repository)).toEqual(["acme/web", "acme/api", "total"]);
      expect(rows[2].avg_queue_time).not.toBeNull();
      expect(rows[2].max_queue_time).toBe(Math.max(rows[0].max_queue_time, rows[1].max_queue_time));
    });

    test("--partition is refused: the service has no partitions and would ignore it", async () => {
      const before = runs.server.requests.length;
      const r = await run(["stats", "queue-size", "--partition", "api"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^mq: --partition is not available with the mergify dialect: .*\n$/);
      expect(runs.server.requests.length).toBe(before);
    });
  } else {
    test.each(["idle-queue-time", "skip-intermediate-results"])(
      "%s exists only on the real service: exit 2, one line, nothing sent",
      async (name) => {
        const before = runs.server.requests.length;
        const r = await run(["stats", name]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`^mq: mq stats ${name} is not available with the spec dialect: .*--dialect mergify\\)\\.\\n$`));
        expect(runs.server.requests.length).toBe(before);
      },
    );
  }
});
