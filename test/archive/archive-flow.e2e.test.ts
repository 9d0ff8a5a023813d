// `mq archive sync/status/query/export` and `mq logs --archive`, in-process against the bundled
// server on loopback (fixed clock and seed): whole syncs of thousands of events, so e2e-sized.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { openArchive } from "../../src/archive/db.js";
import { readArchivedEvents } from "../../src/archive/reader.js";
import { startFaultServer } from "../helpers/fault-server.js";
import { testContext } from "../helpers/context.js";
import { archivedEvents, ARCHIVE_NOW, archiveApiServer, runMq, tempDataDir } from "../helpers/archive.js";

const NOW = ARCHIVE_NOW;
const SINCE = "2026-11-19T18:00:00Z";
const { url: apiUrl, api, fromApi } = archiveApiServer();
const tempDir = () => tempDataDir();
const mq = runMq;
const archived = archivedEvents;

describe("mq archive sync", () => {
  let dir: string;
  let first: Awaited<ReturnType<typeof mq>>;
  beforeAll(async () => {
    dir = tempDir();
    first = await mq(["archive", "sync", ...api(), "--repo", "acme/web", "--since", SINCE, "-o", "ndjson"], { dataDir: dir });
  }, 60_000);

  it("archives every event of the window once and says what it added", async () => {
    expect(first.code, first.stderr).toBe(0);
    // a sync without --until reads and covers up to five settling minutes before now
    const expected = await fromApi(SINCE, "2026-11-20T11:55:00Z");
    const rows = await archived(dir);
    expect(rows.map(([id]) => id).sort((a, b) => a - b)).toEqual(expected.map((e) => e.id as number).sort((a, b) => a - b));
    expect(rows.map(([, raw]) => JSON.parse(raw))).toEqual([...expected].reverse());
    const summary = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(summary).toEqual({
      repository: "acme/web",
      added: expected.length,
      already_archived: summary.already_archived,
      pages: summary.pages,
      from: "2026-11-19T18:00:00.000Z",
      to: "2026-11-20T11:55:00.000Z",
      total: expected.length,
    });
    expect(first.stderr).toContain(
      `acme/web: ${expected.length.toLocaleString("en-US")} new events archived from 2026-11-19T18:00:00.000Z to 2026-11-20T11:55:00.000Z`,
    );
    // not a terminal: no progress frames, only the summary line
    expect(first.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("shows progress (day, counts) on a terminal's stderr, and only there", async () => {
    const ctx = testContext({ now: () => NOW, tty: true, env: { MQ_DATA_DIR: tempDir() } });
    expect(await main(["archive", "sync", ...api(), "--repo", "acme/web", "--since", "2026-11-20T00:00:00Z", "-o", "ndjson"], ctx)).toBe(0);
    expect(ctx.stderrText()).toMatch(/acme\/web: [01] of 1 day done, [\d,]+ events read, [\d,]+ new/);
    expect(ctx.stdoutText()).not.toMatch(/events read/);
  });

  it("a second run adds nothing and asks only for what is not covered", async () => {
    const later = new Date(NOW.getTime() + 3_600_000);
    const again = await mq(["archive", "sync", ...api(), "--repo", "acme/web", "-o", "json"], { dataDir: dir, now: later });
    expect(again.code, again.stderr).toBe(0);
    const [summary] = JSON.parse(again.stdout) as Array<Record<string, unknown>>;
    // only the events the first run did not read: after its end, five settling minutes before its now
    expect(summary!.added).toBe((await fromApi("2026-11-20T11:55:00.001Z", "2026-11-20T12:00:00Z")).length);
    expect(summary!.from).toBe("2026-11-20T11:55:00.000Z");
    expect(summary!.to).toBe("2026-11-20T12:55:00.000Z");
  });

  it("status lists the repository, its counts, window and last sync", async () => {
    const r = await mq(["archive", "status", "-o", "json"], { dataDir: dir });
    expect(r.code, r.stderr).toBe(0);
    const [row] = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const rows = await archived(dir);
    expect(row).toMatchObject({
      repository: "acme/web",
      events: rows.length,
      covered_from: "2026-11-19T18:00:00.000Z",
      covered_to: "2026-11-20T12:55:00.000Z",
      last_sync_complete: true,
      gaps: [],
    });
    expect(String(row!.first_event)).toMatch(/^2026-11-19T\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(r.stderr).toMatch(new RegExp(`^Archive ${dir}/archive.duckdb: [\\d.]+ (KiB|MiB), schema version 3, 1 repository\\.\\n$`));
  });

  it("query prints rows in every format", async () => {
    const sql = "SELECT type, count(*) AS n FROM events WHERE type LIKE 'action.queue.%' GROUP BY type ORDER BY n DESC, type LIMIT 3";
    const json = await mq(["archive", "query", sql, "-o", "json"], { dataDir: dir });
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<{ type: string; n: number }>;
    expect(rows).toHaveLength(3);
    expect(typeof rows[0]!.n).toBe("number");
    const ndjson = await mq(["archive", "query", sql, "-o", "ndjson"], { dataDir: dir });
    expect(ndjson.stdout).toBe(rows.map((r) => JSON.stringify(r) + "\n").join(""));
    const csv = await mq(["archive", "query", sql, "-o", "csv"], { dataDir: dir });
    expect(csv.stdout).toBe(`type,n\r\n${rows.map((r) => `${r.type},${r.n}\r\n`).join("")}`);
    const table = await mq(["archive", "query", sql, "-o", "table"], { dataDir: dir });
    expect(table.stdout.split("\n")[0]).toMatch(/^TYPE\s+N$/);
    expect(table.stdout.trimEnd().split("\n")).toHaveLength(4);
  });

  it("query cannot change the archive, and bad SQL is one clear line with exit 2", async () => {
    const del = await mq(["archive", "query", "DELETE FROM events"], { dataDir: dir });
    expect(del.code).toBe(2);
    expect(del.stderr).toMatch(/^mq: mq archive query runs one read-only SELECT over the archive: DELETE statements are refused\./m);
    const bad = await mq(["archive", "query", "SELEC 1"], { dataDir: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mq: could not run the query: Parser Error/);
    const empty = await mq(["archive", "query", " "], { dataDir: dir });
    expect(empty.code).toBe(2);
  });

  it("runs docs/archive.md's example queries on the synced data", async () => {
    const { readFileSync } = await import("node:fs");
    const page = readFileSync(new URL("../../docs/archive.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("# Archive: `mq archive`"));
    const queries = [...section.matchAll(/^mq archive query "([^"]+)"/gm)].map((m) => m[1]!);
    expect(queries.length).toBeGreaterThanOrEqual(3);
    for (const sql of queries) {
      const r = await mq(["archive", "query", sql, "-o", "json"], { dataDir: dir });
      expect(r.code, `${sql}\n${r.stderr}`).toBe(0);
      expect((JSON.parse(r.stdout) as unknown[]).length, sql).toBeGreaterThan(0);
    }
  });

  it("logs --archive prints what logs prints from the API, for the same window and filters", async () => {
    for (const filters of [[], ["--type", "action.queue.*"], ["--pr", "4"], ["--base-ref", "main", "--limit", "7"]]) {
      const window = ["--repo", "acme/web", "--since", "2026-11-19T20:00:00Z", "--until", "2026-11-20T06:00:00Z", "-o", "ndjson"];
      const all = filters.includes("--limit") ? [] : ["--all"];
      const fromArchive = await mq(["logs", "--archive", ...window, ...all, ...filters], { dataDir: dir });
      const live = await mq(["logs", ...api(), ...window, ...all, ...filters]);
      expect(fromArchive.code, fromArchive.stderr).toBe(0);
      expect(fromArchive.stderr).toBe("");
      expect(fromArchive.stdout).toBe(live.stdout);
    }
  });

  it("logs --archive warns about the parts of the window the archive lacks", async () => {
    const r = await mq(
      [
        "logs",
        "--archive",
        "--repo",
        "acme/web",
        "--since",
        "2026-11-18T00:00:00Z",
        "--until",
        "2026-11-19T19:00:00Z",
        "--all",
        "-o",
        "ndjson",
      ],
      { dataDir: dir },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "mq: warning: the archive does not cover 2026-11-18 00:00:00Z to 2026-11-19 18:00:00Z for acme/web: events there are missing below (mq archive sync acme/web --since 2026-11-18T00:00:00Z --until 2026-11-19T18:00:00Z fetches them).\n",
    );
  });

  it("export --parquet writes Hive partitions that DuckDB reads back equal to the archive", async () => {
    const out = join(tempDir(), "parquet");
    const r = await mq(["archive", "export", "--parquet", out], { dataDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(["_mq_export.json", "repository=acme%2Fweb"]);
    expect(readdirSync(join(out, "repository=acme%2Fweb"))).toEqual(["date=2026-11-19", "date=2026-11-20"]);
    expect(r.stderr).toMatch(/^Exported [\d,]+ events into 2 partitions under /);
    const archive = await openArchive(join(dir, "archive.duckdb"), { readOnly: true });
    try {
      const cols = `id, received_at, type, pull_request, base_ref, "trigger", outcome, raw, archived_at, dialect, repository`;
      const diff = await archive.all(`
        SELECT count(*) AS n FROM (
          (SELECT ${cols} FROM events EXCEPT ALL SELECT ${cols} FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true))
          UNION ALL
          (SELECT ${cols} FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) EXCEPT ALL SELECT ${cols} FROM events))`);
      expect(diff[0]!.n).toBe(0);
      const counts = await archive.all(
        `SELECT (SELECT count(*) FROM events) AS a, (SELECT count(*) FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)) AS p`,
      );
      expect(counts[0]!.a).toBe(counts[0]!.p);
    } finally {
      archive.close();
    }
    // a second export into the same folder needs --force
    const again = await mq(["archive", "export", "--parquet", out], { dataDir: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is not empty: choose an empty folder, or add --force/);
    const forced = await mq(["archive", "export", "--parquet", out, "--force"], { dataDir: dir });
    expect(forced.code, forced.stderr).toBe(0);
  });

  it("the reader API gives the envelope, newest first, in batches", async () => {
    const archive = await openArchive(join(dir, "archive.duckdb"), { readOnly: true });
    try {
      const batches = [];
      for await (const b of readArchivedEvents(archive, { repository: "ACME/Web", since: new Date(SINCE), until: NOW, batchSize: 1000 }))
        batches.push(b);
      const all = batches.flat();
      expect(batches.every((b, i) => b.length === 1000 || i === batches.length - 1)).toBe(true);
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [all[i - 1]!.event, all[i]!.event];
        expect(a.received_at > b.received_at || (a.received_at === b.received_at && a.id > b.id)).toBe(true);
      }
      expect(all[0]!.event).toEqual(JSON.parse(all[0]!.raw));
    } finally {
      archive.close();
    }
  });
});

describe("mq archive sync, interrupted by the server", () => {
  it("a 503 mid-way keeps the pages already written; the next run completes with every event once", async () => {
    const dir = tempDir();
    let failAt = 5;
    const proxy = await startFaultServer(async (n, url) => {
      if (n === failAt) return { status: 503, body: { detail: "maintenance" } };
      const res = await fetch(new URL(url.pathname + url.search, apiUrl()), { headers: { authorization: "Bearer mqk_test_token_1234" } });
      const link = res.headers.get("link")?.replaceAll(apiUrl(), proxyUrl) ?? "";
      return { headers: { "content-type": "application/json", ...(link ? { link } : {}) }, body: await res.text() };
    });
    const proxyUrl = proxy.url;
    try {
      const args = [
        "archive",
        "sync",
        "--no-retry",
        "--api-url",
        proxy.url,
        "--token",
        "mqk_test_token_1234",
        "--repo",
        "acme/web",
        "--since",
        SINCE,
      ];
      const broken = await mq(args, { dataDir: dir });
      expect(broken.code).toBe(6);
      expect(broken.stderr).toMatch(/HTTP 503/);
      expect(broken.stderr).toMatch(
        new RegExp(
          `new events were archived before this; mq --api-url ${proxy.url} archive sync acme/web --since ${SINCE.replace(".000Z", "Z")} --until \\S+Z continues where it stopped\\.\\n$`,
        ),
      );
      const status = await mq(["archive", "status", "-o", "json"], { dataDir: dir });
      expect((JSON.parse(status.stdout) as Array<{ last_sync_complete: boolean }>)[0]!.last_sync_complete).toBe(false);
      failAt = -1;
      const done = await mq(args, { dataDir: dir });
      expect(done.code, done.stderr).toBe(0);
      const reference = tempDir();
      expect((await mq(["archive", "sync", ...api(), "--repo", "acme/web", "--since", SINCE], { dataDir: reference })).code).toBe(0);
      expect(await archived(dir)).toEqual(await archived(reference));
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
