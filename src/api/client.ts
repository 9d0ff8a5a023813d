// The HTTP transport, and only that: GET a path or a Link URL below one API root with one token,
// keep the token on the API origin (and on https unless the host is loopback or --insecure), carry
// out the retry policy of retry.ts, and turn every failure into a typed error. The bytes travel
// over a Wire (api/wire.ts: node:http, or undici for proxies and injected dispatchers); which URL,
// token, timeout and wire to use is the factory's business (context/api-client.ts).
import { setMaxListeners } from "node:events";
import { STATUS_CODES } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { CONNECT_TIMEOUT_CODE, type Wire, type WireHeaders } from "./wire.js";
import { version } from "../../package.json";
import { ContractError, HttpError, InterruptedError, NetworkError, UsageError } from "../errors.js";
import { isLoopbackHost, stripUserinfo } from "./urls.js";
import { messageText } from "../iostreams/terminal-text.js";
import { BodyCutShortError, BodyTooLargeError, MAX_BODY_BYTES, readBodyText } from "./body.js";
import { formatErrorBody, parseErrorBody } from "./error-body.js";
import { scanJson, type Span } from "./json-scan.js";
import { decideRetry, MAX_ATTEMPTS, parseRetryAfter, RESET_CODES, type Outcome } from "./retry.js";
import { formatBytes, formatCount, formatTime } from "../iostreams/human.js";

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryInput = Record<string, QueryValue>;

export interface ApiResponse {
  /** the URL actually requested (after query encoding) */
  url: URL;
  status: number;
  /** lower-cased header names */
  headers: Record<string, string | undefined>;
  body: unknown;
  /** the body as received (decoded UTF-8, a 2xx answer): `-o ndjson` and `mq archive` keep each event's own text from it */
  text?: string;
  /** where each element of the body's root-level arrays sits in `text` (api/json-scan.ts) */
  rootArrays?: Map<string, Span[]>;
  /** the body was not valid UTF-8: `text` holds U+FFFD where the bad bytes were */
  invalidUtf8?: boolean;
  /** the body's bytes when `text` is exactly them, one byte a character (api/body.ts) */
  ascii?: Buffer;
}

/** The warning for a response that was not valid UTF-8 (the caller writes it where its warnings go). */
export function invalidUtf8Warning(url: URL): string {
  return `mq: warning: GET ${url.pathname}${url.search} returned bytes that are not UTF-8; they are shown as U+FFFD`;
}

/**
 * Deeper than this, a JSON answer is refused (exit 6): the API's answers nest at most 10 levels, and
 * validation, JSON.stringify and the renderers recurse (JSON.stringify overflows the stack near
 * 5,000 levels; a server sent 100,000).
 */
export const MAX_JSON_DEPTH = 256;

export interface ApiClient {
  /** API root including /v1, without a trailing slash */
  readonly baseUrl: URL;
  /**
   * GET a path below baseUrl ("/repos/o/r/logs") with query parameters (arrays as repeated keys),
   * or an absolute URL taken from a Link header (same origin as baseUrl only). Non-2xx statuses
   * throw HttpError; network failures and timeouts throw NetworkError. `request.signal` ends this
   * request alone (a page fetched ahead that is no longer wanted), besides the client's own signal.
   */
  get(pathOrUrl: string | URL, query?: QueryInput, request?: GetOptions): Promise<ApiResponse>;
  /** answers so far that asked the client to slow down (429, or a Retry-After): a pool shrinks on them */
  throttles?(): number;
}

export interface GetOptions {
  signal?: AbortSignal;
  /**
   * Resolve once the body is read, before it is parsed: `body` and `rootArrays` parse it when first
   * read, and throw what `get` would have thrown (JSON that is not, or nested too deep). A walk that
   * asks for the next page from the Link header gets that request out before the parse, so the
   * server prepares the next page while this one is parsed (api/pagination.ts).
   */
  deferParse?: boolean;
}

export const USER_AGENT = `mq/${version}`;
export const CONNECT_TIMEOUT_MS = 10_000;
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", CONNECT_TIMEOUT_CODE, "ETIMEDOUT"]);

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface TransportOptions {
  /** API root including /v1 */
  baseUrl: string;
  token: string;
  /** what carries the requests (api/node-wire.ts or api/undici-wire.ts) */
  wire: Wire;
  /** request timeout: the whole of one attempt, headers and body */
  timeoutMs: number;
  retry: boolean;
  /** allow the token over plain http:// to a non-loopback host */
  insecure: boolean;
  signal: AbortSignal;
  /** for Retry-After given as an HTTP date */
  now: () => Date;
  debug?: (line: string) => void;
  sleep?: Sleep;
  /** jitter source, 0 <= x < 1 */
  random?: () => number;
}

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

/** What one attempt brought back: a whole answer, or no answer and the error's code. */
type Exchange =
  | {
      kind: "status";
      status: number;
      headers: WireHeaders;
      text: string;
      invalidUtf8: boolean;
      ascii?: Buffer;
      retryAfterMs: number | undefined;
    }
  | { kind: "error"; err: unknown; code: string | undefined };

/** Everything the message of a failed HTTP answer is made from. */
interface HttpFailure {
  url: URL;
  status: number;
  /** the body as received (empty when it was skipped) */
  text: string;
  contentType: string | string[] | undefined;
  /** how many attempts were made in all */
  attempts: number;
  retryAfterMs: number | undefined;
  /** the Location header of a 3xx */
  location: string | undefined;
}

/** The transport alone, from explicit options: tests build it around a loopback server. */
export function createTransport(opts: TransportOptions): ApiClient {
  const baseUrl = apiRoot(opts.baseUrl, opts.insecure);
  // each request in flight listens on the signal; parallel stats fetches would trip Node's
  // "possible EventTarget memory leak" warning at 11 and print it on stderr
  setMaxListeners(0, opts.signal);
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const maxAttempts = opts.retry ? MAX_ATTEMPTS : 1;
  const { debug, timeoutMs, wire } = opts;
  // one headers object for every request
  const headers = { authorization: `Bearer ${opts.token}`, "user-agent": USER_AGENT, accept: "application/json" };

  // A Retry-After (or a 429) holds every request of this client, not only the one that got it:
  // parallel slices of a long window must not keep hammering a server that asked for a pause.
  let throttles = 0;
  let holdUntil = 0;

  async function get(pathOrUrl: string | URL, query?: QueryInput, request?: GetOptions): Promise<ApiResponse> {
    const url = requestUrl(baseUrl, pathOrUrl, query);
    const own = request?.signal;
    // the hold this request has already waited out (its own Retry-After included)
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      if (opts.signal.aborted || own?.aborted) throw new InterruptedError();
      if (holdUntil > waited) {
        const held = holdUntil - performance.now();
        waited = holdUntil;
        if (held > 0) await pause(held, own);
      }
      const started = debug ? performance.now() : 0;
      const result = await exchange(url, attempt, own);
      const attemptNote = attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : "";
      const outcome = result.kind === "status" ? String(result.status) : (result.code ?? "error");
      debug?.(`GET ${url.href} -> ${outcome} in ${elapsed(started)}${attemptNote}`);
      if (result.kind === "status" && result.status >= 200 && result.status < 300) {
        const { text, status } = result;
        const contentType = result.headers["content-type"];
        const response = {
          url,
          status,
          headers: flattenHeaders(result.headers),
          text,
          invalidUtf8: result.invalidUtf8,
          ascii: result.ascii,
        };
        if (request?.deferParse) return new DeferredResponse(response, contentType);
        return { ...response, ...decodeBody(text, contentType, url, status) };
      }
      const decision = decideRetry(outcomeOf(result), attempt, maxAttempts, random());
      if (decision.action === "retry") {
        if (result.kind === "status" && (result.status === 429 || result.retryAfterMs !== undefined)) {
          throttles++;
          holdUntil = Math.max(holdUntil, performance.now() + decision.waitMs);
        }
        debug?.(`retrying in ${formatSeconds(decision.waitMs)}${decision.why}`);
        waited = holdUntil;
        await pause(decision.waitMs, own);
        continue;
      }
      if (result.kind === "error") throw networkError(result.err, result.code, url, attempt, timeoutMs);
      if (decision.action === "come-back-later")
        throw comeBackLater(url, result.status, decision.retryAfterMs, result.headers["retry-after"], opts.now());
      throw httpError({
        url,
        status: result.status,
        text: result.text,
        contentType: result.headers["content-type"],
        attempts: attempt,
        retryAfterMs: result.retryAfterMs,
        location: result.headers.location as string | undefined,
      });
    }
  }

  /**
   * One request and its body, under one deadline: a timeout between chunks (undici's body timeout)
   * would let a server dripping a byte a second hold mq forever. Ctrl-C and the deadline end it.
   */
  async function exchange(url: URL, attempt: number, own: AbortSignal | undefined): Promise<Exchange> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const interrupt = () => deadline.abort();
    // two listeners rather than AbortSignal.any, which costs ~50 µs a call in Node 20 (every page)
    const { signal } = opts;
    signal.addEventListener("abort", interrupt, { once: true });
    own?.addEventListener("abort", interrupt, { once: true });
    try {
      const res = await wire.request(url, headers, deadline.signal);
      const status = res.status;
      const retryAfterMs = parseRetryAfter(res.headers["retry-after"], opts.now());
      // a body mq will not read (an answer it is about to retry) is drained, not kept
      const retrying = decideRetry({ kind: "status", status, retryAfterMs }, attempt, maxAttempts, 0).action === "retry";
      let text = "";
      let invalidUtf8 = false;
      let ascii: Buffer | undefined;
      if (retrying) await res.discard();
      // counted as it arrives and cut at the cap: a 600 MB page is never held
      else ({ text, invalidUtf8, ascii } = await readBodyText(res.body, MAX_BODY_BYTES, res.headers["content-length"]));
      // a body that ends where the connection closes (HTTP/1.0, no Content-Length) "ends" when the
      // deadline destroys the socket: what came by then is cut, not complete
      if (deadline.signal.aborted && !signal.aborted && !own?.aborted) throw timedOut(url, timeoutMs);
      return { kind: "status", status, headers: res.headers, text, invalidUtf8, ascii, retryAfterMs };
    } catch (err) {
      if (signal.aborted || own?.aborted) throw new InterruptedError();
      if (err instanceof BodyTooLargeError) throw tooLarge(url, err);
      if (deadline.signal.aborted) throw timedOut(url, timeoutMs);
      return { kind: "error", err, code: errorCode(err) };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", interrupt);
      own?.removeEventListener("abort", interrupt);
    }
  }

  async function pause(ms: number, own: AbortSignal | undefined): Promise<void> {
    // a wait is rare (a retry, a Retry-After): AbortSignal.any's cost does not matter here
    const signal = own ? AbortSignal.any([opts.signal, own]) : opts.signal;
    try {
      await sleep(ms, signal);
    } catch (err) {
      if (signal.aborted) throw new InterruptedError();
      throw err;
    }
  }

  return { baseUrl, get, throttles: () => throttles };
}

/** The API root as a URL without a trailing slash; the token never goes over plain http to another host. */
function apiRoot(raw: string, insecure: boolean): URL {
  const baseUrl = new URL(raw.replace(/\/+$/, ""));
  if (baseUrl.protocol === "http:" && !isLoopbackHost(baseUrl.hostname) && !insecure) {
    throw new UsageError(
      `refusing to send the token over plain http:// to ${baseUrl.host}`,
      "use an https:// API URL, or pass --insecure to accept the token travelling unencrypted",
    );
  }
  return baseUrl;
}

/** A path below the root, or a Link URL checked to stay on the API origin, with the query appended. */
function requestUrl(baseUrl: URL, pathOrUrl: string | URL, query: QueryInput | undefined): URL {
  let url: URL;
  if (typeof pathOrUrl === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) {
    url = new URL(baseUrl.href.replace(/\/+$/, "") + (pathOrUrl.startsWith("/") ? pathOrUrl : `/${pathOrUrl}`));
  } else {
    url = new URL(pathOrUrl);
    const origin = baseUrl.origin;
    if (url.origin !== origin) {
      throw new ContractError(
        `refusing to follow a link to ${url.origin}: it is not the API origin ${origin}, and the token must not leave it`,
        "the server sent a pagination link to another host; report it to the API provider",
      );
    }
    if (url.username || url.password) {
      throw new ContractError(`refusing to follow a link with credentials in it`);
    }
  }
  if (query) appendQuery(url.searchParams, query);
  return url;
}

/**
 * Query parameters as the API reads them: arrays become repeated keys (`event_type=a&event_type=b`,
 * FastAPI's list form); undefined and null are skipped so callers pass optional flags straight
 * through; keys keep insertion order, which keeps URLs (and the tests that assert them) stable.
 */
export function appendQuery(params: URLSearchParams, query: QueryInput): void {
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
}

function outcomeOf(result: Exchange): Outcome {
  return result.kind === "status"
    ? { kind: "status", status: result.status, retryAfterMs: result.retryAfterMs }
    : { kind: "error", code: result.code };
}

function describe(url: URL): string {
  return url.pathname + url.search;
}

function timedOut(url: URL, timeoutMs: number): NetworkError {
  return new NetworkError(
    `GET ${describe(url)} timed out after ${formatSeconds(timeoutMs)} (the request timeout)`,
    `raise it with --timeout <seconds> or mq config set timeout <seconds>`,
  );
}

function networkError(err: unknown, code: string | undefined, url: URL, attempts: number, timeoutMs: number): NetworkError {
  const host = url.host;
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    if (code === "UND_ERR_CONNECT_TIMEOUT") {
      return new NetworkError(
        `could not connect to ${host} within ${CONNECT_TIMEOUT_MS / 1000} s`,
        "check the network, a proxy (HTTPS_PROXY) or --api-url",
      );
    }
    return timedOut(url, timeoutMs);
  }
  const after = attempts > 1 ? ` after ${attempts} attempts` : "";
  // the headers came and then the connection ended (closed or reset) before the body did: a
  // reset is what the wire calls it, but what the user needs is that the answer came cut
  if (err instanceof BodyCutShortError) {
    const got = err.announced !== undefined ? `${count(err.received)} of ${count(err.announced)} bytes` : `${count(err.received)} bytes`;
    return new NetworkError(`the connection to ${host} closed before the whole response arrived (got ${got})${after && `,${after}`}`);
  }
  // closed (FIN) before the status line: node:http calls it a "socket hang up", undici "other
  // side closed", and both give it a reset's code; a server that hangs up is not a reset
  const said = err instanceof Error ? err.message : "";
  if ((code === "ECONNRESET" && said === "socket hang up") || (code === "UND_ERR_SOCKET" && said === "other side closed")) {
    return new NetworkError(`${host} closed the connection without answering${after}`);
  }
  if (code !== undefined && RESET_CODES.has(code)) return new NetworkError(`the connection to ${host} was reset${after}`);
  if (code === "ECONNREFUSED")
    return new NetworkError(`cannot connect to ${host}: connection refused`, "check --api-url and that the server is running");
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new NetworkError(`cannot resolve the host ${url.hostname}`, "check --api-url and your network");
  const message = messageText(err instanceof Error ? err.message : String(err));
  return new NetworkError(`GET ${describe(url)} failed: ${message}${code ? ` (${messageText(code)})` : ""}${after}`);
}

/** A Retry-After beyond this is not a plan: mq says so rather than print a date in the year 3 million. */
const A_YEAR_MS = 366 * 86_400_000;

/** A retryable status whose Retry-After is longer than mq waits: fail now, saying when to come back. */
function comeBackLater(url: URL, status: number, retryAfterMs: number, header: string | string[] | undefined, now: Date): HttpError {
  const failed = `GET ${describe(url)} failed: HTTP ${status} ${reason(status)}`;
  if (!(retryAfterMs <= A_YEAR_MS)) {
    const sent = messageText(Array.isArray(header) ? header[0] : (header ?? ""));
    return new HttpError(
      status,
      `${failed}; the server asks to retry after more than a year`,
      undefined,
      `try again later; the server gave Retry-After: ${sent.length > 80 ? `${sent.slice(0, 79)}…` : sent}`,
    );
  }
  const when = new Date(now.getTime() + retryAfterMs);
  return new HttpError(
    status,
    `${failed}; the server asks to retry after ${formatSeconds(retryAfterMs)}`,
    undefined,
    `try again after ${formatTime(when)}`,
  );
}

function tooLarge(url: URL, err: BodyTooLargeError): ContractError {
  const announced = err.announced !== undefined ? ` (Content-Length ${formatBytes(err.announced)})` : "";
  return new ContractError(
    `GET ${describe(url)} returned more than ${formatBytes(err.limit)}${announced}; mq reads at most ${formatBytes(err.limit)} a response`,
    "ask for smaller pages with --per-page",
  );
}

function tooDeep(url: URL): ContractError {
  return new ContractError(
    `GET ${describe(url)} returned JSON nested deeper than ${MAX_JSON_DEPTH} levels; mq does not read it`,
    "the API's answers nest at most 10 levels; this one is broken or hostile",
  );
}

/** The error for a non-2xx answer: the server's explanation in the message, what to do in the hint. */
function httpError(f: HttpFailure): HttpError {
  // the server's words on one line, escaped: a detail of "denied\n::error::spoofed" must not
  // become a second stderr line that a CI runner reads as a workflow command
  const nested = scanJson(f.text, MAX_JSON_DEPTH).depth > MAX_JSON_DEPTH;
  const raw = nested ? undefined : formatErrorBody(parseErrorBody(f.text, f.contentType));
  const detail = raw === undefined ? undefined : messageText(raw.length > 1000 ? `${raw.slice(0, 999)}…` : raw);
  const after = f.attempts > 1 ? ` after ${f.attempts} attempts` : "";
  const message = `GET ${describe(f.url)} failed${after}: HTTP ${f.status} ${reason(f.status)}${detail ? `: ${detail}` : ""}`;
  return new HttpError(f.status, message, detail, statusHint(f));
}

function statusHint({ status, location, retryAfterMs }: HttpFailure): string | undefined {
  if (status === 401) return "the token was not accepted: check it with mq auth status, or log in again with mq auth login";
  if (status === 403) return "the token has no access to this repository: check --repo and the token's rights";
  if (status === 404) return "check the repository (--repo) and the API URL (--api-url)";
  if (status >= 300 && status < 400) {
    // following it could carry the token to another host; the API does not redirect
    const to = location ? ` to ${messageText(stripUserinfo(location))}` : "";
    return `the API answered with a redirect${to}; mq does not follow redirects: check --api-url`;
  }
  if (status === 429) return retryAfterMs !== undefined ? `try again after ${formatSeconds(retryAfterMs)}` : "try again later";
  return undefined;
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof e?.code === "string") return e.code;
  return typeof e?.cause?.code === "string" ? e.cause.code : undefined;
}

function flattenHeaders(h: WireHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key in h) {
    const v = h[key];
    out[key] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

interface DecodedBody {
  body: unknown;
  rootArrays: Map<string, Span[]>;
}

/** A 2xx answer whose body is parsed when first read (GetOptions.deferParse). */
class DeferredResponse implements ApiResponse {
  readonly url: URL;
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly text: string;
  readonly invalidUtf8: boolean;
  readonly ascii: Buffer | undefined;
  private decoded: DecodedBody | undefined;

  constructor(
    response: Omit<ApiResponse, "body" | "text"> & { text: string; invalidUtf8: boolean },
    private readonly contentType: string | string[] | undefined,
  ) {
    this.url = response.url;
    this.status = response.status;
    this.headers = response.headers;
    this.text = response.text;
    this.invalidUtf8 = response.invalidUtf8;
    this.ascii = response.ascii;
  }

  get body(): unknown {
    return this.decode().body;
  }

  get rootArrays(): Map<string, Span[]> {
    return this.decode().rootArrays;
  }

  private decode(): DecodedBody {
    return (this.decoded ??= decodeBody(this.text, this.contentType, this.url, this.status));
  }
}

/** A 2xx answer's JSON, parsed, and the spans of its root arrays; a body that is not JSON, or nests too deep, is refused. */
function decodeBody(text: string, contentType: string | string[] | undefined, url: URL, status: number): DecodedBody {
  const body = parseJson(text, contentType, url, status);
  const scan = scanJson(text, MAX_JSON_DEPTH);
  if (scan.depth > MAX_JSON_DEPTH) throw tooDeep(url);
  return { body, rootArrays: scan.rootArrays };
}

function parseJson(text: string, contentType: string | string[] | undefined, url: URL, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const ct = String(contentType ?? "")
      .split(";")[0]!
      .trim();
    // a body without a length (neither Content-Length nor chunked) ends where the connection
    // closes, so one cut on the way arrives "whole": only its JSON shows the cut
    if (endsEarly(text, err)) {
      throw new ContractError(
        `GET ${url.pathname} returned HTTP ${status} with JSON that stops before its end (${count(Buffer.byteLength(text))} bytes)`,
        "the answer was cut short on the way (the connection closed early, or the server sent it so); try again",
      );
    }
    const what =
      text.trim() === ""
        ? "an empty body"
        : /^\s*</.test(text) || ct === "text/html"
          ? "an HTML page"
          : `a body that is not JSON${ct ? ` (${messageText(ct)})` : ""}`;
    throw new ContractError(
      `GET ${url.pathname} returned HTTP ${status} with ${what} instead of JSON`,
      "check --api-url: it must point to the API, not to a web page or another service",
    );
  }
}

/**
 * JSON.parse gave up at the very end of the text: everything before was a valid start of JSON, so
 * the text was cut short, not garbled. (V8 says "Unexpected end of JSON input", or names the
 * position it stopped at; a message it words otherwise leaves the general one.)
 */
function endsEarly(text: string, err: unknown): boolean {
  const message = err instanceof Error ? err.message : "";
  if (text.trim() === "") return false;
  if (/end of JSON input/.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return at !== null && Number(at[1]) >= text.trimEnd().length;
}

function reason(status: number): string {
  return STATUS_CODES[status] ?? "";
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

function count(n: number): string {
  return formatCount(n);
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
