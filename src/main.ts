// The one place that turns a thrown error into a message and an exit code.
import { CommanderError } from "commander";
import { buildProgram } from "./cli.js";
import { createContext, type Context, type ContextInit } from "./context.js";
import { ExitCode, MqError, OutputError, redact } from "./errors.js";
import { appendNow, ciFailureReport } from "./output/ci-failure.js";
import { stderrText } from "./iostreams/terminal-text.js";
import { watchStdoutReader } from "./pipe-reader.js";
import { offProcessStreamError, onProcessStreamError, processStream } from "./process-streams.js";
import { messageSecrets, registerCommandLineSecrets } from "./secrets.js";

export async function main(argv: string[], ctx: Context = createContext()): Promise<number> {
  registerCommandLineSecrets(ctx, argv);
  try {
    const program = await buildProgram(ctx, argv);
    await program.parseAsync(argv, { from: "user" });
    return ExitCode.OK;
  } catch (err) {
    return reportError(err, ctx);
  } finally {
    await ctx.cleanup();
  }
}

export function reportError(err: unknown, ctx: Context): number {
  // help and version are "errors" only to exitOverride (asked first: a help page never makes the
  // run's signal; an output failure that stopped it is reported by run() all the same)
  if (err instanceof CommanderError && HELP_CODES.has(err.code)) return ExitCode.OK;
  // `mq logs | head -1`: the reader left and run() aborted the work; what fails after that
  // (an "interrupted" with a resume hint) is a consequence, not news: end quietly
  if (ctx.signal.aborted && (ctx.signal.reason as NodeJS.ErrnoException | undefined)?.code === "EPIPE") return ExitCode.OK;
  // the output could not be written (a full disk): run() aborted the work, and that is the news,
  // with what the interruption knows (how many events were written, how to resume)
  if (ctx.signal.aborted && ctx.signal.reason instanceof OutputError && !(err instanceof OutputError)) {
    const failure = ctx.signal.reason;
    if (err instanceof MqError && err.hint) failure.addHint(err.hint);
    return reportError(failure, ctx);
  }
  // messages quote servers (an error's detail, a header, a field); stderrText is the last net: no
  // raw control reaches the terminal and no line can start a CI workflow command (`::error::`)
  const write = (line: string) => void ctx.io.stderr.write(stderrText(redact(line, messageSecrets(ctx))) + "\n");
  if (err instanceof CommanderError) return ExitCode.USAGE; // commander already printed the message
  if (err instanceof MqError) {
    write(`mq: ${err.message}`);
    if (err.hint) write(err.hint);
    if (ctx.globals.debug && err.stack) write(err.stack);
    reportToActions(ctx, err.exitCode, stderrText(redact(err.message, messageSecrets(ctx))));
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  write(`mq: internal error: ${e.message}`);
  if (ctx.globals.debug && e.stack) write(e.stack);
  else write("Run again with --debug for a stack trace, and please report it.");
  return ExitCode.INTERNAL;
}

/** commander's codes for a run that printed help or the version, or handed the command line on */
const HELP_CODES: ReadonlySet<string> = new Set([
  "commander.helpDisplayed",
  "commander.version",
  "commander.help",
  "commander.executeSubCommandAsync",
]);

/** Inside GitHub Actions, a failure exit is also an `::error` annotation and a step summary line. */
function reportToActions(ctx: Context, exitCode: number, message: string): void {
  const report = ciFailureReport(ctx.env, { command: ctx.ranCommand ? `mq ${ctx.ranCommand}` : "mq", exitCode, message });
  if (report === undefined) return;
  // the annotation is the one workflow command on purpose: written as is, not through stderrText
  ctx.io.stderr.write(report.annotation);
  const path = ctx.env.GITHUB_STEP_SUMMARY;
  const failed = path ? appendNow(path, report.summaryLine) : undefined;
  if (failed) ctx.io.stderr.write(stderrText(`mq: warning: cannot append the step summary to ${path}: ${failed}`) + "\n");
}

let lateClosedPipeIgnored = false;
/**
 * A write made just before run() returns fails later, when its callback runs (`mq --help | true`:
 * the reader left before the help text went out); by then the run's own handler is gone, and an
 * 'error' with no listener would crash the process with a stack trace.
 */
function ignoreLateClosedPipe(): void {
  if (lateClosedPipeIgnored) return;
  lateClosedPipeIgnored = true;
  let reported = false;
  onProcessStreamError("stdout", (err) => {
    if (err.code === "EPIPE" || reported) return;
    // the last bytes failed after the run ended (a full disk: a write's error comes a tick later):
    // said once, and the exit status says so (bin/mq.js exits with process.exitCode)
    reported = true;
    processStream("stderr").write(stderrText(`mq: ${new OutputError(err).message}`) + "\n");
    process.exitCode = ExitCode.OUTPUT;
  });
}

/** A second signal sooner than this after the first is a library re-raising it, not a person. */
const SIGNAL_ECHO_MS = 250;

/**
 * What the last run() ran, for bin/mq.js: it names a code cache after the first word of the
 * command line without a dash, which may be a flag's value (`mq -o json logs`), and keeps a cache
 * only when that word was the command that ran.
 */
export const lastRun: { command?: string } = {};

/** Entry point for bin/mq.js: real process streams, signals, a closed pipe ends quietly. */
export async function run(argv: string[], init: ContextInit = {}): Promise<number> {
  // made when the run first asks for its signal or something aborts it (context.ts)
  let controller: AbortController | undefined;
  const control = () => (controller ??= new AbortController());
  let interrupts = 0;
  let firstInterrupt = 0;
  let hangup = false;
  // Ctrl-C, `kill`, and a closed terminal or SSH session (SIGHUP) end a run the same way: the work
  // stops, what was written to a pipe or a file is completed (json's `]`, the table's buffered
  // rows) while a terminal takes nothing more (iostreams/write.ts), the resume hint
  // goes to stderr; the exit code says which (130, or 129 for a hang-up, as shells report 128+N).
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    const at = performance.now();
    if (signal === "SIGHUP") hangup = true;
    // a second signal means "now", whatever is still cleaning up; but a library that re-raises the
    // signal it saw (conf's `atomically` did, through when-exit) echoes it a few ms after the
    // first, and that is not the user pressing again: it cut `mq archive sync` off before it
    // could say how far it got
    if (interrupts > 1 && at - firstInterrupt > SIGNAL_ECHO_MS) process.exit(hangup ? ExitCode.HANGUP : ExitCode.INTERRUPTED);
    if (interrupts === 1) firstInterrupt = at;
    control().abort();
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const s of signals) process.on(s, onSignal);
  let pipeClosed = false;
  let outputFailure: OutputError | undefined;
  const readerLeft = (err: NodeJS.ErrnoException) => {
    pipeClosed = true;
    control().abort(err);
  };
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    // `mq logs | head -1`: the reader left; that is success, not a crash
    if (err.code === "EPIPE" || pipeClosed) return readerLeft(err);
    // a terminal that hung up answers EIO: nobody is left to tell
    if (hangup) return;
    // a full disk under `> file`: the work stops, and the run ends with the reason (exit 74),
    // not with a crash (it printed a line of the bundle and a stack, exit 1)
    if (outputFailure === undefined) {
      outputFailure = new OutputError(err);
      control().abort(outputFailure);
    }
  };
  const onStderrError = () => {
    // nowhere left to report a failure to write an error message
  };
  onProcessStreamError("stdout", onStdoutError);
  onProcessStreamError("stderr", onStderrError);
  // `mq logs --follow | head -1`: the reader may leave while mq has nothing to write. Watched from
  // the first turn of the event loop: a run that is over by then (a help page, auth status) has
  // nothing to wait for and never scans /proc for the reader (a few ms of its start-up).
  let stopWatching = () => {};
  const startWatching = setImmediate(() => {
    stopWatching = watchStdoutReader(() => readerLeft(Object.assign(new Error("the reader of standard output left"), { code: "EPIPE" })));
  });
  const ctx = createContext({ ...init, signal: () => control().signal });
  const code = await main(argv, ctx);
  lastRun.command = ctx.ranCommand;
  clearImmediate(startWatching);
  stopWatching();
  for (const s of signals) process.off(s, onSignal);
  offProcessStreamError("stdout", onStdoutError);
  offProcessStreamError("stderr", onStderrError);
  ignoreLateClosedPipe();
  if (pipeClosed) return ExitCode.OK;
  // a command that wrote its last bytes and ended before the failure was reported
  if (outputFailure !== undefined && code !== ExitCode.OUTPUT) return reportError(outputFailure, ctx);
  if (hangup && code === ExitCode.INTERRUPTED) return ExitCode.HANGUP;
  return code;
}
