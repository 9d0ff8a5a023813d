// A progress spinner on stderr, only where the I/O object allows one (ctx.io.spinnerAllowed): pipes,
// files and CI logs never see spinner frames or carriage returns. ora is imported only then: off a
// terminal, loading it cost about as much as the rest of a one-page `mq logs`.
import type { IOStreams } from "./iostreams.js";
import { stderrText } from "./terminal-text.js";

export interface Spinner {
  /** false when nothing is shown (off a terminal, or stopped): callers need not build its text */
  readonly active: boolean;
  update(text: string): void;
  /** writes a line to stderr without garbling the spinner */
  log(line: string): void;
  /** stops and clears the spinner line */
  stop(): void;
}

export interface SpinnerOptions {
  /** the command writes data to stdout while the spinner runs (see IOStreams.spinnerAllowed) */
  stdoutStreams?: boolean;
}

/** What a spinner needs of the Context: the streams, and a cleanup to stop it when the run ends. */
export interface SpinnerHost {
  io: IOStreams;
  onCleanup(fn: () => void): void;
}

export async function startSpinner(ctx: SpinnerHost, text: string, opts: SpinnerOptions = {}): Promise<Spinner> {
  // warnings quote servers (a type, a cursor): the same last net as main()'s error lines
  const writeLine = (line: string) => void ctx.io.stderr.write(stderrText(line) + "\n");
  if (!ctx.io.spinnerAllowed(opts)) return { active: false, update() {}, log: writeLine, stop() {} };
  const { default: ora } = await import("ora");
  const spinner = ora({
    text,
    stream: ctx.io.stderr,
    isEnabled: true,
    // ora colours its frames by itself: NO_COLOR and --color never are the I/O object's to decide
    color: ctx.io.colorEnabled("stderr") ? "cyan" : false,
    // raw-mode stdin would swallow Ctrl-C as a signal; mq relies on SIGINT aborting ctx.signal
    discardStdin: false,
  }).start();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    spinner.stop();
  };
  ctx.onCleanup(stop);
  return {
    get active() {
      return !stopped;
    },
    update(next) {
      if (!stopped) spinner.text = next;
    },
    log(line) {
      if (stopped) {
        writeLine(line);
        return;
      }
      spinner.clear();
      writeLine(line);
      spinner.render();
    },
    stop,
  };
}
