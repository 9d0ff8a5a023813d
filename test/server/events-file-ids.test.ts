// `mq serve --events` keeps event ids exact: the API's ids are int64 and JSON.parse rounds any beyond
// 2^53, so the server refused two distinct ids as duplicates (9007199254740993 and
// 9007199254740992 read as one number), served 2^63-1 as 9223372036854776000 and accepted an id
// outside int64. A replayed log is served as it was recorded, a page at a time through cursors
// that tell apart events at the same instant whose ids round alike.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { startServer } from "../../src/server/index.js";
import { runMq, tempDataDir } from "../helpers/archive.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const event = (id: string, second = 0) =>
  `{"id":${id},"received_at":"2026-11-20T10:00:${String(second).padStart(2, "0")}Z","trigger":"t","repository":"acme/web","pull_request":null,"base_ref":null,"type":"action.rebase","metadata":{}}`;

// distinct ids that JSON.parse reads as one number, the largest int64, and small ones
const A = "9007199254740993";
const B = "9007199254740992";
const C = "9007199254740994";
const MAX = "9223372036854775807";
const MIN = "-9223372036854775808";

function eventsFile(lines: string[]): string {
  const file = join(tempDir("mq-serve-ids-"), "log.ndjson");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const LOGS = ["--token", "t", "--repo", "acme/web", "logs", "--all", "-o", "ndjson", "--since", "2026-11-20T00:00:00Z"];

describe("mq serve --events keeps ids exact", () => {
  // newest first; at one instant the larger id first, as the API orders them
  const served = [event("7", 2), event(MAX, 1), event(C, 1), event(A, 1), event(B, 1), event("5", 1), event(MIN, 1), event("3", 0)];

  it("serves ids beyond 2^53 as written, distinct, a page of one event at a time", async () => {
    // the file in any order: the server orders by time, then id
    const file = eventsFile([served[3]!, served[7]!, served[1]!, served[4]!, served[0]!, served[6]!, served[2]!, served[5]!]);
    const server = await startServer({ eventsFile: file, now: NOW });
    try {
      for (const perPage of ["1", "2", "100"]) {
        const r = await runMq(["--api-url", server.url, ...LOGS, "--per-page", perPage]);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(`${served.join("\n")}\n`);
      }
    } finally {
      await server.close();
    }
  });

  it("in the real service's dialect too", async () => {
    const file = eventsFile([event(A, 1), event(B, 1), event(MAX, 1)]);
    const server = await startServer({ eventsFile: file, now: NOW, dialect: "mergify" });
    try {
      const r = await runMq(["--api-url", server.url, "--dialect", "mergify", ...LOGS, "--per-page", "1"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout.split("\n").map((line) => /^\{"id":(-?\d+),/.exec(line)?.[1])).toEqual([MAX, A, B, undefined]);
    } finally {
      await server.close();
    }
  });

  it("mq archive sync of a served log keeps every id, distinct", async () => {
    const file = eventsFile(served);
    const server = await startServer({ eventsFile: file, now: NOW });
    try {
      const dir = tempDataDir();
      const sync = await runMq(
        ["archive", "sync", "--api-url", server.url, "--token", "t", "--repo", "acme/web", "--since", "2026-11-20T00:00:00Z"],
        { dataDir: dir },
      );
      expect(sync.code, sync.stderr).toBe(0);
      const q = await runMq(["archive", "query", "SELECT CAST(id AS VARCHAR) AS id FROM events ORDER BY id", "-o", "csv"], {
        dataDir: dir,
      });
      expect(q.stdout).toBe(`id\r\n${[MIN, "3", "5", "7", B, A, C, MAX].map((id) => `${id}\r\n`).join("")}`);
    } finally {
      await server.close();
    }
  });

  it("refuses the same id twice, exactly, naming the line", async () => {
    const file = eventsFile([event(A, 1), event(B, 1), event(A, 2)]);
    await expect(startServer({ eventsFile: file, now: NOW })).rejects.toThrow(`${file}:3: duplicate event id ${A}`);
  });

  it.each([
    ["2^63", "9223372036854775808"],
    ["below -2^63", "-9223372036854775809"],
    ["1e19", "1e19"],
  ])("an id outside int64 (%s) is refused at start naming the line (exit 2)", async (_name, id) => {
    const file = eventsFile([event("1", 1), event(id, 2)]);
    // an already aborted signal: a server that did start would stop at once (exit 0)
    const controller = new AbortController();
    controller.abort();
    const ctx = testContext({ signal: controller.signal });
    expect(await main(["serve", "--events", file], ctx)).toBe(2);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toBe(
      `mq: --events: ${file}:2: not an event: id ${id} is outside the API's range (a signed 64-bit integer, -2^63 to 2^63-1)\n`,
    );
  });
});
