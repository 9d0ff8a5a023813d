// Two mq processes opening the same archive of an older schema at once: each reads the version,
// and the one that finds the other has migrated it meanwhile must not migrate it again.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { openArchive } from "../../src/archive/db.js";
import { main } from "../../src/main.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { testContext } from "../helpers/context.js";
import { DuckDBInstance, toSchemaVersion, withDb } from "../helpers/duckdb.js";
import { MQ_BIN } from "../helpers/spawn.js";
import { tempDir } from "../helpers/tmp.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: NOW, seed: 5, days: 2, recordRequests: false });
});
afterAll(() => server.close());

it("an archive another mq migrated between this one's look at its version and its migration is not migrated twice", async () => {
  const dir = tempDir("mq-archive-race-");
  const ctx = testContext({ now: () => NOW, env: { MQ_DATA_DIR: dir } });
  expect(
    await main(
      [
        "archive",
        "sync",
        "--api-url",
        server.url,
        "--token",
        "mqk_test_token_1234",
        "--repo",
        "acme/web",
        "--since",
        "2026-11-19T12:00:00Z",
      ],
      ctx,
    ),
  ).toBe(0);
  const file = join(dir, "archive.duckdb");
  const sides = "SELECT repository, id, dialect FROM events ORDER BY ALL";
  const synced = await withDb(file, (run) => run(sides));
  await withDb(file, (run) => toSchemaVersion(run, 2));
  const v2 = readFileSync(file);
  // this process has read version 2 and closed its reader; before it opens the file as a writer,
  // another mq (a process of its own) opens the archive and migrates it
  const create = DuckDBInstance.create.bind(DuckDBInstance);
  let opened = 0;
  const spy = vi.spyOn(DuckDBInstance, "create").mockImplementation(async (...args: Parameters<typeof create>) => {
    if (args[0] === file && ++opened === 2) {
      const other = spawnSync(process.execPath, [MQ_BIN, "archive", "status", "-o", "json"], {
        env: { PATH: process.env.PATH ?? "", HOME: dir, MQ_DATA_DIR: dir, MQ_CONFIG_DIR: join(dir, "config"), MQ_NO_CODE_CACHE: "1" },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(other.status, other.stderr).toBe(0);
    }
    return create(...args);
  });
  try {
    const archive = await openArchive(file, { readOnly: true });
    archive.close();
  } finally {
    spy.mockRestore();
  }
  expect(opened).toBeGreaterThanOrEqual(2);
  expect(await withDb(file, (run) => run("SELECT version FROM mq_schema ORDER BY version"))).toEqual([{ version: 2 }, { version: 3 }]);
  expect(await withDb(file, (run) => run(sides))).toEqual(synced);
  // the backup is the version 2 file, whole (not a copy taken while the other wrote)
  expect(readFileSync(`${file}.v2.bak`).equals(v2)).toBe(true);
});
