// An archive file read and changed past mq: to check what mq wrote, or to put the file back to an
// older schema's layout before a migration test.
import { createRequire } from "node:module";
import type { DuckDBInstance as Instance } from "@duckdb/node-api";

// the engine as src/archive/db.ts loads it (CommonJS, through require): the same class, which a
// test may spy on
export const { DuckDBInstance } = createRequire(import.meta.url)("@duckdb/node-api") as { DuckDBInstance: typeof Instance };

export type RunSql = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * Opens the archive at `path` for `fn`, on one DuckDB thread: an archive of a test is small, and a
 * pool of a thread per core spent more CPU coordinating than it saved (the oracle's queries took
 * 0.39 against 0.22 CPU-s each; the oracle's file 42-44 against 33-37 CPU-s).
 */
export async function withDb<T>(path: string, fn: (run: RunSql) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path, { threads: "1" });
  const conn = await instance.connect();
  try {
    return await fn(async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJS());
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The layout of schema VERSION (1 or 2): the columns later versions added dropped, the version set. */
export async function toSchemaVersion(run: RunSql, version: 1 | 2): Promise<void> {
  if (version === 1) await run("ALTER TABLE events DROP COLUMN queue_facts");
  await run("ALTER TABLE events DROP COLUMN dialect");
  await run("ALTER TABLE syncs DROP COLUMN dialect");
  await run("DELETE FROM mq_schema");
  await run(`INSERT INTO mq_schema (version) VALUES (${version})`);
}
