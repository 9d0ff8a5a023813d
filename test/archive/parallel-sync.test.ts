// `mq archive sync --parallel N` keeps the guarantees of a sequential sync: coverage is recorded in
// order, so that an interruption leaves a covered prefix of the window (never a hole the next run
// would skip). Fast, in-process, real HTTP on loopback (a sequential and a parallel sync of the
// bundled server's log compared: parallel-sync.e2e.test.ts).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openArchive } from "../../src/archive/db.js";
import { syncRepository, type SyncProgress } from "../../src/archive/sync.js";
import { HttpError } from "../../src/errors.js";
import { startFaultServer } from "../helpers/fault-server.js";
import { archivedEvents, ARCHIVE_NOW, coverageRows, tempDataDir, testTransport } from "../helpers/archive.js";

describe("mq archive sync --parallel", () => {
  it("a later day finished before an earlier one failed is archived but not recorded as covered; the next run asks for it again", async () => {
    const event = (id: number, at: string) =>
      `{"id":${id},"received_at":"${at}","trigger":"t","repository":"acme/web","pull_request":1,"base_ref":"main","type":"action.label","metadata":{}}`;
    const page = (events: string[], next?: string) => ({
      headers: { "content-type": "application/json", ...(next ? { link: `<${next}>; rel="next"` } : {}) },
      body: `{"size":${events.length},"per_page":100,"events":[${events.join(",")}]}`,
    });
    const older = [event(4, "2026-11-19T10:00:00Z"), event(3, "2026-11-19T08:00:00Z")];
    const newer = [event(2, "2026-11-20T08:00:00Z"), event(1, "2026-11-19T14:00:00Z")];
    let bothHeadsWritten!: () => void;
    const written = new Promise<void>((r) => (bothHeadsWritten = r));
    const fault = await startFaultServer(async (_n, url) => {
      const from = url.searchParams.get("received_from");
      const to = url.searchParams.get("received_to");
      if (from === "2026-11-19T12:00:00.000Z" && to === "2026-11-20T11:55:00.000Z") return page(newer);
      if (from === "2026-11-18T12:00:00.000Z" && to === "2026-11-19T12:00:00.000Z" && !url.searchParams.has("cursor")) {
        return page(older, `${fault.url}/v1/repos/acme/web/logs?cursor=c2`);
      }
      // the rest of the older day fails, once the newer day is in
      await written;
      return { status: 500, headers: { "content-type": "application/json" }, body: { message: "boom" } };
    });
    const dir = tempDataDir();
    const path = join(dir, "archive.duckdb");
    const { client, close } = testTransport(fault.url);
    const sync = async (onProgress?: (p: SyncProgress) => void) => {
      const archive = await openArchive(path, { create: true });
      try {
        return await syncRepository(archive, {
          repository: "acme/web",
          client,
          apiUrl: "test",
          clock: () => ARCHIVE_NOW,
          since: new Date("2026-11-18T12:00:00Z"),
          strict: false,
          parallel: 4,
          signal: new AbortController().signal,
          onProgress,
          warn: () => undefined,
        });
      } finally {
        archive.close();
      }
    };
    try {
      await expect(
        sync((p) => {
          if (p.pages >= 2) bothHeadsWritten();
        }),
      ).rejects.toBeInstanceOf(HttpError);
      // the newer day is whole in the archive, the older day in part: nothing is covered
      expect((await archivedEvents(dir)).map(([id]) => id)).toEqual([3, 4, 1, 2]);
      expect(await coverageRows(dir)).toEqual([]);

      // the server mended: the next run asks for both days again and covers the window
      fault.setScript((_n, url) => {
        const from = url.searchParams.get("received_from");
        if (from === "2026-11-18T12:00:00.000Z") return page(older);
        if (from === "2026-11-19T12:00:00.000Z") return page(newer);
        return page([]);
      });
      const asked = fault.requests.length;
      const result = await sync();
      expect(
        fault.requests
          .slice(asked)
          .map((q) => new URL(q.url, fault.url).searchParams.get("received_from"))
          .sort(),
      ).toEqual(["2026-11-18T12:00:00.000Z", "2026-11-19T12:00:00.000Z"]);
      expect(result).toMatchObject({ added: 0, duplicates: 4, total: 4 });
      expect((await archivedEvents(dir)).map(([id]) => id)).toEqual([3, 4, 1, 2]);
      expect(await coverageRows(dir)).toEqual([["2026-11-18T12:00:00.000000Z", "2026-11-20T11:55:00.000000Z"]]);
    } finally {
      await close();
      await fault.close();
    }
  }, 30_000);
});
