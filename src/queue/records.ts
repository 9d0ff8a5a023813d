// A pull request in the queue as a flat record: the row of `mq queue` (json, ndjson, csv) and of
// its --watch. Which stay it is comes from the stay records' one home (src/insights/records.ts), so
// a row of `mq queue` and the row of `mq prs` for the same stay say it in the same words.
import { recordTime, stayIdentity } from "../insights/records.js";
import type { QueueEntry } from "./reconstruct.js";

/** The fields of a row of `mq queue` (json, ndjson, csv), in order. */
export const QUEUE_FIELDS = [
  "repository",
  "pull_request",
  "base_ref",
  "queue_name",
  "partition_name",
  "priority_rule_name",
  "position",
  "entered_at",
  "time_in_queue",
  "state",
  "state_since",
  "batch_with",
  "eta_p50",
  "eta_p90",
  "eta_sample",
  "eta_basis",
  "entered_before_lookback",
] as const;

export type QueueRecord = Record<(typeof QUEUE_FIELDS)[number], string | number | boolean | number[] | null>;

export function queueRecord(e: QueueEntry, untilMs: number): QueueRecord {
  const { entered_at, ...which } = stayIdentity(e.stay);
  return {
    ...which,
    position: e.position,
    entered_at,
    time_in_queue: Math.max(0, Math.round((untilMs - e.stay.enteredAt) / 1000)),
    state: e.state,
    state_since: recordTime(e.stateSince),
    batch_with: e.batchWith,
    eta_p50: recordTime(e.etaP50),
    eta_p90: recordTime(e.etaP90),
    eta_sample: e.etaSample,
    eta_basis: e.etaBasis,
    entered_before_lookback: e.enteredBeforeWindow,
  };
}
