// `mq exporter` against the real thing: Debian's prometheus package (the server and promtool,
// which .ci/run installs). mq serve with a fixed present, the exporter over two repositories,
// and a Prometheus scraping it every second; its HTTP API must say up == 1, give counters equal
// to the raw log's counts and a histogram_quantile; promtool must accept the scrape and the
// shipped rules and their unit tests. Skipped, saying why, where the binaries are missing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMq, type Running } from "../../helpers/spawn.js";
import { beforeTempRemoval, tempDir } from "../../helpers/tmp.js";
import { get, rawLog, samples, total, until } from "./harness.js";

const have = (bin: string) => spawnSync(bin, ["--version"], { stdio: "ignore" }).status === 0;
const missing = ["prometheus", "promtool"].filter((b) => !have(b));
if (missing.length) console.warn(`Prometheus tests skipped: ${missing.join(" and ")} not found (apt-get install prometheus)`);

const NOW = "2026-11-20T12:00:00Z";
const SINCE = new Date(Date.parse(NOW) - 6 * 3_600_000);
const REPOS = ["acme/web", "acme/api"];
const deploy = new URL("../../../deploy/prometheus/", import.meta.url).pathname;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

function promtool(args: string[], input?: string) {
  const r = spawnSync("promtool", args, { input, encoding: "utf8", cwd: deploy });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe.skipIf(missing.length > 0)("mq exporter scraped by a real Prometheus", () => {
  let api: Running;
  let exporter: Running;
  let apiUrl: string;
  let exporterUrl: string;
  let prometheus: ChildProcess;
  let promUrl: string;
  const stateDir = tempDir("mq-exporter-state-");

  beforeAll(async () => {
    api = startMq(["serve", "--port", "0", "--now", NOW, "--days", "1", "--repos", REPOS.join(",")], { killAfterMs: 120_000 });
    await api.waitForStdout(/^http:\S+\n/, 30_000);
    apiUrl = api.stdout().trim();
    exporter = startMq(
      ["--api-url", apiUrl, "--token", "t", "exporter", "--repo", REPOS.join(","), "--since", SINCE.toISOString()].concat([
        "--listen",
        "127.0.0.1:0",
        "--interval",
        "1",
        "--state-dir",
        stateDir,
      ]),
      { killAfterMs: 120_000 },
    );
    await exporter.waitForStdout(/^http:\S+\n/, 30_000);
    exporterUrl = exporter.stdout().trim();
    await until("the exporter to be ready", async () => ((await get(`${exporterUrl}/readyz`)).status === 200 ? true : undefined));

    const dir = tempDir("mq-prometheus-");
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, "prometheus.yml"),
      [
        "global: { scrape_interval: 1s, evaluation_interval: 1s }",
        `rule_files: ["${join(deploy, "mq-exporter.rules.yml")}"]`,
        "scrape_configs:",
        "  - job_name: mq-exporter",
        `    static_configs: [{ targets: ["${new URL(exporterUrl).host}"] }]`,
        "",
      ].join("\n"),
    );
    prometheus = spawn(
      "prometheus",
      [
        `--config.file=${join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: "ignore", detached: true },
    );
    const closed = new Promise<void>((r) => prometheus.once("close", () => r()));
    beforeTempRemoval(async () => {
      try {
        process.kill(-prometheus.pid!, "SIGKILL");
      } catch {}
      await closed;
    });
  }, 90_000);

  afterAll(async () => {
    try {
      process.kill(-prometheus.pid!, "SIGTERM");
    } catch {}
    api?.child.kill("SIGTERM");
  });

  const query = async (q: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> => {
    // until Prometheus listens, a refused connection is "no answer yet", like an empty result
    const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`).catch(() => undefined);
    if (res?.status !== 200) return [];
    const body = (await res.json()) as {
      status: string;
      data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
    };
    return body.status === "success" ? body.data.result : [];
  };

  it("promtool check metrics accepts the scrape", async () => {
    const scrape = await get(`${exporterUrl}/metrics`);
    expect(promtool(["check", "metrics"], scrape.body)).toEqual({ code: 0, out: "" });
  });

  it("Prometheus scrapes it (up == 1), its counters equal the raw log's, histogram_quantile answers", async () => {
    const up = await until("up == 1", async () => {
      const r = await query('up{job="mq-exporter"}');
      return r[0]?.value[1] === "1" ? r : undefined;
    });
    expect(up.map((r) => r.metric.instance)).toEqual([new URL(exporterUrl).host]);
    for (const repo of REPOS) {
      const raw = await rawLog({ url: apiUrl }, repo, SINCE, new Date(NOW));
      const count = (type: string) => raw.filter((e) => e.type === type).length;
      const value = async (q: string) => Number((await query(q))[0]?.value[1]);
      const sel = `{repository="${repo}"}`;
      expect(await value(`sum(mq_queue_entered_total${sel})`)).toBe(count("action.queue.enter"));
      expect(await value(`sum(mq_queue_merged_total${sel})`)).toBe(count("action.queue.merged"));
      expect(await value(`sum(mq_queue_left_total${sel})`)).toBe(count("action.queue.leave"));
      expect(await value(`sum(mq_checks_total${sel})`)).toBe(count("action.queue.checks_end"));
      expect(await value(`sum(mq_time_to_merge_seconds_count${sel})`)).toBe(count("action.queue.merged"));
      const p50 = await value(`histogram_quantile(0.5, sum by (le) (mq_time_to_merge_seconds_bucket${sel}))`);
      expect(p50).toBeGreaterThan(0);
      expect(p50).toBeLessThan(604800);
    }
    // the rules loaded and evaluate
    const rules = (await (await fetch(`${promUrl}/api/v1/rules`)).json()) as { data: { groups: Array<{ rules: unknown[] }> } };
    expect(rules.data.groups.flatMap((g) => g.rules).length).toBe(10);
  }, 60_000);

  it("promtool checks the shipped rules and passes their unit tests", () => {
    expect(promtool(["check", "rules", "mq-exporter.rules.yml"]).code).toBe(0);
    const tests = promtool(["test", "rules", "mq-exporter.rules.test.yml", "mq-exporter.rules.week.test.yml"]);
    expect(tests.out, tests.out).not.toContain("FAILED");
    expect(tests.code).toBe(0);
  }, 60_000);

  it("SIGTERM stops the exporter cleanly (exit 0), its state saved for the next start", async () => {
    const before = samples((await get(`${exporterUrl}/metrics`)).body);
    exporter.child.kill("SIGTERM");
    const r = await exporter.done;
    expect(r.code).toBe(0);
    expect(r.stderr.endsWith("mq exporter: stopped\n")).toBe(true);
    const again = startMq(
      ["--api-url", apiUrl, "--token", "t", "exporter", "--repo", REPOS.join(","), "--since", "1h"].concat([
        "--listen",
        "127.0.0.1:0",
        "--interval",
        "1",
        "--state-dir",
        stateDir,
      ]),
      { killAfterMs: 60_000 },
    );
    await again.waitForStdout(/^http:\S+\n/, 30_000);
    const url = again.stdout().trim();
    await until("ready again", async () => ((await get(`${url}/readyz`)).status === 200 ? true : undefined));
    const after = samples((await get(`${url}/metrics`)).body);
    // nothing new in the log: every counter continues where it stopped
    expect(total(after, "mq_queue_entered_total")).toBe(total(before, "mq_queue_entered_total"));
    expect(total(after, "mq_checks_total")).toBe(total(before, "mq_checks_total"));
    again.child.kill("SIGTERM");
    expect((await again.done).code).toBe(0);
  }, 60_000);
});
