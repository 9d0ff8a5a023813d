// The archive covers exactly what a sync read (issue 28, item 9): without --until up to the
// settling delay before now (five minutes), with --until up to it; and a read that finds a part not
// covered prints the sync that covers it (it said `mq archive sync`, which never covered the last
// minutes of a window ending now).
import { describe, expect, it } from "vitest";
import { archivedEvents, ARCHIVE_NOW, archiveApiServer, coverageRows, runMq, tempDataDir } from "../helpers/archive.js";

const { url, api } = archiveApiServer();
const REPO = "acme/web";

describe("mq archive sync covers what it read", () => {
  it("without --until: up to five minutes before now, and no event after it", async () => {
    const dir = tempDataDir();
    const r = await runMq(["archive", "sync", REPO, "--since", "2026-11-20T11:00:00Z", ...api(), "-o", "json"], { dataDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ from: "2026-11-20T11:00:00.000Z", to: "2026-11-20T11:55:00.000Z" }]);
    expect(await coverageRows(dir)).toEqual([["2026-11-20T11:00:00.000000Z", "2026-11-20T11:55:00.000000Z"]]);
    const events = await archivedEvents(dir);
    expect(events.length).toBeGreaterThan(10);
    const last = JSON.parse(events[events.length - 1]![1]) as { received_at: string };
    expect(Date.parse(last.received_at)).toBeLessThanOrEqual(ARCHIVE_NOW.getTime() - 5 * 60_000);
  });

  it("with --until: up to it, the last minutes included", async () => {
    const dir = tempDataDir();
    const r = await runMq(["archive", "sync", REPO, "--since", "2026-11-20T11:30:00Z", "--until", "2026-11-20T12:00:00Z", ...api()], {
      dataDir: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await coverageRows(dir)).toEqual([["2026-11-20T11:30:00.000000Z", "2026-11-20T12:00:00.000000Z"]]);
  });

  it("a read that finds the tail not covered prints the sync that covers it; run, the read is covered", async () => {
    const dir = tempDataDir();
    expect((await runMq(["archive", "sync", REPO, "--since", "2026-11-20T11:00:00Z", ...api()], { dataDir: dir })).code).toBe(0);
    const read = ["logs", "--archive", "--repo", REPO, "--since", "2026-11-20T11:00:00Z", "--all", "-o", "ndjson", ...api()];
    const before = await runMq(read, { dataDir: dir });
    expect(before.code, before.stderr).toBe(0);
    const hint = `mq --api-url ${url()} archive sync ${REPO} --since 2026-11-20T11:55:00Z --until 2026-11-20T12:00:00Z`;
    expect(before.stderr).toBe(
      `mq: warning: the archive does not cover 2026-11-20 11:55:00Z to 2026-11-20 12:00:00Z for ${REPO}: events there are missing below (${hint} fetches them).\n`,
    );
    const sync = await runMq([...hint.split(" ").slice(1), "--token", api()[3]!], { dataDir: dir });
    expect(sync.code, sync.stderr).toBe(0);
    const after = await runMq(read, { dataDir: dir });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toBe("");
    expect(after.stdout.split("\n").length).toBeGreaterThan(before.stdout.split("\n").length);
  });
});
