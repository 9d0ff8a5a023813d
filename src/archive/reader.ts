// Reading the archive back, for `mq logs --archive` and the analyses (`mq prs`, `mq pr`,
// `mq insights`). Events come out as the API gives them: the same envelope (each event's own
// JSON, parsed), newest first, in batches, so a caller that renders API pages renders these the
// same way and memory stays bounded by the batch, not the window.
//
//   const archive = await openArchiveForReading(ctx);            // read-only, closed on exit
//   const cover = await windowCoverage(archive, "acme/web", since, until);
//   if (cover.complete) for await (const batch of readArchivedEvents(archive, { repository: "acme/web", since, until })) ...
import type { Context } from "../context.js";
import type { Archive } from "./db.js";
import { archivePath } from "./paths.js";
import { readCoverage, repositoryKey, subtract, type Range } from "./sync.js";

export interface ArchivedEventsQuery {
  /** owner/name (any case) */
  repository: string;
  /** inclusive bounds, as the API's received_from / received_to */
  since?: Date;
  until?: Date;
  /** only these event types (already expanded, no globs) */
  types?: readonly string[];
  pullRequest?: number;
  baseRef?: string;
  /** stop after this many events */
  limit?: number;
  /** events per yielded batch (default 2,048, DuckDB's chunk) */
  batchSize?: number;
}

/** One archived event: its JSON text as the server sent it, and that text parsed. */
export interface ArchivedEvent {
  raw: string;
  event: {
    id: number;
    received_at: string;
    type: string;
    pull_request: number | null;
    base_ref: string | null;
    metadata: Record<string, unknown>;
    [key: string]: unknown;
  };
}

/** Opens the archive read-only (from --data-dir, $MQ_DATA_DIR or the XDG data folder); closed when the command ends. */
export async function openArchiveForReading(ctx: Context, dataDir?: string): Promise<Archive> {
  const { openArchive } = await import("./db.js");
  const archive = await openArchive(archivePath(ctx.env, dataDir), { readOnly: true });
  ctx.onCleanup(() => archive.close());
  return archive;
}

/**
 * The archived events of a repository in a window, newest first (received_at, then id, both
 * descending: the API's order), in batches.
 */
export async function* readArchivedEvents(archive: Archive, q: ArchivedEventsQuery): AsyncGenerator<ArchivedEvent[]> {
  const where = ["repository = ?"];
  const values: (string | number)[] = [repositoryKey(q.repository)];
  if (q.since) {
    where.push("received_at >= ?::TIMESTAMPTZ");
    values.push(q.since.toISOString());
  }
  if (q.until) {
    where.push("received_at <= ?::TIMESTAMPTZ");
    values.push(q.until.toISOString());
  }
  if (q.types && q.types.length > 0) {
    where.push(`type IN (${q.types.map(() => "?").join(", ")})`);
    values.push(...q.types);
  }
  if (q.pullRequest !== undefined) {
    where.push("pull_request = ?");
    values.push(q.pullRequest);
  }
  if (q.baseRef !== undefined) {
    where.push("base_ref = ?");
    values.push(q.baseRef);
  }
  const limit = q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : "";
  const sql = `SELECT raw FROM events WHERE ${where.join(" AND ")} ORDER BY received_at DESC, id DESC${limit}`;
  const batchSize = q.batchSize ?? 2048;
  let result;
  try {
    result = await archive.conn.stream(sql, values);
  } catch (err) {
    const { archiveFailure } = await import("./db.js");
    throw archiveFailure(err, archive.path, "read the archive");
  }
  // a chunk (up to 2,048 rows) at a time, its one column read as a vector: no row objects, no
  // per-row array, the JSON text decoded once and parsed once
  let batch: ArchivedEvent[] = [];
  for (;;) {
    let chunk;
    try {
      chunk = await result.fetchChunk();
    } catch (err) {
      const { archiveFailure } = await import("./db.js");
      throw archiveFailure(err, archive.path, "read the archive");
    }
    if (!chunk || chunk.rowCount === 0) break;
    const column = chunk.getColumnVector(0);
    for (let i = 0, n = chunk.rowCount; i < n; i++) {
      const raw = column.getItem(i) as string;
      batch.push({ raw, event: JSON.parse(raw) as ArchivedEvent["event"] });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

export interface WindowCoverage {
  /** the archive holds every event of the window (as far as the service had them when synced) */
  complete: boolean;
  /** the parts of the window the archive does not cover */
  missing: Range[];
}

/** Whether the archive covers [since, until] for the repository: the test for using it instead of the API. */
export async function windowCoverage(archive: Archive, repository: string, since: Date, until: Date): Promise<WindowCoverage> {
  const covered = await readCoverage(archive, repositoryKey(repository));
  const missing = subtract({ from: since.getTime(), to: until.getTime() }, covered);
  return { complete: missing.length === 0, missing };
}
