// The built binary never prints the token, even with --debug and a server that echoes it back.
import { describe, expect, it } from "vitest";
import { loopbackServers } from "../helpers/loopback.js";
import { testContext } from "../helpers/context.js";

const TOKEN = "mqk_0123456789secretabcd";
const serve = loopbackServers();

describe("the built binary", () => {
  it("never prints the token: --debug, a failing check with the token echoed back, exit 6", async () => {
    const { spawn } = await import("node:child_process");
    const api = await serve((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: `boom for ${TOKEN}` }));
    });
    const dir = testContext().configDir();
    const child = spawn(
      process.execPath,
      ["bin/mq.js", "auth", "login", "--with-token", "--check", "--repo", "acme/web", "--api-url", api.url, "--debug", "--no-retry"],
      { env: { PATH: process.env.PATH, MQ_CONFIG_DIR: dir, HOME: dir }, cwd: process.cwd() },
    );
    child.stdin.end(TOKEN);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(code).toBe(6);
    expect(stdout).toBe("");
    expect(stderr).toContain(`mq debug: GET ${api.url}/v1/repos/acme/web/stats/queues -> 500 in `);
    expect(stderr).toContain("mq: GET /v1/repos/acme/web/stats/queues failed: HTTP 500 Internal Server Error: boom for ****\n");
    expect(stderr).not.toContain(TOKEN);
    expect(api.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
