// The merge queue at an instant, rebuilt from the event log alone: the stays still open at the end of
// a lookback window (no leave and no merged event yet), as src/insights rebuilds every stay, so `mq
// queue` agrees with the open stays of `mq prs` over the same window by construction. Each open stay
// gets its position in its queue and partition, what it is doing now (checks running, bisecting,
// waiting and for what), and an estimate of when it merges from the stays of the same window
// (estimate.ts: the figure catalogue's eta_p50, eta_p90, eta_sample, eta_basis). Used by `mq
// queue`, `mq wait` and the exporter's queue size.
import type { LogEvent } from "../api/events.js";
import { dialectOf, QUEUE_EVENT_TYPES, readField } from "../insights/dialects.js";
import { StayBuilder, type Stay } from "../insights/stays.js";
import type { EventSource } from "../insights/walk.js";
import { EtaModel, endedStay, queueKey, type EndedStay, type EtaBasis } from "./estimate.js";

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
  /** the samples behind the estimate */
  etaSample: number;
  /** what the estimate is conditioned on */
  etaBasis: EtaBasis;
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
export function stateOf(s: Stay): { state: QueueState; since: number; batchWith: number[]; batchSize?: number } {
  const running = s.runs.filter((r) => r.conclusion === null && r.startedAt !== null);
  if (running.length > 0) {
    const run = running.reduce((a, b) => (b.startedAt! > a.startedAt! ? b : a));
    return {
      state: /bisect/i.test(run.startReason ?? "") ? "bisecting" : "checks_running",
      since: run.startedAt!,
      batchWith: run.pullRequests.filter((n) => n !== s.pullRequest),
      batchSize: run.pullRequests.length,
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

/**
 * What following the queue keeps between polls (src/queue/follow.ts): the events of the stays not
 * yet left at the last instant, the stays of the lookback no longer in the queue (for the
 * estimates), and the stays left lately (key -> when), whose late events must not open a stay again.
 */
export interface QueueMemory {
  kept: LogEvent[];
  ended: EndedStay[];
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
 * Rebuilds the stays of a walk (newest first): the open ones, the ended ones (merged or left) and, when `keep`,
 * the events of those not yet left (held per stay until the stay is complete, as the builder
 * holds it) and the stays that left (key -> when).
 */
export async function walkQueue(
  events: AsyncIterable<LogEvent> | Iterable<LogEvent>,
  repository: string,
  keep: boolean,
): Promise<{ open: Stay[]; ended: EndedStay[]; kept: LogEvent[]; left: Record<string, number>; events: number }> {
  const open: Stay[] = [];
  const ended: EndedStay[] = [];
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
      else ended.push(endedStay(s, repository, key));
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
  return { open, ended, kept, left, events: count };
}

export function filterStays(open: readonly Stay[], filter: QueueFilter): Stay[] {
  return open.filter(
    (s) =>
      (!filter.queues || filter.queues.includes(s.queue ?? "")) && (!filter.partitions || filter.partitions.includes(s.partition ?? "")),
  );
}

/**
 * Reads the queue events of one repository over [since, until] once and returns the queue at
 * `until`, with the estimates from the stays of the same window; with `keep`, also
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
    entries: positionsOf(filterStays(walked.open, filter), walked.ended, opts.until.getTime(), opts.since.getTime()),
    since: opts.since,
    until: opts.until,
    events: walked.events,
    ...(opts.keep ? { memory: { kept: walked.kept, ended: walked.ended, closed: walked.left } } : {}),
  };
}

/**
 * Positions, states and estimates of open stays, the estimates from them and ENDED (the stays of
 * the same lookback, from SINCE, no longer in the queue). Position is the order of entry within a base ref,
 * queue and partition (the log gives no priority rank, so a higher priority that jumps ahead is
 * not seen); ties by pull request number.
 */
export function positionsOf(open: readonly Stay[], ended: readonly EndedStay[], untilMs: number, sinceMs = -Infinity): QueueEntry[] {
  const sorted = [...open].sort(
    (a, b) =>
      (queueKey(a) < queueKey(b) ? -1 : queueKey(a) > queueKey(b) ? 1 : 0) || a.enteredAt - b.enteredAt || a.pullRequest - b.pullRequest,
  );
  const model = new EtaModel(open, ended, sinceMs);
  const out: QueueEntry[] = [];
  let key: string | undefined;
  let position = 0;
  for (const s of sorted) {
    const k = queueKey(s);
    position = k === key ? position + 1 : 1;
    key = k;
    const { state, since, batchWith, batchSize } = stateOf(s);
    const eta = model.estimate(s, position, untilMs, batchSize === undefined ? undefined : { startedAt: since, size: batchSize });
    out.push({
      stay: s,
      position,
      state,
      stateSince: since,
      batchWith,
      etaP50: eta.p50,
      etaP90: eta.p90,
      etaSample: eta.sample,
      etaBasis: eta.basis,
      enteredBeforeWindow: s.enterEventAt === null,
    });
  }
  return out;
}
