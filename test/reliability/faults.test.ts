// Server faults against `mq logs --all -o ndjson` (and a few stats commands): for each, the
// documented exit code, a clear message, no hang, every event received before the failure on
// stdout as whole lines, and the cursor to resume from on stderr. Backoff sleeps are recorded,
// not slept (see harness.ts), so retries cost nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import {
  eventRange,
  ndjson,
  pageBody,
  pageReply,
  queueChangeEvent,
  startFaultServer,
  type FaultServer,
  type Reply,
} from "../helpers/fault-server.js";
import { createContext } from "../../src/context.js";
import { main } from "../../src/main.js";
import { lines, onEachWire, runMq } from "./harness.js";

const PAGE1 = eventRange(100, 10);
const PAGE2 = eventRange(90, 10);
const NEXT = "/v1/repos/acme/web/logs?per_page=10&cursor=c2";
const ARGS = ["logs", "--all", "-o", "ndjson", "--per-page", "10"];

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => pageReply([]));
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  server.verify();
});

/** Page 1 answers normally; page 2 (cursor c2) gets `fault(attempt)` until it returns undefined. */
function twoPages(fault: (attempt: number) => Reply | undefined): void {
  let attempts = 0;
  server.setScript((_n, url) => {
    if (url.searchParams.get("cursor") !== "c2") return pageReply(PAGE1, NEXT);
    attempts++;
    return fault(attempts) ?? pageReply(PAGE2);
  });
}

const page2Requests = () => server.requests.filter((r) => r.url.includes("cursor=c2")).length;

/** No stack trace, no "internal error", nothing in colour: a message for a person. */
function expectCleanStderr(stderr: string): void {
  expect(stderr).not.toMatch(/^mq: internal error|^\s+at .*:\d+:\d+\)?$|^\w*Error: /m);
}

/** The failure contract: page 1 whole on stdout, exit code, message, and the resume command. */
function expectResumable(r: Awaited<ReturnType<typeof runMq>>, code: number, message: RegExp): void {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe(ndjson(PAGE1));
  const err = lines(r.stderr);
  expect(err[0]).toMatch(message);
  expect(r.stderr).toContain("10 events were written before this. To resume:");
  expect(r.stderr).toMatch(/mq logs --repo acme\/web .*--all -o ndjson --cursor c2\n$/);
  expectCleanStderr(r.stderr);
}

const json = (body: unknown): Reply => ({ status: 200, body });
onEachWire(scenarios);

function scenarios(): void {
  describe("transient faults are retried and nothing is lost", () => {
    it.each<[string, (attempt: number) => Reply | undefined, number[] | ((s: number[]) => void)]>([
      [
        "429 with Retry-After: 2",
        (a) => (a === 1 ? { status: 429, headers: { "retry-after": "2" }, body: { detail: "slow down" } } : undefined),
        [2000],
      ],
      [
        "429 with Retry-After as an HTTP date",
        (a) =>
          a === 1 ? { status: 429, headers: { "retry-after": new Date("2026-11-20T12:00:03Z").toUTCString() }, body: {} } : undefined,
        (s) => {
          expect(s).toHaveLength(1);
          // against the fixed clock of the test context, 12:00:00
          expect(s[0]).toBe(3000);
        },
      ],
      [
        "429 without Retry-After (backoff)",
        (a) => (a === 1 ? { status: 429, body: {} } : undefined),
        (s) => {
          expect(s).toHaveLength(1);
          expect(s[0]).toBeGreaterThanOrEqual(250);
          expect(s[0]).toBeLessThanOrEqual(500);
        },
      ],
      [
        "502 then success",
        (a) =>
          a === 1 ? { status: 502, body: "<html><body>Bad Gateway</body></html>", headers: { "content-type": "text/html" } } : undefined,
        (s) => expect(s).toHaveLength(1),
      ],
      [
        "503 twice then success",
        (a) => (a <= 2 ? { status: 503, body: { detail: "maintenance" } } : undefined),
        (s) => {
          expect(s).toHaveLength(2);
          // exponential: the second wait is drawn from a later step than the first
          expect(s[1]!).toBeGreaterThanOrEqual(500);
        },
      ],
      [
        "504 three times then success (the 4th and last attempt)",
        (a) => (a <= 3 ? { status: 504, body: {} } : undefined),
        (s) => expect(s).toHaveLength(3),
      ],
      [
        "a connection reset mid-body, once",
        (a) => (a === 1 ? { kind: "reset", body: JSON.stringify(pageBody(PAGE2)), sent: 200 } : undefined),
        (s) => expect(s).toHaveLength(1),
      ],
      [
        "a body shorter than its Content-Length, once",
        (a) => (a === 1 ? { kind: "short", body: JSON.stringify(pageBody(PAGE2)), sent: 300 } : undefined),
        (s) => expect(s).toHaveLength(1),
      ],
    ])("%s", async (_name, fault, sleeps) => {
      twoPages(fault);
      const r = await runMq(ARGS, { apiUrl: server.url });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      expect(r.stdout).toBe(ndjson([...PAGE1, ...PAGE2]));
      if (typeof sleeps === "function") sleeps(r.sleeps);
      else expect(r.sleeps).toEqual(sleeps);
    });

    it("--no-retry fails on the first 503, keeping page 1 and the cursor", async () => {
      twoPages(() => ({ status: 503, body: { detail: "maintenance" } }));
      const r = await runMq([...ARGS, "--no-retry"], { apiUrl: server.url });
      expectResumable(
        r,
        6,
        /^mq: GET \/v1\/repos\/acme\/web\/logs\?per_page=10&cursor=c2 failed: HTTP 503 Service Unavailable: maintenance$/,
      );
      expect(page2Requests()).toBe(1);
      expect(r.sleeps).toEqual([]);
    });
  });

  describe("permanent faults: exit code, message, page 1 kept, resume cursor", () => {
    it.each<[string, Reply, number, RegExp, number]>([
      [
        "permanent 503",
        { status: 503, body: { detail: "down for maintenance" } },
        6,
        /failed after 4 attempts: HTTP 503 Service Unavailable: down for maintenance$/,
        4,
      ],
      [
        "permanent 502 with an HTML page",
        { status: 502, body: "<!DOCTYPE html><html><h1>502 Bad Gateway</h1></html>", headers: { "content-type": "text/html" } },
        6,
        /failed after 4 attempts: HTTP 502 Bad Gateway$/,
        4,
      ],
      [
        "500 (not retried: only 429, 502, 503, 504 and resets are)",
        { status: 500, body: { detail: "boom" } },
        6,
        /failed: HTTP 500 Internal Server Error: boom$/,
        1,
      ],
      [
        "429 asking for an hour",
        { status: 429, headers: { "retry-after": "3600" }, body: {} },
        6,
        /HTTP 429 Too Many Requests; the server asks to retry after 3600 s$/,
        1,
      ],
      ["404 mid-way", { status: 404, body: { detail: "Not Found" } }, 3, /HTTP 404 Not Found: Not Found$/, 1],
      ["403 mid-way", { status: 403, body: { detail: "Forbidden" } }, 4, /HTTP 403 Forbidden: Forbidden$/, 1],
      [
        "422 on the cursor",
        { status: 422, body: { detail: [{ loc: ["query", "cursor"], msg: "Invalid cursor", type: "value_error" }] } },
        5,
        /HTTP 422 Unprocessable (Entity|Content): query.cursor: Invalid cursor$/,
        1,
      ],
      [
        "a redirect (never followed: the token would go with it)",
        { status: 302, headers: { location: "https://elsewhere.example.com/v1/x" }, body: "" },
        6,
        /HTTP 302 Found$/,
        1,
      ],
      [
        "connection reset mid-body every time",
        { kind: "reset", body: JSON.stringify(pageBody(PAGE2)), sent: 100 },
        6,
        /^mq: the connection to 127\.0\.0\.1:\d+ closed before the whole response arrived \(got 100 bytes\), after 4 attempts$/,
        4,
      ],
      [
        "a truncated JSON body (complete HTTP message)",
        { status: 200, body: JSON.stringify(pageBody(PAGE2)).slice(0, 150), headers: { "content-type": "application/json" } },
        6,
        /returned HTTP 200 with JSON that stops before its end \(150 bytes\)$/,
        1,
      ],
      [
        "invalid JSON",
        { status: 200, body: "{size: 1, events: [}", headers: { "content-type": "application/json" } },
        6,
        /a body that is not JSON/,
        1,
      ],
      [
        "an HTML page with status 200",
        { status: 200, body: "<html><body>Sign in</body></html>", headers: { "content-type": "text/html; charset=utf-8" } },
        6,
        /returned HTTP 200 with an HTML page instead of JSON$/,
        1,
      ],
      [
        "an empty 200",
        { status: 200, body: "", headers: { "content-type": "application/json" } },
        6,
        /returned HTTP 200 with an empty body instead of JSON$/,
        1,
      ],
      [
        "a page without per_page",
        json({ size: 10, events: PAGE2 }),
        6,
        /^mq: response does not match the contract: per_page: expected an integer, got missing$/,
        1,
      ],
      [
        "a page whose events is an object",
        json({ size: 10, per_page: 10, events: {} }),
        6,
        /^mq: response does not match the contract: events: expected an array, got a object$/,
        1,
      ],
      ["a page that is an array", json([]), 6, /^mq: response does not match the contract: expected a JSON object, got an array$/, 1],
      [
        "an event without received_at",
        json(pageBody([PAGE2[0], { ...PAGE2[1], received_at: undefined }])),
        6,
        /^mq: response does not match the contract: events\[1\] \(id 89\): received_at: .*got missing$/,
        1,
      ],
      [
        "an event whose id is a string",
        json(pageBody([{ ...PAGE2[0], id: "90" }])),
        6,
        /^mq: response does not match the contract: events\[0\] \(id 90\): id: expected an integer, got a string$/,
        1,
      ],
      [
        "an event whose metadata is null",
        json(pageBody([{ ...PAGE2[0], metadata: null }])),
        6,
        /events\[0\] \(id 90\): metadata: expected an object, got null$/,
        1,
      ],
      [
        "an event without a type",
        json(pageBody([{ ...PAGE2[0], type: undefined }])),
        6,
        /events\[0\] \(id 90\): type: expected a string, got missing$/,
        1,
      ],
    ])("%s", async (_name, fault, code, message, attempts) => {
      twoPages(() => fault);
      const r = await runMq(ARGS, { apiUrl: server.url });
      expectResumable(r, code, message);
      expect(page2Requests()).toBe(attempts);
      expect(r.sleeps).toHaveLength(attempts - 1);
    });

    it("a contract breach on page 1: nothing on stdout, no resume hint (nothing to resume)", async () => {
      server.setScript(() => json({ size: 1, per_page: 10, events: [{ id: 1 }] }));
      const r = await runMq(ARGS, { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toEqual([
        "mq: response does not match the contract: events[0] (id 1): received_at: expected an ISO 8601 date-time, got missing",
      ]);
    });

    it("-o json stays a valid JSON array when page 2 fails", async () => {
      twoPages(() => ({ status: 503, body: {} }));
      const r = await runMq(["logs", "--all", "-o", "json", "--per-page", "10"], { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(JSON.parse(r.stdout)).toEqual(PAGE1);
    });

    it("-o csv keeps whole rows when page 2 fails", async () => {
      twoPages(() => ({ kind: "reset", body: "{", sent: 1 }));
      const r = await runMq(["logs", "--all", "-o", "csv", "--per-page", "10"], { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(lines(r.stdout)).toHaveLength(11);
      expect(r.stdout.endsWith("\n")).toBe(true);
    });
  });

  describe("metadata that differs from the contract", () => {
    const odd = {
      ...queueChangeEvent(90),
      metadata: { queue_name: "default", partition_name: "__default__", priority_rule_name: null, size: "big" },
    };

    it("is passed through as sent, with one warning naming the type, the event and the field", async () => {
      twoPages(() => json(pageBody([odd, { ...odd, id: 89 }])));
      const r = await runMq(ARGS, { apiUrl: server.url });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(ndjson([...PAGE1, odd, { ...odd, id: 89 }]));
      expect(lines(r.stderr)).toEqual([
        expect.stringMatching(
          /^mq: warning: action\.queue\.change event 90 does not match the contract \(metadata\.size: .*\); shown as sent\. --strict makes this an error\.$/,
        ),
      ]);
    });

    it("is an error with --strict, page 1 kept", async () => {
      twoPages(() => json(pageBody([odd])));
      const r = await runMq([...ARGS, "--strict"], { apiUrl: server.url });
      expectResumable(r, 6, /^mq: response does not match the contract: events\[0\] \(id 90\) action\.queue\.change: metadata\.size: /);
    });
  });

  describe("a stalled server", () => {
    it("times out with --timeout 1 waiting for headers, page 1 kept", async () => {
      twoPages(() => ({ kind: "stall" }));
      const r = await runMq([...ARGS, "--timeout", "1"], { apiUrl: server.url });
      expectResumable(r, 6, /^mq: GET \/v1\/repos\/acme\/web\/logs\?per_page=10&cursor=c2 timed out after 1 s \(the request timeout\)$/);
      expect(r.stderr).toContain("raise it with --timeout <seconds>");
      expect(page2Requests()).toBe(1);
    });

    it("times out with --timeout 1 when the body stops half-way", async () => {
      twoPages(() => ({ kind: "stream", hold: true, chunks: () => [JSON.stringify(pageBody(PAGE2)).slice(0, 100)] }));
      const r = await runMq([...ARGS, "--timeout", "1"], { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe(ndjson(PAGE1));
      expect(r.stderr).toMatch(/timed out after 1 s|was reset/);
      expect(r.stderr).toContain("--cursor c2");
    });
  });

  describe("pagination links that would never end or leave the API", () => {
    const LOOP = (cursor: string, events: number, pages: number) => [
      `mq: the server's next-page link repeats a page already fetched (cursor ${cursor}): its pagination would loop`,
      `mq stopped after ${events} events (${pages} pages), each written once; report this to the API provider`,
    ];

    it("a Link loop (page 2 points back to page 1) stops after each page once, exit 6", async () => {
      server.expect(pageReply(PAGE1, NEXT), pageReply(PAGE2, "/v1/repos/acme/web/logs?per_page=10"));
      const r = await runMq(ARGS, { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe(ndjson([...PAGE1, ...PAGE2]));
      expect(lines(r.stderr)).toEqual(
        LOOP("http://127.0.0.1:PORT/v1/repos/acme/web/logs?per_page=10".replace("http://127.0.0.1:PORT", server.url), 20, 2),
      );
      expect(server.requests).toHaveLength(2);
    });

    it("a page whose next link is itself stops there, exit 6", async () => {
      server.setScript((_n, url) => (url.searchParams.get("cursor") !== "c2" ? pageReply(PAGE1, NEXT) : pageReply(PAGE2, NEXT)));
      const r = await runMq(ARGS, { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe(ndjson([...PAGE1, ...PAGE2]));
      expect(lines(r.stderr)).toEqual(LOOP("c2", 20, 2));
      expect(server.requests).toHaveLength(2);
    });

    it("a server that ignores the cursor: the repeated page is not written, exit 6", async () => {
      server.setScript(() => pageReply(PAGE1, NEXT));
      const r = await runMq(ARGS, { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe(ndjson(PAGE1));
      expect(lines(r.stderr).slice(0, 2)).toEqual([
        `mq: the server's page 2 repeats event ${PAGE1[0]!.id}, already written: its pagination would loop`,
        "mq stopped after 10 events (1 page), each written once; report this to the API provider",
      ]);
      expect(server.requests).toHaveLength(2);
    });

    it("a Link to another origin is refused before any request goes there, page 1 kept", async () => {
      const other = await startFaultServer(() => pageReply(PAGE2));
      try {
        server.setScript(() => pageReply(PAGE1, `${other.url}/v1/repos/acme/web/logs?cursor=c2`));
        const r = await runMq(ARGS, { apiUrl: server.url });
        expect(r.code).toBe(6);
        expect(r.stdout).toBe(ndjson(PAGE1));
        expect(lines(r.stderr)[0]).toBe(
          `mq: refusing to follow a link to ${other.url}: it is not the API origin ${server.url}, and the token must not leave it`,
        );
        expect(other.requests).toHaveLength(0);
        expectCleanStderr(r.stderr);
      } finally {
        await other.close();
      }
    });
  });

  // 60 rather than 100: a page over 64 MB is refused (see hostile-answers.test.ts). 60 MB through
  // mq takes ~3 s on a quiet machine; the bound is for a hung run, not a slow machine (at load 12
  // in CI it passed 30 s)
  describe("a page of 60 events of 1 MB each", () => {
    it("streams through whole, every line complete", async () => {
      const big = "x".repeat(1024 * 1024);
      const event = (id: number) => ({ ...queueChangeEvent(id), type: "action.comment", metadata: { message: big } });
      server.setScript(() => ({
        kind: "stream",
        headers: {},
        chunks: function* () {
          yield '{"size":60,"per_page":100,"events":[';
          for (let i = 0; i < 60; i++) yield (i ? "," : "") + JSON.stringify(event(1000 - i));
          yield "]}";
        },
      }));
      // count lines and bytes instead of keeping 60 MB in a test buffer; a line's pieces are joined
      // once, at its newline (joining each chunk to what came before copies a 1 MB line many times)
      let bytes = 0;
      let newlines = 0;
      let partial: Buffer[] = [];
      const ids: number[] = [];
      const stdout = new Writable({
        write(chunk: Buffer, _enc, cb) {
          bytes += chunk.length;
          let start = 0;
          for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
            const line = Buffer.concat([...partial, chunk.subarray(start, end)]).toString("utf8");
            partial = [];
            start = end + 1;
            newlines++;
            const ev = JSON.parse(line) as { id: number; metadata: { message: string } };
            expect(ev.metadata.message.length).toBe(big.length);
            ids.push(ev.id);
          }
          if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)));
          cb();
        },
      });
      const stderr: string[] = [];
      const ctx = createContext({
        io: {
          stdout,
          stderr: new Writable({ write: (c, _e, cb) => (stderr.push(String(c)), cb()) }),
          stdoutIsTTY: false,
          stderrIsTTY: false,
        },
        env: { MQ_CONFIG_DIR: "/nonexistent-mq-rel", HOME: "/nonexistent-mq-rel" },
        now: () => new Date("2026-11-20T12:00:00Z"),
      });
      // the request's own timeout (30 s by default) is not what this checks, and on a machine at load
      // 19 reading the 60 MB takes longer
      const code = await main(["--api-url", server.url, "--token", "tok-12345", "--repo", "acme/web", "--timeout", "300", ...ARGS], ctx);
      expect({ code, stderr: stderr.join("") }).toEqual({ code: 0, stderr: "" });
      expect(newlines).toBe(60);
      expect(partial).toEqual([]);
      expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => 1000 - i));
      expect(bytes).toBeGreaterThan(60 * 1024 * 1024);
    }, 90_000);
  });

  describe("statistics under faults", () => {
    const groups = {
      groups: [
        {
          base_ref: "main",
          partition_name: "__default__",
          queue_name: "default",
          priority_rule_name: null,
          stats: [{ start: "2026-11-19T12:00:00Z", end: "2026-11-20T12:00:00Z", total: 10, failures: 1, failure_rate: 0.1 }],
        },
      ],
    };

    it("503 then success prints the figures, exit 0", async () => {
      server.expect({ status: 503, body: {} }, json(groups));
      const r = await runMq(["stats", "failure-rate", "-o", "json"], { apiUrl: server.url });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(groups);
      expect(r.sleeps).toHaveLength(1);
    });

    it("invalid JSON is exit 6 with nothing on stdout", async () => {
      server.setScript(() => ({ status: 200, body: '{"groups": [', headers: { "content-type": "application/json" } }));
      const r = await runMq(["stats", "failure-rate", "-o", "json"], { apiUrl: server.url });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 6, stdout: "" });
      expect(lines(r.stderr)[0]).toMatch(/failure_rate returned HTTP 200 with JSON that stops before its end \(12 bytes\)$/);
    });

    it("a --fail-if breach is still exit 1 after retries", async () => {
      server.expect({ status: 429, headers: { "retry-after": "1" }, body: {} }, json(groups));
      const r = await runMq(["stats", "failure-rate", "-o", "json", "--fail-if", "failure_rate > 0.05"], { apiUrl: server.url });
      expect(r.code).toBe(1);
      expect(r.sleeps).toEqual([1000]);
    });

    it("summary: one endpoint down is exit 6, no half summary on stdout", async () => {
      server.setScript((_n, url) =>
        url.pathname.endsWith("/queue_size") ? { status: 500, body: { detail: "boom" } } : json({ groups: [] }),
      );
      const r = await runMq(["stats", "summary", "-o", "json"], { apiUrl: server.url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)[0]).toMatch(/queue_size.*HTTP 500 Internal Server Error: boom/);
    });
  });
}
