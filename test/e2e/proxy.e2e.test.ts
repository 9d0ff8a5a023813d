// The proxy through the real binary. In-process tests load all of undici (MockAgent), which hides
// a bundle that loads only part of it: this once failed with "this[kClient].connect is not a
// function" for every proxied request while the in-process proxy test passed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { spawnMq } from "../helpers/spawn.js";
import { startConnectProxy, type TestProxy } from "../helpers/proxy.js";

let api: RunningServer;
let proxy: TestProxy;
let proxyUrl: string;
let tunnels: string[];

beforeAll(async () => {
  api = await startServer({ port: 0, now: new Date("2026-11-20T12:00:00Z"), days: 1 });
  proxy = await startConnectProxy({ hosts: { "mq-api.localhost": "127.0.0.1" } });
  proxyUrl = proxy.url;
  tunnels = proxy.seen;
});

afterAll(async () => {
  await api.close();
  await proxy.close();
});

describe("mq behind a proxy", () => {
  it.each(["HTTP_PROXY", "http_proxy"])("tunnels through %s and gets the events (an API not on loopback)", async (variable) => {
    const before = tunnels.length;
    const host = `mq-api.localhost:${new URL(api.url).port}`;
    const r = await spawnMq(
      ["--api-url", `http://${host}`, "--insecure", "--token", "t", "logs", "--repo", "acme/web", "--limit", "2", "-o", "ndjson"],
      { env: { [variable]: proxyUrl, NO_PROXY: "" } },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(tunnels.slice(before)).toEqual([`CONNECT ${host}`]);
  });

  it("an API on loopback bypasses the proxy", async () => {
    const before = tunnels.length;
    const r = await spawnMq(["--api-url", api.url, "--token", "t", "logs", "--repo", "acme/web", "--limit", "1", "-o", "ndjson"], {
      env: { HTTP_PROXY: proxyUrl, NO_PROXY: "" },
    });
    expect(r.code).toBe(0);
    expect(tunnels.length).toBe(before);
  });

  it("--offline never goes through the proxy: its server is in the same process", async () => {
    const before = tunnels.length;
    const r = await spawnMq(["--offline", "logs", "--repo", "acme/web", "--limit", "1", "-o", "ndjson"], {
      env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, NO_PROXY: "" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(tunnels.length).toBe(before);
  });
});
