// Reading the archive back, for `mq logs --archive` and the analyses (`mq prs`, `mq pr`,
// `mq insights`). Events come out as the API gives them: the same envelope (each event's own
// JSON, parsed), newest first, in batches, so a caller that renders API pages renders these the
// same way and memory stays bounded by the batch, not the window.
//
//   const archive = await openArchiveForReading(ctx);            // read-only, closed on exit
//   const cover = await windowCoverage(archive, "acme/web", since, until);
//   if (cover.complete) for await (const batch of readArchivedEvents(archive, { repository: "acme/web", since, until })) ...
import type { Context } from "../context.js";
import type { LogEvent } from "../api/events.js";
import { type Archive, archiveFailure, openArchive } from "./db.js";
import type { DialectName } from "../api/dialects/types.js";
import { archivePath } from "./paths.js";
import { ArchiveError } from "../errors.js";
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
  /** events one query sorts at most (tests) */
  rowsPerQuery?: number;
}

/** One archived event: its JSON text as the server sent it, that text parsed, and the side of the API that sent it. */
export interface ArchivedEvent {
  raw: string;
  event: LogEvent;
  dialect: DialectName;
}

/**
 * Opens the archive read-only (from --data-dir, $MQ_DATA_DIR or the XDG data folder); closed when
 * the command ends. `sandbox`: the engine reaches nothing but the archive (`mq archive query`).
 */
export async function openArchiveForReading(ctx: Context, dataDir?: string, opts: { sandbox?: boolean } = {}): Promise<Archive> {
  const archive = await openArchive(archivePath(ctx.env, dataDir), { readOnly: true, sandbox: opts.sandbox === true });
  ctx.onCleanup(() => archive.close());
  return archive;
}

/**
 * Events one query sorts at most (unless one hour holds more): bounds DuckDB's memory (a year read
 * at once had it sort a year of JSON text) while keeping the queries few: each query scans the
 * table's columns for its slice, so a window read a day at a time cost twice the time of one
 * query on 30 days.
 */
const ROWS_PER_QUERY = 20_000;
const HOUR_MS = 3_600_000;

/**
 * The archived events of a repository in a window, newest first (received_at, then id, both
 * descending: the API's order), in batches. The window is read in slices of whole hours, newest
 * first, each holding at most ROWS_PER_QUERY events by a first count per hour, so memory is
 * bounded by the slice, not the window.
 */
export async function* readArchivedEvents(archive: Archive, q: ArchivedEventsQuery): AsyncGenerator<ArchivedEvent[]> {
  const batchSize = q.batchSize ?? 2048;
  let batch: ArchivedEvent[] = [];
  for await (const texts of readColumn(archive, q, "raw", "dialect")) {
    for (let i = 0; i < texts.length; i++) {
      const raw = texts.at(i)!;
      const dialect = texts.second!(i);
      if (dialect !== "spec" && dialect !== "mergify")
        throw new ArchiveError(
          `an archived event of ${q.repository} has no known dialect (${String(dialect)}): the archive was changed outside mq`,
          "move it aside and run mq archive sync again",
        );
      batch.push({ raw, event: JSON.parse(raw) as ArchivedEvent["event"], dialect });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * What a queue stay is built from, of each archived event of the query (queue_facts: the envelope
 * and the metadata keys the stays read, archive/queue-facts.ts), newest first as
 * readArchivedEvents, one event at a time: each is parsed only when asked for, so it dies young
 * (a batch of parsed events held while it is used outlived the young generation's collections).
 * Only queue event types have one: the query must ask for those.
 */
export async function* readQueueFacts(
  archive: Archive,
  q: ArchivedEventsQuery & { types: readonly string[] },
): AsyncGenerator<ColumnChunk<LogEvent>> {
  for await (const texts of readColumn(archive, q, "queue_facts")) {
    yield {
      length: texts.length,
      at(i) {
        const text = texts.at(i);
        if (text === null)
          throw new ArchiveError(
            "an archived queue event has no queue_facts: the archive was changed outside mq",
            "move it aside and run mq archive sync again",
          );
        return JSON.parse(text) as LogEvent;
      },
    };
  }
}

/** One chunk of a query's rows (up to 2,048), each read when asked for, valid until the next is fetched. */
export interface ColumnChunk<T> {
  readonly length: number;
  at(i: number): T;
}

/** The text of one column (and of a second, if asked) of each event of the query, in the API's order (newest first), a chunk at a time. */
async function* readColumn(
  archive: Archive,
  q: ArchivedEventsQuery,
  column: "raw" | "queue_facts",
  second?: "dialect",
): AsyncGenerator<ColumnChunk<string | null> & { second?: (i: number) => string | null }> {
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
  if (q.since !== undefined) {
    filters.push("received_at >= ?::TIMESTAMPTZ");
    filterValues.push(q.since.toISOString());
  }
  if (q.until !== undefined) {
    filters.push("received_at <= ?::TIMESTAMPTZ");
    filterValues.push(q.until.toISOString());
  }
  const fail = async (err: unknown) => {
    return archiveFailure(err, archive.path, "read the archive");
  };
  // the events per hour (a scan of small columns), newest hour first, cut into slices of whole
  // hours: each slice from the start of its oldest hour (inclusive) to the start of the newer
  // slice (exclusive); the window's own ends bound the first and the last
  let hours: Record<string, unknown>[];
  try {
    hours = await archive.all(
      `SELECT epoch_ms(date_trunc('hour', received_at)) AS hour, count(*) AS n FROM events WHERE ${filters.join(" AND ")} GROUP BY 1 ORDER BY 1 DESC`,
      filterValues,
    );
  } catch (err) {
    throw await fail(err);
  }
  const rowsPerQuery = q.rowsPerQuery ?? ROWS_PER_QUERY;
  const lowerBounds: number[] = [];
  let inSlice = 0;
  for (let i = 0; i < hours.length; i++) {
    inSlice += Number(hours[i]!.n);
    const next = hours[i + 1];
    if (next !== undefined && inSlice + Number(next.n) > rowsPerQuery) {
      lowerBounds.push(Number(hours[i]!.hour));
      inSlice = 0;
    }
  }
  // [lower, upper) of each slice, newest first; undefined: the window's own end
  const slices = [...lowerBounds, undefined].map((lower, i) => ({ lower, upper: i === 0 ? undefined : lowerBounds[i - 1] }));
  let remaining = q.limit !== undefined ? Math.max(0, Math.floor(q.limit)) : Infinity;
  const query = (slice: (typeof slices)[number]) => {
    const where = [...filters];
    const values = [...filterValues];
    if (slice.lower !== undefined) {
      where.push("received_at >= ?::TIMESTAMPTZ");
      values.push(new Date(slice.lower).toISOString());
    }
    if (slice.upper !== undefined) {
      where.push("received_at < ?::TIMESTAMPTZ");
      values.push(new Date(slice.upper).toISOString());
    }
    const limit = Number.isFinite(remaining) ? ` LIMIT ${remaining}` : "";
    // materialized (the slice's rows held by DuckDB until read): the next slice's query runs on
    // DuckDB's threads while this one's rows are parsed here
    const result = archive.conn.run(
      `SELECT ${column}${second ? `, ${second}` : ""} FROM events WHERE ${where.join(" AND ")} ORDER BY received_at DESC, id DESC${limit}`,
      values,
    );
    // its failure is reported when it is awaited; a consumer that stops early never awaits it
    result.catch(() => undefined);
    return result;
  };
  let next = hours.length > 0 && remaining > 0 ? query(slices[0]!) : undefined;
  try {
    for (let s = 0; next !== undefined; s++) {
      let result;
      try {
        result = await next;
      } catch (err) {
        throw await fail(err);
      }
      // with --limit, the next query's LIMIT depends on this one's count: asked for afterwards
      next = s + 1 < slices.length && !Number.isFinite(remaining) ? query(slices[s + 1]!) : undefined;
      // a chunk (up to 2,048 rows) at a time, its one column read as a vector: no row objects, no
      // per-row array, each text decoded when asked for
      for (;;) {
        let chunk;
        try {
          chunk = await result.fetchChunk();
        } catch (err) {
          throw await fail(err);
        }
        if (!chunk || chunk.rowCount === 0) break;
        const vector = chunk.getColumnVector(0);
        const secondVector = second ? chunk.getColumnVector(1) : undefined;
        remaining -= chunk.rowCount;
        yield {
          length: chunk.rowCount,
          at: (i) => vector.getItem(i) as string | null,
          second: secondVector && ((i) => secondVector.getItem(i) as string | null),
        };
      }
      if (next === undefined && Number.isFinite(remaining) && remaining > 0 && s + 1 < slices.length) next = query(slices[s + 1]!);
    }
  } finally {
    // a query still under way when the consumer stops (an error, Ctrl-C) is waited for: the
    // connection is closed after the command, and must not be while DuckDB runs on it
    if (next) await next.catch(() => undefined);
  }
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
