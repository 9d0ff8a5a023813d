// The bundled server: node:http, no framework. It speaks the whole API (spec sections 4, 5, 7) over
// a deterministic simulated history per repository (./simulate/) or a recorded log (--events).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Event } from "../api/schema/events.js";
import { eventIdKey } from "../api/event-ids.js";
import { STATS_ENDPOINTS, type StatsEndpoint } from "../stats/endpoints.js";
import { decodePathParams, decodeQuery, LogsQuerySchema, STATS_QUERY_SCHEMAS, type FastApiDetail } from "../api/schema/params.js";
import { createHash, timingSafeEqual } from "node:crypto";
import { dayOf, historyStart, ID_PER_MS, simulateRepository, timeOf } from "./simulate/index.js";
import { EventStore, type Cursor, type StoredEvent } from "./store.js";
import { STATS_SPECS, type StatsFilter } from "./stats/index.js";
import { loadEventsFile } from "./ndjson.js";
import { BudgetError, DEFAULT_MEMORY_BUDGET_MB, Repositories } from "./repositories.js";
import { helperLimits } from "./budget.js";
import type { FoldHelperOptions } from "./stats/fold-helper.js";
import { DIALECTS, hasEndpoint, type Dialect, type DialectName } from "../api/dialects/index.js";
import { exclusionDetails, querySchemaFor } from "../api/schema/params.js";
import { MERGIFY_FACT_VIEW, toMergifyEvent } from "./dialects/mergify-events.js";
import { aggregate, needsBatches, pageFilter, type MergifyLogsQuery } from "./dialects/mergify-logs.js";
import { conform } from "./dialects/conform.js";
import { MERGIFY_RESPONSES, MERGIFY_SCHEMAS } from "../api/dialects/mergify-schemas.generated.js";

export interface ServerOptions {
  host?: string;
  /** 0 = an ephemeral port */
  port?: number;
  /** when set, only `Authorization: Bearer <token>` is accepted; otherwise any bearer token is */
  token?: string;
  seed?: number;
  days?: number;
  now?: Date;
  /**
   * the present runs this many times as fast as the real clock, from `now` (or the real clock at
   * start): new events appear as the simulated present reaches them (mq serve --speed)
   */
  speed?: number;
  /** the real instant (ms) at which the present was `now`: mq serve sets it once, so a restarted worker keeps the same clock */
  speedFrom?: number;
  /** the present (epoch ms, whole seconds, never going back) from a clock of the caller's: tests move it poll by poll */
  clock?: () => number;
  /** "owner/name": only these repositories exist (others 404) */
  repos?: string[];
  /** serve exactly the events of this ndjson file instead of a simulation */
  eventsFile?: string;
  /** fixed delay per request, for tests and benchmarks (mq serve --latency) */
  delayMs?: number;
  /** the most simulated or replayed data held at once, in MB (default DEFAULT_MEMORY_BUDGET_MB) */
  memoryBudgetMb?: number;
  /** serve exactly these events ("owner/name" -> events), like eventsFile but in memory (benchmarks) */
  events?: Record<string, readonly Event[]>;
  /** keep every request in `requests` (default true, for tests); `mq serve` turns it off, as a
   * long-running server must not grow with every request */
  recordRequests?: boolean;
  /** which side of the API to speak: the contract (default) or the real service's shape */
  dialect?: DialectName;
  /**
   * fold a long window's statistics on a helper thread too (stats/fold-helper.ts), within the memory
   * budget (budget.ts: none below 512 MB); `mq serve` turns it on. A string is the URL of the
   * helper's module in a build (tests: a worker cannot load these TypeScript sources).
   */
  foldHelper?: boolean | string;
  /** hears what the operator should know that is no answer's business (the helper thread failed) */
  onNotice?: (message: string) => void;
}

export interface RunningServer {
  /** http://HOST:PORT, without /v1 */
  url: string;
  close(): Promise<void>;
  appendEvents(repo: string, events: Event[]): void;
  /** every request received, in order, unless recordRequests is false */
  requests: Array<{ method: string; url: string; headers: Record<string, string | undefined> }>;
  /** where the history it holds begins now (mq --offline says when a window reaches before it); undefined for a recorded log */
  historyStart(): Date | undefined;
}

export { EventStore } from "./store.js";
export { Repositories, BudgetError, DEFAULT_MEMORY_BUDGET_MB, EVENT_BYTES } from "./repositories.js";
export { simulateRepository } from "./simulate/index.js";
export { loadEventsFile, EventsFileError } from "./ndjson.js";

// node:http as its CommonJS exports: this module is an ES module in dist/ (a chunk), and an ES
// import of node:http reads every export for its namespace, on Node 22 and later WebSocket's too,
// which loads Node's own undici: ~50 ms of CPU at every start of --offline and of mq serve's worker
const { createServer } = process.getBuiltinModule("node:http");

const DAY = 86_400_000;

/**
 * A present that starts at `start` (the real clock when absent) at the real instant `from` and runs
 * `speed` times as fast, in whole seconds as every present of the server.
 */
export function movingClock(start: Date | undefined, speed: number, from = Date.now()): () => number {
  const origin = start ? start.getTime() : from;
  return () => Math.floor((origin + Math.max(0, Date.now() - from) * speed) / 1000) * 1000;
}

/** the store a page filter gets when it reads none (see needsBatches) */
const NO_EVENTS = new EventStore();

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // the server's clock has whole seconds (mq --offline passes its own clock with milliseconds,
  // and statistics windows would start at odd milliseconds); without --now it follows the real
  // clock, so a live `mq serve` keeps producing events for --follow
  const now = options.now ? new Date(Math.floor(options.now.getTime() / 1000) * 1000) : undefined;
  let fixed: Map<string, StoredEvent[]> | undefined;
  let fileNow: number | undefined;
  if (options.events) {
    fixed = new Map(Object.entries(options.events).map(([repo, evs]) => [repo, evs as unknown as StoredEvent[]]));
  } else if (options.eventsFile) {
    const loaded = await loadEventsFile(options.eventsFile, { budgetBytes: budgetOf(options) });
    fixed = loaded.byRepo;
    // a replayed log is shown as of its newest event unless --now says otherwise
    if (!options.now && loaded.newest !== undefined) fileNow = Math.ceil(loaded.newest / 1000) * 1000;
  }
  const dialect = DIALECTS[options.dialect ?? "spec"];
  const clock = options.clock ?? (options.speed !== undefined && !fixed ? movingClock(now, options.speed, options.speedFrom) : undefined);
  const repos = new Repositories({
    clock,
    translate: dialect.name === "mergify" ? toMergifyEvent : undefined,
    factView: dialect.name === "mergify" ? MERGIFY_FACT_VIEW : undefined,
    seed: options.seed ?? 0,
    days: options.days ?? 30,
    now: fileNow !== undefined ? new Date(fileNow) : now,
    repos: options.repos,
    fixed,
    budgetBytes: budgetOf(options),
    foldHelper: foldHelperOptions(options),
  });
  const host = options.host ?? "127.0.0.1";
  const handler = new Handler(repos, options, host, dialect);
  const requests: RunningServer["requests"] = [];
  const record = options.recordRequests ?? true;
  const server = createServer({ keepAlive: true }, (req, res) => {
    if (record) requests.push({ method: req.method ?? "", url: req.url ?? "", headers: flatHeaders(req) });
    const respond = () => {
      handler.handle(req, res).catch((err: unknown) => {
        // never crash the server on one bad request
        if (res.headersSent) return void res.destroy();
        send(res, 500, { detail: `internal error: ${err instanceof Error ? err.message : String(err)}` });
      });
    };
    if (options.delayMs && options.delayMs > 0) setTimeout(respond, options.delayMs);
    else respond();
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // the helper thread starts now, while nobody waits for it (it folds nothing until asked)
  repos.startHelper();
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    requests,
    historyStart() {
      const ms = repos.historyStartMs();
      return ms === undefined ? undefined : new Date(ms);
    },
    appendEvents(repo, events) {
      // translated (for the dialect spoken) by the repositories, as every event entering a store
      repos.append(repo, events as unknown as StoredEvent[]);
      handler.noteAppended(events as unknown as StoredEvent[]);
    },
    close() {
      closed ??= Promise.all([
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
        repos.close(),
      ]).then(() => undefined);
      return closed;
    },
  };
}

function foldHelperOptions(options: ServerOptions): FoldHelperOptions | undefined {
  if (!options.foldHelper) return undefined;
  const url = typeof options.foldHelper === "string" ? new URL(options.foldHelper) : undefined;
  // from the TypeScript sources, only a helper from a build can start
  if (!url && import.meta.url.endsWith(".ts")) return undefined;
  const resourceLimits = helperLimits(options.memoryBudgetMb ?? DEFAULT_MEMORY_BUDGET_MB);
  if (!resourceLimits) return undefined;
  return { url, resourceLimits, onFailure: options.onNotice };
}

function budgetOf(options: ServerOptions): number {
  return (options.memoryBudgetMb ?? DEFAULT_MEMORY_BUDGET_MB) * 1048576;
}

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(["localhost", "[::1]", "::1"]);

/** whether a listening address only takes connections from this machine */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.has(h) || /^127(\.\d{1,3}){3}$/.test(h) || h.endsWith(".localhost");
}

/** the host name of a Host header (without its port), lower case */
function hostnameOf(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.indexOf(":");
  return colon >= 0 ? h.slice(0, colon) : h;
}

/** equal in a time that does not depend on where they differ (nor on the token's length) */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}

const ALLOW = "GET, HEAD, OPTIONS";

function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendRaw(res, status, JSON.stringify(body), headers);
}

function sendRaw(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

function unprocessable(res: ServerResponse, detail: FastApiDetail[]): void {
  send(res, 422, { detail });
}

const LINK_KEYS: ReadonlySet<string> = new Set(Object.keys(LogsQuerySchema.shape).filter((k) => k !== "cursor"));

const STATS_BY_PATH: ReadonlyMap<string, StatsEndpoint> = new Map(STATS_ENDPOINTS.map((e) => [e.path, e]));

/** opaque to clients: base64url of "n.<ms>.<id>", "p.<ms>.<id>" or "l" */
export function encodeCursor(c: Cursor): string {
  const raw = c.dir === "last" ? "l" : `${c.dir === "next" ? "n" : "p"}.${c.t}.${c.id}`;
  return Buffer.from(raw, "utf8").toString("base64url");
}

export function decodeCursor(s: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(s)) return undefined;
  const raw = Buffer.from(s, "base64url").toString("utf8");
  if (Buffer.from(raw, "utf8").toString("base64url") !== s) return undefined;
  if (raw === "l") return { dir: "last" };
  // the id's digits, exact: a replayed log's ids are int64
  const m = /^([np])\.(\d{1,15})\.(-?\d{1,19})$/.exec(raw);
  if (!m) return undefined;
  return { dir: m[1] === "n" ? "next" : "prev", t: Number(m[2]), id: BigInt(m[3]!).toString() };
}

class Handler {
  private appendedNewest: number | undefined;
  /** the Host names a loopback server answers to; undefined when listening beyond this machine */
  private readonly allowedHosts: ReadonlySet<string> | undefined;
  /** the /logs parameters of the dialect spoken, echoed into Link URLs */
  private readonly linkKeys: ReadonlySet<string>;
  /** query schemas of the dialect's endpoints (the contract's own live in params.ts) */
  private readonly querySchemas = new Map<string, ReturnType<typeof querySchemaFor>>();

  constructor(
    private readonly repos: Repositories,
    private readonly options: ServerOptions,
    host: string,
    private readonly dialect: Dialect,
  ) {
    this.linkKeys = dialect.name === "spec" ? LINK_KEYS : new Set(dialect.endpoints.logs!.map((p) => p.name).filter((k) => k !== "cursor"));
    // a page in a browser can point a name of its own at 127.0.0.1 (DNS rebinding) and read a
    // loopback server that accepts any token; its requests carry that name in Host
    if (isLoopbackHost(host)) {
      const h = host.toLowerCase();
      this.allowedHosts = new Set(["localhost", "127.0.0.1", "[::1]", h.includes(":") && !h.startsWith("[") ? `[${h}]` : h]);
    }
  }

  private hostAllowed(req: IncomingMessage): boolean {
    if (!this.allowedHosts) return true;
    const host = req.headers.host;
    // HTTP/1.0 clients may leave Host out; a browser never does
    if (host === undefined) return true;
    const name = hostnameOf(host);
    return this.allowedHosts.has(name) || /^127(\.\d{1,3}){3}$/.test(name) || name.endsWith(".localhost");
  }

  private querySchema(endpoint: string): ReturnType<typeof querySchemaFor> {
    let schema = this.querySchemas.get(endpoint);
    if (schema === undefined) this.querySchemas.set(endpoint, (schema = querySchemaFor(this.dialect.endpoints[endpoint] ?? [])));
    return schema;
  }

  /** a 422 for a window longer than the dialect allows (the real service: about 93 days) */
  private windowTooLong(res: ServerResponse, from: number, to: number, param: string): boolean {
    const max = this.dialect.maxWindowDays;
    if (max === undefined || to - from <= max * DAY) return false;
    unprocessable(res, [{ loc: ["query", param], msg: `Value error, the time range must not exceed ${max} days`, type: "value_error" }]);
    return true;
  }

  noteAppended(events: StoredEvent[]): void {
    for (const e of events) {
      const t = Date.parse(e.received_at);
      if (Number.isFinite(t) && (this.appendedNewest === undefined || t > this.appendedNewest)) this.appendedNewest = t;
    }
  }

  /** the server's clock: fixed at start, moved forward by appended events (so --follow sees them) */
  private nowMs(): number {
    const base = this.repos.nowMs();
    return this.appendedNewest !== undefined && this.appendedNewest > base ? this.appendedNewest : base;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.hostAllowed(req)) {
      return send(res, 421, {
        detail: "Misdirected Request: this server answers only to a loopback Host (localhost, 127.0.0.1, [::1] or its --host)",
      });
    }
    const rawUrl = req.url ?? "/";
    const q = rawUrl.indexOf("?");
    const rawPath = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
    const search = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : "");
    const segments: string[] = [];
    for (const part of rawPath.split("/").slice(1)) {
      try {
        segments.push(decodeURIComponent(part));
      } catch {
        return send(res, 404, { detail: "Not Found" });
      }
    }
    // the Date of every answer is the server's present (RFC 9110: when the origin made it), which a
    // simulated history has of its own: a client learns the present from it (src/watch/present.ts)
    res.setHeader("date", new Date(this.nowMs()).toUTCString());
    // no trailing-slash leniency: `/logs/` is another path, so a 404 like any unknown path
    const route = this.route(segments);
    if (!route) return send(res, 404, { detail: "Not Found" });
    if (req.method === "OPTIONS") {
      res.writeHead(204, { allow: ALLOW, "content-length": 0 });
      return void res.end();
    }
    // HEAD is a GET whose body node:http leaves out (its headers, Content-Length included, are sent)
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, { detail: "Method Not Allowed" }, { allow: ALLOW });

    const auth = req.headers.authorization;
    const m = typeof auth === "string" ? /^Bearer\s+(\S.*)$/i.exec(auth.trim()) : null;
    if (!m) return send(res, 403, { detail: "Not authenticated" });
    if (this.options.token !== undefined && !sameSecret(m[1]!, this.options.token)) {
      return send(res, 403, { detail: "Invalid credentials" });
    }

    const path = decodePathParams({ owner: route.owner, repository: route.repository });
    if (!path.ok) return unprocessable(res, path.detail);
    if (route.repository === "." || route.repository === "..") return send(res, 404, { detail: "Repository not found" });
    const repo = `${route.owner}/${route.repository}`;
    if (!this.repos.has(repo)) return send(res, 404, { detail: "Repository not found" });

    try {
      if (route.kind === "stats") return await this.stats(res, repo, route.path, search);
      if (route.kind === "aggregate") return await this.dialectLogs(req, res, repo, search, true);
      return await (this.dialect.name === "spec" ? this.logs(req, res, repo, search) : this.dialectLogs(req, res, repo, search, false));
    } catch (err) {
      if (!(err instanceof BudgetError)) throw err;
      const param = route.kind === "stats" ? "start_at" : "received_from";
      return unprocessable(res, [{ loc: ["query", param], msg: err.message, type: "value_error" }]);
    }
  }

  private route(
    s: string[],
  ):
    | { kind: "logs" | "aggregate"; owner: string; repository: string }
    | { kind: "stats"; owner: string; repository: string; path: string }
    | undefined {
    if (s.length < 5 || s[0] !== "v1" || s[1] !== "repos") return undefined;
    const owner = s[2]!;
    const repository = s[3]!;
    if (s.length === 5 && s[4] === "logs") return { kind: "logs", owner, repository };
    if (s.length === 6 && s[4] === "logs" && s[5] === "aggregate" && hasEndpoint(this.dialect, "logs/aggregate"))
      return { kind: "aggregate", owner, repository };
    // a path the dialect spoken does not have is a 404, as on that side (average_queue_time on the real service)
    if (s.length === 6 && s[4] === "stats" && hasEndpoint(this.dialect, `stats/${s[5]}`)) {
      const path = s[5]!;
      if (STATS_BY_PATH.has(path)) return { kind: "stats", owner, repository, path };
    }
    return undefined;
  }

  /** /logs and /logs/aggregate of a dialect other than the contract (its own filters, see mergify-logs.ts) */
  private async dialectLogs(req: IncomingMessage, res: ServerResponse, repo: string, search: URLSearchParams, agg: boolean): Promise<void> {
    const endpoint = agg ? "logs/aggregate" : "logs";
    const params = this.dialect.endpoints[endpoint]!;
    const decoded = decodeQuery(search, this.querySchema(endpoint));
    if (!decoded.ok) return unprocessable(res, decoded.detail);
    const exclusive = exclusionDetails(params, (name) => search.has(name));
    if (exclusive.length > 0) return unprocessable(res, exclusive);
    const v = decoded.value as MergifyLogsQuery & { received_from?: string; received_to?: string; cursor?: string; per_page?: number };
    // repeated values of a set parameter count once (FastAPI's set[int])
    for (const k of ["pull_request", "not_pull_request", "batch_pull", "not_batch_pull"] as const) if (v[k]) v[k] = [...new Set(v[k])];
    const to = v.received_to !== undefined ? Date.parse(v.received_to) : this.nowMs();
    const from = v.received_from !== undefined ? Date.parse(v.received_from) : to - DAY;
    if (from > to) {
      return unprocessable(res, [
        { loc: ["query", "received_from"], msg: "Value error, received_from must not be after received_to", type: "value_error" },
      ]);
    }
    if (this.windowTooLong(res, from, to, "received_from")) return;
    if (agg) {
      const store = await this.repos.store(repo, from, to);
      return send(res, 200, aggregate(store, from, to, v));
    }
    let cursor: Cursor | undefined;
    if (v.cursor !== undefined) {
      cursor = decodeCursor(v.cursor);
      if (!cursor) return unprocessable(res, [{ loc: ["query", "cursor"], msg: "Invalid cursor", type: "value_error" }]);
    }
    const perPage = v.per_page ?? this.dialect.defaultPerPage;
    // the batch filters need the whole window's store (a batch pull request is known from its
    // checks events); without them a page simulates only the days it reaches
    const store = needsBatches(v) ? await this.repos.store(repo, from, to) : NO_EVENTS;
    const page = await this.repos.page(repo, { from, to, cursor, perPage, ...pageFilter(v, store) });
    const link = this.links(req, search, page, perPage);
    const body = `{"size":${page.json.length},"per_page":${perPage},"events":[${page.json.join(",")}]}`;
    sendRaw(res, 200, body, link ? { link } : {});
  }

  private async logs(req: IncomingMessage, res: ServerResponse, repo: string, search: URLSearchParams): Promise<void> {
    const decoded = decodeQuery(search, LogsQuerySchema);
    if (!decoded.ok) return unprocessable(res, decoded.detail);
    const v = decoded.value;
    const to = v.received_to !== undefined ? Date.parse(v.received_to) : this.nowMs();
    const from = v.received_from !== undefined ? Date.parse(v.received_from) : to - DAY;
    if (from > to) {
      return unprocessable(res, [
        { loc: ["query", "received_from"], msg: "received_from must not be after received_to", type: "value_error" },
      ]);
    }
    let cursor: Cursor | undefined;
    // an empty cursor is a cursor, and an invalid one: only its absence means "the first page"
    if (v.cursor !== undefined) {
      cursor = decodeCursor(v.cursor);
      if (!cursor) return unprocessable(res, [{ loc: ["query", "cursor"], msg: "Invalid cursor", type: "value_error" }]);
    }
    const perPage = v.per_page ?? 10;
    const page = await this.repos.page(repo, {
      from,
      to,
      types: v.event_type,
      pullRequest: v.pull_request,
      baseRef: v.base_ref,
      cursor,
      perPage,
    });
    const link = this.links(req, search, page, perPage);
    const body = `{"size":${page.json.length},"per_page":${perPage},"events":[${page.json.join(",")}]}`;
    sendRaw(res, 200, body, link ? { link } : {});
  }

  private links(
    req: IncomingMessage,
    search: URLSearchParams,
    page: { events: StoredEvent[]; hasNext: boolean; hasPrev: boolean },
    _perPage: number,
  ): string {
    // relative references (RFC 8288 resolves them against the request's URL): behind a port map,
    // an SSH tunnel or a reverse proxy that rewrites Host, the client's own origin stays the one
    // it follows, where a URL built from the listening address or a Host header would not
    const base = (req.url ?? "/").split("?")[0]!;
    const url = (cursor: Cursor | undefined) => {
      const params = new URLSearchParams();
      // the API's own filters only: unknown parameters are ignored, and echoing them could make
      // the header larger than a client accepts
      for (const [k, val] of search) if (this.linkKeys.has(k)) params.append(k, val);
      if (cursor) params.append("cursor", encodeCursor(cursor));
      const qs = params.toString();
      return qs ? `${base}?${qs}` : base;
    };
    const parts: string[] = [];
    const first = page.events[0];
    const last = page.events[page.events.length - 1];
    if (page.hasNext && last) parts.push(`<${url({ dir: "next", t: Date.parse(last.received_at), id: eventIdKey(last) })}>; rel="next"`);
    if (page.hasPrev && first) parts.push(`<${url({ dir: "prev", t: Date.parse(first.received_at), id: eventIdKey(first) })}>; rel="prev"`);
    if (this.dialect.linkRels.includes("first")) parts.push(`<${url(undefined)}>; rel="first"`);
    if (this.dialect.linkRels.includes("last")) parts.push(`<${url({ dir: "last" })}>; rel="last"`);
    return parts.join(", ");
  }

  private async stats(res: ServerResponse, repo: string, path: string, search: URLSearchParams): Promise<void> {
    const spec = this.dialect.name === "spec";
    const endpoint = STATS_BY_PATH.get(path);
    const schema = spec && endpoint ? STATS_QUERY_SCHEMAS[endpoint.params] : this.querySchema(`stats/${path}`);
    const decoded = decodeQuery(search, schema);
    if (!decoded.ok) return unprocessable(res, decoded.detail);
    const v = decoded.value as Record<string, unknown>;
    const headers: Record<string, string> = {};
    if (spec && endpoint?.deprecatedUse) headers.deprecation = "true";
    // the real service's bodies: its own schema says which fields a group and an interval have
    const shape = (body: unknown): unknown =>
      spec
        ? body
        : conform(body, MERGIFY_RESPONSES[`stats/${path}`], {
            components: MERGIFY_SCHEMAS,
            instant: new Date(this.nowMs()).toISOString(),
            uuid: () => "00000000-0000-4000-a000-000000000000",
          });
    if (path === "time_to_merge") {
      const at = typeof v.at === "string" ? Date.parse(v.at) : this.nowMs();
      return send(res, 200, shape(await this.repos.timeToMerge(repo, at, typeof v.branch === "string" ? v.branch : undefined)), headers);
    }
    const to = typeof v.end_at === "string" ? Date.parse(v.end_at) : this.nowMs();
    const from = typeof v.start_at === "string" ? Date.parse(v.start_at) : to - DAY;
    if (from >= to) {
      return unprocessable(res, [
        { loc: ["query", "start_at"], msg: `${spec ? "" : "Value error, "}start_at must be before end_at`, type: "value_error" },
      ]);
    }
    if (this.windowTooLong(res, from, to, "start_at")) return;
    const filter: StatsFilter = {
      base_ref: v.base_ref as string[] | undefined,
      partition_name: v.partition_name as string[] | undefined,
      queue_name: v.queue_name as string[] | undefined,
      priority_rule_name: v.priority_rule_name as string[] | undefined,
    };
    if (!endpoint || !STATS_SPECS[endpoint.name]) return send(res, 404, { detail: "Not Found" });
    send(res, 200, shape(await this.repos.stats(repo, endpoint.name, from, to, filter, { sums: !spec })), headers);
  }
}

/**
 * About `count` events for benchmarks: a simulated 30-day history of `repo`, repeated further back
 * in time (ids and session ids kept unique) until the count is reached. Ends at `now`.
 */
export function syntheticEvents(count: number, options: { repo?: string; seed?: number; now?: Date } = {}): StoredEvent[] {
  const repo = options.repo ?? "bench/repo";
  const now = options.now ?? new Date("2026-11-20T12:00:00Z");
  const base = simulateRepository({ repo, seed: options.seed ?? 0, now, days: 30 }) as StoredEvent[];
  if (base.length === 0) return [];
  // each copy moves back by the whole days the history spans, so copies never overlap; ids are
  // time-major (ms x 1024 + slot), so moving a time moves its id by the same amount x 1024
  const days = dayOf(now.getTime()) - dayOf(historyStart(now.getTime(), 30)) + 1;
  const out: StoredEvent[] = [];
  for (let copy = 0; out.length < count; copy++) {
    const shift = copy * days * DAY;
    for (let i = base.length - 1; i >= 0 && out.length < count; i--) {
      const e = base[i]!;
      if (copy === 0) {
        out.push(e);
        continue;
      }
      const m = e.metadata as Record<string, unknown>;
      const t = timeOf(e) - shift;
      out.push({
        ...e,
        id: e.id - shift * ID_PER_MS,
        received_at: new Date(t).toISOString(),
        metadata:
          typeof m.session_id === "string" ? { ...m, session_id: `${m.session_id.slice(0, 24)}${String(copy).padStart(12, "0")}` } : m,
      });
    }
  }
  return out.reverse();
}
