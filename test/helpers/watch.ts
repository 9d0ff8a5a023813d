// What the tests of --watch share: a bundled server whose present the test moves (the watch's
// sleeps move it), one whose present runs (mq serve --now <past> --speed N), and the ndjson a
// watch writes read back as records.
import { startServer, movingClock, type RunningServer, type ServerOptions } from "../../src/server/index.js";
import type { DialectName } from "../../src/api/dialects/index.js";

/** The ndjson lines of TEXT as records. */
export function records(text: string): Array<Record<string, unknown>> {
  return text
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** An instant as the API and ndjson write it: whole seconds, no milliseconds. */
export const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");

/** A bundled server and the present it has, which the test sets (never back). */
export interface DrivenServer {
  server: RunningServer;
  url: string;
  /** the present, for the server and for mq alike */
  now(): Date;
  set(at: Date): void;
  /**
   * The clock and sleep of a run of mq (runMq's options): each sleep moves the present on by its
   * length; Ctrl-C at the sleep after POLLS polls. mq's clock is SKEW ms off the server's.
   */
  watch(
    polls: number,
    skewMs?: number,
  ): { now: () => Date; sleep: (ms: number, signal: AbortSignal) => Promise<void>; signal: AbortSignal };
}

/** A bundled server at START whose present moves only when the test (or a watch's sleep) moves it. */
export async function drivenServer(start: Date, options: Omit<ServerOptions, "now" | "clock" | "speed"> = {}): Promise<DrivenServer> {
  let t = start.getTime();
  const server = await startServer({ days: 2, repos: ["acme/web", "acme/api"], ...options, now: start, clock: () => t });
  return {
    server,
    url: server.url,
    now: () => new Date(t),
    set(at) {
      if (at.getTime() < t) throw new Error("a server's present never goes back");
      t = at.getTime();
    },
    watch(polls, skewMs = 0) {
      const ac = new AbortController();
      let n = 0;
      return {
        signal: ac.signal,
        now: () => new Date(t + skewMs),
        sleep: async (ms, signal) => {
          if (++n >= polls) ac.abort();
          if (signal.aborted) throw new Error("aborted");
          t += ms;
        },
      };
    },
  };
}

/** `mq serve --now START --speed SPEED` in DIALECT: the present runs from START; `present()` is the server's. */
export async function runningServer(
  dialect: DialectName,
  start: Date,
  speed: number,
): Promise<{ server: RunningServer; present: () => Date }> {
  const from = Date.now();
  const server = await startServer({ now: start, speed, speedFrom: from, days: 2, dialect, repos: ["acme/web"] });
  const clock = movingClock(start, speed, from);
  return { server, present: () => new Date(clock()) };
}
