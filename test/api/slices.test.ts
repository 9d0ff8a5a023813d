// Parallel time slices (`mq logs --all --since …`, api/slices.ts) against a small loopback server of
// this test's own: both ends of a window inclusive, keyset cursors, a few ms of latency a request,
// and events stacked on shared instants so that slice boundaries fall on them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";

const BASE = Date.parse("2026-11-19T00:00:00Z");
interface Ev {
  id: number;
  ms: number;
  json: string;
}
// 1,600 events, four on each instant, instants 3 ms apart; ids not in time order within an instant
const EVENTS: Ev[] = Array.from({ length: 1600 }, (_, i) => {
  const ms = BASE + Math.floor(i / 4) * 3;
  const id = 10_000 + (i % 4) * 1000 + Math.floor(i / 4);
  const received_at = new Date(ms).toISOString().replace("Z", "000+00:00");
  const ev = {
    id,
    received_at,
    trigger: "t",
    repository: "o/r",
    pull_request: (i % 50) + 1,
    base_ref: "main",
    type: "action.queue.enter",
    metadata: {},
  };
  return { id, ms, json: JSON.stringify(ev) };
}).sort((a, b) => b.ms - a.ms || b.id - a.id);

interface Seen {
  url: string;
  inFlight: number;
  /** events in the answer */
  size?: number;
}

function startLogServer(opts: { fail429At?: number[]; fail500At?: number; events?: Ev[] }) {
  const events = opts.events ?? EVENTS;
  const seen: Seen[] = [];
  let inFlight = 0;
  let n = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    const k = ++n;
    inFlight++;
    seen.push({ url: req.url!, inFlight });
    setTimeout(() => {
      inFlight--;
      if (opts.fail429At?.includes(k)) {
        res.writeHead(429, { "retry-after": "0", "content-type": "application/json" }).end('{"detail":"slow down"}');
        return;
      }
      if (opts.fail500At === k) {
        res.writeHead(500, { "content-type": "application/json" }).end('{"detail":"boom"}');
        return;
      }
      const from = url.searchParams.has("received_from") ? Date.parse(url.searchParams.get("received_from")!) : -Infinity;
      const to = url.searchParams.has("received_to") ? Date.parse(url.searchParams.get("received_to")!) : Infinity;
      const perPage = Number(url.searchParams.get("per_page") ?? 10);
      const cursor = url.searchParams.get("cursor");
      let inWindow = events.filter((e) => e.ms >= from && e.ms <= to);
      if (cursor) {
        const [cms, cid] = cursor.split("_").map(Number) as [number, number];
        inWindow = inWindow.filter((e) => e.ms < cms || (e.ms === cms && e.id < cid));
      }
      const page = inWindow.slice(0, perPage);
      seen[k - 1]!.size = page.length;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (inWindow.length > perPage) {
        const last = page[page.length - 1]!;
        const next = new URL(url.href);
        next.searchParams.set("cursor", `${last.ms}_${last.id}`);
        headers.link = `<http://${req.headers.host}${next.pathname}${next.search}>; rel="next"`;
      }
      res.writeHead(200, headers).end(`{"size":${page.length},"per_page":${perPage},"events":[${page.map((e) => e.json).join(",")}]}`);
    }, 3);
  });
  return new Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

const SINCE = "2026-11-19T00:00:00Z";
const UNTIL = "2026-11-19T00:00:01.5Z";
const expected = EVENTS.filter((e) => e.ms <= Date.parse(UNTIL))
  .map((e) => e.json + "\n")
  .join("");

async function logs(url: string, args: string[]) {
  const ctx = testContext();
  const code = await main(
    [
      "--api-url",
      url,
      "--token",
      "t",
      "logs",
      "--repo",
      "o/r",
      "--since",
      SINCE,
      "--until",
      UNTIL,
      "-o",
      "ndjson",
      "--per-page",
      "20",
      ...args,
    ],
    ctx,
  );
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

describe("mq logs over parallel time slices", () => {
  let s: Awaited<ReturnType<typeof startLogServer>>;
  beforeAll(async () => {
    s = await startLogServer({});
  });
  afterAll(() => s.close());

  it("writes byte for byte the sequential walk: no event missing or repeated at a slice boundary", async () => {
    const sequential = await logs(s.url, ["--all", "--parallel", "1"]);
    const seqRequests = s.seen.length;
    expect(sequential.code).toBe(0);
    expect(sequential.out).toBe(expected);
    // --parallel 1: one walk, one window
    expect(new Set(s.seen.map((r) => new URL(r.url, "http://x").searchParams.get("received_to")))).toEqual(
      new Set([new Date(UNTIL).toISOString()]),
    );
    const parallel = await logs(s.url, ["--all", "--parallel", "6"]);
    expect(parallel.code).toBe(0);
    expect(parallel.out).toBe(sequential.out);
    const requests = s.seen.slice(seqRequests);
    // several sub-windows, each its own cursor walk, never more than 6 requests in flight
    const windows = new Set(requests.map((r) => new URL(r.url, "http://x").searchParams.get("received_to")));
    expect(windows.size).toBeGreaterThan(12);
    expect(Math.max(...requests.map((r) => r.inFlight))).toBeGreaterThan(1);
    expect(Math.max(...requests.map((r) => r.inFlight))).toBeLessThanOrEqual(6);
    // the first request is the sequential walk's own first page
    expect(requests[0]!.url).toBe(s.seen[0]!.url);
  });

  it("--parallel is checked before anything is sent", async () => {
    const before = s.seen.length;
    for (const [args, message] of [
      [["--parallel", "0"], '--parallel must be an integer from 1 to 16, not "0".'],
      [["--parallel", "17"], '--parallel must be an integer from 1 to 16, not "17".'],
      [["--parallel", "x"], '--parallel must be an integer from 1 to 16, not "x".'],
      [["--parallel", "4", "--limit", "10"], "--parallel and --limit cannot be used together"],
      [["--parallel", "4", "--cursor", "abc"], "--parallel and --cursor cannot be used together"],
    ] as const) {
      const r = await logs(s.url, [...args]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(message);
    }
    expect(s.seen.length).toBe(before);
  });
});

describe("parallel slices and a server that asks to slow down", () => {
  it("a 429 holds the pool and halves it; the output is still the sequential walk", async () => {
    const s = await startLogServer({ fail429At: [4, 5] });
    try {
      const r = await logs(s.url, ["--all", "--parallel", "8"]);
      expect(r.code).toBe(0);
      expect(r.out).toBe(expected);
      // the first page alone, then 8 at once; two throttled answers: 8 → 4 → 2 once the pool sees them
      const widest = Math.max(...s.seen.map((x) => x.inFlight));
      expect(widest).toBeGreaterThan(2);
      expect(widest).toBeLessThanOrEqual(8);
      expect(Math.max(...s.seen.slice(16).map((x) => x.inFlight))).toBe(2);
    } finally {
      await s.close();
    }
  });

  it("a failure in a slice keeps what was written whole and prints a resume command that fetches exactly the rest", async () => {
    const s = await startLogServer({ fail500At: 30 });
    try {
      const r = await logs(s.url, ["--all", "--parallel", "4"]);
      expect(r.code).not.toBe(0);
      expect(expected.startsWith(r.out)).toBe(true);
      expect(r.out.length).toBeGreaterThan(0);
      const command = /To resume:\n {2}(mq logs .*)/.exec(r.err)?.[1];
      expect(command).toBeDefined();
      const argv = command!
        .split(" ")
        .slice(1)
        .map((a) => a.replace(/^'(.*)'$/, "$1"));
      const ctx = testContext();
      const code = await main(["--token", "t", ...argv], ctx);
      expect(code).toBe(0);
      expect(r.out + ctx.stdoutText()).toBe(expected);
    } finally {
      await s.close();
    }
  });
});

describe("parallel slices over a log of uneven density", () => {
  // the newest half of the window sparse (an event every 40 ms), the older half dense (one every
  // ms): slices planned from the first page's density hold far more pages than planned
  const start = Date.parse("2026-11-19T00:00:00Z");
  const uneven: Ev[] = [];
  for (let ms = 0; ms <= 3000; ms += ms < 1500 ? 1 : 40) {
    const id = 50_000 + ms;
    const ev = {
      id,
      received_at: new Date(start + ms).toISOString().replace("Z", "000+00:00"),
      trigger: "t",
      repository: "o/r",
      pull_request: 1,
      base_ref: "main",
      type: "action.queue.enter",
      metadata: {},
    };
    uneven.push({ id, ms: start + ms, json: JSON.stringify(ev) });
  }
  uneven.sort((a, b) => b.ms - a.ms || b.id - a.id);
  const until = new Date(start + 3000).toISOString();
  const run = async (url: string, parallel: string) => {
    const ctx = testContext();
    const code = await main(
      [
        "--api-url",
        url,
        "--token",
        "t",
        "logs",
        "--repo",
        "o/r",
        "--since",
        SINCE,
        "--until",
        until,
        "-o",
        "ndjson",
        "--per-page",
        "20",
        "--all",
        "--parallel",
        parallel,
      ],
      ctx,
    );
    return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
  };
  const windows = (seen: Seen[]) =>
    seen.map((r) => {
      const q = new URL(r.url, "http://x").searchParams;
      return { from: Date.parse(q.get("received_from")!), to: Date.parse(q.get("received_to")!), cursor: q.has("cursor"), size: r.size };
    });

  it("splits a slice that turns out dense, ends without a tail of empty requests, and writes the sequential walk", async () => {
    const s = await startLogServer({ events: uneven });
    try {
      const sequential = await run(s.url, "1");
      expect(sequential.code).toBe(0);
      expect(sequential.out).toBe(uneven.map((e) => e.json + "\n").join(""));
      const seqRequests = s.seen.length;
      const parallel = await run(s.url, "6");
      expect(parallel.code, parallel.err).toBe(0);
      expect(parallel.out).toBe(sequential.out);
      const requests = windows(s.seen.slice(seqRequests));
      // a split: a slice whose window ends strictly inside a window already being walked
      const firsts = requests.filter((r) => !r.cursor).slice(1);
      expect(firsts.some((b) => firsts.some((a) => a !== b && a.from < b.to && b.to < a.to))).toBe(true);
      // every request but the last pages of slices is a full page; the sequential walk's count plus
      // one partial page a slice at most, and no slice narrower than a page left for the end
      const partial = requests.filter((r) => r.size !== undefined && r.size < 20).length;
      expect(requests.length).toBeLessThanOrEqual(seqRequests + partial);
      expect(requests.filter((r) => r.size === 0).length).toBeLessThanOrEqual(1);
    } finally {
      await s.close();
    }
  });
});
