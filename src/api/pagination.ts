// Link-header pagination (RFC 8288, which obsoletes RFC 5988). The service gives the next page as an
// opaque cursor inside a `Link: <...>; rel="next"` URL; mq follows those links rather than building
// cursors itself, so it works with any server that sends `next` (with or without first/prev/last).
import type { ApiClient, ApiResponse, QueryInput } from "./client.js";
import { ContractError, InterruptedError } from "../errors.js";
import { messageText } from "../iostreams/terminal-text.js";
import { PageGuard, type PageOrder } from "./pagination-guard.js";

export interface Link {
  /** absolute when a base URL was given, else as written */
  url: string;
  /** relation types, lower-cased (`rel="next last"` gives ["next", "last"]) */
  rel: string[];
  /** every parameter, names lower-cased, first occurrence wins (RFC 8288 3.3) */
  params: Record<string, string>;
}

/** space, tab, CR, LF: character codes, not a regex test a character (a Link header is read every page) */
function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/**
 * Parses a Link header: several links separated by commas, parameters with quoted or bare values,
 * several space-separated relations in one `rel`, and commas or semicolons inside `<...>` or quotes.
 * Relative URLs are resolved against `base` (the URL of the request that returned the header).
 * A malformed link is skipped, not fatal: the rest of the header is still usable. The relations of
 * what was skipped go to `broken` when given (a `next` mq cannot read must not end a run quietly).
 */
export function parseLinkHeader(header: string, base?: string | URL, broken?: string[][]): Link[] {
  const links: Link[] = [];
  let i = 0;
  const n = header.length;
  const skipWs = () => {
    while (i < n && isWs(header.charCodeAt(i))) i++;
  };
  const skipToNextLink = () => {
    // resumes after the next comma that is outside quotes and brackets
    const from = i;
    let quoted = false;
    while (i < n) {
      const c = header[i]!;
      if (quoted) {
        if (c === "\\") i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === ",") break;
      i++;
    }
    if (broken !== undefined) {
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(header.slice(from, i));
      if (rel)
        broken.push(
          (rel[1] ?? rel[2] ?? "")
            .split(/[ \t]+/)
            .filter(Boolean)
            .map((r) => r.toLowerCase()),
        );
    }
    i++;
  };

  while (i < n) {
    skipWs();
    if (header[i] === ",") {
      i++;
      continue;
    }
    if (i >= n) break;
    if (header[i] !== "<") {
      skipToNextLink();
      continue;
    }
    const close = header.indexOf(">", i + 1);
    if (close < 0) {
      skipToNextLink();
      continue;
    }
    const target = header.slice(i + 1, close).trim();
    i = close + 1;
    const params: Record<string, string> = {};
    for (;;) {
      skipWs();
      if (header[i] !== ";") break;
      i++;
      skipWs();
      const nameStart = i;
      for (let c = header.charCodeAt(i); i < n && c !== 0x3d && c !== 0x3b && c !== 0x2c && !isWs(c); c = header.charCodeAt(++i));
      const name = header.slice(nameStart, i).toLowerCase();
      skipWs();
      let value = "";
      if (header[i] === "=") {
        i++;
        skipWs();
        if (header[i] === '"') {
          i++;
          let from = i;
          while (i < n && header.charCodeAt(i) !== 0x22) {
            if (header.charCodeAt(i) === 0x5c && i + 1 < n) {
              // a quoted pair: the backslash goes, the character after it stays
              value += header.slice(from, i);
              from = ++i;
            }
            i++;
          }
          value += header.slice(from, i);
          i++;
        } else {
          const valueStart = i;
          for (let c = header.charCodeAt(i); i < n && c !== 0x3b && c !== 0x2c && !isWs(c); c = header.charCodeAt(++i));
          value = header.slice(valueStart, i);
        }
      }
      if (name && !(name in params)) params[name] = value;
    }
    skipWs();
    if (i < n && header[i] !== ",") {
      skipToNextLink();
    }
    const rel = (params.rel ?? "")
      .split(/[ \t]+/)
      .filter(Boolean)
      .map((r) => r.toLowerCase());
    let url = target;
    if (base !== undefined) {
      try {
        url = new URL(target, base).href;
      } catch {
        broken?.push(rel);
        continue;
      }
    }
    links.push({ url, rel, params });
  }
  return links;
}

/** The URL of the first link with relation `rel`, or undefined. */
export function findLink(links: readonly Link[], rel: string): string | undefined {
  return links.find((l) => l.rel.includes(rel))?.url;
}

/** The `cursor` query parameter of a page URL. */
export function cursorOf(url: string | URL | undefined): string | undefined {
  if (url === undefined) return undefined;
  // a URL is read as it is (its searchParams are parsed once and kept): a walk asks this of each
  // next link three times, and parsing the URL again each time cost ~45 ms over 1,000 pages
  if (url instanceof URL) return url.searchParams.get("cursor") ?? undefined;
  try {
    return new URL(url).searchParams.get("cursor") ?? undefined;
  } catch {
    return undefined;
  }
}

export interface Page<T> {
  /** the page's items, cut to the limit */
  events: T[];
  /** the URL that returned this page */
  url: URL;
  /** the cursor that requested this page (undefined for the first page without --cursor) */
  cursor: string | undefined;
  /** the next page, undefined on the last page or once the limit is reached */
  nextUrl: URL | undefined;
  /** true when there were more items (in this page or beyond) than the limit let through */
  truncated: boolean;
}

export interface PaginateOptions<T> {
  /** stop after this many items in all */
  limit?: number;
  signal?: AbortSignal;
  /**
   * turns a response body into the page's items (validation happens here); `res` has the text as
   * sent. It may return a promise: a validator loaded only when a page needs it.
   */
  parse: (body: unknown, url: URL, res: ApiResponse) => T[] | Promise<T[]>;
  /**
   * a next link that repeats a page already fetched: the walk would loop. By default a contract
   * error (exit 6) once the page is written; given, called instead, and the walk ends there.
   */
  onRepeat?: (url: URL) => void;
  /**
   * each item's received_at and id: a page that repeats an event already yielded or is newer than
   * the pages before it stops the walk (pagination-guard.ts) before it is yielded
   */
  order?: PageOrder<T>;
  /**
   * ask for the next page while the caller writes this one (one request ahead, never more: two
   * pages in memory at most). Off where a pool bounds the requests in flight (api/slices.ts).
   */
  prefetch?: boolean;
}

/** The next page, asked for before the walk reaches it; its failure waits for the walk. */
interface Ahead {
  url: URL;
  response: Promise<ApiResponse>;
  abort: AbortController;
}

/**
 * Fetches pages one at a time, following rel="next", and yields each as soon as it arrives; the
 * caller writes it out before the next request, so nothing accumulates across pages. Stops at the
 * limit or at a page without a next link; a next link that repeats a URL or cursor already seen, a
 * page that repeats events or goes back in time (`order`), and empty pages without end are server
 * bugs that would loop forever: contract errors (exit 6), nothing written twice.
 */
export async function* paginate<T>(
  client: ApiClient,
  first: string | URL,
  query: QueryInput | undefined,
  opts: PaginateOptions<T>,
): AsyncGenerator<Page<T>> {
  const seenUrls = new Set<string>();
  const seenCursors = new Set<string>();
  let remaining = opts.limit ?? Infinity;
  let target: string | URL = first;
  let targetQuery = query;
  let cursor: string | undefined = typeof query?.cursor === "string" ? query.cursor : undefined;
  let fetched = 0;
  let pages = 0;
  const guard = new PageGuard<T>(opts.order);
  let loopedAt: URL | undefined;

  let ahead: Ahead | undefined;
  // a finite limit may end the walk on any page: ask ahead only once this page's count is known, so
  // no request goes beyond what the walk would send. Without one, as soon as the Link header is read.
  const earlyAhead = opts.limit === undefined;
  const askAhead = (url: URL): Promise<void> => {
    const abort = new AbortController();
    // parsed when the walk reaches it, after asking for the page beyond (deferParse)
    const response = client.get(url, undefined, { signal: abort.signal, deferParse: true });
    // handled now, thrown when the walk reaches this page: pages before it are written first
    response.catch(() => undefined);
    ahead = { url, response, abort };
    // The request leaves only on the event loop's next turn (node:http assigns its socket in a
    // nextTick, run once the microtasks are done): without a turn here it would wait for the caller,
    // whose writes to a pipe resolve without one, to be done with this page — no overlap at all.
    return new Promise<void>((resolve) => setImmediate(resolve));
  };
  const unseen = (url: URL) => {
    const c = cursorOf(url);
    return !seenUrls.has(url.href) && (c === undefined || !seenCursors.has(c));
  };

  try {
    for (;;) {
      if (opts.signal?.aborted) throw new InterruptedError();
      let res: ApiResponse;
      if (ahead !== undefined && ahead.url.href === String(target)) {
        const { response } = ahead;
        ahead = undefined;
        res = await response;
      } else res = await client.get(target, targetQuery);
      if (opts.signal?.aborted) throw new InterruptedError();
      seenUrls.add(res.url.href);
      if (cursor !== undefined) seenCursors.add(cursor);

      const linkHeader = res.headers.link;
      const broken: string[][] = [];
      const nextHref = linkHeader ? findLink(parseLinkHeader(linkHeader, res.url, broken), "next") : undefined;
      let nextUrl = nextHref !== undefined ? new URL(nextHref) : undefined;
      if (opts.prefetch && earlyAhead && nextUrl !== undefined && unseen(nextUrl)) {
        await askAhead(nextUrl);
      }

      const parsed = opts.parse(res.body, res.url, res);
      let events = parsed instanceof Promise ? await parsed : parsed;
      let truncated = false;
      // a next page the server announced but mq cannot read: after this page, an error (exit 6)
      // rather than a short result that looks complete
      const unreadableNext = nextUrl === undefined && broken.some((rel) => rel.includes("next")) ? linkHeader : undefined;
      guard.check(events, nextUrl !== undefined, fetched, pages);
      fetched += events.length;
      pages++;

      if (events.length >= remaining) {
        truncated = events.length > remaining || nextUrl !== undefined;
        if (events.length > remaining) events = events.slice(0, remaining);
        nextUrl = undefined;
      }
      remaining -= events.length;

      if (nextUrl !== undefined && !unseen(nextUrl)) {
        if (opts.onRepeat) opts.onRepeat(nextUrl);
        else loopedAt = nextUrl;
        nextUrl = undefined;
      }
      if (opts.prefetch && !earlyAhead && nextUrl !== undefined) {
        await askAhead(nextUrl);
      }
      yield { events, url: res.url, cursor, nextUrl, truncated };
      if (unreadableNext !== undefined && remaining > 0) {
        const shown = unreadableNext.length > 300 ? `${unreadableNext.slice(0, 299)}…` : unreadableNext;
        throw new ContractError(
          `the server's Link header has a next page mq cannot read: ${messageText(shown)}`,
          `mq stopped after ${fetched} event${fetched === 1 ? "" : "s"} (${pages} page${pages === 1 ? "" : "s"}); the rest cannot be fetched: report the header to the API provider`,
        );
      }
      if (loopedAt !== undefined)
        throw new ContractError(
          `the server's next-page link repeats a page already fetched (cursor ${messageText(cursorOf(loopedAt) ?? loopedAt.href)}): its pagination would loop`,
          `mq stopped after ${fetched} event${fetched === 1 ? "" : "s"} (${pages} page${pages === 1 ? "" : "s"}), each written once; report this to the API provider`,
        );
      if (nextUrl === undefined) return;
      target = nextUrl;
      targetQuery = undefined;
      cursor = cursorOf(nextUrl);
    }
  } finally {
    // the caller stopped (a limit, a closed stdout, Ctrl-C) or the walk failed: the page asked
    // ahead is not wanted
    ahead?.abort.abort();
  }
}
