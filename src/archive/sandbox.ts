// What `mq archive query` lets through: one SELECT (or EXPLAIN) over the archive, checked by
// DuckDB's own parser and binder before anything runs. The engine is opened sandboxed
// (db.ts SANDBOX_CONFIG: no file or network access, configuration locked); these checks add the
// clear refusal, exit 2, for what the sandbox would stop later or with DuckDB's words.
import type { DuckDBPreparedStatement, StatementType as StatementTypes } from "@duckdb/node-api";
import { UsageError } from "../errors.js";
import { type Archive, loadDuckDb } from "./db.js";
import { archiveFailure } from "./failure.js";

const REFUSED_FIRST_WORDS: Partial<Record<string, string>> = {
  ATTACH: "ATTACH",
  DETACH: "DETACH",
  INSTALL: "INSTALL and LOAD",
  FORCE: "INSTALL and LOAD",
  LOAD: "INSTALL and LOAD",
  COPY: "COPY",
  EXPORT: "EXPORT and IMPORT",
  IMPORT: "EXPORT and IMPORT",
  SET: "SET, RESET and USE",
  RESET: "SET, RESET and USE",
  USE: "SET, RESET and USE",
  PRAGMA: "PRAGMA",
};

/** what each refused kind of statement is called in the message */
const refusedNames = (StatementType: typeof StatementTypes): Partial<Record<number, string>> => ({
  [StatementType.ATTACH]: "ATTACH",
  [StatementType.DETACH]: "DETACH",
  [StatementType.LOAD]: "INSTALL and LOAD",
  [StatementType.EXTENSION]: "INSTALL and LOAD",
  [StatementType.UPDATE_EXTENSIONS]: "UPDATE EXTENSIONS",
  [StatementType.COPY]: "COPY",
  [StatementType.COPY_DATABASE]: "COPY FROM DATABASE",
  [StatementType.EXPORT]: "EXPORT and IMPORT",
  [StatementType.SET]: "SET, RESET and USE",
  [StatementType.VARIABLE_SET]: "SET VARIABLE",
  [StatementType.PRAGMA]: "PRAGMA",
});

/** The one statement of `sql`, prepared (parsed and bound, not run); a UsageError for anything else. */
export async function prepareArchiveQuery(archive: Archive, sql: string): Promise<DuckDBPreparedStatement> {
  // By its first word first: DuckDB binds COPY, EXPORT and IMPORT against the file system while
  // preparing (the sandbox stops them with its own words), and parses PRAGMA as a SELECT of the
  // pragma's table function. DuckDB's parser (below) stays the authority on everything else.
  const word = firstWord(sql);
  if (REFUSED_FIRST_WORDS[word]) throw refusal(REFUSED_FIRST_WORDS[word]);
  let count: number;
  let prepared: DuckDBPreparedStatement;
  try {
    const statements = await archive.conn.extractStatements(sql);
    count = statements.count;
    if (count === 0) throw new UsageError('the SQL holds no statement: give one such as "SELECT count(*) FROM events".');
    if (count > 1) throw new UsageError(`the SQL holds ${count} statements: mq archive query runs exactly one (a single SELECT).`);
    prepared = await statements.prepare(0);
  } catch (err) {
    throw queryFailure(err, archive.path);
  }
  // the engine is loaded (the archive is open): its enum, without a static import of the package
  const { StatementType } = await loadDuckDb();
  const type = prepared.statementType;
  if (type !== StatementType.SELECT && type !== StatementType.EXPLAIN) {
    prepared.destroySync();
    throw refusal(refusedNames(StatementType)[type] ?? `${StatementType[type] ?? String(type)}`);
  }
  return prepared;
}

function refusal(what: string): UsageError {
  return new UsageError(
    `mq archive query runs one read-only SELECT over the archive: ${what} statements are refused.`,
    "the archive's tables are events, coverage, gaps, syncs and mq_schema; mq archive export --parquet DIR writes them out for other tools",
  );
}

/**
 * A failure of the user's statement (syntax, an unknown column, a file-reading function the
 * sandbox refuses, a conversion while it runs) is a usage error; the archive's own failures
 * (locked, corrupt, disk full) stay exit 8.
 */
export function queryFailure(err: unknown, path: string): Error {
  if (err instanceof UsageError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const line = message
    .split("\n")[0]!
    .replace(/^Failed to (extract statements|prepare statement|execute prepared statement): /, "")
    .trim();
  if (/^Permission Error/.test(line))
    return new UsageError(
      `mq archive query reads only the archive: ${line.replace(/^Permission Error: /, "")}.`,
      "files, extensions and the network are out of its reach (read_csv, read_parquet, read_json, read_text, read_blob, glob, COPY, ATTACH...)",
    );
  if (
    /^(Parser|Binder|Catalog|Conversion|Invalid Input|Out of Range|Not implemented|Constraint|Dependency|Syntax|Type Mismatch|Invalid type|Interrupt|Sequence|Missing Extension) Error/.test(
      line,
    )
  )
    return new UsageError(`could not run the query: ${line}`);
  return archiveFailure(err, path, "run the query");
}

/** The statement's first keyword, upper case, after blanks, comments and opening parentheses. */
export function firstWord(sql: string): string {
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s|\(/.test(c)) i++;
    else if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else break;
  }
  return /^[A-Za-z_]+/.exec(sql.slice(i))?.[0]?.toUpperCase() ?? "";
}
