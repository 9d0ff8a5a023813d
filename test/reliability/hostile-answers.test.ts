// Hostile answers that used to crash mq (exit 70), eat memory, lose precision or stop silently:
// each now gets a documented exit code and a one-line message, and what mq writes is exactly what
// the server sent. In-process against a loopback server (see harness.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pageReply, queueChangeEvent, startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { lines, onEachWire, runMq } from "./harness.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => pageReply([]));
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const ARGS = ["logs", "--all", "-o", "ndjson", "--per-page", "10"];
const run = (args: string[], env?: Record<string, string>) => runMq(args, { apiUrl: server.url, env });

/** The text of a page body with these event texts (exactly as given) in `events`. */
function pageText(eventTexts: string[]): string {
  return `{"size":${eventTexts.length},"per_page":10,"events":[${eventTexts.join(",")}]}`;
}
const json = (text: string) => ({ status: 200, headers: { "content-type": "application/json" }, body: text });

const ENVELOPE = `"received_at":"2026-11-20T11:00:00Z","trigger":"t","repository":"acme/web","pull_request":1,"base_ref":"main"`;
onEachWire(scenarios);

function scenarios(): void {
  describe("exact passthrough (-o ndjson, json, csv)", () => {
    const texts = [
      `{"id":9223372036854775807,${ENVELOPE},"type":"x.custom","metadata":{"big":92233720368547758071234567890,"f":1.0,"e":1e2,"z":1,"a":2,"s":"caf\\u00e9"}}`,
      `{"type":"x.custom","id":7,"metadata":{"n":-0.0,"deep":{"b":[1.50,2E-3]}},${ENVELOPE}}`,
    ];

    it("ndjson writes each event's text as sent: integers beyond 2^53, 1.0, 1e2, escapes and key order", async () => {
      server.setScript(() => json(pageText(texts)));
      const r = await run(ARGS);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(texts.map((t) => t + "\n").join(""));
    });

    it("json writes the same texts in one array", async () => {
      server.setScript(() => json(pageText(texts)));
      const r = await run(["logs", "--all", "-o", "json"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`[\n${texts.join(",\n")}\n]\n`);
    });

    it("a pretty-printed page comes out one event a line, tokens as sent", async () => {
      server.setScript(() =>
        json(
          `{\n  "size": 1, "per_page": 10,\n  "events": [\n    {\n      "id": 9007199254740993,\n      ${ENVELOPE.replace(/,/g, ",\n      ")},\n      "type": "x.custom",\n      "metadata": { "v": 1.0, "s": "a  b" }\n    }\n  ]\n}`,
        ),
      );
      const r = await run(ARGS);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`{"id":9007199254740993,${ENVELOPE},"type":"x.custom","metadata":{"v":1.0,"s":"a  b"}}\n`);
    });

    it("--fields takes each field's text as sent", async () => {
      server.setScript(() => json(pageText(texts)));
      const r = await run([...ARGS, "--fields", "id,metadata,outcome"]);
      expect(r.code).toBe(0);
      expect(lines(r.stdout)).toEqual([
        `{"id":9223372036854775807,"metadata":{"big":92233720368547758071234567890,"f":1.0,"e":1e2,"z":1,"a":2,"s":"caf\\u00e9"},"outcome":null}`,
        `{"id":7,"metadata":{"n":-0.0,"deep":{"b":[1.50,2E-3]}},"outcome":null}`,
      ]);
    });

    it("csv cells carry numbers and JSON as sent", async () => {
      server.setScript(() => json(pageText(texts.slice(0, 1))));
      const r = await run(["logs", "--all", "-o", "csv", "--fields", "id,metadata"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(
        `id,metadata\r\n9223372036854775807,"{""big"":92233720368547758071234567890,""f"":1.0,""e"":1e2,""z"":1,""a"":2,""s"":""caf\\u00e9""}"\r\n`,
      );
    });

    it("invalid UTF-8 in a page is a warning, not a silent U+FFFD", async () => {
      const bytes = Buffer.concat([
        Buffer.from(`{"size":1,"per_page":10,"events":[{"id":1,${ENVELOPE},"type":"x.custom","metadata":{"s":"a`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`b"}}]}`),
      ]);
      server.setScript(() => ({
        kind: "raw",
        bytes: Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\n\r\n`),
          bytes,
        ]),
      }));
      const r = await run(ARGS);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`{"id":1,${ENVELOPE},"type":"x.custom","metadata":{"s":"a\uFFFD\uFFFDb"}}\n`);
      expect(r.stderr).toMatch(
        /^mq: warning: GET \/v1\/repos\/acme\/web\/logs\?per_page=10 returned bytes that are not UTF-8; they are shown as U\+FFFD\n$/,
      );
    });
  });

  describe("csv for spreadsheets (OWASP)", () => {
    const text = `{"id":1,"received_at":"2026-11-20T11:00:00Z","trigger":"=HYPERLINK(\\"http://e.example\\",\\"x\\")","repository":"acme/web","pull_request":-3,"base_ref":"@SUM(A1)","type":"x.custom","metadata":{}}`;

    it("a cell starting with = + - @ tab or CR gets a leading quote; a plain number does not", async () => {
      server.setScript(() => json(pageText([text])));
      const r = await run(["logs", "--all", "-o", "csv", "--fields", "trigger,pull_request,base_ref"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`trigger,pull_request,base_ref\r\n"'=HYPERLINK(""http://e.example"",""x"")",-3,'@SUM(A1)\r\n`);
    });

    it("--no-csv-guard writes the cells as sent", async () => {
      server.setScript(() => json(pageText([text])));
      const r = await run(["logs", "--all", "-o", "csv", "--no-csv-guard", "--fields", "trigger,base_ref"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`trigger,base_ref\r\n"=HYPERLINK(""http://e.example"",""x"")",@SUM(A1)\r\n`);
    });

    it("stats csv too, and a statistics answer that is not UTF-8 is a warning", async () => {
      const body = Buffer.concat([Buffer.from('{"queue_names":["=cmd|\' /C calc\'!A0","ok'), Buffer.from([0xff]), Buffer.from('"]}')]);
      server.setScript(() => ({
        kind: "raw",
        bytes: Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`),
          body,
        ]),
      }));
      const r = await run(["stats", "queues", "-o", "csv"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`queue_name\r\n'=cmd|' /C calc'!A0\r\nok\uFFFD\r\n`);
      expect(r.stderr).toBe(
        "mq: warning: GET /v1/repos/acme/web/stats/queues returned bytes that are not UTF-8; they are shown as U+FFFD\n",
      );
    });
  });

  describe("hostile answers get a documented exit code, never 70", () => {
    it("a huge Retry-After: exit 6, one message, no wait", async () => {
      server.setScript(() => ({ status: 429, headers: { "retry-after": "99999999999999999999999" }, body: { detail: "slow down" } }));
      const r = await run(ARGS);
      expect(r.code).toBe(6);
      expect(r.sleeps).toEqual([]);
      expect(lines(r.stderr)).toEqual([
        "mq: GET /v1/repos/acme/web/logs?per_page=10 failed: HTTP 429 Too Many Requests; the server asks to retry after more than a year",
        "try again later; the server gave Retry-After: 99999999999999999999999",
      ]);
    });

    it("a Retry-After that is neither delta-seconds nor an HTTP-date waits the backoff (-5, 1.5, +2 retried at once before)", async () => {
      for (const value of ["-5", "1.5", "+2"]) {
        server.setScript((n) =>
          n % 2 === 1 ? { status: 503, headers: { "retry-after": value }, body: { detail: "busy" } } : pageReply([]),
        );
        const r = await run(ARGS);
        expect(r.code, value).toBe(0);
        expect(r.sleeps.length, value).toBe(1);
        expect(r.sleeps[0], value).toBeGreaterThanOrEqual(250);
        expect(r.sleeps[0], value).toBeLessThanOrEqual(500);
        server.requests.length = 0;
      }
    });

    it("an HTTP/1.0 answer without Content-Length on a connection still open at the timeout: exit 6, nothing written (was accepted, exit 0)", async () => {
      const body = `{"size":1,"per_page":10,"events":[{"id":1,${ENVELOPE},"type":"x.custom","metadata":{}}]}`;
      server.setScript(() => ({
        kind: "raw",
        hold: true,
        bytes: Buffer.from(`HTTP/1.0 200 OK\r\ncontent-type: application/json\r\nconnection: keep-alive\r\n\r\n${body}`),
      }));
      const r = await run([...ARGS, "--timeout", "0.5", "--no-retry"]);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toEqual([
        "mq: GET /v1/repos/acme/web/logs?per_page=10 timed out after 0.5 s (the request timeout)",
        "raise it with --timeout <seconds> or mq config set timeout <seconds>",
      ]);
      expect(r.code).toBe(6);
    });

    it("metadata nested 100,000 levels: exit 6, nothing written, no stack overflow", async () => {
      const deep = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);
      server.setScript(() => json(pageText([`{"id":1,${ENVELOPE},"type":"x.custom","metadata":${deep}}`])));
      for (const format of ["ndjson", "json", "csv", "table"]) {
        const r = await run(["logs", "--all", "-o", format]);
        expect(r.code, format).toBe(6);
        expect(lines(r.stderr), format).toEqual([
          "mq: GET /v1/repos/acme/web/logs?per_page=100 returned JSON nested deeper than 256 levels; mq does not read it",
          "the API's answers nest at most 10 levels; this one is broken or hostile",
        ]);
      }
    });

    it("a proxy variable that is not a URL: exit 2 before any request", async () => {
      for (const name of ["HTTP_PROXY", "https_proxy"]) {
        const r = await run(ARGS, { [name]: "not a url" });
        expect(r.code, name).toBe(2);
        expect(lines(r.stderr), name).toEqual([`mq: ${name} is not a proxy URL: "not a url"`, "set it to http://host:port (or unset it)"]);
      }
      expect(server.requests).toEqual([]);
    });

    it("a page over 64 MB: exit 6, and mq stops reading (a 600 MB page is not held in memory)", async () => {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      server.setScript(() => ({
        kind: "stream",
        chunks: function* () {
          yield '{"size":0,"per_page":10,"events":[';
          for (let i = 0; i < 600; i++) {
            sent += chunk.length;
            yield chunk;
          }
          yield "]}";
        },
      }));
      const r = await run(ARGS);
      expect(r.code).toBe(6);
      expect(lines(r.stderr)).toEqual([
        "mq: GET /v1/repos/acme/web/logs?per_page=10 returned more than 64 MiB; mq reads at most 64 MiB a response",
        "ask for smaller pages with --per-page",
      ]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sent).toBeLessThan(128 * 1024 * 1024);
    });

    it("an unparsable Link target: a message and exit 6, not a silent stop after page 1", async () => {
      const page1 = [queueChangeEvent(20), queueChangeEvent(19)];
      for (const link of [
        '<http://[::1/logs?cursor=2>; rel="next"',
        '</v1/repos/acme/web/logs?cursor=2; rel="next"',
        '/v1/repos/acme/web/logs?cursor=2; rel="next"',
      ]) {
        server.setScript(() => ({ status: 200, body: { size: 2, per_page: 10, events: page1 }, headers: { link } }));
        const r = await run(ARGS);
        expect(r.code, link).toBe(6);
        expect(lines(r.stdout)).toHaveLength(2);
        expect(lines(r.stderr), link).toEqual([
          `mq: the server's Link header has a next page mq cannot read: ${link}`,
          "mq stopped after 2 events (1 page); the rest cannot be fetched: report the header to the API provider",
        ]);
      }
    });
  });
}
