// The queue followed round after round (src/queue/follow.ts, mq exporter's mq_queue_size) against
// the queue `mq queue` rebuilds in one walk (readQueue over the whole log up to the same instant):
// at every instant of a simulated day, the same open stays at the same positions, and what is kept
// between rounds is the events of the open stays only.
import { describe, expect, it } from "vitest";
import type { LogEvent } from "../../src/api/events.js";
import type { EventSource } from "../../src/insights/walk.js";
import { followQueue } from "../../src/queue/follow.js";
import { readQueue, type QueueEntry } from "../../src/queue/reconstruct.js";
import { simulateRepository } from "../../src/server/simulate/index.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const HOUR = 3_600_000;
const events = simulateRepository({ repo: "acme/web", seed: 3, days: 1, now: NOW }) as unknown as LogEvent[];
const at = (e: LogEvent) => Date.parse(e.received_at);

/** the log as the API answers it: the window's events, newest first */
const logSource = (all: readonly LogEvent[]): EventSource => ({
  fromArchive: false,
  async *events(q) {
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i]!;
      if (at(e) >= q.since.getTime() && at(e) <= q.until.getTime() && (!q.types || q.types.includes(e.type))) yield e;
    }
  },
  async missing() {
    return { parts: [], where: "" };
  },
});

const shape = (entries: readonly QueueEntry[]) =>
  entries.map((e) => [e.stay.pullRequest, e.stay.enteredAt, e.stay.queue, e.stay.partition, e.position, e.state, e.stateSince].join(" "));

describe("followQueue", () => {
  it("equals readQueue over the whole lookback at every instant, through merges and evictions", async () => {
    const lookback = 6 * HOUR;
    let kept: LogEvent[] = [];
    let read = 0;
    let merges = 0;
    let evictions = 0;
    const sizes: number[] = [];
    for (let t = NOW.getTime() - 20 * HOUR; t <= NOW.getTime(); t += 29 * 60_000) {
      const until = new Date(t);
      const added: LogEvent[] = [];
      while (read < events.length && at(events[read]!) <= t) added.push(events[read++]!);
      for (const e of added) {
        if (e.type === "action.queue.leave") (e.metadata as { merged?: boolean }).merged ? merges++ : evictions++;
      }
      const followed = await followQueue({ owner: "acme", name: "web" }, kept, added, until, lookback);
      const whole = await readQueue(logSource(events), { owner: "acme", name: "web", since: new Date(t - lookback), until });
      expect(shape(followed.entries)).toEqual(shape(whole.entries));
      kept = followed.kept;
      // kept: events of the open stays only, none older than the lookback
      const open = new Set(followed.entries.map((e) => e.stay.pullRequest));
      expect(kept.every((e) => e.pull_request !== null && open.has(e.pull_request) && at(e) >= t - lookback)).toBe(true);
      sizes.push(followed.entries.length);
    }
    // the walk went through merges and evictions, and the queue was not always empty
    expect(merges).toBeGreaterThan(10);
    expect(evictions).toBeGreaterThan(3);
    expect(Math.max(...sizes)).toBeGreaterThan(2);
  });
});
