// The streams and every rule about the terminal (gh's pkg/iostreams): is stdout a terminal, how
// wide, is colour on (--color, NO_COLOR, FORCE_COLOR), may a spinner run, can we prompt. Commands
// and renderers ask these methods; they never read isTTY to decide for themselves. The process's
// own streams are read only when used (process-streams.ts): on a pipe, building one loads net; what
// they are (a terminal?) is known from the file descriptor where it can be. Tests pass in-memory
// streams and the facts about them.
import { fstatSync, ftruncateSync } from "node:fs";
import { fdKind, processStream, writeStdoutText, type FdKind } from "../process-streams.js";
import type { GlobalOptions, OutputFormat } from "../globals.js";
import { writeChunk, writeToTerminal } from "./write.js";

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
  /** terminal height, when stdout is a terminal that reports one (a redrawn screen fits it) */
  rows?: number;
  /**
   * stdout is a regular file (`> events.ndjson`): its size, and cutting it back. A write that fails
   * on a full disk may have put part of a page in the file (Node's file stream does not report a
   * short write): the run cuts the file back to the last whole page it can vouch for.
   */
  stdoutFile?: StdoutFile;
}

export interface StdoutFile {
  size(): number;
  truncate(bytes: number): void;
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
  /**
   * Writes data (a table, records, a page of them) to stdout and resolves once it is taken. On a
   * terminal a few lines at a time, and after Ctrl-C nothing more: it throws InterruptedError with
   * the rest unwritten (write.ts). Elsewhere the chunk whole.
   */
  writeData(text: string | Uint8Array): Promise<void>;
  /** stdin is a terminal: a person can answer a prompt */
  canPrompt(): boolean;
  /** colour on `stream`: --color, then NO_COLOR / FORCE_COLOR, then whether it is a terminal */
  colorEnabled(stream?: "stdout" | "stderr"): boolean;
  /** the width output is fitted to */
  width(): number;
  /** the height a redrawn screen is cut to: the terminal's rows, none off a terminal */
  height(): number | undefined;
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

/** What the rules read that the command line sets: read when asked, as parsing comes after. */
export interface IOSettings {
  env(): Record<string, string | undefined>;
  globals(): Pick<GlobalOptions, "color" | "csvGuard">;
  /** the run's signal: aborted on Ctrl-C (none: never) */
  signal?(): AbortSignal;
}

/** The format a data command uses without -o: a table for a person, ndjson for a pipe or a file. */
export function defaultOutputFormat(io: Pick<IOStreams, "isStdoutTerminal">): OutputFormat {
  return io.isStdoutTerminal() ? "table" : "ndjson";
}

/** The process's streams, or those of `init` (a test's), with the rules above. */
export function createIOStreams(init: Partial<IOFacts> | undefined, settings: IOSettings): IOStreams {
  const stdoutKind = init?.stdout === undefined ? fdKind(1) : undefined;
  const stderrKind = init?.stderr === undefined ? fdKind(2) : undefined;
  let columns: number | undefined;
  const streamIsTTY = (s: object) => Boolean((s as { isTTY?: boolean }).isTTY);
  // a pipe or a file is no terminal (and has no width); anything else (a terminal, /dev/null) Node tells
  const noTerminal = (kind: FdKind | undefined) => kind === "pipe" || kind === "file";
  // process.stdin only when a command reads it: on a file or /dev/null it is an fs.ReadStream, and
  // building one loads ten of Node's modules (fs/promises, readline, watchers): ~4 ms of every run
  let stdin = init?.stdin;
  const io: IOStreams = {
    get stdin() {
      return (stdin ??= process.stdin);
    },
    get stdout() {
      return init?.stdout ?? processStream("stdout");
    },
    get stderr() {
      return init?.stderr ?? processStream("stderr");
    },
    get stdinIsTTY() {
      return init?.stdinIsTTY ?? streamIsTTY(io.stdin);
    },
    stdoutIsTTY: init?.stdoutIsTTY ?? (!noTerminal(stdoutKind) && streamIsTTY(init?.stdout ?? processStream("stdout"))),
    stderrIsTTY: init?.stderrIsTTY ?? (!noTerminal(stderrKind) && streamIsTTY(init?.stderr ?? processStream("stderr"))),
    stdoutIsPipe: init?.stdoutIsPipe ?? stdoutKind === "pipe",
    stdoutFile:
      init?.stdoutFile ??
      (stdoutKind === "file" ? { size: () => fstatSync(1).size, truncate: (bytes) => ftruncateSync(1, bytes) } : undefined),
    get columns() {
      // once per run, as a table's widths are
      columns ??= init?.columns ?? (noTerminal(stdoutKind) ? 100 : (io.stdout as { columns?: number }).columns || 100);
      return columns;
    },
    writeText(text) {
      if (stdoutKind === undefined) io.stdout.write(text);
      else writeStdoutText(text, stdoutKind);
    },
    writeData: (text) =>
      io.stdoutIsTTY ? writeToTerminal(io.stdout, text, () => settings.signal?.().aborted === true) : writeChunk(io.stdout, text),
    isStdoutTerminal: () => io.stdoutIsTTY,
    isStderrTerminal: () => io.stderrIsTTY,
    canPrompt: () => io.stdinIsTTY,
    colorEnabled(stream = "stdout") {
      const mode = settings.globals().color ?? "auto";
      if (mode === "always") return true;
      if (mode === "never") return false;
      const env = settings.env();
      if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
      const force = env.FORCE_COLOR;
      if (force !== undefined) return force !== "0" && force !== "false";
      return stream === "stdout" ? io.stdoutIsTTY : io.stderrIsTTY;
    },
    width: () => io.columns,
    csvGuarded: () => settings.globals().csvGuard,
    tableWidth: () => (io.stdoutIsTTY ? io.columns : undefined),
    height: () => (io.stdoutIsTTY ? (init?.rows ?? ((io.stdout as { rows?: number }).rows || undefined)) : undefined),
    messageWidth: () =>
      io.stderrIsTTY ? (io.stderr as { columns?: number }).columns || io.columns : io.stdoutIsTTY ? io.columns : undefined,
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
  return io;
}
