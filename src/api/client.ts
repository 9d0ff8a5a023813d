// The HTTP transport: one keep-alive undici dispatcher per process, the token only ever sent to
// the API origin (and over https unless the host is loopback or --insecure), retries with backoff
// for the failures that are worth retrying, and every failure turned into a typed error.
// undici's `request` is used rather than fetch: `mq logs --all` reads a thousand pages and
// request skips fetch's WHATWG stream and Headers machinery.
import { setMaxListeners } from "node:events";
import { STATUS_CODES } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { Agent, EnvHttpProxyAgent, request } from "./undici.js";
import { version } from "../../package.json";
import type { Context } from "../context.js";
import { AuthError, ContractError, HttpError, InterruptedError, NetworkError, UsageError, redact } from "../errors.js";
import { checkTimeout, stripUserinfo } from "../config/keys.js";
import { resolveApiUrl, resolveToken } from "../config/resolve.js";

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryInput = Record<string, QueryValue>;

export interface ApiResponse {
  /** the URL actually requested (after query encoding) */
  url: URL;
  status: number;
  /** lower-cased header names */
  headers: Record<string, string | undefined>;
  body: unknown;
}

export interface ApiClient {
  /** API root including /v1, without a trailing slash */
  readonly baseUrl: URL;
  /**
   * GET a path below baseUrl ("/repos/o/r/logs") with query parameters (arrays as repeated keys),
   * or an absolute URL taken from a Link header (same origin as baseUrl only). Non-2xx statuses
   * throw HttpError; network failures and timeouts throw NetworkError.
   */
  get(pathOrUrl: string | URL, query?: QueryInput): Promise<ApiResponse>;
}

export const USER_AGENT = `mq/${version}`;
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const CONNECT_TIMEOUT_MS = 10_000;
export const MAX_ATTEMPTS = 4;
/** the longest Retry-After mq waits for; a longer one fails at once, saying when to come back */
export const MAX_RETRY_AFTER_MS = 30_000;
const BACKOFF_BASE_MS = 500;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RESET_CODES = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"]);

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface TransportOptions {
  /** API root including /v1 */
  baseUrl: string;
  token: string;
  dispatcher: Dispatcher;
  /** request timeout: waiting for headers, and between body chunks */
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

/** Test seams for createApiClient; the CLI passes none. */
export interface ClientOverrides {
  sleep?: Sleep;
  random?: () => number;
  /** a token to use instead of the resolved one (mq auth login --check) */
  token?: string;
}

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h === "[::1]" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The transport alone, from explicit options: tests build it around a loopback server. */
export function createTransport(opts: TransportOptions): ApiClient {
  const baseUrl = new URL(opts.baseUrl.replace(/\/+$/, ""));
  if (baseUrl.protocol === "http:" && !isLoopbackHost(baseUrl.hostname) && !opts.insecure) {
    throw new UsageError(
      `refusing to send the token over plain http:// to ${baseUrl.host}`,
      "use an https:// API URL, or pass --insecure to accept the token travelling unencrypted",
    );
  }
  const origin = baseUrl.origin;
  // each request in flight listens on the signal; parallel stats fetches would trip Node's
  // "possible EventTarget memory leak" warning at 11 and print it on stderr
  setMaxListeners(0, opts.signal);
  const baseHref = baseUrl.href.replace(/\/+$/, "");
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const maxAttempts = opts.retry ? MAX_ATTEMPTS : 1;
  // one headers object for every request
  const headers = {
    authorization: `Bearer ${opts.token}`,
    "user-agent": USER_AGENT,
    accept: "application/json",
  };
  const requestOptions = {
    method: "GET" as const,
    headers,
    dispatcher: opts.dispatcher,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  };
  const debug = opts.debug;

  function buildUrl(pathOrUrl: string | URL, query: QueryInput | undefined): URL {
    let url: URL;
    if (typeof pathOrUrl === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) {
      url = new URL(baseHref + (pathOrUrl.startsWith("/") ? pathOrUrl : `/${pathOrUrl}`));
    } else {
      url = new URL(pathOrUrl);
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
    if (query) {
      for (const key in query) {
        const value = query[key];
        if (value === undefined || value === null) continue;
        if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
        else url.searchParams.append(key, String(value));
      }
    }
    return url;
  }

  function describe(url: URL): string {
    return url.pathname + url.search;
  }

  async function get(pathOrUrl: string | URL, query?: QueryInput): Promise<ApiResponse> {
    const url = buildUrl(pathOrUrl, query);
    for (let attempt = 1; ; attempt++) {
      if (opts.signal.aborted) throw new InterruptedError();
      const started = debug ? performance.now() : 0;
      const attemptNote = attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : "";
      let res: Dispatcher.ResponseData;
      let text: string;
      // undici's body timeout is the gap between chunks: a server dripping a byte a second would
      // hold mq forever. The whole attempt, headers and body, gets the request timeout.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
      const interrupt = () => deadline.abort();
      opts.signal.addEventListener("abort", interrupt, { once: true });
      try {
        res = await request(url, { ...requestOptions, signal: deadline.signal });
        if (res.statusCode >= 200 && res.statusCode < 300) {
          text = await res.body.text();
        } else if (RETRY_STATUSES.has(res.statusCode) && attempt < maxAttempts) {
          text = "";
          await res.body.dump();
        } else {
          text = await res.body.text();
        }
      } catch (err) {
        if (opts.signal.aborted) throw new InterruptedError();
        if (deadline.signal.aborted) throw timedOut(url);
        const code = errorCode(err);
        debug?.(`GET ${url.href} -> ${code ?? "error"} in ${elapsed(started)}${attemptNote}`);
        if (code !== undefined && RESET_CODES.has(code) && attempt < maxAttempts) {
          const wait = backoff(attempt, random);
          debug?.(`retrying in ${formatSeconds(wait)} after a connection reset`);
          await pause(wait);
          continue;
        }
        throw networkError(err, code, url, attempt);
      } finally {
        clearTimeout(timer);
        opts.signal.removeEventListener("abort", interrupt);
      }

      const status = res.statusCode;
      debug?.(`GET ${url.href} -> ${status} in ${elapsed(started)}${attemptNote}`);
      if (status >= 200 && status < 300) {
        return { url, status, headers: flattenHeaders(res.headers), body: parseJson(text, res.headers["content-type"], url, status) };
      }

      const retryAfter = parseRetryAfter(res.headers["retry-after"], opts.now());
      if (RETRY_STATUSES.has(status)) {
        if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) {
          const when = new Date(opts.now().getTime() + retryAfter);
          throw new HttpError(
            status,
            `GET ${describe(url)} failed: HTTP ${status} ${reason(status)}; the server asks to retry after ${formatSeconds(retryAfter)}`,
            undefined,
            `try again after ${when.toISOString()}`,
          );
        }
        if (attempt < maxAttempts) {
          const wait = retryAfter ?? backoff(attempt, random);
          debug?.(`retrying in ${formatSeconds(wait)}${retryAfter !== undefined ? " (Retry-After)" : ""}`);
          await pause(wait);
          continue;
        }
      }
      throw await httpError(status, text, res.headers["content-type"], url, attempt, retryAfter, res.headers.location as string | undefined);
    }
  }

  async function pause(ms: number): Promise<void> {
    try {
      await sleep(ms, opts.signal);
    } catch (err) {
      if (opts.signal.aborted) throw new InterruptedError();
      throw err;
    }
  }

  function timedOut(url: URL): NetworkError {
    return new NetworkError(
      `GET ${describe(url)} timed out after ${formatSeconds(opts.timeoutMs)} (the request timeout)`,
      `raise it with --timeout <seconds> or mq config set timeout <seconds>`,
    );
  }

  function networkError(err: unknown, code: string | undefined, url: URL, attempts: number): NetworkError {
    const host = url.host;
    if (code !== undefined && TIMEOUT_CODES.has(code)) {
      if (code === "UND_ERR_CONNECT_TIMEOUT") {
        return new NetworkError(`could not connect to ${host} within ${CONNECT_TIMEOUT_MS / 1000} s`, "check the network, a proxy (HTTPS_PROXY) or --api-url");
      }
      return timedOut(url);
    }
    const after = attempts > 1 ? ` after ${attempts} attempts` : "";
    if (code !== undefined && RESET_CODES.has(code)) return new NetworkError(`the connection to ${host} was reset${after}`);
    if (code === "ECONNREFUSED") return new NetworkError(`cannot connect to ${host}: connection refused`, "check --api-url and that the server is running");
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new NetworkError(`cannot resolve the host ${url.hostname}`, "check --api-url and your network");
    const message = err instanceof Error ? err.message : String(err);
    return new NetworkError(`GET ${describe(url)} failed: ${message}${code ? ` (${code})` : ""}${after}`);
  }

  async function httpError(
    status: number,
    text: string,
    contentType: string | string[] | undefined,
    url: URL,
    attempts: number,
    retryAfter: number | undefined,
    redirectTo: string | undefined,
  ): Promise<HttpError> {
    const body = parseMaybeJson(text, contentType);
    // the contract's formatter (zod, loaded only on this error path) for the FastAPI shapes,
    // the local one for anything else a proxy or another server may send
    const { formatErrorBody: contractFormat } = await import("./schema/errors.js");
    const detail = contractFormat(body) ?? formatErrorBody(body);
    const after = attempts > 1 ? ` after ${attempts} attempts` : "";
    const message = `GET ${describe(url)} failed${after}: HTTP ${status} ${reason(status)}${detail ? `: ${detail}` : ""}`;
    let hint: string | undefined;
    if (status === 401) hint = "the token was not accepted: check it with mq auth status, or log in again with mq auth login";
    else if (status === 403) hint = "the token has no access to this repository: check --repo and the token's rights";
    else if (status === 404) hint = "check the repository (--repo) and the API URL (--api-url)";
    else if (status >= 300 && status < 400) {
      // following it could carry the token to another host; the API does not redirect
      const location = redirectTo ? ` to ${stripUserinfo(redirectTo)}` : "";
      hint = `the API answered with a redirect${location}; mq does not follow redirects: check --api-url`;
    } else if (status === 429) hint = retryAfter !== undefined ? `try again after ${formatSeconds(retryAfter)}` : "try again later";
    return new HttpError(status, message, detail, hint);
  }

  return { baseUrl, get };
}

export async function createApiClient(ctx: Context, overrides: ClientOverrides = {}): Promise<ApiClient> {
  const g = ctx.globals;
  let baseUrl: string;
  let token: string;
  if (g.offline) {
    const server = await startOfflineServer(ctx);
    baseUrl = server.url;
    // the bundled server accepts any token; none of the user's is ever sent to it
    token = overrides.token ?? "offline";
  } else {
    const api = await resolveApiUrl(ctx);
    baseUrl = api.url;
    if (overrides.token !== undefined) {
      ctx.secrets.add(overrides.token);
      token = overrides.token;
    } else {
      const found = await resolveToken(ctx, api.url);
      if (found === undefined) {
        throw new AuthError(`no token for ${api.url}`, "run mq auth login, set MQ_TOKEN, or use --offline");
      }
      token = found.token;
    }
  }

  let timeoutS = g.timeout;
  if (timeoutS === undefined) {
    const fromConfig = (await ctx.config()).get("timeout");
    timeoutS = fromConfig !== undefined && checkTimeout(fromConfig).ok ? Number(fromConfig) : DEFAULT_TIMEOUT_SECONDS;
  }
  const timeoutMs = Math.round(timeoutS * 1000);

  const transport = createTransport({
    baseUrl: `${baseUrl.replace(/\/+$/, "")}/v1`,
    token,
    dispatcher: ctx.dispatcher ?? sharedDispatcher(ctx, timeoutMs),
    timeoutMs,
    retry: g.retry,
    insecure: g.insecure,
    signal: ctx.signal,
    now: () => ctx.now(),
    debug: g.debug ? debugWriter(ctx) : undefined,
    sleep: overrides.sleep,
    random: overrides.random,
  });
  if (g.debug) debugWriter(ctx)(`API ${transport.baseUrl.href}, ${USER_AGENT}, timeout ${timeoutS} s, retries ${g.retry ? "on" : "off"}`);
  return transport;
}

// per Context, which is one per process in the CLI (tests build many, with different proxies)
const dispatchers = new WeakMap<Context, Dispatcher>();

/** One keep-alive dispatcher per process, through the proxy named in the environment if any. */
function sharedDispatcher(ctx: Context, timeoutMs: number): Dispatcher {
  const existing = dispatchers.get(ctx);
  if (existing) return existing;
  const env = ctx.env;
  const options = {
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
  };
  // --offline talks to its own server on loopback: a proxy could only fail to reach it
  const httpProxy = ctx.globals.offline ? undefined : (env.http_proxy ?? env.HTTP_PROXY);
  const httpsProxy = ctx.globals.offline ? undefined : (env.https_proxy ?? env.HTTPS_PROXY);
  const noProxy = env.no_proxy ?? env.NO_PROXY;
  const made: Dispatcher =
    httpProxy || httpsProxy
      ? // explicit values (empty string = none) so ctx.env, not process.env, decides
        new EnvHttpProxyAgent({ ...options, httpProxy: httpProxy ?? "", httpsProxy: httpsProxy ?? "", noProxy: noProxy ?? "" })
      : new Agent(options);
  dispatchers.set(ctx, made);
  ctx.onCleanup(async () => {
    dispatchers.delete(ctx);
    await made.close();
  });
  return made;
}

function debugWriter(ctx: Context): (line: string) => void {
  return (line) => void ctx.io.stderr.write(`mq debug: ${redact(line, ctx.secrets)}\n`);
}

/** `--offline`: the bundled server on an ephemeral loopback port, closed when the command ends. */
async function startOfflineServer(ctx: Context): Promise<{ url: string }> {
  const { startServer } = await import("../server/index.js");
  const { dialect } = await ctx.dialect();
  const server = await startServer({ host: "127.0.0.1", port: 0, now: ctx.now(), recordRequests: false, dialect: dialect.name });
  ctx.onCleanup(() => server.close());
  return server;
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof e?.code === "string") return e.code;
  return typeof e?.cause?.code === "string" ? e.cause.code : undefined;
}

function backoff(attempt: number, random: () => number): number {
  const base = BACKOFF_BASE_MS * 2 ** (attempt - 1);
  // "equal jitter": at least half the step, so clients that failed together spread out
  return Math.round(base / 2 + random() * (base / 2));
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const trimmed = v.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

function flattenHeaders(h: Dispatcher.ResponseData["headers"]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key in h) {
    const v = h[key];
    out[key] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function parseJson(text: string, contentType: string | string[] | undefined, url: URL, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const ct = String(contentType ?? "").split(";")[0]!.trim();
    const what = text.trim() === "" ? "an empty body" : /^\s*</.test(text) || ct === "text/html" ? "an HTML page" : `a body that is not JSON${ct ? ` (${ct})` : ""}`;
    return failContract(`GET ${url.pathname} returned HTTP ${status} with ${what} instead of JSON`);
  }
}

function failContract(message: string): never {
  throw new ContractError(message, "check --api-url: it must point to the API, not to a web page or another service");
}

function parseMaybeJson(text: string, contentType: string | string[] | undefined): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    const ct = String(contentType ?? "");
    if (ct.includes("html") || /^\s*</.test(text)) return undefined;
    return text.trim().slice(0, 200);
  }
}

/**
 * Fallback for bodies outside the contract's two shapes: the server's explanation: `{"detail": "..."}`, a FastAPI validation list
 * (`query.per_page: Input should be less than or equal to 100`), `{"message": ...}`, or short text.
 */
export function formatErrorBody(body: unknown): string | undefined {
  if (typeof body === "string") return body || undefined;
  if (body === null || typeof body !== "object") return undefined;
  const b = body as { detail?: unknown; message?: unknown };
  if (typeof b.detail === "string") return b.detail;
  if (Array.isArray(b.detail)) {
    const parts = b.detail.map((item: unknown) => {
      if (item === null || typeof item !== "object") return String(item);
      const { loc, msg } = item as { loc?: unknown; msg?: unknown };
      const where = Array.isArray(loc) ? loc.join(".") : "";
      const what = typeof msg === "string" ? msg : JSON.stringify(item);
      return where ? `${where}: ${what}` : what;
    });
    return parts.join("; ") || undefined;
  }
  if (b.detail !== undefined) return JSON.stringify(b.detail);
  if (typeof b.message === "string") return b.message;
  return undefined;
}

function reason(status: number): string {
  return STATUS_CODES[status] ?? "";
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
