// The one place that turns a thrown error into a message and an exit code.
import { CommanderError } from "commander";
import { buildProgram } from "./cli.js";
import { createContext, type Context, type ContextInit } from "./context.js";
import { ExitCode, MqError, redact } from "./errors.js";

export async function main(argv: string[], ctx: Context = createContext()): Promise<number> {
  try {
    const program = buildProgram(ctx);
    await program.parseAsync(argv, { from: "user" });
    return ExitCode.OK;
  } catch (err) {
    return reportError(err, ctx);
  } finally {
    await ctx.cleanup();
  }
}

export function reportError(err: unknown, ctx: Context): number {
  // `mq logs | head -1`: the reader left and run() aborted the work; what fails after that
  // (an "interrupted" with a resume hint) is a consequence, not news: end quietly
  if (ctx.signal.aborted && (ctx.signal.reason as NodeJS.ErrnoException | undefined)?.code === "EPIPE") return ExitCode.OK;
  const write = (line: string) => void ctx.io.stderr.write(redact(line, ctx.secrets) + "\n");
  if (err instanceof CommanderError) {
    // help and version are "errors" only to exitOverride
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") {
      return ExitCode.OK;
    }
    if (err.code === "commander.executeSubCommandAsync") return ExitCode.OK;
    return ExitCode.USAGE; // commander already printed the message
  }
  if (err instanceof MqError) {
    write(`mq: ${err.message}`);
    if (err.hint) write(err.hint);
    if (ctx.globals.debug && err.stack) write(err.stack);
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  write(`mq: internal error: ${e.message}`);
  if (ctx.globals.debug && e.stack) write(e.stack);
  else write("Run again with --debug for a stack trace, and please report it.");
  return ExitCode.INTERNAL;
}

/** A second SIGINT sooner than this after the first is a library re-raising it, not a person. */
const SIGNAL_ECHO_MS = 250;

/** Entry point for bin/mq.js: real process streams, Ctrl-C handling, a closed pipe ends quietly. */
export async function run(argv: string[], init: ContextInit = {}): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  let firstInterrupt = 0;
  const onSigint = () => {
    interrupts += 1;
    const at = performance.now();
    // a second Ctrl-C means "now", whatever is still cleaning up; but conf's `atomically` (through
    // when-exit) re-raises the signal it saw, and that echo, a few ms after the first, is not the
    // user pressing again: it cut `mq archive sync` off before it could say how far it got
    if (interrupts > 1 && at - firstInterrupt > SIGNAL_ECHO_MS) process.exit(ExitCode.INTERRUPTED);
    if (interrupts === 1) firstInterrupt = at;
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  let pipeClosed = false;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    // `mq logs | head -1`: the reader left; that is success, not a crash
    if (err.code === "EPIPE") {
      pipeClosed = true;
      controller.abort(err);
      return;
    }
    throw err;
  });
  const ctx = createContext({ ...init, signal: controller.signal });
  const code = await main(argv, ctx);
  process.off("SIGINT", onSigint);
  process.off("SIGTERM", onSigint);
  if (pipeClosed) return ExitCode.OK;
  return code;
}
