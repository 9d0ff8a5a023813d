// --watch for the commands that print figures (`mq stats <endpoint>`, `mq stats summary`, `mq
// insights`): each poll is one plain run of the command (its own fetch, renderers and --fail-if),
// its windows moved on to end at the server's present (present.ts), caught (capture.ts); on a
// terminal its screen is redrawn in place, in a pipe the records whose figures changed are written
// (changes.ts). A --fail-if breach ends the watch with the gate's
// verdict lines and exit code; a poll that fails for a passing reason (the network, a 5xx, one of
// several repositories) keeps the last screen, says why, and is tried again at the next poll.
import type { Context, OutputFormat } from "../context.js";
import { resolveRepos } from "../cmdutil/repos.js";
import { CheckFailedError, HttpError, MqError, NetworkError, UsageError, redact } from "../errors.js";
import { formatInstant, formatTime } from "../iostreams/human.js";
import { messageText } from "../iostreams/terminal-text.js";
import { wrapLine } from "../iostreams/terminal-width.js";
import { messageSecrets } from "../secrets.js";
import { catchRun } from "./capture.js";
import { FigureChanges, ndjsonRecords } from "./changes.js";
import { type FigureWatchOptions, watchesScreen } from "./flags.js";
import { runWatchLoop } from "./loop.js";
import { ServerPresent } from "./present.js";

/** A command that prints figures, as its --watch sees it. */
export interface WatchedCommand<O> {
  /** the command as typed, for the status line and messages ("mq stats queue-size") */
  command: string;
  /** --watch's flags: the interval, and mq's clock when the windows given were read (they end there) */
  watch: FigureWatchOptions;
  /** the output format in effect (table on a terminal redraws; else ndjson records) */
  format: OutputFormat;
  /** the options of a plain run: every window moved on by BY ms, written as FORMAT, --fail-if telling only a breach */
  moved(by: number, format: OutputFormat): O;
  /** what a poll does before its plain run (read the events new since the poll before) */
  before?(opts: O, at: Date): Promise<void>;
  /** the plain run */
  run(opts: O, ctx: Context): Promise<void>;
}

/** --watch over a command's plain run: its windows end at the server's present at each poll. */
export async function watchCommand<O>(ctx: Context, cmd: WatchedCommand<O>): Promise<never> {
  const [repo] = await resolveRepos(ctx);
  const present = new ServerPresent(ctx, repo!);
  return watchFigures(ctx, {
    command: cmd.command,
    intervalSeconds: cmd.watch.intervalSeconds,
    format: cmd.format,
    present: () => present.next(),
    async once(caught, at) {
      const opts = cmd.moved(at.getTime() - cmd.watch.at.getTime(), caught.globals.output ?? cmd.format);
      await cmd.before?.(opts, at);
      await cmd.run(opts, caught);
    },
  });
}

interface FigureWatch {
  command: string;
  intervalSeconds: number;
  format: OutputFormat;
  /** the instant a poll's windows end at */
  present(): Promise<Date>;
  /** one plain run of the command at AT, writing to CAUGHT's streams */
  once(caught: Context, at: Date): Promise<void>;
}

/** Errors a later poll may not meet: the watch goes on and says so. */
function passing(err: unknown, wrote: boolean): boolean {
  if (err instanceof UsageError || err instanceof CheckFailedError) return false;
  if (err instanceof NetworkError) return true;
  if (err instanceof HttpError) return err.status >= 500 || err.status === 429;
  // several repositories, some read: the output covers the others
  return err instanceof MqError && wrote;
}

async function watchFigures(ctx: Context, w: FigureWatch): Promise<never> {
  const screen = watchesScreen(ctx, w.format);
  const changes = new FigureChanges();
  const clean = (err: unknown) => messageText(redact(err instanceof Error ? err.message : String(err), messageSecrets(ctx)));
  let shown = "";
  let told = "";
  let shownAt: Date | undefined;
  return runWatchLoop(ctx, {
    intervalSeconds: w.intervalSeconds,
    screen,
    async tick(clock, first) {
      // a poll that cannot learn the present shows the last one it knew
      let at = shownAt ?? clock;
      const run = await catchRun(ctx, screen ? "table" : "ndjson", async (caught) => {
        at = await w.present();
        await w.once(caught, at);
      });
      shownAt = at;
      if (ctx.signal.aborted) throw run.error ?? new Error("interrupted");
      const err = run.error;
      const breach = err instanceof CheckFailedError;
      if (err !== undefined && !breach && (first || !passing(err, run.stdout !== ""))) {
        if (run.stderr) ctx.io.stderr.write(run.stderr);
        throw err;
      }
      const problem = err !== undefined && !breach ? `${w.command}: ${clean(err)} (tried again in ${w.intervalSeconds} s)` : "";
      if (screen) {
        if (run.stdout !== "" || shown === "") shown = run.stdout + (breach ? "" : run.stderr);
        // wrapped to the terminal: a line wider than the screen would scroll the redraw out of place
        const status = wrapLine(`${w.command}: at ${formatTime(at)}; every ${w.intervalSeconds} s, Ctrl-C to stop`, ctx.io.tableWidth());
        const frame = `${shown}${problem ? `${problem}\n` : ""}${status}\n`;
        return breach ? { frame: shown, stop: err, stopText: run.stderr } : { frame, statusLines: status.split("\n").length };
      }
      // the same warnings poll after poll are said once
      const said = breach ? "" : run.stderr + (problem ? `${problem}\n` : "");
      if (said !== "" && said !== told) ctx.io.stderr.write(said);
      told = said;
      const records = changes.next(ndjsonRecords(run.stdout), formatInstant(at), err === undefined || breach);
      return breach ? { records, stop: err, stopText: run.stderr } : { records };
    },
  });
}
