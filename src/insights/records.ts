// A stay as a flat record: the row of `mq prs`, the head of each stay in `mq pr N`, the slowest
// pull requests of `mq insights`. Times are RFC 3339, durations seconds.
import { stayTimes, type Stay } from "./stays.js";
import { formatInstant } from "../iostreams/human.js";

export const STAY_FIELDS = [
  "repository",
  "pull_request",
  "base_ref",
  "queue_name",
  "partition_name",
  "priority_rule_name",
  "session_id",
  "entered_at",
  "left_at",
  "merged_at",
  "outcome",
  "reason",
  "queue_time",
  "time_to_merge",
  "wait_time",
  "idle_capacity",
  "idle_schedule",
  "idle_freeze",
  "ci_time",
  "check_runs",
  "retries",
  "batch_size",
  "bisections",
  "began_before_window",
] as const;

/** How a stay ended (open: not yet). */
export const OUTCOMES = ["merged", "failed", "dequeued", "open"] as const;

/** The duration fields `mq prs --sort` accepts (plus the entry time). */
export const SORT_FIELDS = [
  "queue_time",
  "time_to_merge",
  "wait_time",
  "idle_capacity",
  "idle_schedule",
  "idle_freeze",
  "ci_time",
  "entered_at",
  "retries",
  "check_runs",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** An instant as every stay record writes it: RFC 3339, milliseconds when the log has them. */
export const recordTime = (t: number | null): string | null => (t === null ? null : formatInstant(t));
const iso = recordTime;
const sec = (x: number) => Math.round(x * 1000) / 1000;

export type StayRecord = Record<(typeof STAY_FIELDS)[number], string | number | boolean | null>;

/**
 * The fields that say which stay a record is about, the same in every record made of a stay (`mq
 * prs`, `mq pr N`, `mq queue`), in that order.
 */
export function stayIdentity(s: Stay) {
  return {
    repository: s.repository,
    pull_request: s.pullRequest,
    base_ref: s.base,
    queue_name: s.queue,
    partition_name: s.partition,
    priority_rule_name: s.priorityRule,
    entered_at: iso(s.enteredAt),
  };
}

/** `untilMs` ends the durations of a stay still open (the window's end). */
export function stayRecord(s: Stay, untilMs: number): StayRecord {
  const t = stayTimes(s, untilMs);
  const { entered_at, ...which } = stayIdentity(s);
  return {
    ...which,
    session_id: s.sessionId,
    entered_at,
    left_at: iso(s.leftAt),
    merged_at: iso(s.mergedAt),
    outcome: s.outcome,
    reason: s.reason,
    queue_time: sec(t.queueTime),
    time_to_merge: t.timeToMerge === null ? null : sec(t.timeToMerge),
    wait_time: sec(t.waitTime),
    idle_capacity: sec(t.idleCapacity),
    idle_schedule: sec(t.idleSchedule),
    idle_freeze: sec(t.idleFreeze),
    ci_time: sec(t.ciTime),
    check_runs: t.checkRuns,
    retries: t.retries,
    batch_size: t.batchSize,
    bisections: s.bisections,
    began_before_window: s.enterEventAt === null,
  };
}

/** Sort key of a record for --sort: larger first for durations and counts, newest first for entered_at. */
export function sortValue(r: StayRecord, field: SortField): number {
  const v = r[field];
  if (field === "entered_at") return typeof v === "string" ? Date.parse(v) : -Infinity;
  return typeof v === "number" ? v : -Infinity;
}
