// Parallel time slices: a long window of the event log walked as consecutive sub-windows fetched at
// once, each following its own Link cursor, and handed out in order, newest first, exactly as one
// sequential walk would give them. Over a network, a long window is latency-bound (a page a round
// trip); slices make it bandwidth-bound. Any walker of the log can use it: `mq logs`, archive sync,
// insights.
//
// How the slices are cut. The first page of the whole window is fetched alone: it is the newest
// slice, and it tells how dense the log is (events per millisecond). Older slices are then planned
// one at a time, each meant to hold about TARGET_PAGES pages at the density seen so far, ending at
// the instant the previous one starts. Both ends of a window are inclusive (docs/api.md), so an
// event exactly at a boundary instant comes in both neighbours: the older one drops the ids the newer
// one already gave. Within a slice, pages come in the server's order; between slices, time orders
// them. The output is therefore the sequential walk's, byte for byte.
//
// A merge queue's log is not evenly dense (working hours hold ten times the events of a night), so
// a plan from an average is often wrong, and a slice planned for 4 pages that holds 12 is walked
// page after page while the pool waits for it. So a worker with nothing to plan splits a slice still
// being walked: the rest of its range (from the oldest instant its pages reached down to its start)
// is cut in two, the older half becomes a slice of its own fetched at once, and the walk of the
// first stops at the cut (the events below it that its last page brings are the new slice's). And
// the last slices are not cut finer than a page: the walk's end is not a tail of empty requests.
//
// Memory stays bounded without spilling: at most WINDOW slices ahead of the one being written are
// planned, splits stop at twice that, and each slice holds at most BUFFERED_PAGES pages before its
// fetching waits for the writer (back-pressure).
//
// Throttling: the transport makes every request of the client wait out a Retry-After seen by any of
// them; here each throttled answer also halves the number of requests in flight (at least one).
import type { ApiClient, QueryInput } from "./client.js";
import { cursorOf, paginate, type PaginateOptions } from "./pagination.js";
import { MAX_PARALLEL } from "./slice-limits.js";

/** pages a planned slice is meant to hold */
const TARGET_PAGES = 4;
/** pages a slice keeps before its fetching waits for the writer */
const BUFFERED_PAGES = 8;
/** a slice is split only when the rest of its range is expected to hold at least this many pages */
const SPLIT_PAGES = 2;

export interface SliceWalkOptions<T> {
  client: ApiClient;
  /** the log's path, e.g. /repos/o/r/logs */
  path: string;
  /**
   * The query of the sequential walk (filters, per_page, received_from, received_to if any, no
   * cursor): its first page is the newest slice; older slices set received_from and received_to.
   */
  query: QueryInput;
  /** the window's start: received_from of the query */
  since: Date;
  /** the window's end, or the client's now when the server's now is used (density estimate only) */
  until: Date;
  /** requests in flight at most (the pool); 1 is the sequential walk */
  parallel: number;
  parse: PaginateOptions<T>["parse"];
  signal: AbortSignal;
  /** an item's received_at in ms since the epoch */
  timeOf: (item: T) => number;
  idOf: (item: T) => unknown;
  onRepeat?: (url: URL) => void;
}

/** A page of the output, with where a resumed walk would pick up after it. */
export interface SlicePage<T> {
  events: T[];
  /** the end (received_to) of the window still to fetch after this page; undefined: the query's own */
  resumeUntil: string | undefined;
  /** the cursor within that window, when the page's slice has more pages */
  resumeCursor: string | undefined;
}

interface Slice<T> {
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
  /** pages fetched and not yet handed out */
  pages: Array<{ events: T[]; next: URL | undefined }>;
  done: boolean;
  /** its walk has begun (its pages are being fetched) */
  fetching: boolean;
  error?: unknown;
  /** events seen and the oldest instant reached: the density estimate */
  seen: number;
  oldestMs: number;
  /** wakes the writer waiting for this slice's next page */
  wake: () => void;
  /** wakes this slice's fetching, waiting for room in its buffer */
  space: () => void;
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function* walkSlices<T>(o: SliceWalkOptions<T>): AsyncGenerator<SlicePage<T>> {
  const sinceMs = o.since.getTime();
  const perPage = Number(o.query.per_page ?? 100);
  const sliceQuery = (from: string, to: string): QueryInput => ({ ...o.query, received_from: from, received_to: to, cursor: undefined });
  const paginateOpts = { signal: o.signal, parse: o.parse, onRepeat: o.onRepeat, order: { timeOf: o.timeOf, idOf: o.idOf } };

  // the newest slice: the first page of the sequential walk, fetched alone
  const head = paginate(o.client, o.path, { ...o.query, cursor: undefined }, paginateOpts);
  if (o.parallel <= 1) {
    for await (const page of head) yield { events: page.events, resumeUntil: undefined, resumeCursor: cursorOf(page.nextUrl) };
    return;
  }
  const first = await head.next();
  if (first.done) return;
  const firstPage = first.value;
  if (firstPage.nextUrl === undefined || firstPage.events.length === 0) {
    yield { events: firstPage.events, resumeUntil: undefined, resumeCursor: undefined };
    return;
  }
  await head.return(undefined);

  // The next slice ends 1 ms after the first page's oldest event, so that it holds every event of
  // that millisecond (the page may end in the middle of them); the ones the page gave are dropped
  // (an event at exactly oldest + 1 ms is on the page too, and the next slice includes its end).
  const oldest = o.timeOf(firstPage.events[firstPage.events.length - 1]!);
  let boundaryIds = idsAt(firstPage.events, oldest, oldest + 2, o.timeOf, o.idOf);
  let plannedTo = oldest + 1;
  // the first page's own span (its newest to its oldest event) says how dense the log is there
  const newest = o.timeOf(firstPage.events[0]!);
  const density =
    newest > oldest ? (firstPage.events.length - 1) / (newest - oldest) : firstPage.events.length / Math.max(1, o.until.getTime() - oldest);
  yield { events: firstPage.events, resumeUntil: iso(plannedTo), resumeCursor: undefined };

  const slices: Slice<T>[] = [];
  let headIndex = 0;
  let limit = Math.max(1, Math.min(o.parallel, MAX_PARALLEL));
  const window = 2 * limit;
  let inFlight = 0;
  let throttlesSeen = o.client.throttles?.() ?? 0;
  let stopped = false;
  let failed = false;
  let permitWaiters: Array<() => void> = [];
  let progressWaiters: Array<() => void> = [];
  const progressed = () => {
    const ws = progressWaiters;
    progressWaiters = [];
    for (const w of ws) w();
  };
  const waitProgress = () => new Promise<void>((r) => progressWaiters.push(r));

  /** events per ms over what the slices fetched so far cover */
  const estimate = () => {
    let seen = 0;
    let span = 0;
    for (const s of slices) {
      seen += s.seen;
      span += s.toMs - s.oldestMs;
    }
    return seen > 0 && span > 0 ? seen / span : density;
  };

  const newSlice = (fromMs: number, toMs: number): Slice<T> => ({
    from: iso(fromMs),
    to: iso(toMs),
    fromMs,
    toMs,
    pages: [],
    done: false,
    fetching: false,
    seen: 0,
    oldestMs: toMs,
    wake: () => undefined,
    space: () => undefined,
  });

  const plan = (): Slice<T> | undefined => {
    if (plannedTo <= sinceMs || failed || stopped || slices.length - headIndex >= window) return undefined;
    const density = Math.max(estimate(), 1e-12);
    // an estimate from few pages can be far off: no slice takes more than its share of what is left
    // for the pool, so a sparse start never leaves one long slice walked page after page; but none
    // is cut finer than a page, and what a page would hold is not left for a slice of its own
    const onePage = Math.ceil(perPage / density);
    const share = Math.ceil((plannedTo - sinceMs) / limit);
    let span = Math.max(1, onePage, Math.min(share, Math.round((TARGET_PAGES * perPage) / density)));
    if (plannedTo - span - sinceMs < onePage) span = plannedTo - sinceMs;
    const slice = newSlice(Math.max(sinceMs, plannedTo - span), plannedTo);
    plannedTo = slice.fromMs;
    slices.push(slice);
    progressed();
    return slice;
  };

  /**
   * The older half of the rest of the slice being walked with the most left to fetch, as a slice of
   * its own (inserted right after it); that slice's walk now ends at the cut.
   */
  const split = (): Slice<T> | undefined => {
    if (failed || stopped || slices.length - headIndex >= 2 * window) return undefined;
    const fallback = estimate();
    let best: Slice<T> | undefined;
    let bestPages = SPLIT_PAGES;
    for (let i = headIndex; i < slices.length; i++) {
      const s = slices[i]!;
      // a slice not yet started, or whose first page is not back, gives no density to judge by
      if (s.done || !s.fetching || s.seen === 0) continue;
      const density = s.toMs > s.oldestMs ? s.seen / (s.toMs - s.oldestMs) : fallback;
      const pages = ((s.oldestMs - s.fromMs) * density) / perPage;
      if (pages >= bestPages) {
        best = s;
        bestPages = pages;
      }
    }
    if (!best) return undefined;
    const cut = best.fromMs + Math.floor((best.oldestMs - best.fromMs) / 2);
    if (cut <= best.fromMs || cut >= best.oldestMs) return undefined;
    const older = newSlice(best.fromMs, cut);
    best.fromMs = cut;
    best.from = iso(cut);
    slices.splice(slices.indexOf(best) + 1, 0, older);
    progressed();
    return older;
  };

  const acquire = async () => {
    for (;;) {
      const t = o.client.throttles?.() ?? 0;
      // each throttled answer halves the pool
      for (; throttlesSeen < t; throttlesSeen++) limit = Math.max(1, Math.ceil(limit / 2));
      if (inFlight < limit || stopped) {
        inFlight++;
        return;
      }
      await new Promise<void>((r) => permitWaiters.push(r));
    }
  };
  const release = () => {
    inFlight--;
    permitWaiters.shift()?.();
  };

  const fetchSlice = async (slice: Slice<T>) => {
    slice.fetching = true;
    const pages = paginate(o.client, o.path, sliceQuery(slice.from, slice.to), paginateOpts);
    try {
      for (;;) {
        while (slice.pages.length >= BUFFERED_PAGES && slice !== slices[headIndex] && !stopped)
          await new Promise<void>((r) => (slice.space = r));
        if (stopped) break;
        await acquire();
        let r: IteratorResult<Awaited<ReturnType<typeof pages.next>>["value"]>;
        try {
          r = await pages.next();
        } finally {
          release();
        }
        if (r.done) break;
        let { events, nextUrl } = r.value;
        slice.seen += events.length;
        // split meanwhile: the events below the cut are the older slice's, and this walk is over
        const below = events.length > 0 && o.timeOf(events[events.length - 1]!) < slice.fromMs;
        if (below) {
          events = events.filter((e: T) => o.timeOf(e) >= slice.fromMs);
          nextUrl = undefined;
        }
        slice.oldestMs = nextUrl === undefined ? slice.fromMs : events.length > 0 ? o.timeOf(events[events.length - 1]!) : slice.oldestMs;
        slice.pages.push({ events, next: nextUrl });
        slice.wake();
        progressed();
        if (nextUrl === undefined) break;
      }
    } catch (err) {
      slice.error = err;
      failed = true;
    } finally {
      slice.done = true;
      slice.wake();
      progressed();
      await pages.return(undefined).catch(() => undefined);
    }
  };

  // a worker takes the next slice in time order, never more than `window` ahead of the one written,
  // or else splits the one with the most left to fetch; it ends when the window is planned and no
  // slice is left being walked
  const worker = async () => {
    for (;;) {
      if (stopped || failed) return;
      const slice = plan() ?? split();
      if (slice) {
        await fetchSlice(slice);
        continue;
      }
      if (plannedTo <= sinceMs && slices.every((s) => s.done)) return;
      await waitProgress();
    }
  };
  const workers = Promise.all(Array.from({ length: limit }, () => worker()));

  try {
    for (; ; headIndex++) {
      progressed();
      while (headIndex >= slices.length) {
        if (plannedTo <= sinceMs || failed) {
          await workers;
          if (headIndex >= slices.length) return;
        } else await waitProgress();
      }
      const slice = slices[headIndex]!;
      slice.space();
      // the ids at this slice's oldest instant: the next slice starts there, inclusively
      const nextBoundary = new Set<unknown>();
      for (;;) {
        const page = slice.pages.shift();
        if (page) {
          slice.space();
          for (const id of idsAt(page.events, slice.fromMs, slice.fromMs + 1, o.timeOf, o.idOf)) nextBoundary.add(id);
          // an event exactly at the boundary instant came with the newer slice already
          const events = boundaryIds.size > 0 ? page.events.filter((e) => !boundaryIds.has(o.idOf(e))) : page.events;
          const last = page.next === undefined;
          yield { events, resumeUntil: last ? slice.from : slice.to, resumeCursor: last ? undefined : cursorOf(page.next) };
          continue;
        }
        if (slice.error !== undefined) throw slice.error;
        if (slice.done) break;
        await new Promise<void>((r) => (slice.wake = r));
      }
      boundaryIds = nextBoundary;
    }
  } finally {
    stopped = true;
    const ws = permitWaiters;
    permitWaiters = [];
    for (const w of ws) w();
    progressed();
    for (const s of slices) s.space();
  }
}

/** The ids of the events received in [lo, hi) ms (at a page's old end): the next slice repeats them. */
function idsAt<T>(events: readonly T[], lo: number, hi: number, timeOf: (e: T) => number, idOf: (e: T) => unknown): Set<unknown> {
  const ids = new Set<unknown>();
  for (let i = events.length - 1; i >= 0; i--) {
    const t = timeOf(events[i]!);
    if (t >= hi) break;
    if (t >= lo) ids.add(idOf(events[i]!));
  }
  return ids;
}
