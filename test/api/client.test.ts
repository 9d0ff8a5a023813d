import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MockAgent } from "undici";
import { createTransport, USER_AGENT } from "../../src/api/client.js";
import { createApiClient } from "../../src/context/api-client.js";
import { ContractError, HttpError, InterruptedError, NetworkError, UsageError, AuthError } from "../../src/errors.js";
import { reportError } from "../../src/main.js";
import { testContext, type TestContext } from "../helpers/context.js";
import { startConnectProxy } from "../helpers/proxy.js";
import { dispatcherFor, testWire, WIRE_NAMES, type WireName } from "../helpers/wires.js";

const TOKEN = "mqk_supersecret_token_1234abcd";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

const servers: Server[] = [];
const contexts: TestContext[] = [];

afterEach(async () => {
  wireName = "node:http";
  for (const ctx of contexts.splice(0)) await ctx.cleanup();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    handler(req, res, seen.length);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

/** The wire the suite in progress runs on: every transport test runs once per wire. */
let wireName: WireName = "node:http";

/** A test Context on the current wire (an injected undici Agent selects undici). */
function wireContext(init: Parameters<typeof testContext>[0] = {}): TestContext {
  const dispatcher = dispatcherFor(wireName);
  const ctx = testContext({ ...init, dispatcher });
  if (dispatcher) ctx.onCleanup(() => dispatcher.close());
  contexts.push(ctx);
  return ctx;
}

function ctxFor(apiUrl: string, extra: Partial<TestContext["globals"]> = {}, env: Record<string, string> = {}): TestContext {
  const ctx = wireContext({ env: { MQ_TOKEN: TOKEN, ...env } });
  ctx.globals = { ...ctx.globals, apiUrl, ...extra };
  return ctx;
}

function recorder() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

for (const name of WIRE_NAMES) {
  describe(`on ${name}`, () => {
    beforeEach(() => {
      wireName = name;
    });

    describe("createApiClient", () => {
      it("sends GET with the bearer token, the user agent, /v1 and repeated array keys", async () => {
        const api = await serve((_req, res) => json(res, 200, { ok: true }, { "X-Thing": "a" }));
        const ctx = ctxFor(api.url);
        const client = await createApiClient(ctx);
        expect(client.baseUrl.href).toBe(`${api.url}/v1`);
        const res = await client.get("/repos/acme/web/logs", {
          event_type: ["action.merge", "action.queue.enter"],
          per_page: 2,
          cursor: undefined,
          x: null,
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true });
        expect(res.headers["x-thing"]).toBe("a");
        expect(res.url.href).toBe(`${api.url}/v1/repos/acme/web/logs?event_type=action.merge&event_type=action.queue.enter&per_page=2`);
        expect(api.seen).toHaveLength(1);
        expect(api.seen[0]!.method).toBe("GET");
        expect(api.seen[0]!.url).toBe("/v1/repos/acme/web/logs?event_type=action.merge&event_type=action.queue.enter&per_page=2");
        expect(api.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
        expect(api.seen[0]!.headers["user-agent"]).toBe(USER_AGENT);
        expect(USER_AGENT).toMatch(/^mq\/\d+\.\d+\.\d+/);
        expect(ctx.secrets.has(TOKEN)).toBe(true);
      });

      it("follows a same-origin absolute URL and refuses one on another origin (exit 6), sending nothing", async () => {
        const api = await serve((_req, res) => json(res, 200, {}));
        const client = await createApiClient(ctxFor(api.url));
        await client.get(`${api.url}/v1/repos/acme/web/logs?cursor=abc`);
        expect(api.seen.map((s) => s.url)).toEqual(["/v1/repos/acme/web/logs?cursor=abc"]);
        const other = api.url.replace("127.0.0.1", "localhost");
        const err = await client.get(`${other}/v1/repos/acme/web/logs?cursor=def`).catch((e) => e);
        expect(err).toBeInstanceOf(ContractError);
        expect(err.exitCode).toBe(6);
        expect(err.message).toBe(
          `refusing to follow a link to ${other}: it is not the API origin ${api.url}, and the token must not leave it`,
        );
        const https = await client.get(`https://127.0.0.1/v1/x`).catch((e) => e);
        expect(https).toBeInstanceOf(ContractError);
        expect(api.seen).toHaveLength(1);
      });

      it("refuses plain http:// to a non-loopback host unless --insecure (exit 2, nothing sent)", async () => {
        const ctx = ctxFor("http://api.example.com");
        const err = await createApiClient(ctx).catch((e) => e);
        expect(err).toBeInstanceOf(UsageError);
        expect(err.message).toBe("refusing to send the token over plain http:// to api.example.com");
        expect(err.hint).toContain("--insecure");
        const ok = await createApiClient(ctxFor("http://api.example.com", { insecure: true }));
        expect(ok.baseUrl.href).toBe("http://api.example.com/v1");
        for (const host of ["http://localhost:1", "http://127.0.0.2:1", "http://[::1]:1"]) {
          expect((await createApiClient(ctxFor(host))).baseUrl.origin).toBe(new URL(host).origin);
        }
      });

      it("refuses an API URL carrying credentials or a query (exit 2)", async () => {
        for (const bad of ["https://user:pw@api.example.com", "https://api.example.com/?token=abc", "https://api.example.com/#x"]) {
          const err = await createApiClient(ctxFor(bad)).catch((e) => e);
          expect(err).toBeInstanceOf(UsageError);
          expect(err.message).toMatch(/^--api-url: the URL must not contain/);
          expect(err.message).not.toContain("pw");
          expect(err.message).not.toContain("abc");
        }
      });

      it("without a token fails with exit 4 and the hint", async () => {
        const ctx = wireContext();
        const err = await createApiClient(ctx).catch((e) => e);
        expect(err).toBeInstanceOf(AuthError);
        expect(err.exitCode).toBe(4);
        expect(err.message).toBe("no token for https://api.mergify.com");
        expect(err.hint).toBe("run mq auth login, set MQ_TOKEN, or use --offline");
      });

      it("runs 30 requests in parallel on one signal without a listener-leak warning on stderr", async () => {
        const api = await serve((_req, res) => json(res, 200, {}));
        const warnings: string[] = [];
        const onWarning = (w: Error) => warnings.push(w.message);
        process.on("warning", onWarning);
        const client = await createApiClient(ctxFor(api.url));
        await Promise.all(Array.from({ length: 30 }, (_, i) => client.get(`/x/${i}`)));
        await new Promise((r) => setImmediate(r));
        process.off("warning", onWarning);
        expect(warnings).toEqual([]);
        expect(api.seen).toHaveLength(30);
      });
    });

    describe("--offline", () => {
      it("starts the bundled server on loopback, needs no token, and closes it on cleanup", async () => {
        const ctx = wireContext();
        ctx.globals.offline = true;
        const client = await createApiClient(ctx);
        expect(client.baseUrl.hostname).toBe("127.0.0.1");
        expect(client.baseUrl.pathname).toBe("/v1");
        const res = await client.get("/repos/acme/web/stats/queues");
        expect(res.status).toBe(200);
        expect(res.body).toHaveProperty("queue_names");
        expect([...ctx.secrets]).toEqual([]);
        await ctx.cleanup();
        await expect(fetch(client.baseUrl)).rejects.toThrow();
      });
    });

    describe("retries", () => {
      it("retries 503 with backoff and jitter, exactly 4 attempts, then exit 6 with the detail", async () => {
        const api = await serve((_req, res) => json(res, 503, { detail: "maintenance" }));
        const { delays, sleep } = recorder();
        const client = await createApiClient(ctxFor(api.url), { sleep, random: () => 0.5 });
        const err = await client.get("/repos/a/b/logs").catch((e) => e);
        expect(api.seen).toHaveLength(4);
        expect(delays).toEqual([375, 750, 1500]);
        expect(err).toBeInstanceOf(HttpError);
        expect(err.exitCode).toBe(6);
        expect(err.message).toBe("GET /v1/repos/a/b/logs failed after 4 attempts: HTTP 503 Service Unavailable: maintenance");
      });

      it("recovers when a retry succeeds, for 429, 502 and 504", async () => {
        const statuses = [429, 502, 504];
        const api = await serve((_req, res, n) => (n <= 3 ? json(res, statuses[n - 1]!, {}) : json(res, 200, { ok: 1 })));
        const { delays, sleep } = recorder();
        const client = await createApiClient(ctxFor(api.url), { sleep, random: () => 0 });
        const res = await client.get("/x");
        expect(res.body).toEqual({ ok: 1 });
        expect(api.seen).toHaveLength(4);
        expect(delays).toEqual([250, 500, 1000]);
      });

      it("honours Retry-After in seconds and as an HTTP date", async () => {
        const api = await serve((_req, res, n) => {
          if (n === 1) return json(res, 429, {}, { "Retry-After": "7" });
          // the test clock is 2026-11-20T12:00:00Z
          if (n === 2) return json(res, 503, {}, { "Retry-After": "Fri, 20 Nov 2026 12:00:12 GMT" });
          return json(res, 200, []);
        });
        const { delays, sleep } = recorder();
        const client = await createApiClient(ctxFor(api.url), { sleep });
        await client.get("/x");
        expect(api.seen).toHaveLength(3);
        expect(delays).toEqual([7000, 12000]);
      });

      it("fails at once when Retry-After is longer than 30 s, saying when to retry", async () => {
        const api = await serve((_req, res) => json(res, 429, { detail: "slow down" }, { "Retry-After": "120" }));
        const { delays, sleep } = recorder();
        const client = await createApiClient(ctxFor(api.url), { sleep });
        const err = await client.get("/x").catch((e) => e);
        expect(api.seen).toHaveLength(1);
        expect(delays).toEqual([]);
        expect(err).toBeInstanceOf(HttpError);
        expect(err.exitCode).toBe(6);
        expect(err.message).toBe("GET /v1/x failed: HTTP 429 Too Many Requests; the server asks to retry after 120 s");
        expect(err.hint).toBe("try again after 2026-11-20 12:02:00Z");
      });

      it("--no-retry makes a single attempt", async () => {
        const api = await serve((_req, res) => json(res, 502, {}));
        const { delays, sleep } = recorder();
        const client = await createApiClient(ctxFor(api.url, { retry: false }), { sleep });
        const err = await client.get("/x").catch((e) => e);
        expect(api.seen).toHaveLength(1);
        expect(delays).toEqual([]);
        expect(err.message).toBe("GET /v1/x failed: HTTP 502 Bad Gateway");
      });

      it("retries connections closed without an answer, then fails with exit 6", async () => {
        // destroy() with nothing unread closes (FIN): the server hung up, it did not reset
        const api = await serve((req) => req.socket.destroy());
        const { delays, sleep } = recorder();
        const client = await createApiClient(ctxFor(api.url), { sleep, random: () => 1 });
        const err = await client.get("/x").catch((e) => e);
        expect(api.seen).toHaveLength(4);
        expect(delays).toEqual([500, 1000, 2000]);
        expect(err).toBeInstanceOf(NetworkError);
        expect(err.message).toMatch(/^127\.0\.0\.1:\d+ closed the connection without answering after 4 attempts$/);
      });

      it("does not retry other statuses", async () => {
        const api = await serve((_req, res) => json(res, 500, {}));
        const { delays, sleep } = recorder();
        const err = await (await createApiClient(ctxFor(api.url), { sleep })).get("/x").catch((e) => e);
        expect(api.seen).toHaveLength(1);
        expect(delays).toEqual([]);
        expect(err.exitCode).toBe(6);
      });

      it("stops when the context is aborted during a backoff", async () => {
        const api = await serve((_req, res) => json(res, 503, {}));
        const controller = new AbortController();
        const ctx = wireContext({ env: { MQ_TOKEN: TOKEN }, signal: controller.signal });
        ctx.globals.apiUrl = api.url;
        const client = await createApiClient(ctx, {
          sleep: async () => {
            controller.abort();
            throw new Error("aborted");
          },
        });
        const err = await client.get("/x").catch((e) => e);
        expect(err).toBeInstanceOf(InterruptedError);
        expect(err.exitCode).toBe(130);
        expect(api.seen).toHaveLength(1);
      });
    });

    describe("status mapping and bodies", () => {
      const cases: Array<[number, unknown, number, string]> = [
        [404, { detail: "Not Found" }, 3, "GET /v1/x failed: HTTP 404 Not Found: Not Found"],
        [401, { detail: "Invalid token" }, 4, "GET /v1/x failed: HTTP 401 Unauthorized: Invalid token"],
        [403, { detail: "Forbidden" }, 4, "GET /v1/x failed: HTTP 403 Forbidden: Forbidden"],
        [409, { detail: "conflict" }, 5, "GET /v1/x failed: HTTP 409 Conflict: conflict"],
        [
          422,
          { detail: [{ loc: ["query", "per_page"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }] },
          5,
          "GET /v1/x failed: HTTP 422 Unprocessable Entity: query.per_page: Input should be less than or equal to 100",
        ],
      ];
      for (const [status, body, exit, message] of cases) {
        it(`maps ${status} to exit ${exit} with the server's detail`, async () => {
          const api = await serve((_req, res) => json(res, status, body));
          const err = await (await createApiClient(ctxFor(api.url))).get("/x").catch((e) => e);
          expect(err).toBeInstanceOf(HttpError);
          expect(err.status).toBe(status);
          expect(err.exitCode).toBe(exit);
          expect(err.message).toBe(message);
        });
      }

      it("does not follow a redirect (the token must not leave the origin)", async () => {
        const api = await serve((_req, res) => {
          res.writeHead(302, { location: "https://elsewhere.example.com/v1/x" });
          res.end();
        });
        const err = await (await createApiClient(ctxFor(api.url))).get("/x").catch((e) => e);
        expect(api.seen).toHaveLength(1);
        expect(err).toBeInstanceOf(HttpError);
        expect(err.exitCode).toBe(6);
        expect(err.message).toBe("GET /v1/x failed: HTTP 302 Found");
        expect(err.hint).toBe(
          "the API answered with a redirect to https://elsewhere.example.com/v1/x; mq does not follow redirects: check --api-url",
        );
      });

      it("an HTML page on a 200 is a contract breach (exit 6)", async () => {
        const api = await serve((_req, res) => {
          res.writeHead(200, { "content-type": "text/html" });
          res.end("<!DOCTYPE html><html>login</html>");
        });
        const err = await (await createApiClient(ctxFor(api.url))).get("/x").catch((e) => e);
        expect(err).toBeInstanceOf(ContractError);
        expect(err.exitCode).toBe(6);
        expect(err.message).toBe("GET /v1/x returned HTTP 200 with an HTML page instead of JSON");
      });

      it("invalid JSON on a 200 is a contract breach", async () => {
        const api = await serve((_req, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end("{not json");
        });
        const err = await (await createApiClient(ctxFor(api.url))).get("/x").catch((e) => e);
        expect(err).toBeInstanceOf(ContractError);
        expect(err.message).toBe("GET /v1/x returned HTTP 200 with a body that is not JSON (application/json) instead of JSON");
      });

      it("deferParse: the answer comes back before its body is parsed; reading the body throws what get would have", async () => {
        const bodies = [
          '{"events":[{"id":1.0}],"x":2}',
          "{not json",
          "<html>login</html>",
          `{"events":[${"[".repeat(300)}${"]".repeat(300)}]}`,
        ];
        const api = await serve((req, res) => {
          const n = Number(new URL(req.url!, "http://x").searchParams.get("n") ?? 1);
          res.writeHead(200, { "content-type": "application/json", link: `</v1/x?n=${n + 1}>; rel="next"` });
          res.end(bodies[n - 1]);
        });
        const client = await createApiClient(ctxFor(api.url));
        const ok = await client.get("/x", undefined, { deferParse: true });
        expect(ok.headers.link).toBe('</v1/x?n=2>; rel="next"');
        expect(ok.body).toEqual({ events: [{ id: 1 }], x: 2 });
        expect(ok.rootArrays!.get("events")).toEqual([{ start: 11, end: 21, spaced: false }]);
        for (let i = 1; i < bodies.length; i++) {
          const deferred = await client.get(`/x?n=${i + 1}`, undefined, { deferParse: true });
          expect(deferred.text).toBe(bodies[i]);
          const late = (() => {
            try {
              return deferred.body;
            } catch (err) {
              return err;
            }
          })();
          const eager = await client.get(`/x?n=${i + 1}`).catch((e) => e);
          expect(late).toBeInstanceOf(ContractError);
          expect((late as Error).message).toBe(eager.message);
          expect(() => deferred.rootArrays).toThrow(eager.message);
        }
      });

      it("a timeout names the timeout and --timeout (exit 6)", async () => {
        const api = await serve(() => {
          /* never answers */
        });
        const err = await (await createApiClient(ctxFor(api.url, { timeout: 0.2, retry: false }))).get("/x").catch((e) => e);
        expect(err).toBeInstanceOf(NetworkError);
        expect(err.message).toBe("GET /v1/x timed out after 0.2 s (the request timeout)");
        expect(err.hint).toBe("raise it with --timeout <seconds> or mq config set timeout <seconds>");
      });

      it("a server that drips its body a byte at a time still times out: the timeout covers the whole request", async () => {
        const api = await serve((_req, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.write("{");
          // each byte comes well within the timeout; all of them never would
          const drip = setInterval(() => res.write(" "), 50);
          res.on("close", () => clearInterval(drip));
        });
        const err = await (await createApiClient(ctxFor(api.url, { timeout: 0.3, retry: false }))).get("/x").catch((e) => e);
        expect(err).toBeInstanceOf(NetworkError);
        expect(err.message).toBe("GET /v1/x timed out after 0.3 s (the request timeout)");
      });

      it("a refused connection is exit 6", async () => {
        const api = await serve(() => {});
        await new Promise((r) => servers.pop()!.close(r));
        const err = await (await createApiClient(ctxFor(api.url))).get("/x").catch((e) => e);
        expect(err).toBeInstanceOf(NetworkError);
        expect(err.message).toBe(`cannot connect to ${new URL(api.url).host}: connection refused`);
      });
    });

    describe("--debug and redaction", () => {
      it("prints method, URL, status, duration and retry attempt; never the token", async () => {
        const api = await serve((_req, res, n) => (n === 1 ? json(res, 503, {}) : json(res, 200, {})));
        const ctx = ctxFor(api.url, { debug: true });
        const client = await createApiClient(ctx, { sleep: async () => {}, random: () => 0 });
        await client.get("/repos/a/b/logs", { per_page: 1 });
        const lines = ctx
          .stderrText()
          .replace(/\d+ ms/g, "N ms")
          .split("\n");
        expect(lines).toEqual([
          `mq debug: API ${api.url}/v1, ${USER_AGENT}, timeout 30 s, retries on, ${wireName}`,
          `mq debug: GET ${api.url}/v1/repos/a/b/logs?per_page=1 -> 503 in N ms`,
          "mq debug: retrying in 0.3 s",
          `mq debug: GET ${api.url}/v1/repos/a/b/logs?per_page=1 -> 200 in N ms (attempt 2/4)`,
          "",
        ]);
        expect(ctx.stderrText()).not.toContain(TOKEN);
      });

      it("an error path through main() never shows the token, even with --debug stack traces", async () => {
        const api = await serve((_req, res) => json(res, 403, { detail: `token ${TOKEN} is not allowed` }));
        const ctx = wireContext({ env: { MQ_TOKEN: TOKEN } });
        ctx.globals = { ...ctx.globals, apiUrl: api.url, debug: true };
        const err = await (await createApiClient(ctx)).get("/x").catch((e) => e);
        expect(reportError(err, ctx)).toBe(4);
        const text = ctx.stderrText();
        expect(text).toContain("mq: GET /v1/x failed: HTTP 403 Forbidden: token **** is not allowed");
        expect(text).not.toContain(TOKEN);
      });
    });
  });
}

describe("the undici wire only", () => {
  it("honours an injected dispatcher (MockAgent)", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get("https://api.example.com")
      .intercept({ path: "/v1/repos/a/b/stats/queues", method: "GET" })
      .reply(200, { queue_names: ["q"] });
    const ctx = testContext({ env: { MQ_TOKEN: TOKEN }, dispatcher: agent });
    ctx.globals.apiUrl = "https://api.example.com";
    contexts.push(ctx);
    const res = await (await createApiClient(ctx)).get("/repos/a/b/stats/queues");
    expect(res.body).toEqual({ queue_names: ["q"] });
    await agent.close();
  });
});

describe("proxy", () => {
  it("goes through HTTP_PROXY when set (NO_PROXY empty), for an API that is not on loopback", async () => {
    const api = await serve((_req, res) => json(res, 200, { via: "proxy" }));
    const proxy = await startConnectProxy({ hosts: { "mq-api.test": "127.0.0.1" } });
    const apiUrl = `http://mq-api.test:${new URL(api.url).port}`;
    try {
      // plain http:// to another host needs --insecure, proxy or not: the proxy reads the token
      const refused = ctxFor(apiUrl, {}, { HTTP_PROXY: proxy.url, NO_PROXY: "" });
      await expect(createApiClient(refused)).rejects.toThrow("refusing to send the token over plain http:// to mq-api.test");
      expect(proxy.seen).toEqual([]);
      const ctx = ctxFor(apiUrl, { insecure: true }, { HTTP_PROXY: proxy.url, NO_PROXY: "" });
      const res = await (await createApiClient(ctx)).get("/x");
      expect(res.body).toEqual({ via: "proxy" });
      expect(proxy.seen).toEqual([`CONNECT mq-api.test:${new URL(api.url).port}`]);
      expect(api.seen).toHaveLength(1);
      // the tunnel carries the request unchanged, token included, to the API only
      expect(api.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    } finally {
      await proxy.close();
    }
  });

  it("an API on loopback bypasses the proxy: the proxy never reads the token (it read Bearer … in the tunnel before)", async () => {
    const api = await serve((_req, res) => json(res, 200, { direct: true }));
    const proxy = await startConnectProxy();
    try {
      for (const host of ["127.0.0.1", "localhost"]) {
        const ctx = ctxFor(`http://${host}:${new URL(api.url).port}`, {}, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: "" });
        expect((await (await createApiClient(ctx)).get("/x")).body).toEqual({ direct: true });
      }
      expect(proxy.seen).toEqual([]);
      expect(proxy.clearAuthorization).toEqual([]);
      expect(api.seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    } finally {
      await proxy.close();
    }
  });

  it("bypasses the proxy for hosts in NO_PROXY", async () => {
    const api = await serve((_req, res) => json(res, 200, {}));
    let proxyHits = 0;
    const proxy = createServer((_req, res) => {
      proxyHits++;
      res.end();
    });
    proxy.on("connect", (_req, socket) => {
      proxyHits++;
      socket.destroy();
    });
    servers.push(proxy);
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const ctx = ctxFor(api.url, {}, { HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, NO_PROXY: "127.0.0.1" });
    await (await createApiClient(ctx)).get("/x");
    expect(proxyHits).toBe(0);
    expect(api.seen).toHaveLength(1);
  });
});

describe("createTransport", () => {
  it.each(WIRE_NAMES)("is usable on its own, on %s", async (name) => {
    const api = await serve((_req, res) => json(res, 200, [1]));
    const wire = testWire(name);
    const t = createTransport({
      baseUrl: `${api.url}/v1/`,
      token: TOKEN,
      wire,
      timeoutMs: 5000,
      retry: true,
      insecure: false,
      signal: new AbortController().signal,
      now: () => new Date(),
    });
    expect((await t.get("repos")).body).toEqual([1]);
    expect(api.seen[0]!.url).toBe("/v1/repos");
    await wire.close();
  });
});
