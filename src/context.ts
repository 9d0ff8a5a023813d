// The Context is mq's factory (gh's cmdutil.Factory): streams, environment, clock and the lazily
// built services a command may ask for. Nothing heavy is built until a command asks, which keeps
// `mq --help` fast, and tests build one with in-memory streams, a fixed clock, a temp config dir
// and an undici MockAgent or a loopback server. The factory decides what a service is built from
// (config file, token, offline server: factory/api-client.ts); the services (config/, the api/
// transport) take what they need as arguments and never import this module: no import circle.
import type { Dispatcher } from "undici";
import type { ApiClient } from "./api/client.js";
// config/ statically: every command that reads the config (auth, config, every data command) would
// otherwise start Node's ES module loader for it (with fs/promises: ~8 ms); main.cjs is code-cached
import { openConfig, type ConfigStore } from "./config/store.js";
import { resolveDialect, resolveRepo, type RepoRef, type DialectChoice } from "./config/resolve.js";
import { DEFAULT_GLOBALS, type GlobalOptions, type OutputFormat } from "./globals.js";
import { fdKind, processStream, writeStdoutText, type FdKind } from "./process-streams.js";

export { COLOR_MODES, DEFAULT_GLOBALS, FIGURE_FORMATS, OUTPUT_FORMATS, type ColorMode, type GlobalOptions, type OutputFormat } from "./globals.js";

/** The streams and the facts about them, as the process (or a test) gives them. */
export interface IOFacts {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * stdout is a pipe or a socket: another program reads it and may be writing to the same terminal
   * as stderr (`| jq`, `| head`, `| less`). Unknown (false) for streams a test injects.
   */
  stdoutIsPipe?: boolean;
  /** terminal width for tables and charts */
  columns: number;
}

/**
 * The streams and every rule about the terminal (gh's IOStreams). Commands and renderers ask these
 * methods; they never read the facts above to decide for themselves.
 */
export interface IOStreams extends IOFacts {
  /** stdout is a terminal: a person reads it (tables, humanised values, a screenful by default) */
  isStdoutTerminal(): boolean;
  /** stderr is a terminal: progress and summary lines are worth writing there */
  isStderrTerminal(): boolean;
  /**
   * Writes a short text that is all a run prints to stdout (a help page, `auth status`) without
   * making Node build the process's stdout stream on a pipe or a file (process-streams.ts).
   */
  writeText(text: string): void;
  /** stdin is a terminal: a person can answer a prompt */
  canPrompt(): boolean;
  /** colour on `stream`: --color, then NO_COLOR / FORCE_COLOR, then whether it is a terminal */
  colorEnabled(stream?: "stdout" | "stderr"): boolean;
  /** the width output is fitted to */
  width(): number;
  /** the width tables are fitted to: the terminal's on a terminal, none (no fitting) otherwise */
  tableWidth(): number | undefined;
  /**
   * The width lines of prose on stderr (a summary under a table, a hint) are wrapped to: stderr's
   * terminal, else stdout's (`2>log`: the line goes with the table it describes), else none.
   */
  messageWidth(): number | undefined;
  /**
   * May a spinner run on stderr? Only on a terminal that reports a size, and not while data streams
   * to stdout on the same terminal (`stdoutStreams`: the command writes data while it spins).
   */
  spinnerAllowed(opts?: { stdoutStreams?: boolean }): boolean;
  /**
   * Are csv cells that a spreadsheet would run as formulas neutralised (OWASP)? Yes unless
   * --no-csv-guard asks for the cells as sent (a program reads the csv, not a spreadsheet).
   */
  csvGuarded(): boolean;
}

/** The format a data command uses without -o: a table for a person, ndjson for a pipe or a file. */
export function defaultOutputFormat(io: Pick<IOStreams, "isStdoutTerminal">): OutputFormat {
  return io.isStdoutTerminal() ? "table" : "ndjson";
}

export interface Context {
  io: IOStreams;
  env: Record<string, string | undefined>;
  cwd: string;
  now(): Date;
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
}

export interface ContextInit {
  io?: Partial<IOFacts>;
  env?: Record<string, string | undefined>;
  cwd?: string;
  now?: () => Date;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

export function createContext(init: ContextInit = {}): Context {
  // the process's own streams are read only when used (process-streams.ts): on a pipe, building
  // one loads net; what they are (a terminal?) is known from the file descriptor where it can be
  const stdoutKind = init.io?.stdout === undefined ? fdKind(1) : undefined;
  const stderrKind = init.io?.stderr === undefined ? fdKind(2) : undefined;
  let columns: number | undefined;
  const streamIsTTY = (s: object) => Boolean((s as { isTTY?: boolean }).isTTY);
  // a pipe or a file is no terminal (and has no width); anything else (a terminal, /dev/null) Node tells
  const noTerminal = (kind: FdKind | undefined) => kind === "pipe" || kind === "file";
  // process.stdin only when a command reads it: on a file or /dev/null it is an fs.ReadStream, and
  // building one loads ten of Node's modules (fs/promises, readline, watchers): ~4 ms of every run
  let stdin = init.io?.stdin;
  const env = init.env ?? process.env;
  const io: IOStreams = {
    get stdin() {
      return (stdin ??= process.stdin);
    },
    get stdout() {
      return init.io?.stdout ?? processStream("stdout");
    },
    get stderr() {
      return init.io?.stderr ?? processStream("stderr");
    },
    get stdinIsTTY() {
      return init.io?.stdinIsTTY ?? streamIsTTY(io.stdin);
    },
    stdoutIsTTY: init.io?.stdoutIsTTY ?? (!noTerminal(stdoutKind) && streamIsTTY(init.io?.stdout ?? processStream("stdout"))),
    stderrIsTTY: init.io?.stderrIsTTY ?? (!noTerminal(stderrKind) && streamIsTTY(init.io?.stderr ?? processStream("stderr"))),
    stdoutIsPipe: init.io?.stdoutIsPipe ?? stdoutKind === "pipe",
    get columns() {
      // once per run, as a table's widths are
      columns ??= init.io?.columns ?? (noTerminal(stdoutKind) ? 100 : (io.stdout as { columns?: number }).columns || 100);
      return columns;
    },
    writeText(text) {
      if (stdoutKind === undefined) io.stdout.write(text);
      else writeStdoutText(text, stdoutKind);
    },
    isStdoutTerminal: () => io.stdoutIsTTY,
    isStderrTerminal: () => io.stderrIsTTY,
    canPrompt: () => io.stdinIsTTY,
    colorEnabled(stream = "stdout") {
      const mode = ctx.globals.color ?? "auto";
      if (mode === "always") return true;
      if (mode === "never") return false;
      if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== "") return false;
      const force = ctx.env.FORCE_COLOR;
      if (force !== undefined) return force !== "0" && force !== "false";
      return stream === "stdout" ? io.stdoutIsTTY : io.stderrIsTTY;
    },
    width: () => io.columns,
    csvGuarded: () => ctx.globals.csvGuard,
    tableWidth: () => (io.stdoutIsTTY ? io.columns : undefined),
    messageWidth: () => (io.stderrIsTTY ? (io.stderr as { columns?: number }).columns || io.columns : io.stdoutIsTTY ? io.columns : undefined),
    spinnerAllowed(opts = {}) {
      // A terminal that reports 0 columns (a pty without a size: `script`, some CI runners) sends
      // ora's line count to Infinity and clear() into an endless loop of escape codes.
      if (!io.stderrIsTTY || (io.stderr as { columns?: number }).columns === 0) return false;
      // `mq logs --all | jq` or `| less`: the reader writes to this terminal too, and frames drawn
      // between its lines (or over less's screen) garble both; a file (`> out.ndjson`) is fine
      if (io.stdoutIsPipe) return false;
      // frames between lines of data on the same screen would garble both
      return !(opts.stdoutStreams && io.stdoutIsTTY);
    },
  };
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
      configPromise ??= Promise.resolve().then(() => openConfig(ctx));
      return configPromise;
    },
    apiClient() {
      clientPromise ??= import("./factory/api-client.js").then((m) => m.createApiClient(ctx));
      return clientPromise;
    },
    resolveRepo() {
      repoPromise ??= Promise.resolve().then(() => resolveRepo(ctx));
      return repoPromise;
    },
    dialect() {
      dialectPromise ??= Promise.resolve().then(() => resolveDialect(ctx));
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
