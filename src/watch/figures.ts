// --watch for the commands that print figures (`mq stats <endpoint>`, `mq stats summary`, `mq
// insights`): each poll is one plain run of the command (its own fetch, renderers and --fail-if),
// caught (capture.ts); on a terminal its screen is redrawn in place, in a pipe the records whose
// figures changed are written (changes.ts). A --fail-if breach ends the watch with the gate's
// verdict lines and exit code; a poll that fails for a passing reason (the network, a 5xx, one of
// several repositories) keeps the last screen, says why, and is tried again at the next poll.
import type { Context, OutputFormat } from "../context.js";
import { CheckFailedError, HttpError, MqError, NetworkError, UsageError, redact } from "../errors.js";
import { messageText } from "../iostreams/terminal-text.js";
import { messageSecrets } from "../secrets.js";
import { catchRun } from "./capture.js";
import { FigureChanges, ndjsonRecords } from "./changes.js";
import { watchesScreen } from "./flags.js";
import { runWatchLoop } from "./loop.js";

export interface FigureWatch {
  /** the command as typed, for the status line and messages ("mq stats queue-size") */
  command: string;
  intervalSeconds: number;
  /** the output format in effect (table on a terminal redraws; else ndjson records) */
  format: OutputFormat;
  /** one plain run of the command at AT, writing to CAUGHT's streams */
  once(caught: Context, at: Date): Promise<void>;
}

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");

/** Errors a later poll may not meet: the watch goes on and says so. */
function passing(err: unknown, wrote: boolean): boolean {
  if (err instanceof UsageError || err instanceof CheckFailedError) return false;
  if (err instanceof NetworkError) return true;
  if (err instanceof HttpError) return err.status >= 500 || err.status === 429;
  // several repositories, some read: the output covers the others
  return err instanceof MqError && wrote;
}

export async function watchFigures(ctx: Context, w: FigureWatch): Promise<never> {
  const screen = watchesScreen(ctx, w.format);
  const changes = new FigureChanges();
  const clean = (err: unknown) => messageText(redact(err instanceof Error ? err.message : String(err), messageSecrets(ctx)));
  let shown = "";
  let told = "";
  return runWatchLoop(ctx, {
    intervalSeconds: w.intervalSeconds,
    screen,
    async tick(at, first) {
      const run = await catchRun(ctx, screen ? "table" : "ndjson", (caught) => w.once(caught, at));
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
        const status = `${w.command}: at ${iso(at)}; every ${w.intervalSeconds} s, Ctrl-C to stop`;
        const frame = `${shown}${problem ? `${problem}\n` : ""}${status}\n`;
        return breach ? { frame: shown, stop: err, stopText: run.stderr } : { frame };
      }
      // the same warnings poll after poll are said once
      const said = breach ? "" : run.stderr + (problem ? `${problem}\n` : "");
      if (said !== "" && said !== told) ctx.io.stderr.write(said);
      told = said;
      const records = changes.next(ndjsonRecords(run.stdout), iso(at));
      return breach ? { records, stop: err, stopText: run.stderr } : { records };
    },
  });
}
