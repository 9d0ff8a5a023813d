// The one watch loop of `mq queue --watch`, `mq stats ... --watch` and `mq insights --watch`: a poll
// now, then one every --interval seconds until Ctrl-C or a stop the poll asks for (a --fail-if
// breach). On a terminal each poll's frame is drawn over the last on the alternate screen, cut to the
// terminal's height, and the screen the user had is restored however the loop ends; otherwise each
// poll's records (the changes since the poll before) go to stdout as ndjson. The clock and the sleep
// are the Context's, so tests drive the loop without waiting.
import { setTimeout as sleepFor } from "node:timers/promises";
import type { Context } from "../context.js";
import { InterruptedError } from "../errors.js";
import { createRecordWriter } from "../output/records.js";

export const ALT_SCREEN = "\x1b[?1049h";
export const MAIN_SCREEN = "\x1b[?1049l";
export const HOME_CLEAR = "\x1b[H\x1b[2J";

/** What a poll gives to show. */
export interface WatchTick {
  /** on a terminal: the screen, its status line last */
  frame?: string;
  /** how many lines the status is at the frame's end (wrapped to the terminal's width; default 1) */
  statusLines?: number;
  /** in a pipe: the records of what changed since the last poll */
  records?: ReadonlyArray<Record<string, unknown>>;
  /** end the watch with this error once the tick is shown (a --fail-if breach) */
  stop?: Error;
  /** written to stderr after the screen is restored, before the stop (the breach's verdict lines) */
  stopText?: string;
}

export interface WatchLoop {
  intervalSeconds: number;
  /** redraw on the terminal (true) or write records (false) */
  screen: boolean;
  /** one poll at AT; FIRST for the one at the start */
  tick(at: Date, first: boolean): Promise<WatchTick>;
}

/** Waits MS unless SIGNAL aborts first (then rejects): the Context's sleep, else the real one. */
export function sleepOf(ctx: Pick<Context, "sleep">): (ms: number, signal: AbortSignal) => Promise<void> {
  return ctx.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal }));
}

/**
 * FRAME cut to ROWS lines (the terminal's height): a frame taller than the screen would scroll
 * and the redraw would no longer land in place. The last STATUS lines (the status) are kept.
 */
export function fitFrame(frame: string, rows: number | undefined, status = 1): string {
  const lines = frame.replace(/\n$/, "").split("\n");
  if (rows === undefined || rows < status + 2 || lines.length < rows) return `${lines.join("\n")}\n`;
  const keep = rows - 2 - status;
  const cut = lines.length - status - keep;
  const more = `… ${cut} more line${cut === 1 ? "" : "s"} (a taller terminal shows them)`;
  return `${[...lines.slice(0, keep), more, ...lines.slice(-status)].join("\n")}\n`;
}

/** Runs the loop until Ctrl-C (InterruptedError, exit 130) or a tick's stop; never returns otherwise. */
export async function runWatchLoop(ctx: Context, loop: WatchLoop): Promise<never> {
  const sleep = sleepOf(ctx);
  const records = loop.screen ? undefined : createRecordWriter("ndjson", ctx.io.stdout);
  let onScreen = false;
  const leave = () => {
    if (onScreen) ctx.io.stdout.write(MAIN_SCREEN);
    onScreen = false;
  };
  try {
    for (let first = true; ; first = false) {
      if (!first) await sleep(loop.intervalSeconds * 1000, ctx.signal);
      if (ctx.signal.aborted) throw new InterruptedError();
      const tick = await loop.tick(ctx.now(), first);
      if (loop.screen) {
        // the alternate screen from the first frame on: what the first poll says on stderr stays in view
        if (tick.frame !== undefined)
          ctx.io.stdout.write(`${onScreen ? "" : ALT_SCREEN}${HOME_CLEAR}${fitFrame(tick.frame, ctx.io.height(), tick.statusLines)}`);
        onScreen ||= tick.frame !== undefined;
      } else if (tick.records?.length) await records!.writeMany(tick.records);
      if (tick.stop) {
        // the breach stays in view: the last frame again on the screen the user had
        leave();
        if (loop.screen && tick.frame !== undefined) ctx.io.stdout.write(tick.frame.endsWith("\n") ? tick.frame : `${tick.frame}\n`);
        if (tick.stopText) ctx.io.stderr.write(tick.stopText);
        throw tick.stop;
      }
    }
  } catch (err) {
    leave();
    await records?.end().catch(() => undefined);
    if (ctx.signal.aborted) throw new InterruptedError();
    throw err;
  }
}
