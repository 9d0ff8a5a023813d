// The events of a moving window kept between polls: each read asks from the newest event read (an
// event read before is not kept twice), what falls before the window is dropped (memory holds one
// window however long the watch), and the events are handed over newest first, bounds included, as
// the API hands them; a repository whose read failed fails its run and keeps what it had.
import { describe, expect, it } from "vitest";
import type { LogEvent } from "../../src/api/events.js";
import type { EventSource, WalkOptions } from "../../src/insights/walk.js";
import { WindowLog } from "../../src/watch/window-log.js";

const MIN = 60_000;
const T0 = Date.parse("2026-11-20T09:00:00Z");
const at = (m: number) => new Date(T0 + m * MIN);
/** one queue event a minute, ids in time order */
const LOG: LogEvent[] = Array.from({ length: 600 }, (_, i) => ({
  id: i + 1,
  received_at: at(i).toISOString(),
  type: "action.queue.enter",
  pull_request: i,
  base_ref: "main",
  metadata: {},
}));
const repo = { owner: "acme", name: "web" };

function api(fail?: () => boolean) {
  const asked: Array<[number, number]> = [];
  const source: EventSource = {
    fromArchive: false,
    async *events(q: WalkOptions) {
      asked.push([(q.since.getTime() - T0) / MIN, (q.until.getTime() - T0) / MIN]);
      if (fail?.()) throw new Error("503");
      for (const e of [...LOG].reverse()) {
        const t = Date.parse(e.received_at);
        if (t >= q.since.getTime() && t <= q.until.getTime()) yield e;
      }
    },
    missing: async () => ({ parts: [], where: "" }),
  };
  return { asked, source };
}

const read = async (log: WindowLog, since: number, until: number) => {
  const out: number[] = [];
  for await (const e of log.events({ ...repo, since: at(since), until: at(until), types: ["action.queue.enter"] })) out.push(e.id);
  return out;
};

describe("WindowLog", () => {
  it("reads a window once, then from the newest event read; drops what leaves it; hands over newest first, bounds included", async () => {
    const { asked, source } = api();
    const log = new WindowLog(source, {});
    const signal = new AbortController().signal;
    for (let poll = 0; poll < 50; poll++) {
      const end = 60 + poll * 7;
      await log.advance([repo], at(end - 60), at(end), signal);
      // one window's events, not the watch's
      expect(log.size).toBe(61);
      expect(await read(log, end - 60, end)).toEqual(Array.from({ length: 61 }, (_, i) => end + 1 - i));
    }
    expect(asked.slice(0, 3)).toEqual([
      [0, 60],
      [60, 67],
      [67, 74],
    ]);
    // a part of the window: its bounds included
    expect(await read(log, 400, 403)).toEqual([404, 403, 402, 401]);
  });

  it("a repository whose read failed fails its run, keeps its events, and reads from where it was at the next poll", async () => {
    let failing = false;
    const { asked, source } = api(() => failing);
    const log = new WindowLog(source, {});
    const signal = new AbortController().signal;
    await log.advance([repo], at(0), at(10), signal);
    failing = true;
    await log.advance([repo], at(5), at(15), signal);
    await expect(read(log, 5, 15)).rejects.toThrow("503");
    failing = false;
    await log.advance([repo], at(10), at(20), signal);
    expect(asked).toEqual([
      [0, 10],
      [10, 15],
      [10, 20],
    ]);
    expect(await read(log, 10, 20)).toEqual(Array.from({ length: 11 }, (_, i) => 21 - i));
    expect(log.size).toBe(11);
  });
});
