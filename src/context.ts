// The Context is mq's factory (gh's cmdutil.Factory): streams, environment, clock and the lazily
// built services a command may ask for. Nothing heavy is built until a command asks, which keeps
// `mq --help` fast, and tests build one with in-memory streams, a fixed clock, a temp config dir
// and an undici MockAgent or a loopback server.
import type { Dispatcher } from "undici";
import type { ApiClient } from "./api/client.js";
import type { ConfigStore } from "./config/store.js";
import type { RepoRef, DialectChoice } from "./config/resolve.js";
import type { DialectName } from "./api/dialects/types.js";

export type OutputFormat = "table" | "json" | "ndjson" | "csv";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["table", "json", "ndjson", "csv"];
export type ColorMode = "auto" | "always" | "never";
export const COLOR_MODES: readonly ColorMode[] = ["auto", "always", "never"];

export interface IOStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** terminal width for tables and charts */
  columns: number;
}

/** Options that every command accepts, before or after the subcommand name. */
export interface GlobalOptions {
  repo?: string;
  apiUrl?: string;
  offline: boolean;
  output?: OutputFormat;
  /** undefined: --color not given (auto, unless the config file says otherwise) */
  color?: ColorMode;
  debug: boolean;
  token?: string;
  /** request timeout in seconds */
  timeout?: number;
  retry: boolean;
  insecure: boolean;
  strict: boolean;
  /** --dialect: which side of the API to speak (default: decided by the API URL, see resolveDialect) */
  dialect?: DialectName;
}

export const DEFAULT_GLOBALS: GlobalOptions = {
  offline: false,
  debug: false,
  retry: true,
  insecure: false,
  strict: false,
};

export interface Context {
  io: IOStreams;
  env: Record<string, string | undefined>;
  cwd: string;
  now(): Date;
  /** aborted on Ctrl-C; long-running work checks it */
  signal: AbortSignal;
  /** set by the CLI once global options are parsed */
  globals: GlobalOptions;
  /** tests inject an undici MockAgent or a custom Agent here */
  dispatcher?: Dispatcher;
  /** values that must never be printed (tokens); main() redacts them from every message */
  secrets: Set<string>;
  /** the config folder ($MQ_CONFIG_DIR, $XDG_CONFIG_HOME/mq or ~/.config/mq) */
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
  /** a command that decides the exit code without throwing (rare) sets it here */
  exitCode?: number;
}

export interface ContextInit {
  io?: Partial<IOStreams>;
  env?: Record<string, string | undefined>;
  cwd?: string;
  now?: () => Date;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

export function createContext(init: ContextInit = {}): Context {
  const stdout = init.io?.stdout ?? process.stdout;
  const stderr = init.io?.stderr ?? process.stderr;
  const stdin = init.io?.stdin ?? process.stdin;
  const io: IOStreams = {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: init.io?.stdinIsTTY ?? Boolean((stdin as { isTTY?: boolean }).isTTY),
    stdoutIsTTY: init.io?.stdoutIsTTY ?? Boolean((stdout as { isTTY?: boolean }).isTTY),
    stderrIsTTY: init.io?.stderrIsTTY ?? Boolean((stderr as { isTTY?: boolean }).isTTY),
    columns: init.io?.columns ?? ((stdout as { columns?: number }).columns || 100),
  };
  const env = init.env ?? process.env;
  const cleanups: Array<() => void | Promise<void>> = [];
  let configPromise: Promise<ConfigStore> | undefined;
  let clientPromise: Promise<ApiClient> | undefined;
  let repoPromise: Promise<RepoRef> | undefined;
  let dialectPromise: Promise<DialectChoice> | undefined;

  const ctx: Context = {
    io,
    env,
    cwd: init.cwd ?? process.cwd(),
    now: init.now ?? (() => new Date()),
    signal: init.signal ?? new AbortController().signal,
    globals: { ...DEFAULT_GLOBALS },
    dispatcher: init.dispatcher,
    secrets: new Set(),
    configDir() {
      if (env.MQ_CONFIG_DIR) return env.MQ_CONFIG_DIR;
      const xdg = env.XDG_CONFIG_HOME || `${env.HOME ?? "."}/.config`;
      return `${xdg}/mq`;
    },
    config() {
      configPromise ??= import("./config/store.js").then((m) => m.openConfig(ctx));
      return configPromise;
    },
    apiClient() {
      clientPromise ??= import("./api/client.js").then((m) => m.createApiClient(ctx));
      return clientPromise;
    },
    resolveRepo() {
      repoPromise ??= import("./config/resolve.js").then((m) => m.resolveRepo(ctx));
      return repoPromise;
    },
    dialect() {
      dialectPromise ??= import("./config/resolve.js").then((m) => m.resolveDialect(ctx));
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
