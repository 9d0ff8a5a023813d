// `mq archive sync`: copies a repository's event log into the archive, resumable at any moment.
//
// The window [start, until] is cut into one-day chunks, oldest first. Each chunk is walked with
// parallel time slices (api/slices.ts: several pages in flight, handed over newest first), and up to
// --parallel chunks are walked at once; one pool of --parallel requests in flight serves them all.
// Whole pages are committed in batches (sync-batch.ts: at most 2,000 events or a second apart), their
// events keyed by (repository, id), so a page read twice adds nothing. A chunk is recorded as
// covered only once its last page is read AND every older chunk of the run is, and its coverage is
// committed in the same transaction as the rows it still lacked: chunks finish out of order,
// coverage is committed in order, so an interrupted run leaves covered exactly a prefix of its
// window, as a sequential run would (the next run starts where the coverage starts: a hole at the
// front would be skipped for good). Killed at any moment, the archive holds whole batches of pages
// and the coverage of whole chunks whose rows it holds; the next run asks again for what is not
// covered and the key drops what it already has: every event exactly once, and no gap.
import type { ApiClient } from "../api/client.js";
import { ContractError, InterruptedError, MqError } from "../errors.js";
import { cursorOf } from "../api/pagination.js";
import type { Archive } from "./db.js";
import { METADATA_SHAPES_OF, pageCheck } from "../api/schema/page-check.js";
import { walkSlices } from "../api/slices.js";
import type { DialectName } from "../api/dialects/types.js";
import { type BatchLimits, type EventRow, type PageItem, type Range, SyncBatch } from "./sync-batch.js";
import { SERVICE_RETENTION_DAYS } from "../api/retention.js";
import { exactEventId, rawEventTexts } from "./raw-events.js";
import { formatCount } from "../iostreams/human.js";

export const DAY_MS = 86_400_000;
/** How long the service keeps events: the default start of a first sync. */
export const RETENTION_DAYS = SERVICE_RETENTION_DAYS;
/**
 * The settling delay: without --until a sync reads up to this long before now, as an event can be
 * received (and stamped) a moment before the service lets it be read, and the two clocks differ a
 * little. It covers exactly what it read; the next sync continues from there.
 */
export const SETTLE_MS = 5 * 60_000;
const PER_PAGE = 100;

export type { Range };

export interface SyncProgress {
  repository: string;
  /** events received so far in this run, and how many of them were new */
  fetched: number;
  added: number;
  pages: number;
  /** the oldest chunk not finished yet */
  chunkFrom: number;
  chunksDone: number;
  chunks: number;
}

export interface SyncOptions {
  /** owner/name */
  repository: string;
  client: ApiClient;
  /** the API's base URL, recorded with each sync */
  apiUrl: string;
  /** the injected clock: the sync's start fixes the window, its end stamps `syncs.finished_at` */
  clock: () => Date;
  /** start of the window; default: where the archive's coverage starts, else now - RETENTION_DAYS */
  since?: Date;
  /** end of the window (at most now); default now - SETTLE_MS */
  until?: Date;
  strict: boolean;
  /** the dialect in effect: the metadata shapes its pages are held to (default: the contract's) */
  dialect?: DialectName;
  /** requests in flight at most (parallel time slices); 1 reads page after page, day after day */
  parallel?: number;
  signal: AbortSignal;
  onProgress?: (p: SyncProgress) => void;
  /** when read pages are committed (default BATCH_LIMITS) */
  batch?: BatchLimits;
  /** a line for stderr (warnings) */
  warn: (line: string) => void;
  /** the command that syncs the window FROM to TO again, for the hint of an interrupted run */
  again?: (from: number, to: number) => string;
}

export interface SyncResult {
  repository: string;
  /** events new to the archive */
  added: number;
  /** events received that the archive already had */
  duplicates: number;
  pages: number;
  /** the window this run asked for (the parts not covered yet) */
  from: string | null;
  to: string | null;
  /** events of this repository in the archive after the run */
  total: number;
  /** ranges found too old to be fetched any more */
  gaps: Range[];
}

/** The archive's key for a repository: GitHub names are case-insensitive. */
export function repositoryKey(repository: string): string {
  return repository.toLowerCase();
}

export async function syncRepository(archive: Archive, opts: SyncOptions): Promise<SyncResult> {
  const repo = repositoryKey(opts.repository);
  const [owner, name] = opts.repository.split("/") as [string, string];
  const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/logs`;
  const now = opts.clock();
  const nowMs = now.getTime();
  // what is read is what is covered: up to --until, else up to the settling delay before now
  const until = opts.until ? Math.min(opts.until.getTime(), nowMs) : nowMs - SETTLE_MS;
  const coverage = await readCoverage(archive, repo);
  const retentionFloor = nowMs - RETENTION_DAYS * DAY_MS;
  let start: number;
  if (opts.since) start = opts.since.getTime();
  else if (coverage.length > 0) start = coverage[0]!.from;
  else start = retentionFloor;

  let missing = start < until ? subtract({ from: start, to: until }, coverage) : [];
  // Continuing an archive not synced for longer than the service keeps events: what lies between
  // its end and the retention floor is gone from the service. Recorded as a known gap, and
  // skipped (an explicit --since still asks for it, for servers that keep more).
  const gaps: Range[] = [];
  if (!opts.since && coverage.length > 0) {
    const kept: Range[] = [];
    for (const r of missing) {
      if (r.from < retentionFloor) {
        const gap = { from: r.from, to: Math.min(r.to, retentionFloor) };
        gaps.push(gap);
        if (r.to > retentionFloor) kept.push({ from: retentionFloor, to: r.to });
      } else kept.push(r);
    }
    missing = kept;
  }

  const chunks = missing.flatMap(splitDays);
  const dialect = opts.dialect ?? "spec";
  const syncId = await beginSync(archive, repo, opts.apiUrl, dialect, now, gaps);
  for (const gap of gaps) {
    opts.warn(
      `mq: warning: ${opts.repository}: the events from ${iso(gap.from)} to ${iso(gap.to)} are older than the service keeps (${RETENTION_DAYS} days) and were not archived in time; recorded as a gap (mq archive status lists it).`,
    );
  }

  const progress: SyncProgress = {
    repository: opts.repository,
    fetched: 0,
    added: 0,
    pages: 0,
    chunkFrom: chunks[0]?.from ?? start,
    chunksDone: 0,
    chunks: chunks.length,
  };
  const warnedTypes = new Set<string>();
  // against the dialect in effect, as `mq logs` checks
  const checkPage = await pageCheck(dialect);
  // a batch's statements are small: DuckDB's pool of a thread per core spent 0.12 of a 7-day sync's
  // CPU coordinating them, for no gain in time; the archive of a sync is used for nothing else
  await archive.run("SET threads = 1");
  const batch = await SyncBatch.open(archive, { repo, dialect, archivedAt: now, syncId }, opts.batch);
  const parallel = Math.max(1, Math.floor(opts.parallel ?? 1));
  // one pool of requests for every chunk in flight, whatever each chunk's walker allows itself
  const client = limitedClient(opts.client, parallel);
  // the archive has one connection: its transactions are taken one at a time
  const serial = serialiser();
  // a failure in one chunk stops the others
  const stop = new AbortController();
  const stopAll = () => stop.abort();
  opts.signal.addEventListener("abort", stopAll, { once: true });
  if (opts.signal.aborted) stopAll();

  /** commits the batch: what it adds is counted, the days it records are done */
  const commitBatch = () =>
    serial(async () => {
      const { added, covered } = await batch.commit();
      progress.added += added;
      progress.chunksDone += covered;
      progress.chunkFrom = chunks[progress.chunksDone]?.from ?? chunks[progress.chunksDone - 1]?.to ?? start;
      opts.onProgress?.(progress);
    });
  const finished: boolean[] = chunks.map(() => false);
  /** chunks handed to the batch's coverage: a prefix of the run's */
  let ordered = 0;
  /** hands every finished chunk whose older chunks are all handed to the batch, and commits it */
  const commitInOrder = async () => {
    const before = ordered;
    while (ordered < chunks.length && finished[ordered]) batch.cover(chunks[ordered++]!);
    if (ordered > before) await commitBatch();
  };

  const walkChunk = async (chunk: Range) => {
    const pages = walkSlices<PageItem>({
      client,
      path,
      query: { received_from: iso(chunk.from), received_to: iso(chunk.to), per_page: PER_PAGE },
      since: new Date(chunk.from),
      until: new Date(chunk.to),
      parallel,
      signal: stop.signal,
      timeOf: (item) => Date.parse(item.row.received_at),
      idOf: (item) => item.id,
      parse(body, _url, res) {
        const events = checkPage(body, {
          strict: opts.strict,
          checkMetadataOf: (type) => !warnedTypes.has(type),
          onMetadataMismatch(type, id, message) {
            if (warnedTypes.has(type)) return;
            warnedTypes.add(type);
            opts.warn(
              `mq: warning: ${type} event ${id} does not match ${METADATA_SHAPES_OF[dialect]} (${message}); archived as sent. --strict makes this an error.`,
            );
          },
        });
        const items = (rows: unknown[]): PageItem[] => {
          if (res.text === undefined) throw new ContractError("the API client did not keep the response text");
          const raws = rawEventTexts(res.text);
          if (raws.length !== rows.length)
            throw new ContractError(`the page's events array has ${raws.length} items once cut out, not ${rows.length}`);
          return (rows as EventRow[]).map((row, i) => ({ row, raw: raws[i]!, id: exactEventId(raws[i]!, row.id) }));
        };
        return Array.isArray(events) ? items(events) : events.then(items);
      },
      onRepeat(url) {
        // a server bug that would loop forever; the chunk is not marked covered, so nothing is
        // claimed that was not read
        throw new ContractError(
          `the server's next-page link repeats a page already read (cursor ${cursorOf(url) ?? url.href}); the archive keeps what it read, and this day will be asked for again`,
        );
      },
    });
    for await (const page of pages) {
      if (stop.signal.aborted) break;
      batch.add(page.events);
      progress.pages++;
      progress.fetched += page.events.length;
      // awaited: a commit holds the walks back, which bounds what waits in memory
      if (batch.due) await commitBatch();
      else opts.onProgress?.(progress);
    }
  };

  // chunks are taken oldest first; none more than 2 × --parallel past the oldest one not recorded, so
  // that an interruption never leaves much finished but not yet recorded
  const windowChunks = 2 * parallel;
  let nextChunk = 0;
  let failure: unknown;
  let waiters: Array<() => void> = [];
  const wakeAll = () => {
    const ws = waiters;
    waiters = [];
    for (const w of ws) w();
  };
  const worker = async () => {
    for (;;) {
      while (nextChunk - ordered >= windowChunks && !stop.signal.aborted) await new Promise<void>((r) => waiters.push(r));
      if (stop.signal.aborted || nextChunk >= chunks.length) return;
      const index = nextChunk++;
      try {
        await walkChunk(chunks[index]!);
        if (stop.signal.aborted) return;
        finished[index] = true;
        await commitInOrder();
      } catch (err) {
        failure ??= err;
        stopAll();
        return;
      } finally {
        wakeAll();
      }
    }
  };

  opts.onProgress?.(progress);
  try {
    await Promise.all(Array.from({ length: Math.min(parallel, Math.max(1, chunks.length)) }, () => worker()));
    if (failure === undefined && opts.signal.aborted) failure = new InterruptedError();
    if (failure !== undefined) throw failure instanceof MqError || !opts.signal.aborted ? failure : new InterruptedError();
    await commitBatch();
    await finishSync(archive, repo, syncId, progress.added, opts.clock());
  } catch (err) {
    // what was read before an interruption or a failure is kept (each commit counts its events in
    // `syncs.added`: `mq archive status` shows what the run added); none after a failed commit
    await commitBatch().catch(() => undefined);
    if (err instanceof MqError && progress.added + progress.fetched > 0) {
      const again = opts.again?.(start, until) ?? "mq archive sync";
      const note = `${formatCount(progress.added)} new events were archived before this; ${again} continues where it stopped.`;
      err.addHint(note);
    }
    throw err;
  } finally {
    opts.signal.removeEventListener("abort", stopAll);
  }
  const total = Number((await archive.all("SELECT count(*) AS n FROM events WHERE repository = ?", [repo]))[0]?.n ?? 0);
  return {
    repository: opts.repository,
    added: progress.added,
    duplicates: progress.fetched - progress.added,
    pages: progress.pages,
    from: missing.length > 0 ? iso(missing[0]!.from) : null,
    to: missing.length > 0 ? iso(missing[missing.length - 1]!.to) : null,
    total,
    gaps,
  };
}

async function beginSync(
  archive: Archive,
  repo: string,
  apiUrl: string,
  dialect: DialectName,
  now: Date,
  gaps: readonly Range[],
): Promise<number> {
  return archive.transaction(async () => {
    for (const g of gaps) {
      await archive.run("INSERT INTO gaps VALUES (?, ?::TIMESTAMPTZ, ?::TIMESTAMPTZ, ?)", [
        repo,
        iso(g.from),
        iso(g.to),
        `older than the service's ${RETENTION_DAYS}-day retention when synced`,
      ]);
    }
    const rows = await archive.all("SELECT coalesce(max(id), 0) + 1 AS id FROM syncs");
    const id = Number(rows[0]!.id);
    await archive.run("INSERT INTO syncs (id, repository, api_url, dialect, started_at) VALUES (?, ?, ?, ?, ?::TIMESTAMPTZ)", [
      id,
      repo,
      apiUrl,
      dialect,
      now.toISOString(),
    ]);
    return id;
  });
}

/** Marks the run complete and folds the repository's coverage into as few ranges as it takes. */
async function finishSync(archive: Archive, repo: string, syncId: number, added: number, finishedAt: Date): Promise<void> {
  const merged = await readCoverage(archive, repo);
  await archive.transaction(async () => {
    await archive.run("DELETE FROM coverage WHERE repository = ?", [repo]);
    for (const r of merged)
      await archive.run("INSERT INTO coverage VALUES (?, ?::TIMESTAMPTZ, ?::TIMESTAMPTZ)", [repo, iso(r.from), iso(r.to)]);
    await archive.run("UPDATE syncs SET finished_at = ?::TIMESTAMPTZ, added = ?, complete = true WHERE id = ?", [
      finishedAt.toISOString(),
      added,
      syncId,
    ]);
  });
}

/** The repository's covered ranges, merged where they touch, oldest first. */
export async function readCoverage(archive: Archive, repo: string): Promise<Range[]> {
  const rows = await archive.all(
    "SELECT epoch_us(range_from) AS f, epoch_us(range_to) AS t FROM coverage WHERE repository = ? ORDER BY range_from",
    [repo],
  );
  return mergeRanges(rows.map((r) => ({ from: Number(r.f) / 1000, to: Number(r.t) / 1000 })));
}

export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.from <= last.to) last.to = Math.max(last.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

/** The parts of `target` that no range of `covered` (merged, sorted) holds. */
export function subtract(target: Range, covered: readonly Range[]): Range[] {
  const out: Range[] = [];
  let at = target.from;
  for (const c of covered) {
    if (c.to <= at) continue;
    if (c.from >= target.to) break;
    if (c.from > at) out.push({ from: at, to: c.from });
    at = Math.max(at, c.to);
  }
  if (at < target.to) out.push({ from: at, to: target.to });
  return out;
}

/** One-day pieces; both ends are inclusive at the API, so neighbours share an instant (the key drops the repeat). */
export function splitDays(range: Range): Range[] {
  const out: Range[] = [];
  for (let from = range.from; from < range.to; from += DAY_MS) out.push({ from, to: Math.min(from + DAY_MS, range.to) });
  return out;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Runs the functions given one after the other, in the order given. */
function serialiser(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** The client, with at most `limit` requests in flight through it, in the order they were asked. */
function limitedClient(client: ApiClient, limit: number): ApiClient {
  let inFlight = 0;
  const queue: Array<() => void> = [];
  return {
    baseUrl: client.baseUrl,
    throttles: client.throttles ? () => client.throttles!() : undefined,
    async get(target, query) {
      if (inFlight >= limit) await new Promise<void>((r) => queue.push(r));
      else inFlight++;
      try {
        return await client.get(target, query);
      } finally {
        const next = queue.shift();
        if (next) next();
        else inFlight--;
      }
    },
  };
}
