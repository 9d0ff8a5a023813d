// `mq archive query` is a sandbox: one read-only SELECT over the archive, nothing else. Each
// statement here changed the archive, read or wrote a file, or reached the network before.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { firstWord } from "../../src/archive/sandbox.js";
import { runMq, seedArchive, tempDataDir } from "../helpers/archive.js";

let dir: string;
let path: string;

beforeAll(async () => {
  dir = tempDataDir();
  path = join(dir, "archive.duckdb");
  await seedArchive(dir);
});

const query = (sql: string) => runMq(["archive", "query", sql, "-o", "csv"], { dataDir: dir });

async function eventCount(): Promise<string> {
  const r = await query("SELECT count(*) AS n FROM events");
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe("mq archive query is a sandbox", () => {
  it("runs one SELECT (and DESCRIBE, EXPLAIN, a CTE)", async () => {
    expect(await eventCount()).toBe("n\r\n3\r\n");
    for (const sql of [
      "DESCRIBE events",
      "EXPLAIN SELECT 1",
      "WITH x AS (SELECT 1 AS a) SELECT a FROM x",
      "FROM events SELECT id LIMIT 1",
    ]) {
      const r = await query(sql);
      expect(r.code, `${sql}: ${r.stderr}`).toBe(0);
    }
  });

  const refused: Array<[string, string]> = [
    [`ATTACH '${"PATH"}' AS w`, "ATTACH statements are refused"],
    ["DETACH archive", "DETACH statements are refused"],
    ["INSTALL httpfs", "INSTALL and LOAD statements are refused"],
    ["LOAD httpfs", "INSTALL and LOAD statements are refused"],
    ["COPY events TO 'OUT/copy.csv'", "COPY statements are refused"],
    ["EXPORT DATABASE 'OUT/export'", "EXPORT and IMPORT statements are refused"],
    ["IMPORT DATABASE 'OUT/export'", "EXPORT and IMPORT statements are refused"],
    ["SET enable_external_access = true", "SET, RESET and USE statements are refused"],
    ["RESET lock_configuration", "SET, RESET and USE statements are refused"],
    ["PRAGMA version", "PRAGMA statements are refused"],
    ["/* x */ pragma force_checkpoint", "PRAGMA statements are refused"],
    ["DELETE FROM events", "DELETE statements are refused"],
    ["UPDATE coverage SET range_to = now()", "UPDATE statements are refused"],
    ["CREATE TEMP TABLE t AS SELECT 1", "CREATE statements are refused"],
    ["CALL pragma_version()", "CALL statements are refused"],
  ];
  it.each(refused)("refuses %s before running it, exit 2", async (template, message) => {
    const sql = template.replace("PATH", path).replace("OUT", dir);
    const r = await query(sql);
    expect(r.stderr).toBe(
      `mq: mq archive query runs one read-only SELECT over the archive: ${message}.\n` +
        "the archive's tables are events, coverage, gaps, syncs and mq_schema; mq archive export --parquet DIR writes them out for other tools\n",
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  it.each([
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/hostname')",
    "SELECT * FROM read_blob('/etc/passwd')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_parquet('/tmp/x.parquet')",
    "SELECT * FROM read_json('/etc/passwd')",
    "SELECT * FROM read_csv('https://example.com/x.csv')",
  ])("refuses a file-reading function: %s", async (sql) => {
    const r = await query(sql);
    expect(r.stderr).toMatch(
      /^mq: mq archive query reads only the archive: Cannot access file ".*" - file system operations are disabled by configuration\.\n/,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  it("runs exactly one statement: a second one is refused, the first not run", async () => {
    const r = await query("SELECT 1; DELETE FROM events");
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: "mq: the SQL holds 2 statements: mq archive query runs exactly one (a single SELECT).\n",
    });
    const only = await query("SELECT 1 AS one;");
    expect(only.stdout).toBe("one\r\n1\r\n");
  });

  it("a bad statement is a usage error (exit 2), not an unusable archive", async () => {
    expect(await query("SELEC 1")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mq: could not run the query: Parser Error: syntax error at or near "SELEC"/),
    });
    expect(await query("SELECT nope FROM events")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mq: could not run the query: Binder Error/),
    });
    expect(await query("SELECT CAST('x' AS INTEGER)")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mq: could not run the query: Conversion Error/),
    });
  });

  it("left the archive and the folder as they were", async () => {
    expect(await eventCount()).toBe("n\r\n3\r\n");
    expect(existsSync(join(dir, "copy.csv"))).toBe(false);
    expect(existsSync(join(dir, "export"))).toBe(false);
  });

  it("firstWord skips blanks, comments and parentheses", () => {
    expect(firstWord("  -- c\n /* d */ ( pragma x")).toBe("PRAGMA");
    expect(firstWord("select 1")).toBe("SELECT");
    expect(firstWord("/* open")).toBe("");
  });
});
