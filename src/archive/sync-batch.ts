// What a sync has read and not yet committed: the events of whole pages and the days they complete.
// Both are written in ONE transaction (the rows, then the coverage, then the run's count), so a
// day is never recorded as covered without its rows, whatever moment the process dies at. A
// transaction per batch of pages, not per page: DuckDB's commit, its appender's flush and the
// statements around them cost about as much for 80 rows as for 2,000 (a 7-day sync of 345 pages
// spent half of its CPU there).
import type { DuckDBAppender } from "@duckdb/node-api";
import { type Archive, archiveFailure } from "./db.js";
import type { DialectName } from "../api/dialects/types.js";
import { queueFactsOf } from "./queue-facts.js";

export interface EventRow {
  id: number;
  received_at: string;
  type: string;
  pull_request: number | null;
  base_ref: string | null;
  trigger?: unknown;
  outcome?: unknown;
}

/** An event of a page: its fields, its text as the server sent it, and its id exactly (not rounded beyond 2^53). */
export interface PageItem {
  row: EventRow;
  raw: string;
  id: bigint;
}

export interface Range {
  from: number;
  to: number;
}

/** When a batch is committed: once it holds this many events, or a page arrives this long after the last commit. */
export interface BatchLimits {
  events: number;
  ms: number;
}

/**
 * The default bounds: 2,000 events (25 full pages; a few MB of text and parsed rows in memory) or
 * one second. A SIGKILL loses at most that much reading (asked for again by the next run, never
 * claimed as covered); Ctrl-C and failures commit what was read first.
 */
export const BATCH_LIMITS: BatchLimits = { events: 2000, ms: 1000 };

export interface Committed {
  /** events of the batch new to the archive */
  added: number;
  /** days recorded as covered by this commit, in the order given to cover() */
  covered: number;
}

export class SyncBatch {
  private items: PageItem[] = [];
  private ranges: Range[] = [];
  private lastCommit: number;
  /** a commit's failure: once rows may be missing, no later commit may record a day as covered */
  private failure: unknown;

  /** creates the session's staging table (a temp table: it never reaches the file) */
  static async open(
    archive: Archive,
    target: { repo: string; dialect: DialectName; archivedAt: Date; syncId: number },
    limits: BatchLimits = BATCH_LIMITS,
  ): Promise<SyncBatch> {
    await archive.run(
      `CREATE TEMP TABLE IF NOT EXISTS staging (repository VARCHAR, id BIGINT, received_at VARCHAR, type VARCHAR, pull_request BIGINT, base_ref VARCHAR, "trigger" VARCHAR, outcome VARCHAR, raw VARCHAR, archived_at VARCHAR, queue_facts VARCHAR, dialect VARCHAR)`,
    );
    return new SyncBatch(archive, target, limits);
  }

  private constructor(
    private readonly archive: Archive,
    private readonly target: { repo: string; dialect: DialectName; archivedAt: Date; syncId: number },
    private readonly limits: BatchLimits = BATCH_LIMITS,
    private readonly clockMs: () => number = () => performance.now(),
  ) {
    this.lastCommit = clockMs();
  }

  /** a whole page's events */
  add(items: readonly PageItem[]): void {
    for (const item of items) this.items.push(item);
  }

  /** a day whose every page was given to add(), and whose older days are all given here first */
  cover(range: Range): void {
    this.ranges.push(range);
  }

  get due(): boolean {
    return this.items.length >= this.limits.events || (this.items.length > 0 && this.clockMs() - this.lastCommit >= this.limits.ms);
  }

  /**
   * Commits what was given so far in one transaction (the caller runs one commit at a time). What
   * is given meanwhile waits for the next commit. After a failed commit every later one fails
   * with the same error: its rows are gone, so a day they belong to must not be recorded.
   */
  async commit(): Promise<Committed> {
    if (this.failure !== undefined) throw this.failure;
    const items = this.items;
    const ranges = this.ranges;
    this.items = [];
    this.ranges = [];
    this.lastCommit = this.clockMs();
    if (items.length === 0 && ranges.length === 0) return { added: 0, covered: 0 };
    const { archive } = this;
    const { repo, syncId } = this.target;
    try {
      const added = await archive.transaction(async () => {
        const n = items.length > 0 ? await this.writeRows(items) : 0;
        for (const r of ranges) {
          if (r.to > r.from)
            await archive.run("INSERT INTO coverage VALUES (?, ?::TIMESTAMPTZ, ?::TIMESTAMPTZ)", [repo, iso(r.from), iso(r.to)]);
        }
        if (n > 0) await archive.run("UPDATE syncs SET added = added + ? WHERE id = ?", [n, syncId]);
        return n;
      });
      return { added, covered: ranges.length };
    } catch (err) {
      this.failure = err;
      throw err;
    }
  }

  /**
   * The rows through a staging table: the appender fills it, one INSERT OR IGNORE moves what is
   * new (keyed by repository and id, so an event read twice adds nothing). Each row records the
   * dialect of the sync that wrote it: a repository synced from both sides keeps, for each event,
   * the text and the side of the response that first brought it.
   */
  private async writeRows(items: readonly PageItem[]): Promise<number> {
    const { archive } = this;
    const { repo, dialect } = this.target;
    await archive.run("DELETE FROM staging");
    let appender: DuckDBAppender | undefined;
    try {
      appender = await archive.conn.createAppender("staging", null, "temp");
      // neighbouring days share an instant and slices overlap: one row per id in the batch
      const seen = new Set<bigint>();
      const archivedAt = this.target.archivedAt.toISOString();
      for (const { row: ev, raw, id } of items) {
        if (seen.has(id)) continue;
        seen.add(id);
        appender.appendVarchar(repo);
        appender.appendBigInt(id);
        appender.appendVarchar(ev.received_at);
        appender.appendVarchar(ev.type);
        if (ev.pull_request === null || ev.pull_request === undefined) appender.appendNull();
        else appender.appendBigInt(BigInt(ev.pull_request));
        appendText(appender, ev.base_ref);
        appendText(appender, ev.trigger);
        appendText(appender, ev.outcome);
        appender.appendVarchar(raw);
        appender.appendVarchar(archivedAt);
        // what the analyses read of a queue event (db.ts): from the text kept, as a reader parses it
        appendText(appender, queueFactsOf(ev.type, raw));
        appender.appendVarchar(dialect);
        appender.endRow();
      }
      appender.flushSync();
    } catch (err) {
      throw archiveFailure(err, archive.path, "write the archive");
    } finally {
      try {
        appender?.closeSync();
      } catch {
        // already reported by flushSync
      }
    }
    return archive.run(
      `INSERT OR IGNORE INTO events (repository, id, received_at, type, pull_request, base_ref, "trigger", outcome, raw, archived_at, queue_facts, dialect)
         SELECT repository, id, received_at::TIMESTAMPTZ, type, pull_request, base_ref, "trigger", outcome, raw, archived_at::TIMESTAMPTZ, queue_facts, dialect FROM staging`,
    );
  }
}

function appendText(appender: DuckDBAppender, value: unknown): void {
  if (value === null || value === undefined) appender.appendNull();
  else appender.appendVarchar(typeof value === "string" ? value : JSON.stringify(value));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
