// The archive's faults: a corrupt file, a database from an older mq (migrated, nothing lost), one
// from a newer mq, a database that is not an archive, and a disk that fills up mid-sync.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { openArchive } from "../../src/archive/db.js";
import { testContext } from "../helpers/context.js";
import { toSchemaVersion, withDb } from "../helpers/duckdb.js";
import * as tmp from "../helpers/tmp.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: NOW, seed: 5, days: 3, recordRequests: false });
});
afterAll(async () => {
  await server.close();
});

const tempDir = () => tmp.tempDir("mq-archive-fault-");

async function mq(args: string[], dataDir: string) {
  const ctx = testContext({ now: () => NOW, env: { MQ_DATA_DIR: dataDir } });
  const code = await main(args, ctx);
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText() };
}
const sync = (dataDir: string, since = "2026-11-19T00:00:00Z") =>
  mq(["archive", "sync", "--api-url", server.url, "--token", "mqk_test_token_1234", "--repo", "acme/web", "--since", since], dataDir);

describe("a corrupt archive", () => {
  it("is one clear line, exit 8, and the file is left as it was", async () => {
    const dir = tempDir();
    const file = join(dir, "archive.duckdb");
    const junk = Buffer.alloc(300_000, 7);
    writeFileSync(file, junk);
    for (const args of [
      ["archive", "status"],
      ["archive", "sync", "--offline", "--repo", "acme/web", "--since", "1h"],
      ["archive", "query", "SELECT 1"],
    ]) {
      const r = await mq(args, dir);
      expect(r.code, r.stderr).toBe(8);
      expect(r.stderr).toBe(
        `mq: the archive ${file} is corrupt or not a DuckDB database (IO Error: The file "${file}" exists, but it is not a valid DuckDB database file!)\n` +
          `move it aside (mv ${file} ${file}.bad) and run mq archive sync again: the service still has the last 90 days\n`,
      );
    }
    expect(readFileSync(file).equals(junk)).toBe(true);
  });

  it("a DuckDB database that is not an archive is refused, untouched", async () => {
    const dir = tempDir();
    const file = join(dir, "archive.duckdb");
    await withDb(file, (run) => run("CREATE TABLE sales (x INTEGER)"));
    const r = await mq(["archive", "status"], dir);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/is a DuckDB database but not an mq archive \(tables: sales\)/);
  });
});

describe("schema versions", () => {
  it("migrates a version-0 archive (from before the version table), keeping every event and its coverage", async () => {
    const dir = tempDir();
    const file = join(dir, "archive.duckdb");
    const ev = (id: number, at: string, pr: number | null) =>
      JSON.stringify({
        id,
        received_at: at,
        trigger: "Rule: q",
        repository: "acme/web",
        pull_request: pr,
        base_ref: "main",
        type: "action.rebase",
        metadata: {},
        outcome: "success",
      });
    await withDb(file, async (run) => {
      await run(`CREATE TABLE events (repository VARCHAR, id BIGINT, received_at VARCHAR, type VARCHAR, raw VARCHAR)`);
      await run(`CREATE TABLE checkpoints (repository VARCHAR, synced_from VARCHAR, synced_to VARCHAR)`);
      await run(`INSERT INTO events VALUES ('Acme/Web', 1, '2026-11-19T01:00:00Z', 'action.rebase', '${ev(1, "2026-11-19T01:00:00Z", 4)}'),
                                         ('Acme/Web', 2, '2026-11-19T02:00:00.5+00:00', 'action.rebase', '${ev(2, "2026-11-19T02:00:00.5+00:00", null)}')`);
      await run(`INSERT INTO checkpoints VALUES ('Acme/Web', '2026-11-19T00:00:00Z', '2026-11-19T03:00:00Z')`);
    });
    const before = readFileSync(file);
    const status = await mq(["archive", "status", "-o", "json"], dir);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual([
      expect.objectContaining({
        repository: "acme/web",
        events: 2,
        covered_from: "2026-11-19T00:00:00.000Z",
        covered_to: "2026-11-19T03:00:00.000Z",
      }),
    ]);
    // a copy of the old file is kept before migrating
    expect(readFileSync(`${file}.v0.bak`).equals(before)).toBe(true);
    const q = await mq(
      ["archive", "query", 'SELECT id, pull_request, base_ref, "trigger", outcome, raw FROM events ORDER BY id', "-o", "json"],
      dir,
    );
    expect(JSON.parse(q.stdout)).toEqual([
      { id: 1, pull_request: 4, base_ref: "main", trigger: "Rule: q", outcome: "success", raw: ev(1, "2026-11-19T01:00:00Z", 4) },
      {
        id: 2,
        pull_request: null,
        base_ref: "main",
        trigger: "Rule: q",
        outcome: "success",
        raw: ev(2, "2026-11-19T02:00:00.5+00:00", null),
      },
    ]);
    const version = await mq(["archive", "query", "SELECT max(version) AS v FROM mq_schema", "-o", "csv"], dir);
    expect(version.stdout).toBe("v\r\n3\r\n");
    // the next sync continues from the migrated coverage: it starts at its end
    const r = await sync(dir, "2026-11-19T00:00:00Z");
    expect(r.code, r.stderr).toBe(0);
    // to the server's now minus the sync's settling delay of five minutes
    expect(r.stderr).toMatch(/ from 2026-11-19T03:00:00\.000Z to 2026-11-20T11:55:00\.000Z /);
  });

  it("migrates a version-1 archive (no queue_facts): computed from each queue event's JSON, the same a sync writes, and the analyses read it", async () => {
    const dir = tempDir();
    expect((await sync(dir, "2026-11-19T00:00:00Z")).code).toBe(0);
    const file = join(dir, "archive.duckdb");
    const facts = "SELECT id, queue_facts FROM events ORDER BY id";
    const synced = await withDb(file, (run) => run(facts));
    expect(synced.filter((r) => r.queue_facts !== null).length).toBeGreaterThan(100);
    // back to version 1's layout
    await withDb(file, (run) => toSchemaVersion(run, 1));
    const before = readFileSync(file);
    const window = [
      "--repo",
      "acme/web",
      "--since",
      "2026-11-19T06:00:00Z",
      "--until",
      "2026-11-20T06:00:00Z",
      "--compare",
      "none",
      "-o",
      "json",
      "--token",
      "mqk_test_token_1234",
      "--api-url",
      server.url,
    ];
    const fromArchive = await mq(["insights", ...window, "--archive"], dir);
    expect(fromArchive.code, fromArchive.stderr).toBe(0);
    const overApi = await mq(["insights", ...window, "--no-archive"], dir);
    expect(fromArchive.stdout).toBe(overApi.stdout);
    expect(readFileSync(`${file}.v1.bak`).equals(before)).toBe(true);
    expect(await withDb(file, (run) => run(facts))).toEqual(synced);
    expect(await withDb(file, (run) => run("SELECT max(version) AS v FROM mq_schema"))).toEqual([{ v: 3 }]);
  });

  it("refuses an archive from a newer mq without touching it", async () => {
    const dir = tempDir();
    expect((await sync(dir, "2026-11-20T11:00:00Z")).code).toBe(0);
    const file = join(dir, "archive.duckdb");
    await withDb(file, (run) => run("INSERT INTO mq_schema (version) VALUES (9)"));
    const r = await mq(["archive", "status"], dir);
    expect(r.code).toBe(8);
    expect(r.stderr).toBe(
      `mq: the archive ${file} has schema version 9, made by a newer mq; this mq reads versions up to 3\nupgrade mq, or point --data-dir at another folder\n`,
    );
  });
});

// A real full disk: a 1 MiB tmpfs (root only; skipped elsewhere).
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("a disk that fills up", () => {
  const mountPoint = tempDir();
  const mounted = mountTmpfs(mountPoint, "1m");
  afterAll(() => {
    if (mounted) execFileSync("umount", [mountPoint]);
  });

  it.skipIf(!mounted)(
    "stops with exit 8 and a clear message; what was written stays readable, and a rerun elsewhere completes it",
    async () => {
      const dir = join(mountPoint, "mq");
      mkdirSync(dir);
      const r = await sync(dir);
      expect(r.code, r.stderr).toBe(8);
      expect(r.stderr).toContain(`the disk holding ${join(dir, "archive.duckdb")} is full`);
      expect(r.stderr).toMatch(/nothing was lost/);
      // move what was archived to a roomy disk, and finish there
      const roomy = tempDir();
      copyFileSync(join(dir, "archive.duckdb"), join(roomy, "archive.duckdb"));
      if (existsSync(join(dir, "archive.duckdb.wal"))) copyFileSync(join(dir, "archive.duckdb.wal"), join(roomy, "archive.duckdb.wal"));
      const done = await sync(roomy);
      expect(done.code, done.stderr).toBe(0);
      const reference = tempDir();
      expect((await sync(reference)).code).toBe(0);
      const ids = async (d: string) => {
        const a = await openArchive(join(d, "archive.duckdb"), { readOnly: true });
        try {
          return (await a.all("SELECT id, raw FROM events ORDER BY id")).map((row) => `${row.id} ${row.raw}`);
        } finally {
          a.close();
        }
      };
      expect(await ids(roomy)).toEqual(await ids(reference));
    },
    60_000,
  );
});
