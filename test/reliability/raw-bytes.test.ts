// -o ndjson copies each event's bytes from an ASCII response straight to stdout, and csv reads an
// event's members from one walk of it (api/raw-json.ts). Both must write exactly what the text path
// writes. The same page is served twice: as ASCII bytes (the fast path) and with a byte order mark
// in front (the bytes are no longer the text one for one: the text path); the output must not
// differ by a byte, for hostile events (every class of control and invisible character, escaped
// keys, duplicate keys, unexpected fields, a 1 MB string, numbers JSON.parse rewrites), in both
// dialects. A page that is not UTF-8 goes the text path, with U+FFFD, as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultServer, type FaultServer, type Reply } from "../helpers/fault-server.js";
import { hostileEvents } from "../helpers/hostile-server.js";
import { runMq } from "./harness.js";
import { compactJson, memberOf, memberSpans, memberTable, scanJson } from "../../src/api/json-scan.js";
import { attachElementTexts, rawJsonLines } from "../../src/api/raw-json.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => ({ status: 200, body: { size: 0, per_page: 1, events: [] } }));
});
afterAll(() => server.close());

/** JSON with every character outside ASCII as a \u escape: the same value, ASCII bytes. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const ENVELOPE = `"received_at":"2026-11-20T11:00:00Z","trigger":"t","repository":"acme/web","pull_request":1,"base_ref":"main"`;

/** Event texts as a server may write them: hostile values, and spellings JSON.parse does not keep. */
function eventTexts(): string[] {
  const hostile = hostileEvents().map(asciiJson);
  return [
    ...hostile,
    `{"id":9223372036854775807,${ENVELOPE},"type":"x.custom","metadata":{"big":123456789012345678901234567890,"f":1.0,"e":1e2,"s":"caf\\u00e9\\/"}}`,
    // an escaped key, and a duplicate: JSON.parse takes the last
    `{"\\u0069d":7,"id":8,${ENVELOPE},"type":"x.custom","metadata":{"a":1},"metadata":{"b":-0.0}}`,
    // unexpected fields, before and after the envelope; pull_request as 1.0
    `{"zz":[1,{"id":2}],"id":9,"received_at":"2026-11-20T11:00:00Z","trigger":"t","repository":"acme/web","pull_request":1.0,"base_ref":null,"outcome":"=cmd|' /C calc'!A0","type":"x.custom","metadata":{"x":"${"a".repeat(1 << 20)}"},"extra":{"metadata":1}}`,
  ];
}

/** A 200 answer with exactly these bytes as its body. */
const bytesReply = (body: Buffer): Reply => ({ kind: "stream", chunks: () => [body] });

async function outputs(body: string, args: string[]) {
  const ascii = Buffer.from(body, "latin1");
  expect(ascii.every((b) => b < 0x80)).toBe(true);
  const results = [];
  for (const bytes of [ascii, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), ascii])]) {
    server.setScript(() => bytesReply(bytes));
    results.push(await runMq(["logs", "--all", "--per-page", "100", ...args], { apiUrl: server.url }));
  }
  return results;
}

describe("the byte path writes what the text path writes", () => {
  const texts = eventTexts();
  const compact = `{"size":${texts.length},"per_page":100,"events":[${texts.join(",")}]}`;

  for (const dialect of ["spec", "mergify"]) {
    for (const format of ["ndjson", "csv", "json"]) {
      it(`-o ${format}, --dialect ${dialect}`, async () => {
        const [fast, text] = await outputs(compact, ["-o", format, "--dialect", dialect]);
        expect(fast!.code).toBe(text!.code);
        expect(fast!.stderr).toBe(text!.stderr);
        expect(fast!.stdout).toBe(text!.stdout);
        if (format === "ndjson") {
          // each event exactly as sent, whatever the dialect thinks of it
          expect(fast!.stdout).toBe(texts.map((t) => t + "\n").join(""));
        }
      });
    }
  }

  it("csv cells and --fields read each member as the walk of the event before them did (memberSpans)", () => {
    for (const t of texts) {
      const span = { start: 0, end: t.length, spaced: false };
      const walked = memberSpans(t, span);
      const table = memberTable(t, span);
      for (const key of [...walked.keys(), "id", "pull_request", "metadata", "outcome", "missing"]) {
        const found = memberOf(t, table, key);
        const expected = walked.get(key);
        if (found === false) expect(t).toContain("\\u0069d");
        else expect(found && compactJson(t, found)).toBe(expected && compactJson(t, expected));
      }
    }
  });

  it("csv without the guard, and --fields", async () => {
    for (const args of [
      ["-o", "csv", "--no-csv-guard"],
      ["--fields", "metadata,id,outcome,pull_request"],
      ["-o", "csv", "--fields", "pull_request,metadata"],
    ]) {
      const [fast, text] = await outputs(compact, args);
      expect(fast!.code).toBe(0);
      expect(fast!.stdout).toBe(text!.stdout);
    }
  });

  it("a page copied in one piece (events one after another) gives the bytes of a copy an event", () => {
    // white space after a comma (a server's own layout): not adjacent, copied one by one (before a
    // comma it marks the event spaced: the text path)
    for (const sep of [",", ", ", ",\n\t"]) {
      const body = `{"size":${texts.length},"per_page":100,"events":[${texts.join(sep)}]}`;
      const events = (JSON.parse(body) as { events: object[] }).events;
      const ascii = Buffer.from(body, "latin1");
      attachElementTexts(events, { text: body, rootArrays: scanJson(body).rootArrays, ascii }, "events");
      const expected = (list: number[]) => list.map((i) => texts[i] + "\n").join("");
      const all = texts.map((_, i) => i);
      // the whole page, a run of it, its events reversed or with one left out (slices dedupe by id)
      for (const picked of [all, all.slice(2, 5), [...all].reverse(), all.filter((i) => i !== 3), [4]]) {
        expect(rawJsonLines(picked.map((i) => events[i]))?.toString("latin1")).toBe(expected(picked));
      }
      expect(rawJsonLines([])?.length).toBe(0);
    }
  });

  it("a page with one pretty-printed event goes the text path whole, one event a line", async () => {
    const pretty = texts.slice(0, 3).concat(JSON.stringify(JSON.parse(texts[3]!), null, 2));
    const [fast, text] = await outputs(`{"size":4,"per_page":100,"events":[${pretty.join(",")}]}`, ["-o", "ndjson"]);
    expect(fast!.stdout).toBe(text!.stdout);
    expect(fast!.stdout.split("\n")).toHaveLength(5);
  });

  it("a page that is not UTF-8: the text path, U+FFFD and a warning", async () => {
    const body = Buffer.concat([
      Buffer.from(`{"size":1,"per_page":100,"events":[{"id":1,${ENVELOPE},"type":"x.custom","metadata":{"s":"a`),
      Buffer.from([0xff, 0xc3]),
      Buffer.from(`b"}}]}`),
    ]);
    server.setScript(() => bytesReply(body));
    const r = await runMq(["logs", "--all", "-o", "ndjson"], { apiUrl: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`{"id":1,${ENVELOPE},"type":"x.custom","metadata":{"s":"a\uFFFD\uFFFDb"}}\n`);
    expect(r.stderr).toMatch(/not UTF-8/);
  });
});
