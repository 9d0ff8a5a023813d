// End to end against the bundled server (`mq serve`): its simulated history gives real groups and
// intervals, and the binary itself runs once with --offline.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { STATS_ENDPOINTS } from "../../../src/stats/endpoints.js";
import { windowValue } from "../../../src/stats/aggregate.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { testContext } from "../../helpers/context.js";
import { summaryFromSubcommands } from "./summary-figures.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, now: NOW, seed: 42 });
});
afterAll(async () => {
  await server?.close();
});

async function mq(args: string[], tty = false) {
  const ctx = testContext({ tty, env: { MQ_TOKEN: "test-token-1234" } });
  const code = await main([...args, "--api-url", server.url, "--repo", "acme/web", "--color", "never"], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

const lines = (text: string) => text.split("\n").filter(Boolean);

describe("against mq serve", () => {
  // mq serve speaks the contract; both dialects: test/commands/stats/dialects.test.ts
  for (const endpoint of STATS_ENDPOINTS.filter((e) => e.dialects.includes("spec"))) {
    it(`${endpoint.name}: every output format`, async () => {
      // time-to-merge takes --at and --branch, not a window
      const win = endpoint.params === "time-to-merge" ? ["--at", "1h"] : ["--since", "7d"];
      const json = await mq(["stats", endpoint.name, ...win, "-o", "json"]);
      expect(json.code).toBe(0);
      const body = JSON.parse(json.out);
      const nd = await mq(["stats", endpoint.name, ...win, "-o", "ndjson"]);
      expect(nd.code).toBe(0);
      const records = lines(nd.out).map((l) => JSON.parse(l));
      const csv = await mq(["stats", endpoint.name, ...win, "-o", "csv"]);
      expect(csv.code).toBe(0);
      // header + one line per record (no value of the simulation holds a line break)
      expect(csv.out.split("\r\n").filter(Boolean)).toHaveLength(records.length + (records.length ? 1 : 0));
      const table = await mq(["stats", endpoint.name, ...win], true);
      expect(table.code).toBe(0);
      if (endpoint.listKey) expect(records.map((r) => Object.values(r)[0])).toEqual(body[endpoint.listKey]);
      if (endpoint.mainField) {
        const chart = await mq(["stats", endpoint.name, ...win, "--chart"], true);
        expect(chart.code).toBe(0);
        if (records.length) expect(chart.out).toMatch(new RegExp(`^  ${endpoint.mainField}  [▁▂▃▄▅▆▇█ ]+  min `, "m"));
      }
    });
  }

  it("the summary's figures equal those of the individual subcommands", async () => {
    const window = ["--since", "2026-11-13T12:00:00Z", "--until", "2026-11-20T12:00:00Z"];
    const { code, out } = await mq(["stats", "summary", ...window, "-o", "json"]);
    expect(code).toBe(0);
    const summary = JSON.parse(out);
    const figure = async (name: string, field: string) =>
      windowValue(
        field,
        lines((await mq(["stats", name, ...window, "-o", "ndjson"])).out).map((l) => JSON.parse(l)),
      ) ?? null;
    expect(summary.entered).toBeGreaterThan(0);
    // the contract sends these two averages without the counts behind them: over several groups
    // they combine by no rule of the catalogue, so the summary gives none, and says why
    const without = /without the count behind it/;
    expect(summary).toEqual({
      start_at: "2026-11-13T12:00:00Z",
      end_at: "2026-11-20T12:00:00Z",
      ...(await summaryFromSubcommands(figure)),
      avg_queue_time: null,
      avg_ci_runtime: null,
      unavailable: { avg_queue_time: expect.stringMatching(without), avg_ci_runtime: expect.stringMatching(without) },
    });
  });

  it("a filter reaches the server and narrows the groups", async () => {
    const before = server.requests.length;
    const { code, out } = await mq(["stats", "queues-entered-count", "--since", "7d", "--queue", "default", "-o", "ndjson"]);
    expect(code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual([
      "/v1/repos/acme/web/stats/queues_entered_count?queue_name=default&start_at=2026-11-13T12%3A00%3A00Z",
    ]);
    for (const r of lines(out).map((l) => JSON.parse(l))) expect(r.queue_name).toBe("default");
  });

  it("--fail-if passes and fails on the simulated failure rate", async () => {
    const json = await mq(["stats", "failure-rate", "--since", "7d", "-o", "json", "--fail-if", "failures >= 0"]);
    expect(json.code).toBe(1);
    const ok = await mq(["stats", "failure-rate", "--since", "7d", "-o", "json", "--fail-if", "failure_rate > 1"]);
    expect(ok.code).toBe(0);
    expect(ok.err).toMatch(/^ok {4}failure_rate \d+\.\d% <= 100% \([\d,]+\/[\d,]+ checks, all groups\)\n$/);
  });
});

describe("the real binary", () => {
  it("mq --offline stats failure-rate --repo acme/web -o json prints valid JSON", async () => {
    const bin = new URL("../../../bin/mq.js", import.meta.url).pathname;
    const { stdout } = await promisify(execFile)("node", [bin, "--offline", "stats", "failure-rate", "--repo", "acme/web", "-o", "json"], {
      env: { ...process.env, MQ_CONFIG_DIR: "/nonexistent-mq-config", NO_COLOR: "1" },
    });
    const body = JSON.parse(stdout);
    expect(Array.isArray(body.groups)).toBe(true);
  });
});
