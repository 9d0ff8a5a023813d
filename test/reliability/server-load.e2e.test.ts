// The bundled server under load and abuse: 50 keep-alive clients, 6,000 requests, zero errors and
// bounded memory; 200 clients over 40 cold repositories while a warm one keeps answering fast; a
// year of history over 20 repositories within the memory budget, answers identical to a fresh
// server's; malformed requests get a 4xx and the server keeps answering. Loopback only, bounded.
import { connect } from "node:net";
import { execFile } from "node:child_process";
import { request as httpRequest } from "node:http";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Pool, request } from "undici";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { startMq, type Running } from "../helpers/spawn.js";

const CLIENTS = 50;
const TOTAL = 6_000;
/** what the server may grow by over TOTAL requests: a leak of 17 KB a request or more fails */
const GROWTH_MB = 100;

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

/** Resident memory of a process, from /proc (Linux), in bytes: now (VmRSS) or its peak (VmHWM). */
function rssOf(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

const MB = 1048576;
const median = (xs: number[]) => {
  const v = xs.slice().sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
};

/** servers started by a test, killed after it even when it fails */
const started: Running[] = [];
afterEach(() => {
  for (const s of started.splice(0)) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
});

async function serveProcess(args: string[], killAfterMs: number): Promise<{ serve: Running; url: string; pid: number }> {
  const serve = startMq(["serve", "--port", "0", "--now", "2026-11-20T12:00:00Z", ...args], { killAfterMs });
  started.push(serve);
  await serve.waitForStdout(/^http:\/\/.*\n/, 30_000);
  return { serve, url: serve.stdout().trim(), pid: serve.child.pid! };
}

/** the body of a GET, and its status */
async function fetchBody(pool: Pool, path: string): Promise<{ status: number; body: string; ms: number }> {
  const t = performance.now();
  const res = await pool.request({ method: "GET", path, headers: AUTH, headersTimeout: 600_000, bodyTimeout: 600_000 });
  const body = await res.body.text();
  return { status: res.statusCode, body, ms: performance.now() - t };
}

/** runs test/reliability/load-client.mjs: many clients in another process */
function loadClient(config: {
  url: string;
  clients: number;
  requests: number;
  paths: string[];
}): Promise<{ statuses: Record<string, number>; failures: string[]; errors: number; wallMs: number }> {
  const script = resolve(import.meta.dirname, "load-client.mjs");
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [script, JSON.stringify({ ...config, token: "load-test-token" })],
      { timeout: 600_000, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) return fail(new Error(`load client: ${err.message}\n${stderr}`));
        done(JSON.parse(stdout));
      },
    );
  });
}

describe("mq serve under load", () => {
  it(`the real \`mq serve\`: ${CLIENTS} keep-alive clients, ${TOTAL} requests, zero errors, memory bounded`, async () => {
    // a separate process: the server gets its own core, and its memory is measured alone
    const serve = startMq(["serve", "--port", "0", "--seed", "7", "--days", "7", "--now", "2026-11-20T12:00:00Z"], {
      killAfterMs: 150_000,
    });
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
        if (i % 500 === 0) peak = Math.max(peak, rssOf(pid));
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
    expect(growthMb).toBeLessThan(GROWTH_MB);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("mq serve: stopped");
  }, 160_000);

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
      // Link URLs are relative references (RFC 8288): resolved against the request's URL
      const next: URL | undefined = m ? new URL(m[1]!, `${server.url}${path}`) : undefined;
      path = next ? next.pathname + next.search : undefined;
      pages++;
    }
    expect(path).toBeUndefined();
    expect(ids.size).toBeGreaterThan(0);
  });
});

/**
 * Concurrent clients over cold repositories while one warm repository is probed: the probe's
 * median latency idle and under load, the load's answers, and the server's peak RSS.
 */
async function underLoad(o: { days: number; budgetMb: number; clients: number; repos: number; requests: number; since: string }) {
  const { serve, url, pid } = await serveProcess(["--days", String(o.days), "--memory-budget", String(o.budgetMb)], 900_000);
  const probe = new Pool(url, { connections: 1 });
  const WARM = "/v1/repos/acme/warm/logs?per_page=10";
  for (let i = 0; i < 20; i++) expect((await fetchBody(probe, WARM)).status).toBe(200);
  const idle: number[] = [];
  for (let i = 0; i < 50; i++) idle.push((await fetchBody(probe, WARM)).ms);
  // each repository: a page of the last day, a page back to `since`, statistics of the window
  // and of the last day
  const paths: string[] = [];
  for (let r = 0; r < o.repos; r++) {
    const repo = `/v1/repos/load/r${r}`;
    paths.push(
      `${repo}/logs?per_page=100`,
      `${repo}/stats/failure_rate?start_at=${o.since}`,
      `${repo}/logs?per_page=100&received_from=${o.since}`,
      `${repo}/stats/queues`,
      `${repo}/stats/average_queue_time?start_at=${o.since}`,
    );
  }
  const load = loadClient({ url, clients: o.clients, requests: o.requests, paths });
  let loading = true;
  void load.finally(() => (loading = false));
  const busy: number[] = [];
  while (loading) {
    const r = await fetchBody(probe, WARM);
    expect(r.status).toBe(200);
    busy.push(r.ms);
  }
  const result = await load;
  const peak = rssOf(pid, "VmHWM");
  await probe.close();
  serve.child.kill("SIGINT");
  await serve.done;
  const [idleMs, loadMs] = [median(idle), median(busy)];
  console.log(
    `mq serve --days ${o.days}, ${o.clients} clients x ${o.repos} repositories, ${o.requests} requests in ${(result.wallMs / 1000).toFixed(1)} s: ` +
      `warm median ${idleMs.toFixed(2)} ms idle, ${loadMs.toFixed(2)} ms under load (${(loadMs / idleMs).toFixed(1)}x, ${busy.length} probes); ` +
      `peak RSS ${Math.round(peak / MB)} MB (budget ${o.budgetMb} MB)`,
  );
  return { result, idleMs, loadMs, probes: busy.length, peak };
}

describe("mq serve: no client waits for another's simulation, memory within the budget (issue 15, bounded)", () => {
  it("50 concurrent clients over 10 cold repositories: zero errors, a warm repository's median within 10x its idle median, peak RSS under the budget", async () => {
    const BUDGET_MB = 256;
    // 10 repositories x 7 days hold about 390 MB of events by the server's own accounting: more
    // than the budget, so the load also makes it evict and simulate again
    const r = await underLoad({ days: 7, budgetMb: BUDGET_MB, clients: 50, repos: 10, requests: 200, since: "2026-11-13T12:00:00Z" });
    expect(r.result.failures).toEqual([]);
    expect(r.result.statuses).toEqual({ 200: 200 });
    expect(r.probes).toBeGreaterThan(10);
    expect(r.loadMs).toBeLessThanOrEqual(10 * r.idleMs);
    expect(r.peak).toBeLessThanOrEqual(BUDGET_MB * MB);
  }, 180_000);
});

// These two take minutes on two cores, so they run only when asked:
// MQ_LOAD_TESTS=1 npx vitest run --config test/vitest.config.ts test/reliability/server-load.e2e.test.ts
// Measured 2026-11-23: 200 x 40 in 60 s, 0 errors, warm median 0.7x idle, peak RSS 420 MB of 512
// (load average 4.5-12.6). The year-long one: 199 s in all at load 2.6-5.8 (the server about 175 s
// of wall and 140-150 s of CPU for 21 cold years, about 7 s each), peak RSS 392 MB of 512; 269 s
// at load 4.5-12.6 (130 s of CPU), 401 MB. Before each cold year's partials were kept day by day and the data held followed the heap
// cap, the third and fourth cold years took 55 and 73 s of CPU and 20 did not finish in 28 min.
describe.skipIf(process.env.MQ_LOAD_TESTS !== "1")("mq serve: no client waits for another's simulation (issue 15; MQ_LOAD_TESTS=1)", () => {
  const BUDGET_MB = 512;

  it("200 concurrent clients over 40 cold repositories: zero errors, a warm repository's median within 10x its idle median, RSS under the budget", async () => {
    const { serve, url, pid } = await serveProcess(["--memory-budget", String(BUDGET_MB)], 900_000);
    const probe = new Pool(url, { connections: 1 });
    const WARM = "/v1/repos/acme/warm/logs?per_page=10";
    for (let i = 0; i < 20; i++) expect((await fetchBody(probe, WARM)).status).toBe(200);
    // the real `mq serve`, on loopback, refuses a page's DNS-rebound name
    const evil = await new Promise<number>((done, fail) => {
      const req = httpRequest(`${url}${WARM}`, { headers: { ...AUTH, host: "evil.example" } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on("error", fail);
      req.end();
    });
    expect(evil).toBe(421);
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push((await fetchBody(probe, WARM)).ms);
    // 40 repositories x (a page of the last day, a page back 30 days, statistics of the whole
    // 30-day history and of the last day): 800 requests, 200 at a time
    const since = "2026-10-21T12:00:00Z";
    const paths: string[] = [];
    for (let r = 0; r < 40; r++) {
      const repo = `/v1/repos/load/r${r}`;
      paths.push(
        `${repo}/logs?per_page=100`,
        `${repo}/stats/failure_rate?start_at=${since}`,
        `${repo}/logs?per_page=100&received_from=${since}`,
        `${repo}/stats/queues`,
        `${repo}/stats/average_queue_time?start_at=${since}`,
      );
    }
    const load = loadClient({ url, clients: 200, requests: 800, paths });
    let loading = true;
    void load.finally(() => (loading = false));
    const underLoad: number[] = [];
    while (loading) {
      const r = await fetchBody(probe, WARM);
      expect(r.status).toBe(200);
      underLoad.push(r.ms);
    }
    const result = await load;
    const peak = rssOf(pid, "VmHWM");
    await probe.close();
    serve.child.kill("SIGINT");
    await serve.done;
    const [idleMs, loadMs] = [median(idle), median(underLoad)];
    console.log(
      `mq serve, 200 clients x 40 repositories, 800 requests in ${(result.wallMs / 1000).toFixed(1)} s: warm median ${idleMs.toFixed(2)} ms idle, ` +
        `${loadMs.toFixed(2)} ms under load (${(loadMs / idleMs).toFixed(1)}x, ${underLoad.length} probes); peak RSS ${Math.round(peak / MB)} MB (budget ${BUDGET_MB} MB)`,
    );
    expect(result.failures).toEqual([]);
    expect(result.statuses).toEqual({ 200: 800 });
    expect(underLoad.length).toBeGreaterThan(10);
    expect(loadMs).toBeLessThanOrEqual(10 * idleMs);
    expect(peak).toBeLessThanOrEqual(BUDGET_MB * MB);
  }, 900_000);

  it("--days 365: 20 repositories with windows back to 2000 stay under the budget, every answer the same as a fresh server's", async () => {
    const { serve, url, pid } = await serveProcess(["--days", "365", "--memory-budget", String(BUDGET_MB)], 1_500_000);
    const pool = new Pool(url, { connections: 1 });
    const from = "2000-01-01T00:00:00Z";
    const pathsOf = (repo: string) => [
      `/v1/repos/${repo}/stats/failure_rate?start_at=${from}`,
      `/v1/repos/${repo}/stats/queues_pr_exit_reasons?start_at=${from}`,
      `/v1/repos/${repo}/stats/average_queue_time?start_at=${from}&base_ref=main`,
      `/v1/repos/${repo}/stats/branches?start_at=${from}`,
      `/v1/repos/${repo}/logs?per_page=100&received_from=${from}`,
      // the oldest page: cursor "last"
      `/v1/repos/${repo}/logs?per_page=100&received_from=${from}&cursor=bA`,
    ];
    const repos = Array.from({ length: 20 }, (_, i) => `year/r${i}`);
    const kept = new Map<string, string[]>();
    for (const [i, repo] of repos.entries()) {
      const bodies: string[] = [];
      for (const path of pathsOf(repo)) {
        const r = await fetchBody(pool, path);
        expect(r.status, `${path}: ${r.body.slice(0, 200)}`).toBe(200);
        bodies.push(r.body);
      }
      if (i === 0 || i === 9 || i === 19) kept.set(repo, bodies);
    }
    // the first repository has been dropped to make room by now: simulated again, identical
    for (const [j, path] of pathsOf(repos[0]!).entries()) expect((await fetchBody(pool, path)).body, path).toBe(kept.get(repos[0]!)![j]);
    const peak = rssOf(pid, "VmHWM");
    await pool.close();
    serve.child.kill("SIGINT");
    await serve.done;
    // a fresh server, asked only about each of these repositories
    for (const [repo, bodies] of kept) {
      const fresh = await startServer({ port: 0, days: 365, now: new Date("2026-11-20T12:00:00Z"), recordRequests: false });
      const freshPool = new Pool(fresh.url, { connections: 1 });
      for (const [j, path] of pathsOf(repo).entries()) expect((await fetchBody(freshPool, path)).body, path).toBe(bodies[j]);
      await freshPool.close();
      await fresh.close();
    }
    console.log(`mq serve --days 365, 20 repositories back to 2000: peak RSS ${Math.round(peak / MB)} MB (budget ${BUDGET_MB} MB)`);
    expect(peak).toBeLessThanOrEqual(BUDGET_MB * MB);
  }, 1_500_000);
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
  const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n`;

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
    [
      "received_from after received_to",
      GET("/v1/repos/acme/web/logs?received_from=2026-11-20T00:00:00Z&received_to=2026-11-19T00:00:00Z"),
      422,
    ],
    ["a date without timezone", GET("/v1/repos/acme/web/stats/queues?start_at=2026-11-19T00:00:00"), 422],
    ["POST", "POST /v1/repos/acme/web/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", 405],
    ["DELETE", "DELETE /v1/repos/acme/web/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 405],
    ["no credentials", "GET /v1/repos/acme/web/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 403],
    ["Host: evil.example (DNS rebinding)", GET("/v1/repos/acme/web/logs").replace("Host: 127.0.0.1", "Host: evil.example"), 421],
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
