// The merge queue at an instant, rebuilt from the event log alone: the stays still open at the end of
// a lookback window (no leave and no merged event yet), as src/insights rebuilds every stay, so `mq
// queue` agrees with the open stays of `mq prs` over the same window by construction. Each open stay
// gets its position in its queue and partition, what it is doing now (checks running, bisecting,
// waiting and for what), and an estimate of when it merges from the merged stays of its queue in
// the same window (the figure catalogue's `eta_p50` and `eta_p90`). Used by `mq queue`, `mq wait`
// and the exporter's queue size.
import type { LogEvent } from "../api/events.js";
import { dialectOf, QUEUE_EVENT_TYPES, readField } from "../insights/dialects.js";
import { nearestRank } from "../insights/figures.js";
import { StayBuilder, type Stay } from "../insights/stays.js";
import type { EventSource } from "../insights/walk.js";

/** What an open stay is doing at the end of the window. */
export const QUEUE_STATES = [
  "checks_running",
  "bisecting",
  "waiting_for_capacity",
  "waiting_for_schedule",
  "waiting_for_freeze",
  "paused",
] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** How far back `mq queue` reads by default, and the exporter's queue size always. */
export const DEFAULT_QUEUE_LOOKBACK_MS = 7 * 86_400_000;

/** Fewer merged stays than this behind an estimate and it is not given (null): a median of three says little. */
export const MIN_ETA_SAMPLE = 5;

export interface QueueEntry {
  stay: Stay;
  /** 1…k within its base ref, queue and partition, in order of entry */
  position: number;
  state: QueueState;
  /** when the state began (ms): the running checks' start, the last check run's end, the entry */
  stateSince: number;
  /** the other pull requests of the running check run (a batch), in its order */
  batchWith: number[];
  /** the merge time estimate (ms since the epoch), null when too few merged stays support it */
  etaP50: number | null;
  etaP90: number | null;
  /** merged stays of the same base ref and queue the estimate is taken from */
  etaSample: number;
  /** its enter event is older than the window (its entry time comes from its later events) */
  enteredBeforeWindow: boolean;
}

export interface QueueSnapshot {
  /** the open stays, grouped by repository, base ref, queue and partition, each group in position order */
  entries: QueueEntry[];
  since: Date;
  until: Date;
  /** queue events read */
  events: number;
}

export interface QueueFilter {
  queues?: readonly string[];
  partitions?: readonly string[];
}

/** A queue line's identity: stays of one key share one sequence of positions. */
export function queueKey(s: Pick<Stay, "repository" | "base" | "queue" | "partition">): string {
  return [s.repository ?? "", s.base ?? "", s.queue ?? "", s.partition ?? ""].join("\u0000");
}

const WAITING_CAUSE: ReadonlyArray<[RegExp, QueueState]> = [
  [/schedule/i, "waiting_for_schedule"],
  [/freeze|frozen/i, "waiting_for_freeze"],
  [/pause/i, "paused"],
];

/** Abort codes that leave a stay waiting for something other than a free slot. */
const ABORT_CAUSE: Readonly<Record<string, QueueState>> = {
  SCHEDULED_FREEZE_STATUS_CHANGED: "waiting_for_freeze",
  PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE: "paused",
};

/** What an open stay is doing at the end of the window: from its check runs, and the reason of its last checks_not_started. */
export function stateOf(s: Stay): { state: QueueState; since: number; batchWith: number[] } {
  const running = s.runs.filter((r) => r.conclusion === null && r.startedAt !== null);
  if (running.length > 0) {
    const run = running.reduce((a, b) => (b.startedAt! > a.startedAt! ? b : a));
    return {
      state: /bisect/i.test(run.startReason ?? "") ? "bisecting" : "checks_running",
      since: run.startedAt!,
      batchWith: run.pullRequests.filter((n) => n !== s.pullRequest),
    };
  }
  const ended = s.runs.filter((r) => r.endedAt !== null);
  const last = ended.reduce<(typeof ended)[number] | undefined>((a, b) => (a === undefined || b.endedAt! >= a.endedAt! ? b : a), undefined);
  const lastEnd = Math.max(s.enteredAt, last?.endedAt ?? -Infinity);
  // a checks_not_started after the last run says why nothing runs (its steps are in time order);
  // else the abort code of the last run, when a freeze or a pause stopped it
  const notStarted = s.steps.filter((st) => st.type === "action.queue.checks_not_started" && st.at >= lastEnd).pop();
  const cause = notStarted ? WAITING_CAUSE.find(([re]) => re.test(notStarted.text))?.[1] : undefined;
  if (cause) return { state: cause, since: notStarted!.at, batchWith: [] };
  return { state: ABORT_CAUSE[last?.abortCode ?? ""] ?? "waiting_for_capacity", since: lastEnd, batchWith: [] };
}

/** A stay that merged in the lookback: what the estimates are taken from. */
export interface MergedStay {
  /** the stay's key (stayKeyOf) */
  key: string;
  /** base ref \u0000 queue */
  line: string;
  /** its newest event (ms): it leaves the lookback when that does */
  at: number;
  /** time to merge, seconds */
  seconds: number;
}

/**
 * What following the queue keeps between polls (src/queue/follow.ts): the events of the stays not
 * yet left at the last instant, the stays merged in the lookback, and the stays left lately (key ->
 * when), whose late events must not open a stay again.
 */
export interface QueueMemory {
  kept: LogEvent[];
  merged: MergedStay[];
  closed: Record<string, number>;
}

/** The stay an event belongs to, keyed as the stays are (pull request and queued_at); none for a bisection. */
export function stayKeyOf(ev: LogEvent): string | undefined {
  if (ev.pull_request === null) return undefined;
  const queued = readField(ev.metadata, "queued_at", dialectOf(ev.type, ev.metadata));
  const at = queued !== undefined ? Date.parse(queued) : ev.type === "action.queue.enter" ? Date.parse(ev.received_at) : NaN;
  return Number.isFinite(at) ? `${ev.pull_request}\u0000${at}` : undefined;
}

/**
 * Rebuilds the stays of a walk (newest first): the open ones, the merged ones and, when `keep`,
 * the events of those not yet left (held per stay until the stay is complete, as the builder
 * holds it) and the stays that left (key -> when).
 */
export async function walkQueue(
  events: AsyncIterable<LogEvent> | Iterable<LogEvent>,
  repository: string,
  keep: boolean,
): Promise<{ open: Stay[]; merged: MergedStay[]; kept: LogEvent[]; left: Record<string, number>; events: number }> {
  const open: Stay[] = [];
  const merged: MergedStay[] = [];
  const kept: LogEvent[] = [];
  const left: Record<string, number> = {};
  const pending = new Map<string, LogEvent[]>();
  // steps kept: the reason of a checks_not_started says what a waiting stay waits for
  const builder = new StayBuilder({
    steps: true,
    onStay: (s) => {
      const key = `${s.pullRequest}\u0000${s.enteredAt}`;
      const own = pending.get(key);
      pending.delete(key);
      // a merged stay whose leave is still to come is kept whole: the leave completes it
      if (s.leftAt === null && own) kept.push(...own);
      if (s.leftAt !== null && keep) left[key] = s.leftAt;
      if (s.outcome === "open") open.push({ ...s, repository });
      else if (s.outcome === "merged" && s.mergedAt !== null) {
        merged.push({
          key,
          line: `${s.base ?? ""}\u0000${s.queue ?? ""}`,
          at: Math.max(s.mergedAt, s.leftAt ?? 0),
          seconds: Math.max(0, (s.mergedAt - s.enteredAt) / 1000),
        });
      }
      // a closed stay's steps are dropped with it: memory holds the open stays of the walk
      s.steps = [];
    },
  });
  let count = 0;
  for await (const ev of events) {
    count++;
    if (keep) {
      const key = stayKeyOf(ev);
      if (key !== undefined) {
        const own = pending.get(key);
        if (own) own.push(ev);
        else pending.set(key, [ev]);
      }
    }
    builder.push(ev);
  }
  builder.finish();
  return { open, merged, kept, left, events: count };
}

/** base ref \u0000 queue -> the sorted times to merge of its merged stays */
export function mergedLines(merged: readonly MergedStay[]): Map<string, number[]> {
  const lines = new Map<string, number[]>();
  for (const m of merged) {
    const list = lines.get(m.line);
    if (list) list.push(m.seconds);
    else lines.set(m.line, [m.seconds]);
  }
  for (const list of lines.values()) list.sort((a, b) => a - b);
  return lines;
}

export function filterStays(open: readonly Stay[], filter: QueueFilter): Stay[] {
  return open.filter(
    (s) =>
      (!filter.queues || filter.queues.includes(s.queue ?? "")) && (!filter.partitions || filter.partitions.includes(s.partition ?? "")),
  );
}

/**
 * Reads the queue events of one repository over [since, until] once and returns the queue at
 * `until`, with the estimates from the stays that merged in the same window; with `keep`, also
 * what following it from there needs (`memory`).
 */
export async function readQueue(
  source: EventSource,
  opts: {
    owner: string;
    name: string;
    since: Date;
    until: Date;
    baseRef?: string;
    parallel?: number;
    onPage?: (events: number) => void;
    keep?: boolean;
  },
  filter: QueueFilter = {},
): Promise<QueueSnapshot & { memory?: QueueMemory }> {
  const walked = await walkQueue(
    source.events({
      owner: opts.owner,
      name: opts.name,
      since: opts.since,
      until: opts.until,
      baseRef: opts.baseRef,
      parallel: opts.parallel,
      types: QUEUE_EVENT_TYPES,
      onPage: opts.onPage,
    }) as AsyncIterable<LogEvent>,
    `${opts.owner}/${opts.name}`,
    opts.keep === true,
  );
  return {
    entries: positionsOf(filterStays(walked.open, filter), mergedLines(walked.merged), opts.until.getTime()),
    since: opts.since,
    until: opts.until,
    events: walked.events,
    ...(opts.keep ? { memory: { kept: walked.kept, merged: walked.merged, closed: walked.left } } : {}),
  };
}

/**
 * Positions, states and estimates of open stays. Position is the order of entry within a base ref,
 * queue and partition (the log gives no priority rank, so a higher priority that jumps ahead is not
 * seen); ties by pull request number.
 */
export function positionsOf(open: readonly Stay[], merged: ReadonlyMap<string, readonly number[]>, untilMs: number): QueueEntry[] {
  const sorted = [...open].sort(
    (a, b) =>
      (queueKey(a) < queueKey(b) ? -1 : queueKey(a) > queueKey(b) ? 1 : 0) || a.enteredAt - b.enteredAt || a.pullRequest - b.pullRequest,
  );
  const out: QueueEntry[] = [];
  let key: string | undefined;
  let position = 0;
  for (const s of sorted) {
    const k = queueKey(s);
    position = k === key ? position + 1 : 1;
    key = k;
    const { state, since, batchWith } = stateOf(s);
    const eta = estimate(merged.get(`${s.base ?? ""}\u0000${s.queue ?? ""}`) ?? [], (untilMs - s.enteredAt) / 1000);
    out.push({
      stay: s,
      position,
      state,
      stateSince: since,
      batchWith,
      etaP50: eta.p50 === null ? null : s.enteredAt + eta.p50 * 1000,
      etaP90: eta.p90 === null ? null : s.enteredAt + eta.p90 * 1000,
      etaSample: eta.sample,
      enteredBeforeWindow: s.enterEventAt === null,
    });
  }
  return out;
}

/**
 * The catalogue's eta_p50 and eta_p90: among the stays of the same base ref and queue that merged in
 * the window, those whose time to merge was at least this stay's time in queue so far (they were
 * still waiting at the same age); the nearest-rank 50th and 90th percentiles of their time to merge.
 */
export function estimate(
  sortedTimesToMerge: readonly number[],
  waitedSeconds: number,
): { p50: number | null; p90: number | null; sample: number } {
  // the first index with a time to merge of at least waitedSeconds (the list is sorted)
  let lo = 0;
  let hi = sortedTimesToMerge.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sortedTimesToMerge[mid]! < waitedSeconds) lo = mid + 1;
    else hi = mid;
  }
  const older = sortedTimesToMerge.slice(lo);
  if (older.length < MIN_ETA_SAMPLE) return { p50: null, p90: null, sample: older.length };
  return { p50: nearestRank(older, 50), p90: nearestRank(older, 90), sample: older.length };
}
