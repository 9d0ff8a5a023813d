// The bundled server under load and abuse: 50 keep-alive clients, 20,000 requests, zero errors and
// bounded memory; malformed requests get a 4xx and the server keeps answering.
import { connect } from "node:net";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Pool, request } from "undici";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { startMq } from "../helpers/spawn.js";

const CLIENTS = 50;
const TOTAL = 20_000;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ host: "127.0.0.1", port: 0, seed: 7, days: 7, now: new Date("2026-11-20T12:00:00Z") });
});
afterAll(() => server.close());

const AUTH = { authorization: "Bearer load-test-token" };

/** The paths the load cycles through: log pages with filters, cursors, and statistics. */
const PATHS = [
  "/v1/repos/acme/web/logs?per_page=20",
  "/v1/repos/acme/web/logs?per_page=5&event_type=action.queue.enter&event_type=action.queue.leave",
  "/v1/repos/acme/web/logs?per_page=10&base_ref=main",
  "/v1/repos/acme/api/logs?per_page=1",
  "/v1/repos/acme/web/stats/queues",
  "/v1/repos/acme/web/stats/branches",
];

/** Resident memory of a process, from /proc (Linux), in bytes. */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

describe("mq serve under load", () => {
  it(`the real \`mq serve\`: ${CLIENTS} keep-alive clients, ${TOTAL} requests, zero errors, memory bounded`, async () => {
    // a separate process: the server gets its own core, and its memory is measured alone
    const serve = startMq(["serve", "--port", "0", "--seed", "7", "--days", "7", "--now", "2026-11-20T12:00:00Z"], { killAfterMs: 55_000 });
    await serve.waitForStdout(/^http:\/\/.*\n/);
    const url = serve.stdout().trim();
    const pid = serve.child.pid!;
    const pool = new Pool(url, { connections: CLIENTS, pipelining: 1 });
    const statuses = new Map<number, number>();
    let errors = 0;
    let next = 0;
    // warm the simulated repositories before measuring memory
    for (const p of PATHS) await (await pool.request({ method: "GET", path: p, headers: AUTH })).body.dump();
    const before = rssOf(pid);
    let peak = before;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= TOTAL) return;
        if (i % 2000 === 0) peak = Math.max(peak, rssOf(pid));
        try {
          const res = await pool.request({ method: "GET", path: PATHS[i % PATHS.length]!, headers: AUTH });
          const text = await res.body.text();
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode !== 200) errors++;
          else JSON.parse(text);
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, worker));
    peak = Math.max(peak, rssOf(pid));
    await pool.close();
    serve.child.kill("SIGINT");
    const r = await serve.done;
    const growthMb = (peak - before) / 1024 / 1024;
    console.log(`mq serve: ${TOTAL} requests, RSS ${Math.round(before / 1048576)} MB -> peak ${Math.round(peak / 1048576)} MB`);
    expect(errors).toBe(0);
    expect(Object.fromEntries(statuses)).toEqual({ 200: TOTAL });
    expect(growthMb).toBeLessThan(300);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("mq serve: stopped");
  }, 60_000);

  it("keeps a cursor walk consistent while other clients hammer it", async () => {
    // one client pages through a whole day while the load above has warmed every store
    const ids = new Set<number>();
    let path: string | undefined = "/v1/repos/acme/web/logs?per_page=100";
    let pages = 0;
    while (path && pages < 500) {
      const res = await request(`${server.url}${path}`, { headers: AUTH });
      const body = (await res.body.json()) as { events: Array<{ id: number }> };
      for (const e of body.events) {
        expect(ids.has(e.id)).toBe(false);
        ids.add(e.id);
      }
      const link = String(res.headers.link ?? "");
      const m = /<([^>]+)>;\s*rel="next"/.exec(link);
      path = m ? new URL(m[1]!).pathname + new URL(m[1]!).search : undefined;
      pages++;
    }
    expect(path).toBeUndefined();
    expect(ids.size).toBeGreaterThan(0);
  });
});

/** A raw HTTP exchange over a socket, for requests no client library would send. */
function raw(text: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let out = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (out += d));
    socket.on("end", () => resolve(out));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
    socket.setTimeout(5000, () => socket.destroy());
    socket.end(text);
  });
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

describe("mq serve under abuse: 4xx, never a crash", () => {
  const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n`;

  it.each<[string, string, number | RegExp]>([
    ["a 20 kB query string", GET(`/v1/repos/acme/web/logs?base_ref=${"a".repeat(20_000)}`), 431],
    ["a 300-character base_ref", GET(`/v1/repos/acme/web/logs?base_ref=${"a".repeat(300)}`), 422],
    ["bad percent-encoding in the path", GET("/v1/repos/acme/%E0%A4%A/logs"), 404],
    ["bad percent-encoding in the query", GET("/v1/repos/acme/web/logs?base_ref=%ZZ%"), 200],
    ["a NUL byte, encoded", GET("/v1/repos/ac%00me/web/logs"), 422],
    ["path traversal", GET("/v1/repos/acme/../../../etc/passwd"), 404],
    ["encoded path traversal", GET("/v1/repos/acme/%2e%2e/logs"), 404],
    ["encoded slashes (owner acme/web)", GET("/v1/repos/acme%2Fweb/x/logs"), 422],
    ["an owner with _", GET("/v1/repos/a_b/web/logs"), 422],
    ["a 41-character owner", GET(`/v1/repos/${"o".repeat(41)}/web/logs`), 422],
    ["a cursor that is not base64url", GET("/v1/repos/acme/web/logs?cursor=!!!"), 422],
    ["a cursor of valid base64 but nonsense", GET(`/v1/repos/acme/web/logs?cursor=${Buffer.from("n.abc.def").toString("base64url")}`), 422],
    ["a 10 kB cursor", GET(`/v1/repos/acme/web/logs?cursor=${"A".repeat(10_000)}`), 422],
    ["per_page=0", GET("/v1/repos/acme/web/logs?per_page=0"), 422],
    ["per_page=1e2", GET("/v1/repos/acme/web/logs?per_page=1e2"), 422],
    ["pull_request=2147483647", GET("/v1/repos/acme/web/logs?pull_request=2147483647"), 422],
    ["an unknown event type", GET("/v1/repos/acme/web/logs?event_type=nope"), 422],
    ["received_from after received_to", GET("/v1/repos/acme/web/logs?received_from=2026-11-20T00:00:00Z&received_to=2026-11-19T00:00:00Z"), 422],
    ["a date without timezone", GET("/v1/repos/acme/web/stats/queues?start_at=2026-11-19T00:00:00"), 422],
    ["POST", "POST /v1/repos/acme/web/logs HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", 405],
    ["DELETE", "DELETE /v1/repos/acme/web/logs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405],
    ["no credentials", "GET /v1/repos/acme/web/logs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 403],
    ["not HTTP at all", "HELLO\r\n\r\n", 400],
    ["a header line without a colon", "GET /v1/repos/acme/web/logs HTTP/1.1\r\nHost x\r\n\r\n", 400],
    ["an unknown stats endpoint", GET("/v1/repos/acme/web/stats/nope"), 404],
  ])("%s", async (_name, req, expected) => {
    const response = await raw(req);
    const status = statusOf(response);
    if (typeof expected === "number") expect(status).toBe(expected);
    else expect(String(status)).toMatch(expected);
    // and the server still answers a normal request
    const ok = await request(`${server.url}/v1/repos/acme/web/logs?per_page=1`, { headers: AUTH });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
  });

  it("a client that disconnects mid-response does not take the server down", async () => {
    for (let i = 0; i < 20; i++) {
      const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
      socket.write(GET("/v1/repos/acme/web/logs?per_page=100").replace("Connection: close\r\n", ""));
      await new Promise((r) => setTimeout(r, 2));
      socket.destroy();
    }
    const ok = await request(`${server.url}/v1/repos/acme/web/logs?per_page=1`, { headers: AUTH });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
  });
});
