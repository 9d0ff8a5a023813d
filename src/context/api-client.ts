// The factory's half of the API client: what the transport is built from. The API URL and the
// token (or the bundled server, with --offline), the timeout (resolved once, in config/resolve.ts),
// the keep-alive wire and its proxy, the --debug writer. The Context calls it lazily; the
// transport (api/client.ts) gets plain values and knows nothing of config or servers.
import type { Dispatcher } from "undici";
import type { Wire } from "../api/wire.js";
import { nodeWire } from "../api/node-wire.js";
import { proxyUrl } from "../api/proxy-env.js";
import { isLoopbackHost } from "../api/urls.js";
import { apiBaseUrl } from "../api/urls.js";
import { stderrText } from "../iostreams/terminal-text.js";
import { CONNECT_TIMEOUT_MS, createTransport, USER_AGENT, type ApiClient, type Sleep } from "../api/client.js";
import { resolveApiUrl, resolveTimeoutSeconds, resolveToken, type ConfigSources } from "../config/resolve.js";
import type { DialectChoice } from "../config/dialect.js";
import { AuthError, redact } from "../errors.js";
import { noteBundledServer } from "./data-held.js";

// the Context asks for the dialect through this module: the dialect tables load with the HTTP stack
export { resolveDialect } from "../config/dialect.js";

/** What the factory reads and registers: the Context is one. */
export interface ClientSources extends ConfigSources {
  signal: AbortSignal;
  now(): Date;
  /** a dispatcher a test injects (an undici MockAgent); otherwise one per Context is made */
  dispatcher?: Dispatcher;
  onCleanup(fn: () => void | Promise<void>): void;
  /** the dialect in effect (--offline starts the bundled server in it) */
  dialect(): Promise<DialectChoice>;
}

/** Test seams for createApiClient; the CLI passes none. */
export interface ClientOverrides {
  sleep?: Sleep;
  random?: () => number;
  /** a token to use instead of the resolved one (mq auth login's check) */
  token?: string;
}

export async function createApiClient(ctx: ClientSources, overrides: ClientOverrides = {}): Promise<ApiClient> {
  const g = ctx.globals;
  const { url: root, token } = g.offline ? await offlineEndpoint(ctx, overrides) : await onlineEndpoint(ctx, overrides);
  const timeoutS = await resolveTimeoutSeconds(ctx);
  const timeoutMs = Math.round(timeoutS * 1000);
  const debug = g.debug ? debugWriter(ctx) : undefined;
  const wire = await sharedWire(ctx, timeoutMs, root);
  const transport = createTransport({
    baseUrl: apiBaseUrl(root),
    token,
    wire,
    timeoutMs,
    retry: g.retry,
    insecure: g.insecure,
    signal: ctx.signal,
    now: () => ctx.now(),
    debug,
    sleep: overrides.sleep,
    random: overrides.random,
  });
  debug?.(`API ${transport.baseUrl.href}, ${USER_AGENT}, timeout ${timeoutS} s, retries ${g.retry ? "on" : "off"}, ${wire.name}`);
  return transport;
}

/** The API URL in effect and its token (a given one, or the one stored or set for that URL). */
async function onlineEndpoint(ctx: ClientSources, overrides: ClientOverrides): Promise<{ url: string; token: string }> {
  const api = await resolveApiUrl(ctx);
  if (overrides.token !== undefined) {
    ctx.secrets.add(overrides.token);
    return { url: api.url, token: overrides.token };
  }
  const found = await resolveToken(ctx, api.url);
  if (found === undefined) throw new AuthError(`no token for ${api.url}`, "run mq auth login, set MQ_TOKEN, or use --offline");
  return { url: api.url, token: found.token };
}

/** `--offline`: the bundled server on an ephemeral loopback port, closed when the command ends. */
async function offlineEndpoint(ctx: ClientSources, overrides: ClientOverrides): Promise<{ url: string; token: string }> {
  const { startServer } = await import("../server/index.js");
  // the bundled server speaks the dialect mq speaks (--dialect or the config; the contract otherwise)
  const { dialect } = await ctx.dialect();
  const server = await startServer({ host: "127.0.0.1", port: 0, now: ctx.now(), recordRequests: false, dialect: dialect.name });
  ctx.onCleanup(() => server.close());
  noteBundledServer(ctx, () => server.historyStart());
  // the bundled server accepts any token; none of the user's is ever sent to it
  return { url: server.url, token: overrides.token ?? "offline" };
}

/** Which wire carries the requests, and why: decided from the Context alone, before anything loads. */
export type WireChoice =
  /** a dispatcher a test injected (an undici MockAgent) */
  | { kind: "injected"; dispatcher: Dispatcher }
  /** a proxy variable is set: undici's EnvHttpProxyAgent tunnels through it (and honours NO_PROXY) */
  | { kind: "proxy"; httpProxy: string; httpsProxy: string; noProxy: string }
  /** everything else: node:http, whose native parser costs a short command nothing to load */
  | { kind: "node" };

/**
 * node:http unless undici is needed: a proxy from the environment (CONNECT tunnels and NO_PROXY
 * matching, which node:http does not do) or an injected dispatcher. Proxy values are checked here,
 * before any request (exit 2 naming the variable). An API on loopback (API_URL) never goes through
 * a proxy, as curl and Go do: over plain http:// the proxy would read the token in the tunnel.
 */
export function chooseWire(ctx: Pick<ClientSources, "env" | "globals" | "dispatcher">, apiUrl?: string): WireChoice {
  // --offline talks to its own server on loopback: a proxy could only fail to reach it
  const env = ctx.globals.offline ? {} : ctx.env;
  const httpProxy = checkedProxy(env, "http_proxy", "HTTP_PROXY");
  const httpsProxy = checkedProxy(env, "https_proxy", "HTTPS_PROXY");
  if (ctx.dispatcher) return { kind: "injected", dispatcher: ctx.dispatcher };
  const loopback = apiUrl !== undefined && isLoopbackHost(new URL(apiUrl).hostname);
  if ((!httpProxy && !httpsProxy) || loopback) return { kind: "node" };
  // explicit values (empty string = none) so ctx.env, not process.env, decides
  return { kind: "proxy", httpProxy: httpProxy ?? "", httpsProxy: httpsProxy ?? "", noProxy: env.no_proxy ?? env.NO_PROXY ?? "" };
}

// per Context, which is one per process in the CLI (tests build many, with different proxies)
const wires = new WeakMap<ClientSources, Promise<Wire>>();

/** One keep-alive wire per Context (each client of a Context shares its connections). */
function sharedWire(ctx: ClientSources, timeoutMs: number, apiUrl: string): Promise<Wire> {
  const existing = wires.get(ctx);
  if (existing) return existing;
  const made = makeWire(chooseWire(ctx, apiUrl), timeoutMs);
  wires.set(ctx, made);
  ctx.onCleanup(async () => {
    wires.delete(ctx);
    await (await made).close();
  });
  return made;
}

async function makeWire(choice: WireChoice, timeoutMs: number): Promise<Wire> {
  if (choice.kind === "node") {
    return nodeWire({ connectTimeoutMs: CONNECT_TIMEOUT_MS, keepAliveMs: KEEP_ALIVE_MS });
  }
  const { EnvHttpProxyAgent, undiciWire } = await import("../api/undici-wire.js");
  if (choice.kind === "injected") return undiciWire(choice.dispatcher, timeoutMs);
  const options = {
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: KEEP_ALIVE_MS,
  };
  const { httpProxy, httpsProxy, noProxy } = choice;
  return undiciWire(new EnvHttpProxyAgent({ ...options, httpProxy, httpsProxy, noProxy }), timeoutMs, { owned: true });
}

/** how long an idle keep-alive connection is kept */
const KEEP_ALIVE_MS = 10_000;

/** A proxy variable's URL (the lower-case name wins, as curl reads them), checked before any request. */
function checkedProxy(env: Record<string, string | undefined>, lower: string, upper: string): string | undefined {
  const name = env[lower] !== undefined ? lower : upper;
  const value = env[name];
  return value ? proxyUrl(name, value) : undefined;
}

function debugWriter(ctx: ClientSources): (line: string) => void {
  return (line) => void ctx.io.stderr.write(`mq debug: ${stderrText(redact(line, ctx.secrets))}\n`);
}
