// The queue followed round after round (src/queue/follow.ts, mq exporter's mq_queue_size) against
// the queue `mq queue` rebuilds in one walk (readQueue over the whole log up to the same instant):
// at every instant of a simulated day, the same open stays at the same positions, and what is kept
// between rounds is the events of the open stays only.
import { describe, expect, it } from "vitest";
import type { LogEvent } from "../../src/api/events.js";
import type { EventSource } from "../../src/insights/walk.js";
import { followQueue } from "../../src/queue/follow.js";
import { readQueue, stayKeyOf, type QueueEntry, type QueueMemory } from "../../src/queue/reconstruct.js";
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
  entries.map((e) =>
    [
      e.stay.pullRequest,
      e.stay.enteredAt,
      e.stay.queue,
      e.stay.partition,
      e.position,
      e.state,
      e.stateSince,
      e.etaP50,
      e.etaP90,
      e.etaSample,
      e.etaBasis,
    ].join(" "),
  );

/** polls at each of INSTANTS: the followed queue equals the one-walk queue each time */
async function follow(instants: readonly number[], lookback: number) {
  let memory: QueueMemory = { kept: [], ended: [], closed: {} };
  let read = 0;
  let merges = 0;
  let evictions = 0;
  let estimated = 0;
  const sizes: number[] = [];
  for (const t of instants) {
    const until = new Date(t);
    const added: LogEvent[] = [];
    while (read < events.length && at(events[read]!) <= t) added.push(events[read++]!);
    for (const e of added) {
      if (e.type === "action.queue.leave") (e.metadata as { merged?: boolean }).merged ? merges++ : evictions++;
    }
    const followed = await followQueue({ owner: "acme", name: "web" }, memory, added, until, { lookbackMs: lookback, estimates: true });
    const whole = await readQueue(logSource(events), { owner: "acme", name: "web", since: new Date(t - lookback), until });
    expect(shape(followed.entries)).toEqual(shape(whole.entries));
    memory = followed.memory;
    // kept: events of the stays not yet left only, none older than the lookback
    expect(memory.kept.every((e) => e.pull_request !== null && at(e) >= t - lookback)).toBe(true);
    const left = new Set(events.filter((e) => e.type === "action.queue.leave" && at(e) <= t).map(stayKeyOf));
    expect(memory.kept.some((e) => left.has(stayKeyOf(e)))).toBe(false);
    sizes.push(followed.entries.length);
    estimated += followed.entries.filter((e) => e.etaP50 !== null).length;
  }
  return { merges, evictions, estimated, largest: Math.max(...sizes) };
}

describe("followQueue", () => {
  it("equals readQueue over the whole lookback at every instant, through merges and evictions", async () => {
    const instants: number[] = [];
    for (let t = NOW.getTime() - 20 * HOUR; t <= NOW.getTime(); t += 29 * 60_000) instants.push(t);
    const r = await follow(instants, 6 * HOUR);
    // the walk went through merges and evictions, with estimates, and the queue was not always empty
    expect(r.merges).toBeGreaterThan(10);
    expect(r.evictions).toBeGreaterThan(3);
    expect(r.estimated).toBeGreaterThan(10);
    expect(r.largest).toBeGreaterThan(2);
  });

  it("a poll between a merged event and its leave: the stay merges once", async () => {
    const from = NOW.getTime() - 10 * HOUR;
    const instants = events
      .filter((e) => e.type === "action.queue.merged" && at(e) > from)
      .slice(0, 12)
      .flatMap((merged) => {
        const leave = events.find((e) => e.type === "action.queue.leave" && stayKeyOf(e) === stayKeyOf(merged))!;
        return [at(merged), at(leave)];
      });
    expect(instants.some((t, i) => i % 2 === 0 && t < instants[i + 1]!)).toBe(true);
    const r = await follow(instants, 6 * HOUR);
    expect(r.estimated).toBeGreaterThan(0);
  });
});
