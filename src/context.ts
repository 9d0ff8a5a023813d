// The Context is mq's factory (gh's cmdutil.Factory): streams (iostreams/), environment, clock and the lazily
// built services a command may ask for. Nothing heavy is built until a command asks, which keeps
// `mq --help` fast, and tests build one with in-memory streams, a fixed clock, a temp config dir
// and an undici MockAgent or a loopback server. The factory decides what a service is built from
// (config file, token, offline server: context/api-client.ts); the services (config/, the api/
// transport) take what they need as arguments and never import this module: no import circle.
import type { Dispatcher } from "undici";
import type { ApiClient } from "./api/client.js";
import type { ClientOverrides } from "./context/api-client.js";
// config/ statically: every command that reads the config (auth, config, every data command) would
// otherwise start Node's ES module loader for it (with fs/promises: ~8 ms); main.cjs is code-cached
import { configDirFrom } from "./config/dir.js";
import { openConfig, type ConfigStore } from "./config/store.js";
import { resolveRepo, type RepoRef } from "./config/resolve.js";
import type { DialectChoice } from "./config/dialect.js";
import { DEFAULT_GLOBALS, type GlobalOptions } from "./globals.js";
import { createIOStreams, type IOFacts, type IOStreams } from "./iostreams/iostreams.js";

export {
  COLOR_MODES,
  DEFAULT_GLOBALS,
  FIGURE_FORMATS,
  OUTPUT_FORMATS,
  type ColorMode,
  type GlobalOptions,
  type OutputFormat,
} from "./globals.js";

export interface Context {
  io: IOStreams;
  env: Record<string, string | undefined>;
  cwd: string;
  now(): Date;
  /** waits MS or until SIGNAL aborts (rejecting then): the watch loops' pause; tests pass one that does not wait */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** aborted on Ctrl-C; long-running work checks it */
  signal: AbortSignal;
  /** set by the CLI once global options are parsed */
  globals: GlobalOptions;
  /** the top-level command whose action ran ("logs" for `mq -o json logs`); unset for help and errors */
  ranCommand?: string;
  /** tests inject an undici MockAgent or a custom Agent here (it makes the client use the undici wire) */
  dispatcher?: Dispatcher;
  /** values that must never be printed (tokens); main() redacts them from every message */
  secrets: Set<string>;
  /** the config folder ($MQ_CONFIG_DIR, $XDG_CONFIG_HOME/mq or ~/.config/mq: config/dir.ts); throws when there is none */
  configDir(): string;
  config(): Promise<ConfigStore>;
  /** the API client for the API URL and token in effect (starts the bundled server with --offline) */
  apiClient(): Promise<ApiClient>;
  resolveRepo(): Promise<RepoRef>;
  /** the dialect in effect: --dialect, MQ_DIALECT, the config key `dialect`, else the API URL's */
  dialect(): Promise<DialectChoice>;
  /** run on exit, last registered first (close servers, agents, spinners) */
  onCleanup(fn: () => void | Promise<void>): void;
  cleanup(): Promise<void>;
}

export interface ContextInit {
  io?: Partial<IOFacts>;
  env?: Record<string, string | undefined>;
  cwd?: string;
  now?: () => Date;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** the run's signal, or what makes it when the run first asks for it */
  signal?: AbortSignal | (() => AbortSignal);
  dispatcher?: Dispatcher;
}

export function createContext(init: ContextInit = {}): Context {
  const env = init.env ?? process.env;
  const io = createIOStreams(init.io, { env: () => ctx.env, globals: () => ctx.globals, signal: () => ctx.signal });
  const cleanups: Array<() => void | Promise<void>> = [];
  let configPromise: Promise<ConfigStore> | undefined;
  let clientPromise: Promise<ApiClient> | undefined;
  let repoPromise: Promise<RepoRef> | undefined;
  let dialectPromise: Promise<DialectChoice> | undefined;
  let configDirChoice: { dir: string } | { error: unknown } | undefined;
  let signal = typeof init.signal === "function" ? undefined : init.signal;

  const ctx: Context = {
    io,
    env,
    cwd: init.cwd ?? process.cwd(),
    now: init.now ?? (() => new Date()),
    sleep: init.sleep,
    // made when first asked for: Node loads its AbortController on first use (~0.5 ms of CPU),
    // and a help page or `mq auth status` never asks
    get signal() {
      signal ??= typeof init.signal === "function" ? init.signal() : new AbortController().signal;
      return signal;
    },
    globals: { ...DEFAULT_GLOBALS },
    dispatcher: init.dispatcher,
    secrets: new Set(),
    configDir() {
      // once per run: its warnings (a relative XDG_CONFIG_HOME or HOME) are printed once
      configDirChoice ??= (() => {
        try {
          return { dir: configDirFrom(env, (m) => io.stderr.write(`${m}\n`)) };
        } catch (error) {
          return { error };
        }
      })();
      if ("error" in configDirChoice) throw configDirChoice.error;
      return configDirChoice.dir;
    },
    config() {
      configPromise ??= Promise.resolve().then(() => openConfig(ctx));
      return configPromise;
    },
    apiClient() {
      clientPromise ??= newApiClient(ctx);
      return clientPromise;
    },
    resolveRepo() {
      repoPromise ??= Promise.resolve().then(() => resolveRepo(ctx));
      return repoPromise;
    },
    dialect() {
      dialectPromise ??= apiServices().then(({ resolveDialect }) => resolveDialect(ctx));
      return dialectPromise;
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
    async cleanup() {
      while (cleanups.length > 0) {
        const fn = cleanups.pop()!;
        try {
          await fn();
        } catch {
          // cleanup must not mask the command's own result
        }
      }
    },
  };
  return ctx;
}

/**
 * The API's services: the HTTP stack (node:http, the wire, retries) and the dialect tables (both
 * descriptions of the API), loaded when a command first makes a request or asks for the dialect,
 * never for a command that does neither (help, auth status, config).
 */
const apiServices = () => import("./context/api-client.js");

/**
 * An API client for CTX (ctx.apiClient() keeps one), with OVERRIDES (`mq auth login`'s check: the
 * token about to be stored).
 */
export async function newApiClient(ctx: Context, overrides: ClientOverrides = {}): Promise<ApiClient> {
  const { createApiClient } = await apiServices();
  return createApiClient(ctx, overrides);
}
