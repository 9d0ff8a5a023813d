// The queue events of a window that moves with the present, kept between the polls of a watch
// (`mq insights --watch`): the first poll reads the window, each later one only the events received
// since the newest one read (de-duplicated by exact id at that instant, as `mq logs --follow` and
// `mq queue --watch` do: the API has no "after id"), and what falls before the window's start is
// dropped, so memory holds one window's queue events however long the watch. It is an EventSource:
// the command's own run reads its windows from it as from the API, and gets the same events in the
// same order (newest first), so its figures are a plain run's at that present.
import type { LogEvent } from "../api/events.js";
import { compareEventTimes } from "../api/event-ids.js";
import type { RepoName } from "../cmdutil/repos.js";
import { QUEUE_EVENT_TYPES } from "../insights/dialects.js";
import type { EventSource, MissingData, WalkOptions } from "../insights/walk.js";
import { advance, type LogPosition } from "../queue/follower.js";

interface Kept extends LogPosition {
  /** oldest first (received_at, then id) */
  events: LogEvent[];
  /** what the last read of this repository failed with: its run fails the same way (a repository not read) */
  error?: unknown;
}

export interface WindowLogOptions {
  baseRef?: string;
  /** requests in flight for one repository's read */
  parallel?: number;
}

const keyOf = (repo: { owner: string; name: string }) => `${repo.owner}/${repo.name}`;

export class WindowLog implements EventSource {
  readonly fromArchive = false;
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly api: EventSource,
    private readonly opts: WindowLogOptions,
  ) {}

  /** events held, every repository (what memory holds) */
  get size(): number {
    let n = 0;
    for (const k of this.kept.values()) n += k.events.length;
    return n;
  }

  /**
   * Brings each repository's events up to AT (the server's present) and drops those before SINCE.
   * A repository whose read fails keeps what it had (its next poll asks again from there).
   */
  async advance(repos: readonly RepoName[], since: Date, at: Date, signal: AbortSignal): Promise<void> {
    await Promise.all(
      repos.map(async (repo) => {
        const key = keyOf(repo);
        const k = this.kept.get(key);
        // never from before the window: a first read, or a repository whose last events fell out of it
        const from = k === undefined ? since.getTime() : Math.max(Math.min(k.watermark, at.getTime()), since.getTime());
        const fresh: LogEvent[] = [];
        try {
          for await (const ev of this.api.events({
            owner: repo.owner,
            name: repo.name,
            since: new Date(from),
            until: at,
            types: QUEUE_EVENT_TYPES,
            baseRef: this.opts.baseRef,
            parallel: this.opts.parallel,
          }))
            fresh.push(ev);
        } catch (err) {
          if (signal.aborted) throw err;
          if (k) k.error = err;
          else this.kept.set(key, { watermark: since.getTime(), seen: new Set(), events: [], error: err });
          return;
        }
        const into = k ?? { watermark: since.getTime(), seen: new Set<string>(), events: [] };
        into.error = undefined;
        fresh.sort(compareEventTimes);
        for (const ev of fresh) if (advance(into, ev)) into.events.push(ev);
        const start = since.getTime();
        let drop = 0;
        while (drop < into.events.length && Date.parse(into.events[drop]!.received_at) < start) drop++;
        if (drop > 0) into.events.splice(0, drop);
        this.kept.set(key, into);
      }),
    );
  }

  async *events(q: WalkOptions): AsyncIterable<LogEvent> {
    const k = this.kept.get(keyOf(q));
    if (k === undefined) throw new Error(`${keyOf(q)} was not read`);
    if (k.error !== undefined) throw k.error;
    const from = q.since.getTime();
    const to = q.until.getTime();
    const types = q.types ? new Set(q.types) : undefined;
    let n = 0;
    // newest first, as the API answers; the window's bounds count, as the API's do
    for (let i = k.events.length - 1; i >= 0; i--) {
      const ev = k.events[i]!;
      const t = Date.parse(ev.received_at);
      if (t > to) continue;
      if (t < from) break;
      // the API chose them by --base-ref already (the one base ref this log is read for)
      if (types && !types.has(ev.type)) continue;
      n++;
      yield ev;
    }
    q.onPage?.(n, 1);
  }

  missing(repository: string, since: Date, until: Date): Promise<MissingData> {
    return this.api.missing(repository, since, until);
  }
}
