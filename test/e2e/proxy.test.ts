// The proxy through the real binary. In-process tests load all of undici (MockAgent), which hides
// a bundle that loads only part of it: this once failed with "this[kClient].connect is not a
// function" for every proxied request while the in-process proxy test passed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { connect as netConnect, type AddressInfo } from "node:net";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { spawnMq } from "../helpers/spawn.js";

let api: RunningServer;
let proxy: Server;
let proxyUrl: string;
const tunnels: string[] = [];

beforeAll(async () => {
  api = await startServer({ port: 0, now: new Date("2026-11-20T12:00:00Z"), days: 1 });
  proxy = createServer((_req, res) => {
    res.writeHead(502);
    res.end();
  });
  proxy.on("connect", (req, clientSocket, head) => {
    tunnels.push(req.url!);
    const [host, port] = req.url!.split(":");
    const upstream = netConnect(Number(port), host!, () => {
      clientSocket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on("error", () => clientSocket.destroy());
    clientSocket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await api.close();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
});

describe("mq behind a proxy", () => {
  it.each(["HTTP_PROXY", "http_proxy"])("tunnels through %s and gets the events", async (variable) => {
    const before = tunnels.length;
    const r = await spawnMq(["--api-url", api.url, "--token", "t", "logs", "--repo", "acme/web", "--limit", "2", "-o", "ndjson"], {
      env: { [variable]: proxyUrl, NO_PROXY: "" },
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(tunnels.slice(before)).toEqual([new URL(api.url).host]);
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
