// The queue of a repository followed as its log grows (mq exporter's mq_queue_size): each round's new
// events are added to the events of the stays still open, and the queue at the round's instant is
// rebuilt from those by `readQueue`, the reconstruction of `mq queue`, over the same lookback, so
// the two count the same pull requests at the same instant. What is kept between rounds is the
// events of the open stays only: a stay that leaves is forgotten with its events.
import type { LogEvent } from "../api/events.js";
import { dialectOf, readField } from "../insights/dialects.js";
import type { EventSource, WalkOptions } from "../insights/walk.js";
import { DEFAULT_QUEUE_LOOKBACK_MS, readQueue, type QueueEntry } from "./reconstruct.js";

/** The stay an event belongs to, as the stays are keyed (pull request and queued_at); none for a bisection. */
function stayKeyOf(ev: LogEvent): string | undefined {
  if (ev.pull_request === null) return undefined;
  const dialect = dialectOf(ev.type, ev.metadata);
  const queued = readField(ev.metadata, "queued_at", dialect);
  const at = queued !== undefined ? Date.parse(queued) : ev.type === "action.queue.enter" ? Date.parse(ev.received_at) : NaN;
  return Number.isFinite(at) ? `${ev.pull_request}\u0000${at}` : undefined;
}

const newestFirst = (a: LogEvent, b: LogEvent) => Date.parse(b.received_at) - Date.parse(a.received_at) || b.id - a.id;

/** The given events as an event source: what the API would answer for a window, newest first. */
function memorySource(events: readonly LogEvent[]): EventSource {
  return {
    fromArchive: false,
    async *events(q: WalkOptions) {
      const from = q.since.getTime();
      const to = q.until.getTime();
      for (const ev of events) {
        const t = Date.parse(ev.received_at);
        if (t >= from && t <= to && (q.types === undefined || q.types.includes(ev.type))) yield ev;
      }
    },
    async missing() {
      return { parts: [], where: "" };
    },
  };
}

/**
 * Adds NEW events (not seen before) to KEPT, the events of a repository's open stays, and returns the
 * queue at UNTIL as `mq queue --since UNTIL-LOOKBACK --until UNTIL` rebuilds it, with the events to
 * keep for the next round (those of the stays still open).
 */
export async function followQueue(
  repository: { owner: string; name: string },
  kept: readonly LogEvent[],
  added: readonly LogEvent[],
  until: Date,
  lookbackMs = DEFAULT_QUEUE_LOOKBACK_MS,
): Promise<{ entries: QueueEntry[]; kept: LogEvent[] }> {
  const since = new Date(until.getTime() - lookbackMs);
  const all = [...kept, ...added].sort(newestFirst);
  const { entries } = await readQueue(memorySource(all), { owner: repository.owner, name: repository.name, since, until });
  const open = new Set(entries.map((e) => `${e.stay.pullRequest}\u0000${e.stay.enteredAt}`));
  // kept: what a later round's lookback (which only moves forward) can still read of an open stay; a
  // bisection event belongs to no one stay and changes no count
  return { entries, kept: all.filter((ev) => Date.parse(ev.received_at) >= since.getTime() && open.has(stayKeyOf(ev) ?? "")) };
}
