// The bundled server is safe from web pages: a loopback `mq serve` answers only to loopback Host
// names (DNS rebinding), sends no CORS headers, writes Link URLs relative to the request,
// compares tokens in constant time, and answers HEAD and OPTIONS like a real HTTP server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type IncomingHttpHeaders } from "node:http";
import { startServer, isLoopbackHost, type RunningServer } from "../../src/server/index.js";
import { NOW } from "./helpers.js";

let open: RunningServer;
let locked: RunningServer;

beforeAll(async () => {
  open = await startServer({ port: 0, seed: 4, days: 2, now: NOW });
  locked = await startServer({ port: 0, seed: 4, days: 2, now: NOW, token: "s3cret" });
});
afterAll(async () => {
  await open.close();
  await locked.close();
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** a request with headers fetch() would not let us set (Host, Origin), and any method */
function send(url: string, path: string, headers: Record<string, string>, method = "GET"): Promise<Raw> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers: { authorization: "Bearer x", ...headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const LOGS = "/v1/repos/acme/web/logs?per_page=2";

describe("a loopback mq serve and the Host header (DNS rebinding)", () => {
  it("refuses Host: evil.example with 421, before anything else", async () => {
    const port = new URL(open.url).port;
    for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1.evil.example", "localhost.evil.example"]) {
      const r = await send(open.url, LOGS, { host });
      expect(r.status, host).toBe(421);
      expect(JSON.parse(r.body).detail, host).toMatch(/^Misdirected Request: this server answers only to a loopback Host/);
    }
    // even a path that does not exist, and without credentials
    expect((await send(open.url, "/nope", { host: "evil.example", authorization: "" })).status).toBe(421);
  });

  it("answers loopback names and addresses, with or without a port", async () => {
    const port = new URL(open.url).port;
    for (const host of [
      "127.0.0.1",
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      "LOCALHOST",
      `[::1]:${port}`,
      "127.0.0.2",
      "app.localhost",
    ]) {
      expect((await send(open.url, LOGS, { host })).status, host).toBe(200);
    }
  });

  it("writes Link URLs relative to the request (RFC 8288), never naming a host, the Host header's or its own", async () => {
    const r = await send(open.url, LOGS, { host: "localhost:1" });
    expect(r.status).toBe(200);
    const links = String(r.headers.link);
    expect(links).toContain(`</v1/repos/acme/web/logs?per_page=2&cursor=`);
    expect(links).not.toContain("localhost:1");
    expect(links).not.toContain("127.0.0.1");
  });

  it("does not check Host when listening beyond this machine", () => {
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("::1")).toBe(true);
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
    expect(isLoopbackHost("192.168.1.10")).toBe(false);
  });
});

describe("no CORS", () => {
  it("sends no Access-Control-* header, to a simple request or to a preflight", async () => {
    const get = await send(open.url, LOGS, { origin: "http://evil.example" });
    const pre = await send(
      open.url,
      LOGS,
      { origin: "http://evil.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
      "OPTIONS",
    );
    for (const r of [get, pre]) expect(Object.keys(r.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});

describe("HEAD and OPTIONS", () => {
  it("HEAD is a GET without a body: same status and headers", async () => {
    const g = await send(open.url, LOGS, {});
    const h = await send(open.url, LOGS, {}, "HEAD");
    expect(h.status).toBe(200);
    expect(h.body).toBe("");
    expect(h.headers["content-length"]).toBe(g.headers["content-length"]);
    expect(h.headers.link).toBe(g.headers.link);
    expect(h.headers["content-type"]).toBe("application/json");
    // and its errors are a GET's
    expect((await send(locked.url, LOGS, {}, "HEAD")).status).toBe(403);
    expect((await send(open.url, "/v1/repos/acme/web/stats/nope", {}, "HEAD")).status).toBe(404);
  });

  it("OPTIONS answers 204 with Allow, without credentials", async () => {
    for (const path of [LOGS, "/v1/repos/acme/web/stats/failure_rate"]) {
      const r = await send(locked.url, path, { authorization: "" }, "OPTIONS");
      expect(r.status, path).toBe(204);
      expect(r.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(r.body).toBe("");
    }
    expect((await send(open.url, "/nope", {}, "OPTIONS")).status).toBe(404);
  });
});

describe("the token", () => {
  it("only the exact token passes, whatever the length of a wrong one", async () => {
    for (const [token, status] of [
      ["s3cret", 200],
      ["s3cre", 403],
      ["s3crett", 403],
      ["S3CRET", 403],
      ["x".repeat(5000), 403],
    ] as const) {
      const r = await send(locked.url, LOGS, { authorization: `Bearer ${token}` });
      expect(r.status, token.slice(0, 10)).toBe(status);
    }
  });
});
