// The event log of a window, one event at a time, through the same client and Link pagination as
// `mq logs`: a long window in parallel time slices (api/slices.ts), which give exactly the events,
// in the order, of one walk page after page; pages are dropped once read.
import type { Context } from "../context.js";
import type { QueryInput } from "../api/client.js";
import type { LogEvent } from "../api/events.js";
import { StayBuilder, type Stay } from "./stays.js";
import { QUEUE_EVENT_TYPES } from "./dialects.js";
import { DEFAULT_PARALLEL } from "../api/slice-limits.js";
import { pageCheck } from "../api/schema/page-check.js";
import { paginate } from "../api/pagination.js";
import { LOG_ORDER } from "../api/pagination-guard.js";
import { checkEventIds, eventIdKey } from "../api/event-ids.js";
import type { ApiResponse } from "../api/client.js";
import { walkSlices } from "../api/slices.js";
import { apiHeldSince } from "../context/data-held.js";
import { formatInstant, formatTime } from "../iostreams/human.js";

export interface WalkOptions {
  owner: string;
  name: string;
  since: Date;
  until: Date;
  /** only these event types (the log filters them) */
  types?: readonly string[];
  pullRequest?: number;
  baseRef?: string;
  /** called after each page with the running count */
  onPage?: (events: number, pages: number) => void;
  /** requests in flight at most over the API (--parallel; 1: page after page); default as mq logs */
  parallel?: number;
}

export const PAGE_SIZE = 100;

/**
 * Where the analyses read the log from: the API (apiEventSource, below) or the archive
 * (source.ts). Both hand over the same events in the same order (newest first) for the same
 * query, so the stays, and everything built on them, are the same whichever answers.
 */
export interface EventSource {
  /** the archive answers */
  readonly fromArchive: boolean;
  /** the events of one repository in a window, newest first; onPage after each page or batch */
  events(q: WalkOptions): AsyncIterable<LogEvent>;
  /**
   * The same events cut down to what a stay is built from (dialects.ts stayEvent), when the source
   * has them at hand for less than whole events (the archive); the queue event types only. In
   * batches, each event made when asked for: one await per batch, not per event.
   */
  stayEvents?(q: WalkOptions & { types: readonly string[] }): AsyncIterable<EventBatch>;
  /**
   * The parts of a window the source holds no events for, for one repository (epoch ms, oldest
   * first), and where the source's data is, in words: events missing there are not events that
   * did not happen (`mq insights` compares with no such window).
   */
  missing(repository: string, since: Date, until: Date): Promise<MissingData>;
}

export interface MissingData {
  parts: Array<{ from: number; to: number }>;
  /** "before the bundled server's history (from 2026-10-21 00:00:00Z)", "outside what the archive covers" */
  where: string;
}

/** Events read one by one, valid until the next batch is asked for. */
export interface EventBatch {
  readonly length: number;
  at(i: number): LogEvent;
}

export function apiEventSource(ctx: Context): EventSource {
  return {
    fromArchive: false,
    events: (q) => walkLog(ctx, q),
    async missing(_repository, since, until) {
      const held = await apiHeldSince(ctx);
      if (!held || since.getTime() >= held.from) return { parts: [], where: "" };
      return {
        parts: [{ from: since.getTime(), to: Math.min(until.getTime(), held.from) }],
        where: `before ${held.what} (from ${formatTime(held.from)})`,
      };
    },
  };
}

export async function* walkLog(ctx: Context, opts: WalkOptions): AsyncGenerator<LogEvent> {
  const client = await ctx.apiClient();
  const parallel = opts.parallel ?? DEFAULT_PARALLEL;
  const { dialect } = await ctx.dialect();
  // against the dialect in effect, as `mq logs` checks (zod only for a page the generated checks
  // cannot vouch for); the metadata only under --strict, as below
  const checkPage = await pageCheck(dialect.name, ctx.globals.strict ? "pages" : "envelopes");
  const path = `/repos/${encodeURIComponent(opts.owner)}/${encodeURIComponent(opts.name)}/logs`;
  const query: QueryInput = {
    pull_request: opts.pullRequest,
    base_ref: opts.baseRef,
    event_type: opts.types,
    received_from: formatInstant(opts.since),
    received_to: formatInstant(opts.until),
    per_page: PAGE_SIZE,
  };
  // envelopes are checked; metadata is read field by field, tolerant of either dialect, so a
  // contract mismatch is no news here (unless --strict asks for it)
  // ids beyond 2^53 kept exact (the walk's guard and slices key events by id), beyond int64 refused
  const withIds = (events: LogEvent[], res: ApiResponse): LogEvent[] => {
    checkEventIds(events, res, "nothing was read after it");
    return events;
  };
  const parse = (body: unknown, _url: URL, res: ApiResponse) => {
    const events = checkPage(body, { strict: ctx.globals.strict, checkMetadataOf: () => false }) as LogEvent[] | Promise<LogEvent[]>;
    return Array.isArray(events) ? withIds(events, res) : events.then((e) => withIds(e, res));
  };
  let count = 0;
  let pages = 0;
  // --parallel 1: page after page; else parallel time slices
  const walk =
    parallel > 1
      ? walkSlices<LogEvent>({
          client,
          path,
          query,
          since: opts.since,
          until: opts.until,
          parallel,
          parse,
          signal: ctx.signal,
          timeOf: (e) => Date.parse(e.received_at),
          idOf: eventIdKey,
        })
      : paginate(client, path, query, {
          signal: ctx.signal,
          parse,
          order: LOG_ORDER,
        });
  for await (const page of walk) {
    pages++;
    count += page.events.length;
    for (const e of page.events) yield e;
    opts.onPage?.(count, pages);
  }
}

export interface StaysWalkOptions extends Omit<WalkOptions, "types" | "since" | "until"> {
  /** the spans to read; overlapping or touching spans are read as one */
  spans: ReadonlyArray<{ since: Date; until: Date }>;
  /** may return a promise (output waiting for a slow reader): the walk waits for it */
  onStay: (stay: Stay) => void | Promise<void>;
}

/** Reads the queue events of each span from the source (the API or the archive) and hands over every stay they contain. */
export async function walkStays(source: EventSource, opts: StaysWalkOptions): Promise<void> {
  for (const span of mergeSpans(opts.spans)) {
    const ready: Stay[] = [];
    const repository = `${opts.owner}/${opts.name}`;
    // the repository asked for names the stay, whatever the events say (several are merged)
    const builder = new StayBuilder({ onStay: (s) => void ready.push({ ...s, repository }) });
    // the stays in order; a promise only when a consumer asks to wait (an await per stay cost
    // more than the stay)
    const drain = (): Promise<void> | undefined => {
      while (ready.length > 0) {
        const wait = opts.onStay(ready.shift()!);
        if (wait) return wait.then(drain);
      }
      return undefined;
    };
    const query = { ...opts, ...span, types: QUEUE_EVENT_TYPES };
    if (source.stayEvents) {
      for await (const batch of source.stayEvents(query)) {
        for (let i = 0; i < batch.length; i++) {
          builder.push(batch.at(i));
          const wait = ready.length > 0 ? drain() : undefined;
          if (wait) await wait;
        }
      }
    } else {
      for await (const ev of source.events(query)) {
        builder.push(ev);
        const wait = ready.length > 0 ? drain() : undefined;
        if (wait) await wait;
      }
    }
    builder.finish();
    await drain();
  }
}

export function mergeSpans(spans: ReadonlyArray<{ since: Date; until: Date }>): Array<{ since: Date; until: Date }> {
  const sorted = [...spans].sort((a, b) => a.since.getTime() - b.since.getTime());
  const out: Array<{ since: Date; until: Date }> = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.since.getTime() <= last.until.getTime()) {
      if (s.until.getTime() > last.until.getTime()) last.until = s.until;
    } else out.push({ since: s.since, until: s.until });
  }
  return out;
}
