// `mq logs aggregate` keeps every field of the service's answer in every format: csv, ndjson and the
// table dropped `histogram` and `interval_size_seconds` (only -o json, the document as sent, had them).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultServer, type FaultServer } from "../../helpers/fault-server.js";
import { runMq } from "../../reliability/harness.js";

const BODY = {
  total: 5,
  interval_size_seconds: 1200,
  histogram: [
    { start: "2026-11-26T15:40:00.000Z", end: "2026-11-26T16:00:00.000Z", count: 2 },
    { start: "2026-11-26T16:00:00.000Z", end: "2026-11-26T16:20:00.000Z", count: 3 },
  ],
  by_event_type: [
    { value: "action.queue.merged", count: 3 },
    { value: "action.queue.leave", count: 2 },
  ],
  by_outcome: [{ value: "success", count: 5 }],
  by_trigger: [{ value: "Rule: \u001b]0;owned\u0007 a\u2028b\u200bc", count: 1 }],
  by_pull_request: [],
  by_batch_pull_request: [],
};

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => ({ status: 200, body: BODY }));
});
afterAll(() => server.close());

const run = (format: string) =>
  runMq(["--dialect", "mergify", "logs", "aggregate", "--since", "1d", "-o", format], { apiUrl: server.url, columns: 80 });

describe("mq logs aggregate keeps the histogram and its interval", () => {
  it("-o csv", async () => {
    const r = await run("csv");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "facet,value,count,start,end",
        "total,,5,,",
        "type,action.queue.merged,3,,",
        "type,action.queue.leave,2,,",
        "outcome,success,5,,",
        // data as sent in a pipe (the table escapes it)
        "trigger,Rule: \u001b]0;owned\u0007 a\u2028b\u200bc,1,,",
        "interval_size_seconds,1200,,,",
        "histogram,,2,2026-11-26T15:40:00.000Z,2026-11-26T16:00:00.000Z",
        "histogram,,3,2026-11-26T16:00:00.000Z,2026-11-26T16:20:00.000Z",
        "",
      ].join("\r\n"),
    );
  });

  it("-o ndjson", async () => {
    const r = await run("ndjson");
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").slice(-4)).toEqual([
      '{"facet":"interval_size_seconds","value":"1200"}',
      '{"facet":"histogram","value":"","count":2,"start":"2026-11-26T15:40:00.000Z","end":"2026-11-26T16:00:00.000Z"}',
      '{"facet":"histogram","value":"","count":3,"start":"2026-11-26T16:00:00.000Z","end":"2026-11-26T16:20:00.000Z"}',
      "",
    ]);
  });

  it("-o table: the histogram under the facets", async () => {
    const r = await run("table");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("acme/web: 5 events\n");
    const lines = r.stdout.split("\n").map((l) => l.trimEnd());
    expect(lines.slice(lines.indexOf(""))).toEqual([
      "",
      "histogram, interval_size_seconds 1200",
      "START                 END                   COUNT",
      "2026-11-26 15:40:00Z  2026-11-26 16:00:00Z      2",
      "2026-11-26 16:00:00Z  2026-11-26 16:20:00Z      3",
      "",
    ]);
  });

  it("-o table: server text through the one door for untrusted text (U+2028 and U+200B were printed raw)", async () => {
    const r = await run("table");
    expect(r.stdout).toContain("Rule: \\x1b]0;owned\\x07 a\\u2028b\\u200bc");
  });
});
