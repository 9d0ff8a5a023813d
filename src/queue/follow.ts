// The queue of a repository followed as its log grows (mq exporter's mq_queue_size, mq queue
// --watch): each poll's new events are added to the events of the stays still open, and the queue at
// the poll's instant is rebuilt from them by the reconstruction of `mq queue` (walkQueue,
// positionsOf) over the same lookback, with the estimates from the stays of the lookback, so the
// two give the same queue at the same instant. What is kept between polls is the events of the
// open stays and a few numbers per ended stay: a stay that leaves is forgotten with its events.
import { compareEventTimes } from "../api/event-ids.js";
import type { LogEvent } from "../api/events.js";
import {
  DEFAULT_QUEUE_LOOKBACK_MS,
  filterStays,
  positionsOf,
  stayKeyOf,
  walkQueue,
  type QueueEntry,
  type QueueFilter,
  type QueueMemory,
} from "./reconstruct.js";

/** How long a stay's key is remembered after it left: an event of it arriving later opens no stay. */
export const LATE_EVENT_GRACE_MS = 3_600_000;

const newestFirst = (a: LogEvent, b: LogEvent) => compareEventTimes(b, a);

export interface FollowOptions {
  lookbackMs?: number;
  /** keep the ended stays for the estimates (mq queue --watch); the exporter counts and needs none */
  estimates?: boolean;
  filter?: QueueFilter;
}

/**
 * Adds ADDED (events not seen before) to MEMORY and returns the queue at UNTIL as `mq queue --since
 * UNTIL-LOOKBACK --until UNTIL` rebuilds it, with the memory for the next poll.
 */
export async function followQueue(
  repository: { owner: string; name: string },
  memory: QueueMemory,
  added: readonly LogEvent[],
  until: Date,
  opts: FollowOptions = {},
): Promise<{ entries: QueueEntry[]; memory: QueueMemory }> {
  const since = until.getTime() - (opts.lookbackMs ?? DEFAULT_QUEUE_LOOKBACK_MS);
  const inWindow = (ev: LogEvent) => {
    const t = Date.parse(ev.received_at);
    return t >= since && t <= until.getTime();
  };
  // what the lookback, which only moves forward, can still read; nothing of a stay that left
  const fresh = added.filter((ev) => memory.closed[stayKeyOf(ev) ?? ""] === undefined);
  const events = [...memory.kept, ...fresh].filter(inWindow).sort(newestFirst);
  const walked = await walkQueue(events, `${repository.owner}/${repository.name}`, true);
  // the ended stays stay until their newest event leaves the lookback; one ended again now (a
  // merged stay whose leave came after its merged event) replaces the one of before
  const again = new Set(walked.ended.map((m) => m.key));
  const ended = opts.estimates ? [...memory.ended.filter((m) => m.at >= since && !again.has(m.key)), ...walked.ended] : [];
  return {
    entries: positionsOf(filterStays(walked.open, opts.filter ?? {}), ended, until.getTime(), since),
    memory: { kept: walked.kept, ended, closed: recentlyClosed([memory.closed, walked.left], until) },
  };
}

/** The stays left within LATE_EVENT_GRACE_MS of UNTIL: what following remembers of those that left. */
function recentlyClosed(lists: ReadonlyArray<Record<string, number>>, until: Date): Record<string, number> {
  const closed: Record<string, number> = {};
  for (const list of lists) for (const [key, at] of Object.entries(list)) if (at >= until.getTime() - LATE_EVENT_GRACE_MS) closed[key] = at;
  return closed;
}

/**
 * What following needs of the memory of a first walk of the lookback up to UNTIL (readQueue with
 * `keep`, as `mq queue` reads it): the ended stays only for the estimates, the stays left within
 * the grace. A first round that walks the log once, as it arrives, instead of holding the
 * lookback's events for followQueue.
 */
export function followFrom(memory: QueueMemory, until: Date, opts: Pick<FollowOptions, "estimates"> = {}): QueueMemory {
  return { kept: memory.kept, ended: opts.estimates ? memory.ended : [], closed: recentlyClosed([memory.closed], until) };
}
