// Which wire carries the requests (context/api-client.ts chooseWire), and what the node:http wire
// does on its own: keep-alive, the connect timeout, a discarded body. The transport's behaviour on
// both wires is test/api/client.test.ts and test/reliability/{faults,hostile-answers}.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, MockAgent } from "undici";
import { createTransport, CONNECT_TIMEOUT_MS } from "../../src/api/client.js";
import { nodeWire } from "../../src/api/node-wire.js";
import { CONNECT_TIMEOUT_CODE } from "../../src/api/wire.js";
import { chooseWire, createApiClient } from "../../src/context/api-client.js";
import { NetworkError, UsageError } from "../../src/errors.js";
import { DEFAULT_GLOBALS } from "../../src/globals.js";
import { testContext } from "../helpers/context.js";
import { startConnectProxy } from "../helpers/proxy.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A loopback server that counts the connections it accepted. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  const seen: { url: string; socket: number }[] = [];
  let sockets = 0;
  const server = createServer((req, res) => {
    seen.push({ url: req.url!, socket: (req.socket as unknown as { n: number }).n });
    handler(req, res, seen.length);
  });
  server.on("connection", (s) => Object.assign(s, { n: ++sockets }));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, connections: () => sockets };
}

const choose = (env: Record<string, string>, extra: { offline?: boolean; dispatcher?: MockAgent } = {}) =>
  chooseWire({ env, globals: { ...DEFAULT_GLOBALS, offline: extra.offline ?? false }, dispatcher: extra.dispatcher });

describe("chooseWire", () => {
  it("is node:http without proxy variables", () => {
    expect(choose({})).toEqual({ kind: "node" });
    // an empty variable is no proxy
    expect(choose({ HTTPS_PROXY: "", http_proxy: "" })).toEqual({ kind: "node" });
  });

  it("is undici's proxy agent when a proxy variable is set, with the values as given (lower case first, as curl)", () => {
    expect(choose({ HTTPS_PROXY: "proxy.corp:3128", NO_PROXY: "localhost" })).toEqual({
      kind: "proxy",
      httpProxy: "",
      httpsProxy: "http://proxy.corp:3128",
      noProxy: "localhost",
    });
    expect(choose({ http_proxy: "http://a:1", HTTP_PROXY: "http://b:2", no_proxy: "x", NO_PROXY: "y" })).toEqual({
      kind: "proxy",
      httpProxy: "http://a:1",
      httpsProxy: "",
      noProxy: "x",
    });
  });

  it("is node:http with --offline whatever the proxy variables say (the bundled server is on loopback)", () => {
    expect(choose({ HTTPS_PROXY: "http://proxy:1", HTTP_PROXY: "not a url" }, { offline: true })).toEqual({ kind: "node" });
  });

  it("is the injected dispatcher when a test gives one; proxy variables are still checked first (exit 2)", () => {
    const dispatcher = new MockAgent();
    expect(choose({ HTTPS_PROXY: "http://proxy:1" }, { dispatcher })).toEqual({ kind: "injected", dispatcher });
    const err = (() => {
      try {
        return choose({ HTTPS_PROXY: "ftp://proxy:1" }, { dispatcher });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('HTTPS_PROXY uses ftp://, which mq does not support: "ftp://proxy:1"');
  });

  it("is node:http for an API on loopback whatever the proxy variables say (the proxy would read the token)", () => {
    const env = { HTTP_PROXY: "http://proxy:1", HTTPS_PROXY: "http://proxy:1" };
    for (const url of ["http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:2", "https://127.1.2.3"]) {
      expect(chooseWire({ env, globals: DEFAULT_GLOBALS }, url), url).toEqual({ kind: "node" });
    }
    expect(chooseWire({ env, globals: DEFAULT_GLOBALS }, "https://api.mergify.com").kind).toBe("proxy");
  });

  it("--debug names the wire in use", async () => {
    const api = await serve((_req, res) => res.end("{}"));
    const proxy = await startConnectProxy({ hosts: { "mq-api.test": "127.0.0.1" } });
    const port = new URL(api.url).port;
    try {
      for (const [apiUrl, env, name] of [
        [api.url, {}, "node:http"],
        [`http://mq-api.test:${port}`, { HTTP_PROXY: proxy.url, NO_PROXY: "" }, "undici"],
      ] as const) {
        const ctx = testContext({ env: { MQ_TOKEN: "t", ...env } });
        ctx.globals = { ...ctx.globals, apiUrl, insecure: true, debug: true };
        await (await createApiClient(ctx)).get("/x");
        await ctx.cleanup();
        expect(ctx.stderrText().split("\n")[0]).toMatch(
          new RegExp(`^mq debug: API ${apiUrl}/v1, mq/\\S+, timeout 30 s, retries on, ${name}$`),
        );
      }
    } finally {
      await proxy.close();
    }
  });
});

describe("the node:http wire", () => {
  const opts = (extra = {}) => ({
    token: "t",
    timeoutMs: 5000,
    retry: true,
    insecure: false,
    signal: new AbortController().signal,
    now: () => new Date(),
    ...extra,
  });

  it("keeps the connection alive: sequential requests, and a retried 503 whose body it reads to the end, use one connection", async () => {
    const api = await serve((_req, res, n) => {
      res.writeHead(n === 2 ? 503 : 200, { "content-type": "application/json" });
      res.end(n === 2 ? JSON.stringify({ detail: "x".repeat(5000) }) : `{"n":${n}}`);
    });
    const wire = nodeWire({ connectTimeoutMs: CONNECT_TIMEOUT_MS, keepAliveMs: 10_000 });
    const t = createTransport({ baseUrl: `${api.url}/v1`, wire, ...opts({ sleep: async () => {} }) });
    expect((await t.get("/a")).body).toEqual({ n: 1 });
    expect((await t.get("/b")).body).toEqual({ n: 3 });
    expect((await t.get("/c")).body).toEqual({ n: 4 });
    expect(api.seen).toEqual([
      { url: "/v1/a", socket: 1 },
      { url: "/v1/b", socket: 1 },
      { url: "/v1/b", socket: 1 },
      { url: "/v1/c", socket: 1 },
    ]);
    await wire.close();
  });

  it("the keep-alive timeout closes idle connections only: an answer slower than it still arrives", async () => {
    const api = await serve((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
        setTimeout(() => res.end('"ok":1}'), 150);
      }, 150);
    });
    const wire = nodeWire({ connectTimeoutMs: CONNECT_TIMEOUT_MS, keepAliveMs: 100 });
    const t = createTransport({ baseUrl: `${api.url}/v1`, wire, ...opts({ retry: false }) });
    expect((await t.get("/a")).body).toEqual({ ok: 1 });
    // idle past the keep-alive timeout: the next request opens a new connection
    await new Promise((r) => setTimeout(r, 300));
    expect((await t.get("/b")).body).toEqual({ ok: 1 });
    expect(api.seen).toEqual([
      { url: "/v1/a", socket: 1 },
      { url: "/v1/b", socket: 2 },
    ]);
    await wire.close();
  });

  it("a connection not made within the connect timeout is the connect-timeout error (exit 6)", async () => {
    // a resolver that never answers: the connection never starts
    const wire = nodeWire({ connectTimeoutMs: 50, keepAliveMs: 10_000, lookup: () => {} });
    const req = wire.request(new URL("http://api.example.com/v1/x"), {}, new AbortController().signal);
    await expect(req).rejects.toMatchObject({ code: CONNECT_TIMEOUT_CODE });
    const t = createTransport({ baseUrl: "http://localhost:1/v1", wire, ...opts({ retry: false }) });
    const err = await t.get("/x").catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.exitCode).toBe(6);
    expect(err.message).toBe(`could not connect to localhost:1 within ${CONNECT_TIMEOUT_MS / 1000} s`);
    expect(err.hint).toBe("check the network, a proxy (HTTPS_PROXY) or --api-url");
    await wire.close();
  });

  it("gives a header sent twice as an array, as undici does", async () => {
    const api = await serve((_req, res) => {
      res.setHeader("x-twice", ["a", "b"]);
      res.setHeader("content-type", "application/json");
      res.end("[]");
    });
    for (const wire of [
      nodeWire({ connectTimeoutMs: 1000, keepAliveMs: 1000 }),
      (await import("../../src/api/undici-wire.js")).undiciWire(new Agent(), 1000, { owned: true }),
    ]) {
      const res = await wire.request(new URL(`${api.url}/x`), {}, new AbortController().signal);
      expect({ name: wire.name, twice: res.headers["x-twice"], type: res.headers["content-type"] }).toEqual({
        name: wire.name,
        twice: ["a", "b"],
        type: "application/json",
      });
      await res.discard();
      await wire.close();
    }
  });
});
