// The archive's database: DuckDB, loaded only when an archive command runs (it is a 70 MB native
// package, and an optional dependency), its schema with a version table and migrations, and the
// translation of DuckDB's failures into ArchiveErrors that say what happened and what to do.
import { copyFile, mkdir, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type * as DuckDbModule from "@duckdb/node-api";
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from "@duckdb/node-api";
import { ArchiveError, MqError } from "../errors.js";
import { archiveFailure } from "./failure.js";
import { DUCKDB_PACKAGE, DUCKDB_VERSION } from "./duckdb-version.js";
import { queueFactsOf } from "./queue-facts.js";
import { QUEUE_EVENT_TYPES } from "../insights/dialects.js";
import { dialectForUrl } from "../api/dialects/index.js";
import { metadataChecks } from "../api/schema/page-check.js";

export { archiveFailure, archiveSize } from "./failure.js";

/** The schema this mq writes. Bump it with a migration in MIGRATIONS. */
export const SCHEMA_VERSION = 3;
/**
 * The first 16 hex digits of the SHA-256 of insights/dialects.ts STAY_KEYS_SPEC (what queue_facts
 * keep of each event) when the stored queue_facts were last computed. A test compares them: when
 * the stays come to read another key, queue_facts lack it, so that change needs a new schema
 * version whose migration recomputes them (fillQueueFacts after `UPDATE events SET queue_facts = NULL`).
 */
export const QUEUE_FACTS_SPEC_SHA256 = "32dce63b371ab323";
export { DUCKDB_PACKAGE, DUCKDB_VERSION };

type DuckDb = typeof DuckDbModule;
let loaded: Promise<DuckDb> | undefined;
/** the engine once loaded: duckValue tells its value classes apart with it */
let engine: DuckDb | undefined;

/**
 * The engine, loaded on first use; a clear error when the optional package was not installed.
 * Loaded with require, not import(): the package is CommonJS, and an import() of it has Node's
 * CommonJS lexer scan every file the package re-exports for named exports, half a second on this
 * machine (require: a quarter of a second, most of it the native library).
 */
export function loadDuckDb(): Promise<DuckDb> {
  loaded ??= Promise.resolve()
    // the one import() of the engine: a chunk of its own in dist/ (scripts/build.mjs), so that
    // nothing loads it, nor its bundled JavaScript, before an archive is opened
    .then(() => import("./duckdb-engine.js"))
    .then(({ requireDuckDb }) => requireDuckDb())
    .then((duckdb) => (engine = duckdb))
    .catch((err: unknown) => {
      loaded = undefined;
      if (err instanceof MqError) throw err;
      // the loader's error, or (through a test double or a wrapper) its cause
      const e = err as { code?: string; cause?: { code?: string } };
      const code = e.code ?? e.cause?.code;
      if (
        code === "ERR_MODULE_NOT_FOUND" ||
        code === "MODULE_NOT_FOUND" ||
        /Cannot find (module|package)/.test(`${String(err)} ${String(e.cause)}`)
      ) {
        throw new ArchiveError(
          `mq archive needs the optional package ${DUCKDB_PACKAGE}, which is not installed`,
          `install it next to mq (npm install ${DUCKDB_PACKAGE}@${DUCKDB_VERSION}), or reinstall mq without --omit=optional`,
        );
      }
      throw new ArchiveError(
        `the database engine ${DUCKDB_PACKAGE} could not be loaded: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  return loaded;
}

export interface Archive {
  readonly path: string;
  readonly readOnly: boolean;
  readonly conn: DuckDBConnection;
  /** runs one statement, DuckDB failures turned into ArchiveErrors */
  run(sql: string, values?: DuckDBValue[]): Promise<number>;
  /** all rows of a query as plain JS values */
  all(sql: string, values?: DuckDBValue[]): Promise<Record<string, unknown>[]>;
  /** BEGIN ... COMMIT around fn, ROLLBACK when it throws */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  close(): void;
}

export interface OpenOptions {
  readOnly?: boolean;
  /**
   * read-only, and the engine shut off from everything but the archive (`mq archive query`): no
   * file or network access, no extension installed or loaded, the configuration locked
   */
  sandbox?: boolean;
  /** create the folder and the file when missing (sync); otherwise a missing archive is an error */
  create?: boolean;
}

/** Opens (and if need be creates or migrates) the archive at `path`. */
export async function openArchive(path: string, opts: OpenOptions = {}): Promise<Archive> {
  const readOnly = opts.readOnly === true || opts.sandbox === true;
  const sandbox = opts.sandbox === true;
  if (!existsSync(path)) {
    if (!opts.create)
      throw new ArchiveError(
        `no archive at ${path}`,
        "create it with mq archive sync --repo owner/name (or point --data-dir / MQ_DATA_DIR at an existing one)",
      );
    try {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    } catch (err) {
      throw archiveFailure(err, path, "create the archive's folder");
    }
  }
  let archive = await connect(path, readOnly && existsSync(path), sandbox);
  try {
    const version = await knownSchemaVersion(archive);
    if (version < SCHEMA_VERSION) {
      // a read-only handle cannot migrate: migrate with a writer, then reopen as asked
      archive.close();
      await backup(path, version);
      archive = await connect(path, false);
      // read again under the writer's lock: another mq may have migrated the file since the look
      // above (migrating it twice failed on the columns the first migration added)
      await migrate(archive, await knownSchemaVersion(archive));
      if (readOnly) {
        archive.close();
        archive = await connect(path, true, sandbox);
      }
    }
    return archive;
  } catch (err) {
    archive.close();
    throw err;
  }
}

/**
 * The engine's settings for a sandboxed archive (DuckDB's "Securing DuckDB" page): no file system
 * or network access beyond the database file (read_csv, glob, COPY, EXPORT, ATTACH of another
 * file, replacement scans of paths), no extension installed or loaded on demand. Set when the
 * instance is created; `lock_configuration` follows once the time zone is set, so a statement
 * cannot turn them back on.
 */
const SANDBOX_CONFIG: Record<string, string> = {
  access_mode: "READ_ONLY",
  enable_external_access: "false",
  autoinstall_known_extensions: "false",
  autoload_known_extensions: "false",
};

async function connect(path: string, readOnly: boolean, sandbox = false): Promise<Archive> {
  const duckdb = await loadDuckDb();
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  try {
    instance = await duckdb.DuckDBInstance.create(path, sandbox ? SANDBOX_CONFIG : readOnly ? { access_mode: "READ_ONLY" } : {});
    conn = await instance.connect();
    // every instant in and out of the archive is UTC, whatever the machine's zone
    await conn.run("SET TimeZone = 'UTC'");
    if (sandbox) await conn.run("SET lock_configuration = true");
  } catch (err) {
    throw archiveFailure(err, path, "open the archive");
  }
  let closed = false;
  const archive: Archive = {
    path,
    readOnly,
    conn,
    async run(sql, values) {
      try {
        const result = await conn.run(sql, values);
        return result.rowsChanged;
      } catch (err) {
        throw archiveFailure(err, path, "write the archive");
      }
    },
    async all(sql, values) {
      try {
        const reader = await conn.runAndReadAll(sql, values);
        return reader.getRowObjects().map((row) => {
          const out: Record<string, unknown> = {};
          for (const key of Object.keys(row)) out[key] = duckValue(row[key]);
          return out;
        });
      } catch (err) {
        throw archiveFailure(err, path, "read the archive");
      }
    },
    async transaction(fn) {
      await archive.run("BEGIN TRANSACTION");
      try {
        const out = await fn();
        await archive.run("COMMIT");
        return out;
      } catch (err) {
        await conn.run("ROLLBACK").catch(() => undefined);
        throw err;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        conn.closeSync();
        instance.closeSync();
      } catch {
        // closing is best effort: the data is committed or rolled back already
      }
    },
  };
  return archive;
}

/** schemaVersion, refusing a version made by a newer mq */
async function knownSchemaVersion(archive: Archive): Promise<number> {
  const version = await schemaVersion(archive);
  if (version > SCHEMA_VERSION) {
    throw new ArchiveError(
      `the archive ${archive.path} has schema version ${version}, made by a newer mq; this mq reads versions up to ${SCHEMA_VERSION}`,
      "upgrade mq, or point --data-dir at another folder",
    );
  }
  return version;
}

/** 0 for a database from before the version table (the early layout), else the recorded version. */
async function schemaVersion(archive: Archive): Promise<number> {
  const tables = new Set(
    (await archive.all("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'")).map((r) => String(r.table_name)),
  );
  if (tables.has("mq_schema")) {
    const rows = await archive.all("SELECT max(version) AS v FROM mq_schema");
    return Number(rows[0]?.v ?? 0);
  }
  if (tables.has("events")) return 0;
  if (tables.size > 0) {
    throw new ArchiveError(
      `${archive.path} is a DuckDB database but not an mq archive (tables: ${[...tables].slice(0, 5).join(", ")})`,
      "point --data-dir / MQ_DATA_DIR at another folder",
    );
  }
  // a new, empty file: version -1 makes openArchive create the current schema
  return -1;
}

/** A copy of the file before a migration: "never lose data" holds even if the migration has a bug. */
async function backup(path: string, version: number): Promise<void> {
  if (version < 0) return;
  try {
    await copyFile(path, `${path}.v${version}.bak`);
    if (existsSync(`${path}.wal`)) await copyFile(`${path}.wal`, `${path}.v${version}.bak.wal`);
  } catch (err) {
    throw archiveFailure(err, path, "back up the archive before migrating it");
  }
}

/**
 * Version 1, from which a new archive is made too: the migrations below take it to the current
 * version (documented in the README's `mq archive` section).
 */
export const SCHEMA_V1 = [
  `CREATE TABLE mq_schema (version INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp)`,
  `CREATE TABLE events (
    repository VARCHAR NOT NULL,
    id BIGINT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    type VARCHAR NOT NULL,
    pull_request BIGINT,
    base_ref VARCHAR,
    "trigger" VARCHAR,
    outcome VARCHAR,
    raw VARCHAR NOT NULL,
    archived_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (repository, id)
  )`,
  `CREATE TABLE coverage (repository VARCHAR NOT NULL, range_from TIMESTAMPTZ NOT NULL, range_to TIMESTAMPTZ NOT NULL)`,
  `CREATE TABLE gaps (repository VARCHAR NOT NULL, gap_from TIMESTAMPTZ NOT NULL, gap_to TIMESTAMPTZ NOT NULL, reason VARCHAR NOT NULL)`,
  `CREATE TABLE syncs (id INTEGER PRIMARY KEY, repository VARCHAR NOT NULL, api_url VARCHAR NOT NULL, started_at TIMESTAMPTZ NOT NULL, finished_at TIMESTAMPTZ, added BIGINT NOT NULL DEFAULT 0, complete BOOLEAN NOT NULL DEFAULT false)`,
];

/** A step of a migration: a statement, or work done in JS (on the writer, inside the migration's transaction). */
type MigrationStep = string | ((archive: Archive) => Promise<void>);

/**
 * Version 0 is the layout before the version table: `events(repository, id, received_at, type,
 * raw)` and `checkpoints(repository, synced_from, synced_to)`. Its events are kept whole; the
 * columns it lacked are read from each event's own JSON, and its checkpoints become coverage.
 * Version 1 lacks `queue_facts` (archive/queue-facts.ts): computed from each queue event's JSON.
 * Version 2 lacks `dialect` (which side of the API sent the event, or a sync spoke to): inferred
 * by inferDialects.
 */
const MIGRATIONS: Record<number, MigrationStep[]> = {
  0: [
    `ALTER TABLE events RENAME TO events_v0`,
    ...SCHEMA_V1.slice(1),
    `INSERT INTO events
       SELECT lower(repository), id, CAST(received_at AS TIMESTAMPTZ), type,
              TRY_CAST(json_extract(raw, '$.pull_request') AS BIGINT), json_extract_string(raw, '$.base_ref'),
              json_extract_string(raw, '$.trigger'), json_extract_string(raw, '$.outcome'),
              raw, current_timestamp
       FROM events_v0`,
    `INSERT INTO coverage SELECT lower(repository), CAST(synced_from AS TIMESTAMPTZ), CAST(synced_to AS TIMESTAMPTZ) FROM checkpoints`,
    `DROP TABLE events_v0`,
    `DROP TABLE checkpoints`,
    `CREATE TABLE mq_schema (version INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp)`,
  ],
  1: [`ALTER TABLE events ADD COLUMN queue_facts VARCHAR`, fillQueueFacts],
  2: [`ALTER TABLE events ADD COLUMN dialect VARCHAR`, `ALTER TABLE syncs ADD COLUMN dialect VARCHAR`, inferDialects],
};

/**
 * One transaction per version, each recording the version it reaches: DuckDB refuses to commit a
 * transaction that alters a table it has already altered and updated (1 to 2, then 2 to 3). An
 * interrupted chain leaves a consistent older version, which the next open continues.
 */
async function migrate(archive: Archive, from: number): Promise<void> {
  let version = from;
  if (version < 0) {
    await archive.transaction(async () => {
      for (const sql of SCHEMA_V1) await archive.run(sql);
      await archive.run("INSERT INTO mq_schema (version) VALUES (1)");
    });
    version = 1;
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const steps = MIGRATIONS[v];
    if (!steps) throw new ArchiveError(`no migration from archive schema version ${v}`);
    await archive.transaction(async () => {
      for (const step of steps) {
        if (typeof step === "string") await archive.run(step);
        else await step(archive);
      }
      await archive.run("INSERT INTO mq_schema (version) VALUES (?)", [v + 1]);
    });
  }
}

/** Events whose queue_facts one round of fillQueueFacts computes: bounds the memory a migration takes. */
const FILL_ROWS = 20_000;

/** queue_facts of every archived queue event still without one, a slice of events (by key) at a time. */
async function fillQueueFacts(archive: Archive): Promise<void> {
  const types = QUEUE_EVENT_TYPES.map((t) => `'${t}'`).join(", ");
  await archive.run(`CREATE TEMP TABLE IF NOT EXISTS queue_facts_fill (repository VARCHAR, id BIGINT, queue_facts VARCHAR)`);
  let after: { repository: string; id: bigint } | undefined;
  for (;;) {
    let rows: unknown[][];
    try {
      const reader = await archive.conn.runAndReadAll(
        `SELECT repository, id, type, raw FROM events WHERE type IN (${types})${after ? " AND (repository > ? OR (repository = ? AND id > ?))" : ""} ORDER BY repository, id LIMIT ${FILL_ROWS}`,
        after ? [after.repository, after.repository, after.id] : [],
      );
      rows = reader.getRows();
    } catch (err) {
      throw archiveFailure(err, archive.path, "migrate the archive");
    }
    if (rows.length === 0) break;
    await archive.run("DELETE FROM queue_facts_fill");
    try {
      const appender = await archive.conn.createAppender("queue_facts_fill", null, "temp");
      try {
        for (const [repository, id, type, raw] of rows) {
          appender.appendVarchar(repository as string);
          appender.appendBigInt(id as bigint);
          appender.appendVarchar(queueFactsOf(type as string, raw as string)!);
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    } catch (err) {
      throw archiveFailure(err, archive.path, "migrate the archive");
    }
    await archive.run(
      `UPDATE events SET queue_facts = f.queue_facts FROM queue_facts_fill f WHERE events.repository = f.repository AND events.id = f.id`,
    );
    const last = rows[rows.length - 1]!;
    after = { repository: last[0] as string, id: last[1] as bigint };
  }
  await archive.run("DROP TABLE queue_facts_fill");
}

/**
 * The dialect of each sync and each event of an archive from before version 3, which did not
 * record it. A sync's: its API URL's (the real service's host: mergify; any other URL and
 * "offline": the contract), as mq decides when no --dialect is given. An event's: first its
 * repository's guess (the dialect of its syncs when they agree, else the contract's); then its own
 * shape, where it gives evidence: an event whose metadata the guess's generated predicates do not
 * vouch for, and the other dialect's do, is the other dialect's. An event that neither vouches for
 * keeps the guess, and a --strict read reports it against that side. A repository whose every
 * event with evidence is the other side's is that side's whole (events and, when they agreed,
 * syncs): an old sync of `mq serve --dialect mergify` at a loopback URL. The predicates, not zod:
 * cheap over millions of events (111,465 in about 4 s here), and they never vouch for what zod
 * would refuse.
 */
async function inferDialects(archive: Archive): Promise<void> {
  for (const { api_url } of await archive.all("SELECT DISTINCT api_url FROM syncs")) {
    const url = String(api_url);
    await archive.run("UPDATE syncs SET dialect = ? WHERE api_url = ?", [url === "offline" ? "spec" : dialectForUrl(url), url]);
  }
  await archive.run(
    `UPDATE events SET dialect = coalesce(g.dialect, 'spec')
       FROM (SELECT e.repository, CASE WHEN count(DISTINCT s.dialect) = 1 THEN min(s.dialect) END AS dialect
             FROM (SELECT DISTINCT repository FROM events) e LEFT JOIN syncs s USING (repository) GROUP BY e.repository) g
       WHERE events.repository = g.repository`,
  );
  const checks = { spec: await metadataChecks("spec"), mergify: await metadataChecks("mergify") } as const;
  // only types with a shape on some side carry evidence
  const typed = [...new Set([...Object.keys(checks.spec), ...Object.keys(checks.mergify)])]
    .map((t) => `'${t.replaceAll("'", "''")}'`)
    .join(", ");
  const vouches = (side: "spec" | "mergify", type: string, metadata: unknown) => {
    if (!Object.hasOwn(checks[side], type)) return true;
    const check = checks[side][type];
    return check !== undefined && check(metadata);
  };
  /** per repository: events only the guess vouches for, and only the other side */
  const evidence = new Map<string, { guess: "spec" | "mergify"; mine: number; theirs: number }>();
  await archive.run(`CREATE TEMP TABLE IF NOT EXISTS dialect_fill (repository VARCHAR, id BIGINT, dialect VARCHAR)`);
  let after: { repository: string; id: bigint } | undefined;
  for (;;) {
    let rows: unknown[][];
    try {
      const reader = await archive.conn.runAndReadAll(
        `SELECT repository, id, type, raw, dialect FROM events WHERE type IN (${typed})${after ? " AND (repository > ? OR (repository = ? AND id > ?))" : ""} ORDER BY repository, id LIMIT ${FILL_ROWS}`,
        after ? [after.repository, after.repository, after.id] : [],
      );
      rows = reader.getRows();
    } catch (err) {
      throw archiveFailure(err, archive.path, "migrate the archive");
    }
    if (rows.length === 0) break;
    await archive.run("DELETE FROM dialect_fill");
    try {
      const appender = await archive.conn.createAppender("dialect_fill", null, "temp");
      try {
        for (const [repository, id, type, raw, guess] of rows) {
          const side = guess as "spec" | "mergify";
          const other = side === "spec" ? "mergify" : "spec";
          let metadata: unknown;
          try {
            metadata = (JSON.parse(raw as string) as { metadata?: unknown }).metadata;
          } catch {
            continue;
          }
          const mine = vouches(side, type as string, metadata);
          const theirs = vouches(other, type as string, metadata);
          if (mine === theirs) continue;
          const counts = evidence.get(repository as string) ?? { guess: side, mine: 0, theirs: 0 };
          evidence.set(repository as string, counts);
          if (mine) {
            counts.mine++;
            continue;
          }
          counts.theirs++;
          appender.appendVarchar(repository as string);
          appender.appendBigInt(id as bigint);
          appender.appendVarchar(other);
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    } catch (err) {
      throw archiveFailure(err, archive.path, "migrate the archive");
    }
    await archive.run(
      `UPDATE events SET dialect = f.dialect FROM dialect_fill f WHERE events.repository = f.repository AND events.id = f.id`,
    );
    const last = rows[rows.length - 1]!;
    after = { repository: last[0] as string, id: last[1] as bigint };
  }
  await archive.run("DROP TABLE dialect_fill");
  // a repository whose every event with evidence is the other side's came from it (a sync of
  // `mq serve --dialect mergify`, say): its events without evidence (a shape both sides allow, an
  // untyped event) are that side's too, and so are its syncs when they gave the guess
  for (const [repository, counts] of evidence) {
    if (counts.mine > 0 || counts.theirs === 0) continue;
    const other = counts.guess === "spec" ? "mergify" : "spec";
    await archive.run("UPDATE events SET dialect = ? WHERE repository = ?", [other, repository]);
    const sides = await archive.all("SELECT count(DISTINCT dialect) AS n FROM syncs WHERE repository = ?", [repository]);
    if (Number(sides[0]?.n) === 1) await archive.run("UPDATE syncs SET dialect = ? WHERE repository = ?", [other, repository]);
  }
}

/**
 * A DuckDB value from a query as JSON-ready data: integers as numbers when exact (else strings),
 * instants as ISO 8601 with microseconds, lists, structs and maps as arrays and objects.
 */
export function duckValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value !== "object") return value;
  const v = value as Record<string, unknown> & { toString(): string };
  // by class, not by constructor name: the bundle (scripts/build.mjs) minifies the engine's
  // inlined JavaScript, and its class names with it (instants came out as DuckDB's own text)
  const d = engine;
  const kind =
    d === undefined
      ? (value.constructor?.name ?? "")
      : value instanceof d.DuckDBTimestampTZValue
        ? "DuckDBTimestampTZValue"
        : value instanceof d.DuckDBTimestampValue
          ? "DuckDBTimestampValue"
          : value instanceof d.DuckDBDecimalValue
            ? "DuckDBDecimalValue"
            : value instanceof d.DuckDBListValue
              ? "DuckDBListValue"
              : value instanceof d.DuckDBArrayValue
                ? "DuckDBArrayValue"
                : value instanceof d.DuckDBStructValue
                  ? "DuckDBStructValue"
                  : value instanceof d.DuckDBMapValue
                    ? "DuckDBMapValue"
                    : "";
  if (kind === "DuckDBTimestampTZValue" || kind === "DuckDBTimestampValue") {
    const micros = v.micros as bigint;
    const ms = Number(micros / 1000n);
    if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return v.toString();
    const frac = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${frac.toString().padStart(6, "0")}Z`);
  }
  if (kind === "DuckDBDecimalValue") return (v as unknown as { toDouble(): number }).toDouble();
  if (kind === "DuckDBListValue" || kind === "DuckDBArrayValue") return (v.items as unknown[]).map(duckValue);
  if (kind === "DuckDBStructValue") {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v.entries as Record<string, unknown>)) out[k] = duckValue(item);
    return out;
  }
  if (kind === "DuckDBMapValue") {
    const out: Record<string, unknown> = {};
    for (const e of v.entries as { key: unknown; value: unknown }[]) out[String(duckValue(e.key))] = duckValue(e.value);
    return out;
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  return v.toString();
}
