// The one watch loop, driven by an injected clock and sleep (nothing waits): a tick now, then one
// per interval; records to stdout in a pipe; on a terminal each frame drawn over the last on the
// alternate screen, cut to the terminal's height, the user's screen restored on Ctrl-C and on a
// stop, the stop's frame left in view and its text on stderr.
import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../src/errors.js";
import { ALT_SCREEN, fitFrame, HOME_CLEAR, MAIN_SCREEN, runWatchLoop, type WatchTick } from "../../src/watch/loop.js";
import { testContext } from "../helpers/context.js";

/** A context whose clock moves by the interval at each sleep, and Ctrl-C after POLLS ticks. */
function driven(polls: number, tty: boolean, rows?: number) {
  const ac = new AbortController();
  let t = Date.parse("2026-11-20T09:00:00Z");
  const slept: number[] = [];
  const ctx = testContext({
    tty,
    signal: ac.signal,
    now: () => new Date(t),
    sleep: async (ms, signal) => {
      slept.push(ms);
      if (slept.length >= polls) ac.abort();
      if (signal.aborted) throw new Error("aborted");
      t += ms;
    },
  });
  if (rows !== undefined) ctx.io.height = () => rows;
  return { ctx, slept };
}

describe("runWatchLoop", () => {
  it("in a pipe: a tick at once, then one per interval, each tick's records as ndjson; Ctrl-C is InterruptedError", async () => {
    const { ctx, slept } = driven(3, false);
    const ats: string[] = [];
    const err = await runWatchLoop(ctx, {
      intervalSeconds: 2.5,
      screen: false,
      async tick(at, first) {
        ats.push(at.toISOString());
        return { records: first ? [{ n: 1 }] : [] };
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(ats).toEqual(["2026-11-20T09:00:00.000Z", "2026-11-20T09:00:02.500Z", "2026-11-20T09:00:05.000Z"]);
    expect(slept).toEqual([2500, 2500, 2500]);
    expect(ctx.stdoutText()).toBe('{"n":1}\n');
  });

  it("on a terminal: frames over each other on the alternate screen, the screen restored on Ctrl-C", async () => {
    const { ctx } = driven(2, true);
    let n = 0;
    const err = await runWatchLoop(ctx, {
      intervalSeconds: 1,
      screen: true,
      tick: async () => ({ frame: `frame ${++n}\nstatus\n` }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(ctx.stdoutText()).toBe(`${ALT_SCREEN}${HOME_CLEAR}frame 1\nstatus\n${HOME_CLEAR}frame 2\nstatus\n${MAIN_SCREEN}`);
  });

  it("a stop ends the loop with its error: the screen restored, its frame left in view, its text on stderr", async () => {
    const { ctx } = driven(10, true);
    const breach = new Error("1 of 1 --fail-if check failed.");
    let n = 0;
    const tick = async (): Promise<WatchTick> =>
      ++n < 3 ? { frame: `poll ${n}\n` } : { frame: `poll ${n}\n`, stop: breach, stopText: "✗ p50 > 1h\n" };
    await expect(runWatchLoop(ctx, { intervalSeconds: 1, screen: true, tick })).rejects.toBe(breach);
    expect(ctx.stdoutText()).toBe(`${ALT_SCREEN}${HOME_CLEAR}poll 1\n${HOME_CLEAR}poll 2\n${HOME_CLEAR}poll 3\n${MAIN_SCREEN}poll 3\n`);
    expect(ctx.stderrText()).toBe("✗ p50 > 1h\n");
  });

  it("an error of the first tick leaves the terminal as it was: the alternate screen is entered with the first frame", async () => {
    const { ctx } = driven(10, true);
    const failure = new Error("no such repository");
    await expect(
      runWatchLoop(ctx, {
        intervalSeconds: 1,
        screen: true,
        tick: async () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(ctx.stdoutText()).toBe("");
  });

  it("a frame taller than the terminal is cut to its height, the status line kept", async () => {
    const { ctx } = driven(1, true, 6);
    const frame = `${Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join("\n")}\nstatus\n`;
    await runWatchLoop(ctx, { intervalSeconds: 1, screen: true, tick: async () => ({ frame }) }).catch(() => undefined);
    expect(ctx.stdoutText()).toBe(
      `${ALT_SCREEN}${HOME_CLEAR}row 1\nrow 2\nrow 3\n… 7 more lines (a taller terminal shows them)\nstatus\n${MAIN_SCREEN}`,
    );
  });

  it("fitFrame keeps a frame that fits, and every frame off a terminal", () => {
    expect(fitFrame("a\nb\nstatus\n", 24)).toBe("a\nb\nstatus\n");
    expect(fitFrame("a\nb\nstatus", undefined)).toBe("a\nb\nstatus\n");
  });

  it("fitFrame keeps a status wrapped over two lines whole", () => {
    const frame = `${Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join("\n")}\nstatus,\nCtrl-C to stop\n`;
    expect(fitFrame(frame, 6, 2)).toBe("row 1\nrow 2\n… 8 more lines (a taller terminal shows them)\nstatus,\nCtrl-C to stop\n");
  });
});
