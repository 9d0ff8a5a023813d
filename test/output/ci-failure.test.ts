// Inside GitHub Actions every failure exit but a breached threshold and a usage error (3, 4, 5, 6,
// 7, 8, 74) is one escaped `::error` annotation on stderr and one line in the step summary; before,
// only a failed --fail-if check was (a missing token, a 404 or a network failure showed nothing).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

async function inActions(args: string[], env: Record<string, string> = {}) {
  const dir = tempDir("mq-actions-");
  const summary = join(dir, "step-summary.md");
  writeFileSync(summary, "previous step\n");
  const ctx = testContext({ env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, ...env } });
  const code = await main(args, ctx);
  return { code, err: ctx.stderrText(), summary: readFileSync(summary, "utf8") };
}

describe("failures inside GitHub Actions", () => {
  it("no token (exit 4): the message, one annotation, one summary line", async () => {
    const r = await inActions(["logs", "--repo", "acme/web"], { MQ_API_URL: "http://127.0.0.1:9" });
    expect(r.code).toBe(4);
    expect(r.err).toBe(
      "mq: no token for http://127.0.0.1:9\nrun mq auth login, set MQ_TOKEN, or use --offline\n" +
        "::error title=mq logs failed (exit 4)::no token for http://127.0.0.1:9\n",
    );
    expect(r.summary).toBe("previous step\n- ❌ `mq logs` failed (exit 4): no token for http\\://127.0.0.1:9\n");
  });

  it("a 404 (exit 3) whose detail is hostile: escaped in the annotation and in the summary, token masked", async () => {
    const token = "mqk_secret_token_1234";
    const server = createServer((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: `no such repo\n::error::forged %0A [x](https://e.example) ${token}` }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await inActions(["--api-url", url, "--no-retry", "stats", "queues", "--repo", "acme/nope"], { MQ_TOKEN: token });
      expect(r.code).toBe(3);
      const annotations = r.err.split("\n").filter((l) => l.startsWith("::"));
      expect(annotations).toHaveLength(1);
      expect(annotations[0]).toMatch(/^::error title=mq stats failed \(exit 3\)::.*no such repo/);
      // the server's line break is shown as \n inside the one line: no second command can start
      expect(r.err.split("\n").filter((l) => l.startsWith("::error::"))).toEqual([]);
      expect(annotations[0]).toContain("%250A");
      expect(r.err).not.toContain(token);
      const lines = r.summary.split("\n");
      expect(lines[1]).toMatch(/^- ❌ `mq stats` failed \(exit 3\): .*no such repo/);
      expect(lines[1]).toContain("\\[x\\]\\(https\\://e.example\\)");
      expect(r.summary).not.toContain(token);
      expect(lines).toHaveLength(3);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("a network failure (exit 6) and a bad config file (exit 7) too; a usage error (exit 2) and outside Actions: none", async () => {
    const net = await inActions(["--api-url", "http://127.0.0.1:9", "--token", "t", "--no-retry", "logs", "--repo", "acme/web"]);
    expect(net.code).toBe(6);
    expect(net.err.split("\n").filter((l) => l.startsWith("::error title=mq logs failed (exit 6)::"))).toHaveLength(1);
    const dir = tempDir("mq-bad-config-");
    writeFileSync(join(dir, "config.json"), "not json");
    const cfg = await inActions(["config", "list"], { MQ_CONFIG_DIR: dir });
    expect(cfg.code).toBe(7);
    expect(cfg.err.split("\n").filter((l) => l.startsWith("::error title=mq config failed (exit 7)::"))).toHaveLength(1);
    expect(cfg.summary).toMatch(/^previous step\n- ❌ `mq config` failed \(exit 7\): the config file .* is not valid JSON/);
    const usage = await inActions(["logs", "--limit", "x", "--repo", "acme/web"]);
    expect(usage.code).toBe(2);
    expect(usage.err).not.toContain("::error");
    expect(usage.summary).toBe("previous step\n");
    const ctx = testContext({ env: { MQ_API_URL: "http://127.0.0.1:9" } });
    expect(await main(["logs", "--repo", "acme/web"], ctx)).toBe(4);
    expect(ctx.stderrText()).not.toContain("::error");
  });

  it("a step summary that is a FIFO nobody reads: a warning, never a hang", async () => {
    const dir = tempDir("mq-fifo-");
    const fifo = join(dir, "summary");
    execFileSync("mkfifo", [fifo]);
    const ctx = testContext({ env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: fifo, MQ_API_URL: "http://127.0.0.1:9" } });
    expect(await main(["logs", "--repo", "acme/web"], ctx)).toBe(4);
    expect(ctx.stderrText()).toContain(`mq: warning: cannot append the step summary to ${fifo}: ENXIO\n`);
  });
});
