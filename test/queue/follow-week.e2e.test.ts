// A week of following the queue (what `mq queue --watch` and the exporter do) in hourly polls over
// a simulated week: memory holds the stays not yet left (their events), one number per stay merged
// in the lookback and the keys of the stays left in the last hour, never the log, and each day the
// queue is the one `mq queue` rebuilds in one walk.
import { describe, expect, it } from "vitest";
import type { LogEvent } from "../../src/api/events.js";
import type { EventSource } from "../../src/insights/walk.js";
import { followQueue, LATE_EVENT_GRACE_MS } from "../../src/queue/follow.js";
import { DEFAULT_QUEUE_LOOKBACK_MS, readQueue, stayKeyOf, type QueueMemory } from "../../src/queue/reconstruct.js";
import { simulateRepository } from "../../src/server/simulate/index.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const HOUR = 3_600_000;
const at = (e: LogEvent) => Date.parse(e.received_at);
const events = (simulateRepository({ repo: "acme/web", seed: 8, days: 8, now: NOW }) as unknown as LogEvent[]).filter((e) =>
  e.type.startsWith("action.queue."),
);

const logSource = (all: readonly LogEvent[]): EventSource => ({
  fromArchive: false,
  async *events(q) {
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i]!;
      if (at(e) >= q.since.getTime() && at(e) <= q.until.getTime()) yield e;
    }
  },
  async missing() {
    return { parts: [], where: "" };
  },
});

describe("following the queue for a week", () => {
  it("memory stays the open stays', the lookback's ended stays and the last hour's leaves", async () => {
    let memory: QueueMemory = { kept: [], ended: [], closed: {} };
    let read = 0;
    const start = NOW.getTime() - 7 * 24 * HOUR;
    const peaks: number[] = [];
    for (let t = start, poll = 0; t <= NOW.getTime(); t += HOUR, poll++) {
      const added: LogEvent[] = [];
      while (read < events.length && at(events[read]!) <= t) added.push(events[read++]!);
      const r = await followQueue({ owner: "acme", name: "web" }, memory, added, new Date(t), { estimates: true });
      memory = r.memory;
      const open = new Set(r.entries.map((e) => `${e.stay.pullRequest}\u0000${e.stay.enteredAt}`));
      // kept: the events of the stays in the queue, or merged and not yet left
      const keys = new Set(memory.kept.map((e) => stayKeyOf(e)!));
      for (const k of keys) if (!open.has(k)) expect(memory.ended.some((m) => m.key === k && m.mergedAt !== null)).toBe(true);
      // ended: at most the merges and leaves of the lookback; closed: the leaves of the last hour
      const seen = events.slice(0, read);
      const merging = (e: LogEvent) =>
        e.type === "action.queue.merged" || (e.type === "action.queue.leave" && (e.metadata as { merged?: boolean }).merged === true);
      const ends = new Set(
        seen.filter((e) => (merging(e) || e.type === "action.queue.leave") && at(e) >= t - DEFAULT_QUEUE_LOOKBACK_MS).map(stayKeyOf),
      );
      expect(memory.ended.length).toBeLessThanOrEqual(ends.size);
      const leaves = seen.filter((e) => e.type === "action.queue.leave" && at(e) >= t - LATE_EVENT_GRACE_MS).length;
      expect(Object.keys(memory.closed).length).toBe(leaves);
      peaks.push(memory.kept.length);
      if (poll % 24 === 0) {
        const whole = await readQueue(logSource(events.slice(0, read)), {
          owner: "acme",
          name: "web",
          since: new Date(t - DEFAULT_QUEUE_LOOKBACK_MS),
          until: new Date(t),
        });
        expect(r.entries.map((e) => [e.stay.pullRequest, e.position, e.state, e.etaP50, e.etaBasis])).toEqual(
          whole.entries.map((e) => [e.stay.pullRequest, e.position, e.state, e.etaP50, e.etaBasis]),
        );
      }
    }
    // the events kept do not grow with the week: the last day's peak is no more than twice the first's
    const day = (d: number) => Math.max(...peaks.slice(d * 24, d * 24 + 24));
    expect(day(6)).toBeLessThanOrEqual(2 * day(0) + 50);
    expect(events.length).toBeGreaterThan(10_000);
  }, 120_000);
});
