// `mq archive sync` commits whole pages in batches, and a day's coverage in the same transaction as
// the rows it still lacked (src/archive/sync-batch.ts). A crash at ANY statement of a sync leaves
// covered only what the archive holds whole, and the next sync completes it: every event of the
// server's log once, as sent. And after a commit that failed (a full disk), no later commit of the
// run records a day whose rows went with it. In-process, real HTTP on loopback: a server holding a
// small log of two days, pages of 3 events, batches of at least 5 (the killed real processes:
// sigkill.e2e.test.ts). End-to-end-sized, not end-to-end: some 40 syncs, 3 CPU-s, run once in CI
// rather than in each fast run.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Archive, openArchive } from "../../src/archive/db.js";
import { syncRepository } from "../../src/archive/sync.js";
import { SyncBatch } from "../../src/archive/sync-batch.js";
import { type FaultServer, queueChangeEvent, startFaultServer } from "../helpers/fault-server.js";
import { ARCHIVE_NOW, tempDataDir, testTransport } from "../helpers/archive.js";

const SINCE = "2026-11-18T12:00:00.000Z";
const UNTIL = "2026-11-20T11:55:00.000Z";
const PAGE = 3;
/**
 * The server's whole log, newest first: 8 events on the window's second day (3 pages), 5 on its
 * first (2 pages), and one each side of the window. With batches of 5 events, read page after
 * page, the first day's two pages are committed together and its coverage after them, alone; the
 * second day's first two pages together, and its last page with its coverage.
 */
const LOG = [
  queueChangeEvent(930, "2026-11-20T11:58:00.000Z"),
  ...Array.from({ length: 8 }, (_, i) => queueChangeEvent(920 - i, new Date(Date.parse(UNTIL) - (i + 1) * 2 * 3_600_000).toISOString())),
  ...Array.from({ length: 5 }, (_, i) =>
    queueChangeEvent(910 - i, new Date(Date.parse("2026-11-19T11:00:00Z") - i * 4 * 3_600_000).toISOString()),
  ),
  queueChangeEvent(900, "2026-11-18T11:00:00.000Z"),
];
// the text the archive must hold of each event, as the server sends it
const TEXT = new Map(LOG.map((e) => [e.id, JSON.stringify(e)]));
const inWindow = (e: { received_at: string }) => e.received_at >= SINCE && e.received_at <= UNTIL;

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer((_n, url) => {
    const from = url.searchParams.get("received_from") ?? "";
    const to = url.searchParams.get("received_to") ?? "9";
    const at = Number(url.searchParams.get("cursor") ?? 0);
    const events = LOG.filter((e) => e.received_at >= from && e.received_at <= to);
    const page = events.slice(at, at + PAGE);
    const next = new URL(url.pathname, server.url);
    next.search = new URLSearchParams({ received_from: from, received_to: to, cursor: String(at + PAGE) }).toString();
    const body = `{"size":${page.length},"per_page":${PAGE},"events":[${page.map((e) => TEXT.get(e.id)).join(",")}]}`;
    return {
      headers: { "content-type": "application/json", ...(at + PAGE < events.length ? { link: `<${next.href}>; rel="next"` } : {}) },
      body,
    };
  });
});
afterAll(() => server.close());

/**
 * The archive as a process that dies at its `crashAt`-th statement sees it: that statement and
 * every later one fail, and what was not committed is gone when the file is closed (no ROLLBACK
 * runs). With `failOnce`, only that statement fails (a full disk that frees up) and the run goes on.
 */
function faultyArchive(inner: Archive, crashAt: number, mode: "crash" | "failOnce"): Archive & { statements: () => number } {
  let n = 0;
  let dead = false;
  const step = (sql: string) => {
    n++;
    if (dead || n === crashAt) {
      if (mode === "crash") dead = true;
      throw new Error(`fault at statement ${n}: ${sql.slice(0, 40)}`);
    }
  };
  const archive: Archive & { statements: () => number } = {
    path: inner.path,
    readOnly: inner.readOnly,
    conn: inner.conn,
    statements: () => n,
    async run(sql, values) {
      step(sql);
      return inner.run(sql, values);
    },
    async all(sql, values) {
      step(sql);
      return inner.all(sql, values);
    },
    async transaction(fn) {
      await archive.run("BEGIN TRANSACTION");
      try {
        const out = await fn();
        await archive.run("COMMIT");
        return out;
      } catch (err) {
        if (!dead) await inner.conn.run("ROLLBACK").catch(() => undefined);
        throw err;
      }
    },
    close: () => inner.close(),
  };
  return archive;
}

async function sync(archive: Archive, parallel = 1) {
  const { client, close } = testTransport(server.url);
  try {
    return await syncRepository(archive, {
      repository: "acme/web",
      client,
      apiUrl: "test",
      clock: () => ARCHIVE_NOW,
      since: new Date(SINCE),
      strict: false,
      parallel,
      batch: { events: 2 * PAGE - 1, ms: Number.POSITIVE_INFINITY },
      signal: new AbortController().signal,
      warn: () => undefined,
    });
  } finally {
    await close();
  }
}

/** What the archive holds: events (id and text), how many ranges it covers, and the events of the log in them that it lacks. */
async function look(archive: Archive): Promise<{ events: Array<[number, string]>; coveredButMissing: number[]; covered: number }> {
  const events = (await archive.all("SELECT id, raw FROM events ORDER BY id DESC")).map((r): [number, string] => [
    Number(r.id),
    String(r.raw),
  ]);
  const ranges = await archive.all(
    "SELECT strftime(range_from, '%Y-%m-%dT%H:%M:%S.%gZ') AS f, strftime(range_to, '%Y-%m-%dT%H:%M:%S.%gZ') AS t FROM coverage",
  );
  const held = new Set(events.map(([id]) => id));
  const coveredButMissing = LOG.filter(
    (e) => ranges.some((r) => e.received_at >= String(r.f) && e.received_at <= String(r.t)) && !held.has(e.id),
  ).map((e) => e.id);
  return { events, coveredButMissing, covered: ranges.length };
}

const WHOLE = LOG.filter(inWindow).map((e): [number, string] => [e.id, TEXT.get(e.id)!]);

describe("mq archive sync's batches", () => {
  it("a crash at any statement leaves covered only days the archive holds whole; the next sync completes it, each event once", async () => {
    // one archive for every crash: a crash is the statement failing, every later one too, and what
    // it had not committed rolled back (what DuckDB's log gives a process killed there: the e2e
    // test kills real ones); the tables are emptied between crashes
    const archive = await openArchive(join(tempDataDir(), "archive.duckdb"), { create: true });
    const empty = async () => {
      for (const table of ["events", "coverage", "syncs"]) await archive.run(`DELETE FROM ${table}`);
    };
    try {
      // the uncrashed run: the whole window, in several batches, and its statements
      const counting = faultyArchive(archive, 0, "crash");
      expect(await sync(counting)).toMatchObject({ added: 13, pages: 5 });
      expect(await look(archive)).toEqual({ events: WHOLE, coveredButMissing: [], covered: 1 });
      const statements = counting.statements();
      expect(statements).toBeGreaterThan(25);

      /** committed states seen after a crash, by events held and ranges covered: each is resumed once */
      const states = new Set<string>();
      for (let crashAt = 1; crashAt <= statements; crashAt++) {
        await empty();
        await expect(sync(faultyArchive(archive, crashAt, "crash")), `crash at ${crashAt}`).rejects.toThrow(
          `fault at statement ${crashAt}`,
        );
        await archive.conn.run("ROLLBACK").catch(() => undefined);
        const after = await look(archive);
        expect(after.coveredButMissing, `crash at ${crashAt}`).toEqual([]);
        const state = `${after.events.length} events, ${after.covered} covered`;
        if (states.has(state)) continue;
        states.add(state);
        await sync(archive, crashAt % 2 === 0 ? 1 : 3);
        expect(await look(archive), `resumed after a crash at ${crashAt}`).toEqual({ events: WHOLE, coveredButMissing: [], covered: 1 });
      }
      // the crashes fell before anything was written, between a day's rows and its coverage (the
      // first day's; the second's are committed together), between the days, before the end's
      // folding of the coverage and after it
      expect([...states]).toEqual([
        "0 events, 0 covered",
        "5 events, 0 covered",
        "5 events, 1 covered",
        "11 events, 1 covered",
        "13 events, 2 covered",
        "13 events, 1 covered",
      ]);
    } finally {
      archive.close();
    }
  });

  it("after a commit that failed, a later commit of the run records no day: its rows went with the failed one", async () => {
    const dir = tempDataDir();
    const archive = await openArchive(join(dir, "archive.duckdb"), { create: true });
    try {
      // the statements of a commit: (after the staging table) BEGIN, DELETE FROM staging, INSERT OR IGNORE: it fails, once
      const faulty = faultyArchive(archive, 4, "failOnce");
      const batch = await SyncBatch.open(faulty, { repo: "acme/web", dialect: "spec", archivedAt: ARCHIVE_NOW, syncId: 1 });
      const day = LOG.filter(inWindow).slice(0, 3);
      batch.add(day.map((e) => ({ row: e, raw: TEXT.get(e.id)!, id: BigInt(e.id) })));
      const first = batch.commit();
      // the day's last page was handed over before the commit ended: its coverage waits for the next
      batch.cover({ from: Date.parse(SINCE), to: Date.parse(UNTIL) });
      await expect(first).rejects.toThrow("fault at statement 4");
      await expect(batch.commit()).rejects.toThrow("fault at statement 4");
      expect(faulty.statements()).toBe(4);
      expect(await look(archive)).toEqual({ events: [], coveredButMissing: [], covered: 0 });
    } finally {
      archive.close();
    }
  });
});
