// One repository's queue followed poll after poll (mq queue --watch, mq wait's status line): the
// lookback read once (readQueue, keeping what following needs), then at each poll only the queue
// events received since the newest one read, de-duplicated by exact id (the API has no "after id":
// it is asked from that instant), the queue rebuilt from those and the open stays' events
// (follow.ts). Memory holds the open stays, not the log.
import { compareEventTimes, eventIdKey } from "../api/event-ids.js";
import type { LogEvent } from "../api/events.js";
import { QUEUE_EVENT_TYPES } from "../insights/dialects.js";
import type { EventSource } from "../insights/walk.js";
import { followQueue } from "./follow.js";
import { readQueue, type QueueEntry, type QueueFilter, type QueueMemory } from "./reconstruct.js";

/** Where a follower is in the log: received_at (ms) of the newest event read, and the ids read at that instant. */
export interface LogPosition {
  watermark: number;
  seen: Set<string>;
}

/** Moves P past EV; false when EV was read before (ids told apart exactly, beyond 2^53 too). */
export function advance(p: LogPosition, ev: LogEvent): boolean {
  const t = Date.parse(ev.received_at);
  if (!Number.isFinite(t) || t < p.watermark || (t === p.watermark && p.seen.has(eventIdKey(ev)))) return false;
  if (t > p.watermark) {
    p.watermark = t;
    p.seen.clear();
  }
  p.seen.add(eventIdKey(ev));
  return true;
}

export interface FollowerOptions {
  /** the lookback's start: its length is kept as the present moves */
  since: Date;
  baseRef?: string;
  parallel?: number;
  filter?: QueueFilter;
  /** the lookback's length kept at each poll (default: from `since` to the start) */
  lookbackMs?: number;
}

export class QueueFollower implements LogPosition {
  watermark: number;
  seen = new Set<string>();
  memory: QueueMemory = { kept: [], ended: [], closed: {} };
  entries: QueueEntry[] = [];
  private lookbackMs = 0;

  constructor(
    private readonly source: EventSource,
    readonly repo: { owner: string; name: string },
    private readonly opts: FollowerOptions,
  ) {
    this.watermark = opts.since.getTime();
  }

  /** Reads the lookback up to AT once: the queue at AT. */
  async start(at: Date): Promise<QueueEntry[]> {
    this.lookbackMs = this.opts.lookbackMs ?? at.getTime() - this.opts.since.getTime();
    const { source } = this;
    const observed: EventSource = {
      ...source,
      events: (q) => {
        const self = this;
        return (async function* () {
          for await (const ev of source.events(q)) {
            advance(self, ev);
            yield ev;
          }
        })();
      },
    };
    const snap = await readQueue(
      observed,
      { ...this.repo, since: this.opts.since, until: at, baseRef: this.opts.baseRef, parallel: this.opts.parallel, keep: true },
      this.opts.filter,
    );
    this.memory = snap.memory!;
    this.entries = snap.entries;
    return this.entries;
  }

  /** Reads what arrived since the newest event read (never past UNTIL): the queue at UNTIL. */
  async poll(until: Date): Promise<QueueEntry[]> {
    const added: LogEvent[] = [];
    for await (const ev of this.source.events({
      ...this.repo,
      since: new Date(Math.min(this.watermark, until.getTime())),
      until,
      baseRef: this.opts.baseRef,
      types: QUEUE_EVENT_TYPES,
      parallel: 1,
    }))
      added.push(ev);
    added.sort(compareEventTimes);
    const fresh = added.filter((ev) => advance(this, ev));
    const r = await followQueue(this.repo, this.memory, fresh, until, {
      lookbackMs: this.lookbackMs,
      estimates: true,
      filter: this.opts.filter,
    });
    this.memory = r.memory;
    this.entries = r.entries;
    return this.entries;
  }
}
