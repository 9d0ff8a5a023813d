// `mq archive sync --parallel N` (several days at once, parallel time slices within a day) archives
// exactly what a sequential sync archives: the bundled server's log, in-process on loopback, synced
// both ways (e2e-sized: thousands of events, twice).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { apiFlags, archivedEvents, ARCHIVE_NOW, coverageRows, eventsFromApi, runMq, tempDataDir } from "../helpers/archive.js";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: ARCHIVE_NOW, seed: 5, days: 2 });
});
afterAll(async () => {
  await server.close();
});

describe("mq archive sync --parallel", () => {
  it("archives exactly what a sequential sync archives, and what the API serves, with slices within a day", async () => {
    // 28 hours: two one-day chunks
    const window = ["--repo", "acme/web", "--since", "2026-11-19T06:00:00Z", "--until", "2026-11-20T10:00:00Z"];
    const sequential = tempDataDir();
    const one = await runMq(["archive", "sync", ...apiFlags(server.url), ...window, "--parallel", "1"], { dataDir: sequential });
    expect(one.code, one.stderr).toBe(0);
    const parallel = tempDataDir();
    const before = server.requests.length;
    const many = await runMq(["archive", "sync", ...apiFlags(server.url), ...window, "--parallel", "8"], { dataDir: parallel });
    expect(many.code, many.stderr).toBe(0);

    const expected = await eventsFromApi(server.url, "2026-11-19T06:00:00Z", "2026-11-20T10:00:00Z");
    expect(expected.length).toBeGreaterThan(1000);
    const rows = await archivedEvents(parallel);
    expect(rows).toEqual(await archivedEvents(sequential));
    expect(rows.map(([, raw]) => JSON.parse(raw))).toEqual([...expected].reverse());
    // the same summary, but for the pages it took
    const summary = (r: { stderr: string }) => r.stderr.replace(/\([\d,]+ already there\)/, "(n already there)");
    expect(summary(many)).toBe(summary(one));
    expect(await coverageRows(parallel)).toEqual([["2026-11-19T06:00:00.000000Z", "2026-11-20T10:00:00.000000Z"]]);

    // slices: windows that start neither at the start of the sync nor a day after it
    const froms = server.requests.slice(before).map((q) => new URL(q.url, server.url).searchParams.get("received_from"));
    expect(froms.filter((f) => f !== null && f !== "2026-11-19T06:00:00.000Z" && f !== "2026-11-20T06:00:00.000Z").length).toBeGreaterThan(
      2,
    );
  }, 60_000);
});
