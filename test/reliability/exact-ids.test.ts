// Event ids are int64: beyond 2^53 JSON.parse rounds them, so 9007199254740993 and
// 9007199254740992 read as one number. mq keeps them exact from the wire to every output (ndjson,
// json, csv, --fields, several repositories at once) and never takes two distinct events for one
// (the pagination guard, --follow); an id outside int64 is a contract error (exit 6) naming the
// event, with the pages before it written whole and nothing of its own page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFaultServer, type FaultServer, type Reply } from "../helpers/fault-server.js";
import { lines, runMq } from "./harness.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => ({ status: 200, body: { size: 0, per_page: 10, events: [] } }));
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const run = (args: string[], repo = true) => runMq(args, { apiUrl: server.url, repo });
const ENVELOPE = `"received_at":"2026-11-20T11:00:00Z","trigger":"t","repository":"acme/web","pull_request":1,"base_ref":"main","type":"x.custom","metadata":{}`;
const event = (id: string) => `{"id":${id},${ENVELOPE}}`;

/** each page's event texts, with a next link between pages (a cursor per page) */
function pages(...texts: string[][]): (n: number, url: URL) => Reply {
  return (_n, url) => {
    const at = Number(url.searchParams.get("cursor") ?? 0);
    const events = texts[at] ?? [];
    const next = at + 1 < texts.length ? `${url.pathname}?cursor=${at + 1}` : undefined;
    return {
      status: 200,
      headers: { "content-type": "application/json", ...(next ? { link: `<${next}>; rel="next"` } : {}) },
      body: `{"size":${events.length},"per_page":10,"events":[${events.join(",")}]}`,
    };
  };
}

// distinct ids that JSON.parse reads as one number
const A = "9007199254740993";
const B = "9007199254740992";
const MAX = "9223372036854775807";

describe("ids beyond 2^53", () => {
  it("two distinct events on two pages, at the same instant, are both written, exactly (ndjson)", async () => {
    server.setScript(pages([event(A)], [event(B)]));
    const r = await run(["logs", "--all", "-o", "ndjson"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${event(A)}\n${event(B)}\n`);
  });

  it("json, csv and --fields keep the exact id, up to 2^63-1", async () => {
    server.setScript(pages([event(MAX), event(A)]));
    let r = await run(["logs", "--all", "-o", "json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`[\n${event(MAX)},\n${event(A)}\n]\n`);
    r = await run(["logs", "--all", "-o", "csv", "--fields", "id,type"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`id,type\r\n${MAX},x.custom\r\n${A},x.custom\r\n`);
    r = await run(["logs", "--all", "--fields", "id"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`{"id":${MAX}}\n{"id":${A}}\n`);
  });

  it("several repositories at once write each event's id as sent", async () => {
    server.setScript(pages([event(A)]));
    const r = await run(["--repo", "acme/web,acme/api", "logs", "--all", "-o", "ndjson"], false);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${event(A)}\n${event(A)}\n`);
  });
});

describe("an id outside the API's int64 range", () => {
  for (const [name, id] of [
    ["2^63", "9223372036854775808"],
    ["below -2^63", "-9223372036854775809"],
    ["1e19", "1e19"],
  ] as const) {
    it(`(${name}) is exit 6 naming the event; the page before it is written whole, nothing of its own`, async () => {
      server.setScript(pages([event("1"), event("2")], [event("3"), event(id)]));
      const r = await run(["logs", "--all", "-o", "ndjson"]);
      expect(r.code).toBe(6);
      expect(r.stdout).toBe(`${event("1")}\n${event("2")}\n`);
      expect(lines(r.stderr)[0]).toBe(
        `mq: the event with id ${id} has an id outside the API's range (a signed 64-bit integer, -2^63 to 2^63-1): its page was not written`,
      );
      expect(r.stderr).toContain("2 events were written before this.");
      expect(r.stderr).toContain("--cursor 1");
    });
  }

  it("is exit 6 in a table too", async () => {
    server.setScript(pages([event("9223372036854775808")]));
    const r = await run(["logs", "--all"]);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)[0]).toContain("the event with id 9223372036854775808 has an id outside the API's range");
  });
});
