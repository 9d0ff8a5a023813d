// A sync's record in the archive takes both its times from the injected clock: the start fixes the
// window, the end stamps `syncs.finished_at`. `mq archive status` prints the latter, so a pinned
// clock gives a screen that is the same on every run.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openArchive } from "../../src/archive/db.js";
import { syncRepository } from "../../src/archive/sync.js";
import { startFaultServer } from "../helpers/fault-server.js";
import { ARCHIVE_NOW, tempDataDir, testTransport } from "../helpers/archive.js";

describe("mq archive sync's record", () => {
  it("stamps started_at with the clock at the start and finished_at with the clock at the end", async () => {
    const event = `{"id":1,"received_at":"2026-11-20T08:00:00Z","trigger":"t","repository":"acme/web","pull_request":1,"base_ref":"main","type":"action.label","metadata":{}}`;
    const fault = await startFaultServer(async () => ({
      headers: { "content-type": "application/json" },
      body: `{"size":1,"per_page":100,"events":[${event}]}`,
    }));
    const finished = new Date(ARCHIVE_NOW.getTime() + 90_000);
    const readings = [ARCHIVE_NOW, finished];
    const dir = tempDataDir();
    const { client, close } = testTransport(fault.url);
    const archive = await openArchive(join(dir, "archive.duckdb"), { create: true });
    try {
      await syncRepository(archive, {
        repository: "acme/web",
        client,
        apiUrl: "test",
        clock: () => readings.shift() ?? finished,
        since: new Date("2026-11-19T12:00:00Z"),
        strict: false,
        signal: new AbortController().signal,
        warn: () => undefined,
      });
      const rows = await archive.all(
        "SELECT strftime(started_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS s, strftime(finished_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS f, added, complete FROM syncs",
      );
      expect(rows.map((r) => [r.s, r.f, Number(r.added), r.complete])).toEqual([["2026-11-20T12:00:00Z", "2026-11-20T12:01:30Z", 1, true]]);
    } finally {
      archive.close();
      await close();
      await fault.close();
    }
  });
});
