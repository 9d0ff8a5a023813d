// Reading the archive back, for `mq logs --archive` and the analyses (`mq prs`, `mq pr`,
// `mq insights`). Events come out as the API gives them: the same envelope (each event's own
// JSON, parsed), newest first, in batches, so a caller that renders API pages renders these the
// same way and memory stays bounded by the batch, not the window.
//
//   const archive = await openArchiveForReading(ctx);            // read-only, closed on exit
//   const cover = await windowCoverage(archive, "acme/web", since, until);
//   if (cover.complete) for await (const batch of readArchivedEvents(archive, { repository: "acme/web", since, until })) ...
import type { Context } from "../context.js";
import type { LogEvent } from "../output/logs-table.js";
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
  event: LogEvent;
}

/** Opens the archive read-only (from --data-dir, $MQ_DATA_DIR or the XDG data folder); closed when the command ends. */
export async function openArchiveForReading(ctx: Context, dataDir?: string): Promise<Archive> {
  const { openArchive } = await import("./db.js");
  const archive = await openArchive(archivePath(ctx.env, dataDir), { readOnly: true });
  ctx.onCleanup(() => archive.close());
  return archive;
}

/** Days read by one query: DuckDB sorts one day's events at a time, not the window's. */
const SLICE_MS = 86_400_000;

/**
 * The archived events of a repository in a window, newest first (received_at, then id, both
 * descending: the API's order), in batches. A window with both ends is read a day at a time,
 * newest day first: each query sorts one day's events, so memory is bounded by the busiest day,
 * not the window (a year read at once had DuckDB sort a year of JSON text), at no cost in time.
 */
export async function* readArchivedEvents(archive: Archive, q: ArchivedEventsQuery): AsyncGenerator<ArchivedEvent[]> {
  const filters = ["repository = ?"];
  const filterValues: (string | number)[] = [repositoryKey(q.repository)];
  if (q.types && q.types.length > 0) {
    filters.push(`type IN (${q.types.map(() => "?").join(", ")})`);
    filterValues.push(...q.types);
  }
  if (q.pullRequest !== undefined) {
    filters.push("pull_request = ?");
    filterValues.push(q.pullRequest);
  }
  if (q.baseRef !== undefined) {
    filters.push("base_ref = ?");
    filterValues.push(q.baseRef);
  }
  // [from, to] of each query, newest first: both ends inclusive as the API's, the days between
  // half-open so that an instant on a boundary is read once
  const slices: Array<{ from?: string; to?: string; toInclusive: boolean }> = [];
  if (q.since && q.until) {
    const since = q.since.getTime();
    for (let to = q.until.getTime(), first = true; to >= since; to -= SLICE_MS, first = false) {
      const from = Math.max(since, to - SLICE_MS);
      slices.push({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), toInclusive: first });
      if (from === since) break;
    }
  } else {
    slices.push({ from: q.since?.toISOString(), to: q.until?.toISOString(), toInclusive: true });
  }
  const batchSize = q.batchSize ?? 2048;
  let remaining = q.limit !== undefined ? Math.max(0, Math.floor(q.limit)) : Infinity;
  let batch: ArchivedEvent[] = [];
  for (const slice of slices) {
    if (remaining <= 0) break;
    const where = [...filters];
    const values = [...filterValues];
    if (slice.from !== undefined) {
      where.push("received_at >= ?::TIMESTAMPTZ");
      values.push(slice.from);
    }
    if (slice.to !== undefined) {
      where.push(`received_at ${slice.toInclusive ? "<=" : "<"} ?::TIMESTAMPTZ`);
      values.push(slice.to);
    }
    const limit = Number.isFinite(remaining) ? ` LIMIT ${remaining}` : "";
    const sql = `SELECT raw FROM events WHERE ${where.join(" AND ")} ORDER BY received_at DESC, id DESC${limit}`;
    let result;
    try {
      result = await archive.conn.stream(sql, values);
    } catch (err) {
      const { archiveFailure } = await import("./db.js");
      throw archiveFailure(err, archive.path, "read the archive");
    }
    // a chunk (up to 2,048 rows) at a time, its one column read as a vector: no row objects, no
    // per-row array, the JSON text decoded once and parsed once
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
        remaining--;
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
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
