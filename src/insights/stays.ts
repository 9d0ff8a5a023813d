// Queue stays (sessions) rebuilt from the event log: a pull request enters a queue, waits, has its
// checks run (alone, in a batch, again after a failure or a bisection) and leaves, merged or not. A
// requeue is a new stay. The builder takes events one at a time in the order the log gives them
// (newest first) or oldest first, and hands each stay over as soon as no later event can change it,
// so memory holds the stays open at the current point of the stream, not the events.
import { exitReasonOf } from "../api/exit-reasons.js";
import type { LogEvent } from "../api/events.js";
import { isQueueEventType, readField, dialectOf, type Dialect } from "./dialects.js";

export type Outcome = "merged" | "failed" | "dequeued" | "open";

/** Exit reasons that mean the pull request failed the queue, as opposed to being taken out of it. */
export const FAILURE_REASONS: ReadonlySet<string> = new Set([
  "CHECKS_FAILED",
  "CHECKS_TIMEOUT",
  "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
  "DROPPED_BY_BISECTION_ELIMINATION",
  "PR_UNEXPECTEDLY_FAILED_TO_MERGE",
  "CONFLICT_WITH_BASE_BRANCH",
  "CONFLICT_WITH_PULL_AHEAD",
  "BRANCH_UPDATE_FAILED",
  "INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS",
  "UNPROCESSABLE_PULL_REQUEST",
  "BASE_REF_ALIGNMENT_TIMEOUT",
]);

/** The real service's dequeue codes for a merge. */
const MERGED_CODES: ReadonlySet<string> = new Set(["PR_MERGED", "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED"]);

/** One check run (train car, batch) a stay took part in. */
export interface CheckRun {
  id: string;
  /** when the checks started (ms), from the run itself or its start event */
  startedAt: number | null;
  endedAt: number | null;
  /** the pull requests tested together, this one included */
  pullRequests: number[];
  startReason: string | null;
  /** success, failure, timed_out, cancelled, ... or null while running */
  conclusion: string | null;
  abortCode: string | null;
  /** DEFINITIVE, REEMBARKED */
  abortStatus: string | null;
  retryAttempt: number | null;
  /** names of the checks that did not succeed */
  failedChecks: string[];
}

/** One step of a stay, for `mq pr N`. */
export interface Step {
  at: number;
  type: string;
  /** what happened, in words */
  text: string;
}

export interface Stay {
  repository: string | null;
  pullRequest: number;
  base: string | null;
  queue: string | null;
  partition: string | null;
  priorityRule: string | null;
  sessionId: string | null;
  /** queued_at (ms): known from any queue event, even when the enter event is outside the window */
  enteredAt: number;
  /** the enter event's own time when it was seen (what queues_entered_count counts) */
  enterEventAt: number | null;
  /** the merged event's time, or the leave's when it says merged without a merged event */
  mergedAt: number | null;
  leftAt: number | null;
  outcome: Outcome;
  /** exit reason code (SUCCESS for a merge), null while open */
  reason: string | null;
  /** the leave's own words */
  reasonText: string | null;
  scheduleWait: number;
  freezeWait: number;
  runs: CheckRun[];
  /** batch bisections this pull request's batches went through */
  bisections: number;
  /** steps, oldest first, when the builder keeps them */
  steps: Step[];
  /** id of the newest event seen: tells stays with the same start apart, and orders output */
  lastEventId: number;
}

/**
 * Derived durations of a stay, in seconds, over the whole stay: time in queue is CI time (some
 * check run of it running) plus waiting (none running: before its first checks, between runs,
 * before the merge), and waiting is split by cause into schedule, freeze and capacity, so the
 * parts add up to their whole and none exceeds it. `until` ends a stay that is still open.
 */
export interface StayTimes {
  queueTime: number;
  timeToMerge: number | null;
  /** in the queue with no checks running: queueTime - ciTime */
  waitTime: number;
  /** waiting not for the schedule or a freeze: waitTime - idleSchedule - idleFreeze */
  idleCapacity: number;
  /** waiting for the queue's schedule (the leave's seconds_waiting_for_schedule, at most the waiting) */
  idleSchedule: number;
  /** waiting for a freeze (the leave's seconds_waiting_for_freeze, at most the waiting left) */
  idleFreeze: number;
  /** time with at least one check run of the stay running (runs that overlap count once) */
  ciTime: number;
  checkRuns: number;
  retries: number;
  /** the largest batch it was tested in (1: alone) */
  batchSize: number;
}

export function stayTimes(s: Stay, untilMs: number): StayTimes {
  const end = s.leftAt ?? s.mergedAt ?? untilMs;
  const queueMs = Math.max(0, end - s.enteredAt);
  // the runs' time inside the stay, as a union of intervals: a run the stay left before it ended
  // (dequeued while its checks ran) counts until the stay's end, a run begun before it from its entry
  const spans: Array<[number, number]> = [];
  let retries = 0;
  let batchSize = 0;
  for (const r of s.runs) {
    if (r.startedAt !== null) {
      const runStart = Math.max(r.startedAt, s.enteredAt);
      const runEnd = Math.min(r.endedAt ?? untilMs, end);
      if (runEnd > runStart) spans.push([runStart, runEnd]);
    }
    if (r.retryAttempt !== null && r.retryAttempt >= 1 && r.conclusion !== null) retries++;
    batchSize = Math.max(batchSize, r.pullRequests.length);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let ciMs = 0;
  let reached = -Infinity;
  for (const [a, b] of spans) {
    const from = Math.max(a, reached);
    if (b > from) ciMs += b - from;
    reached = Math.max(reached, b);
  }
  const waitMs = queueMs - ciMs;
  const schedule = Math.min(s.scheduleWait * 1000, waitMs);
  const freeze = Math.min(s.freezeWait * 1000, waitMs - schedule);
  return {
    queueTime: queueMs / 1000,
    timeToMerge: s.mergedAt !== null ? Math.max(0, (s.mergedAt - s.enteredAt) / 1000) : null,
    waitTime: waitMs / 1000,
    idleCapacity: (waitMs - schedule - freeze) / 1000,
    idleSchedule: schedule / 1000,
    idleFreeze: freeze / 1000,
    ciTime: ciMs / 1000,
    checkRuns: s.runs.length,
    retries,
    batchSize,
  };
}

export type Direction = "newest-first" | "oldest-first";

export interface BuilderOptions {
  /** the order events are pushed in: the log's (newest first) unless said otherwise */
  direction?: Direction;
  /** keep each stay's steps (for one pull request's timeline; costs memory per event) */
  steps?: boolean;
  /** the dialect when known (mq serve --dialect, a real-service URL); else read per event */
  dialect?: Dialect;
  onStay: (stay: Stay) => void;
}

const time = (iso: string | undefined): number | null => {
  if (iso === undefined) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/** The exit reason of a leave: the real service's dequeue code, else the contract's sentence mapped to its code. */
export function exitReason(metadata: unknown, dialect?: Dialect): string {
  const code = readField(metadata, "dequeue_code", dialect);
  if (code !== undefined && code !== "") return MERGED_CODES.has(code) ? "SUCCESS" : code;
  return exitReasonOf(readField(metadata, "merged", dialect), readField(metadata, "reason", dialect));
}

export class StayBuilder {
  private readonly open = new Map<string, Stay>();
  /** pull request -> keys of its open stays (a bisection event names pull requests, not stays) */
  private readonly byPr = new Map<number, Set<string>>();
  private readonly direction: Direction;

  constructor(private readonly opts: BuilderOptions) {
    this.direction = opts.direction ?? "newest-first";
  }

  /** Stays currently open: what memory holds. */
  get openCount(): number {
    return this.open.size;
  }

  push(ev: LogEvent): void {
    if (!isQueueEventType(ev.type)) return;
    const t = time(ev.received_at);
    if (t === null) return;
    const dialect = this.opts.dialect ?? dialectOf(ev.type, ev.metadata);
    const m = ev.metadata;
    if (ev.type === "action.queue.batch_bisection_start" || ev.type === "action.queue.batch_bisection_end") {
      this.bisection(ev, t, dialect);
      return;
    }
    const pr = ev.pull_request;
    if (pr === null || !Number.isSafeInteger(pr)) return;
    const queuedAt = time(readField(m, "queued_at", dialect)) ?? (ev.type === "action.queue.enter" ? t : null);
    if (queuedAt === null) return;
    // pull request and queued_at name a stay in both dialects (session_id may be null on a leave)
    const key = `${pr}\u0000${queuedAt}`;
    let found = this.open.get(key);
    if (!found) {
      found = {
        repository: typeof ev.repository === "string" ? ev.repository : null,
        pullRequest: pr,
        base: ev.base_ref ?? readField(m, "branch", dialect) ?? null,
        queue: null,
        partition: null,
        priorityRule: null,
        sessionId: null,
        enteredAt: queuedAt,
        enterEventAt: null,
        mergedAt: null,
        leftAt: null,
        outcome: "open",
        reason: null,
        reasonText: null,
        scheduleWait: 0,
        freezeWait: 0,
        runs: [],
        bisections: 0,
        steps: [],
        lastEventId: ev.id,
      };
      this.open.set(key, found);
      let keys = this.byPr.get(pr);
      if (!keys) this.byPr.set(pr, (keys = new Set()));
      keys.add(key);
    }
    const s = found;
    s.lastEventId = Math.max(s.lastEventId, ev.id);
    s.queue ??= readField(m, "queue_name", dialect) ?? null;
    s.sessionId ??= readField(m, "session_id", dialect) ?? null;
    s.partition ??= readField(m, "partition_name", dialect) ?? readField(m, "partition_names", dialect) ?? null;
    if (s.priorityRule === null) s.priorityRule = readField(m, "priority_rule_name", dialect) ?? null;
    // step?.(text): without steps kept, the text (and its batch list) is not even built
    const step = this.opts.steps ? (text: string) => void s.steps.push({ at: t, type: ev.type, text }) : undefined;

    switch (ev.type) {
      case "action.queue.enter":
        s.enterEventAt = t;
        step?.(`entered queue ${s.queue ?? "?"}${s.priorityRule ? ` (priority rule ${s.priorityRule})` : ""}`);
        break;
      case "action.queue.checks_not_started":
        step?.(`checks not started: ${readField(m, "reason", dialect) ?? "no reason given"}`);
        break;
      case "action.queue.checks_start": {
        const run = this.run(s, m, dialect, t);
        run.startedAt ??= time(readField(m, "checks_started_at", dialect)) ?? t;
        run.startReason ??= readField(m, "start_reason", dialect) ?? null;
        step?.(`checks started${run.startReason ? ` (${run.startReason})` : ""}${batchText(run, s.pullRequest)}`);
        break;
      }
      case "action.queue.checks_end": {
        const run = this.run(s, m, dialect, t);
        run.startedAt ??= time(readField(m, "checks_started_at", dialect));
        run.endedAt = time(readField(m, "checks_ended_at", dialect)) ?? t;
        run.conclusion = readField(m, "checks_conclusion", dialect) ?? (readField(m, "aborted", dialect) ? "cancelled" : "success");
        run.abortCode = readField(m, "abort_code", dialect) ?? null;
        run.abortStatus = readField(m, "abort_status", dialect) ?? null;
        run.retryAttempt = readField(m, "retry_attempt", dialect) ?? null;
        run.failedChecks = (readField(m, "unsuccessful_checks", dialect) ?? [])
          .map((c) => (typeof c.name === "string" ? c.name : null))
          .filter((n): n is string => n !== null);
        const why = run.abortCode ? `, ${run.abortCode}${run.abortStatus === "REEMBARKED" ? ", re-embarked" : ""}` : "";
        const failing = run.failedChecks.length ? ` (${run.failedChecks.join(", ")})` : "";
        step?.(`checks ended: ${run.conclusion}${failing}${why}${run.retryAttempt ? `, retry ${run.retryAttempt}` : ""}`);
        break;
      }
      case "action.queue.merged":
        s.mergedAt = t;
        s.outcome = "merged";
        step?.("merged");
        break;
      case "action.queue.leave": {
        s.leftAt = t;
        s.reason = exitReason(m, dialect);
        s.reasonText = readField(m, "reason", dialect) ?? null;
        if (readField(m, "merged", dialect) === true || s.reason === "SUCCESS") {
          s.outcome = "merged";
          s.mergedAt ??= t;
        } else {
          s.outcome = FAILURE_REASONS.has(s.reason) ? "failed" : "dequeued";
        }
        s.scheduleWait = readField(m, "seconds_waiting_for_schedule", dialect) ?? 0;
        s.freezeWait = readField(m, "seconds_waiting_for_freeze", dialect) ?? 0;
        step?.(
          s.outcome === "merged"
            ? "left the queue: merged"
            : `left the queue: ${s.reason}${s.reasonText && s.reasonText !== s.reason ? ` (${s.reasonText})` : ""}`,
        );
        break;
      }
    }
    // nothing later in the stream can belong to this stay once its first (newest first) or last
    // (oldest first) event has been seen
    if (this.direction === "newest-first" ? ev.type === "action.queue.enter" : ev.type === "action.queue.leave") this.close(key);
  }

  /** Hands over the stays still open: begun before the window (newest first) or not ended (oldest first). */
  finish(): void {
    for (const key of [...this.open.keys()]) this.close(key);
  }

  private close(key: string): void {
    const s = this.open.get(key);
    if (!s) return;
    this.open.delete(key);
    const keys = this.byPr.get(s.pullRequest);
    keys?.delete(key);
    if (keys?.size === 0) this.byPr.delete(s.pullRequest);
    if (this.direction === "newest-first") s.steps.reverse();
    s.runs.sort((a, b) => (a.startedAt ?? a.endedAt ?? 0) - (b.startedAt ?? b.endedAt ?? 0));
    this.opts.onStay(s);
  }

  private run(s: Stay, m: unknown, dialect: Dialect | undefined, t: number): CheckRun {
    const numbers = readField(m, "pull_request_numbers", dialect) ?? [];
    const started = readField(m, "checks_started_at", dialect);
    const id = readField(m, "run_id", dialect) ?? `${readField(m, "draft_number", dialect) ?? "?"}@${started ?? t}`;
    let run = s.runs.find((r) => r.id === id);
    if (!run) {
      run = {
        id,
        startedAt: null,
        endedAt: null,
        pullRequests: numbers.length ? numbers : [s.pullRequest],
        startReason: null,
        conclusion: null,
        abortCode: null,
        abortStatus: null,
        retryAttempt: null,
        failedChecks: [],
      };
      s.runs.push(run);
    } else if (numbers.length) {
      run.pullRequests = numbers;
    }
    return run;
  }

  private bisection(ev: LogEvent, t: number, dialect: Dialect | undefined): void {
    const m = ev.metadata;
    const numbers = readField(m, "original_batch_pr_numbers", dialect) ?? [];
    const start = ev.type === "action.queue.batch_bisection_start";
    const depth = readField(m, "bisection_depth", dialect);
    const culprits = readField(m, "culprit_pr_numbers", dialect) ?? [];
    for (const pr of numbers) {
      for (const key of this.byPr.get(pr) ?? []) {
        const s = this.open.get(key)!;
        // the stay of this pull request that was in the queue at that moment
        if (s.enteredAt > t || (s.leftAt !== null && s.leftAt < t)) continue;
        // a bisection splits again and again: counted once, at its top level
        if (start && (depth === undefined || depth === 1)) s.bisections++;
        if (this.opts.steps) {
          s.steps.push({
            at: t,
            type: ev.type,
            text: start
              ? depth === undefined || depth === 1
                ? `batch bisection started: batch of ${numbers.map((n) => `#${n}`).join(", ")}`
                : `batch bisection split again (depth ${depth})`
              : `batch bisection ended: ${culprits.length ? `culprit ${culprits.map((n) => `#${n}`).join(", ")}` : "no culprit found"}`,
          });
        }
      }
    }
  }
}

function batchText(run: CheckRun, self: number): string {
  const others = run.pullRequests.filter((n) => n !== self);
  return others.length ? ` in a batch with ${others.map((n) => `#${n}`).join(", ")}` : "";
}

/** Rebuilds every stay of a finite list of events (tests, fixtures): newest first, as the log sends them. */
export function staysOf(events: Iterable<LogEvent>, opts: Omit<BuilderOptions, "onStay"> = {}): Stay[] {
  const out: Stay[] = [];
  const b = new StayBuilder({ ...opts, onStay: (s) => out.push(s) });
  for (const e of events) b.push(e);
  b.finish();
  return out;
}
