// Where each figure of a queue stay lives in the events of each dialect, as data. The contract
// (spec/api.md, the bundled server's default) and the real service (its public OpenAPI) send the
// same event types with different metadata: the real one nests a run's pull request numbers in
// `speculative_check_pull_request`, names a run `batch_id`, gives the exit code in `dequeue_code`
// and has no partition names. A reading lists the paths to try, in order, for each dialect; a value
// of the wrong type is skipped like a missing one, so an unknown or hostile shape never throws.

export type Dialect = "contract" | "mergify";
export const DIALECTS: readonly Dialect[] = ["contract", "mergify"];

type Kind = "string" | "number" | "boolean" | "numbers" | "objects";
type Path = readonly string[];

export interface Reading {
  kind: Kind;
  /** paths tried in order for each dialect; a dialect without a path does not send the field */
  paths: Readonly<Partial<Record<Dialect, readonly Path[]>>>;
}

const same = <K extends Kind>(kind: K, ...names: string[]): Reading & { kind: K } => {
  const paths = names.map((n) => n.split("."));
  return { kind, paths: { contract: paths, mergify: paths } };
};

/**
 * The fields a stay is built from. Which event types carry each one is in QUEUE_EVENT_FIELDS; the
 * paths are relative to `metadata`.
 */
export const READINGS = {
  queue_name: same("string", "queue_name"),
  branch: same("string", "branch"),
  queued_at: same("string", "queued_at"),
  session_id: same("string", "session_id"),
  priority_rule_name: same("string", "priority_rule_name"),
  partition_name: { kind: "string", paths: { contract: [["partition_name"]] } },
  partition_names: { kind: "string", paths: { contract: [["partition_names"]] } },
  // action.queue.leave
  merged: same("boolean", "merged"),
  reason: same("string", "reason"),
  dequeue_code: { kind: "string", paths: { mergify: [["dequeue_code"]] } },
  seconds_waiting_for_schedule: same("number", "seconds_waiting_for_schedule"),
  seconds_waiting_for_freeze: same("number", "seconds_waiting_for_freeze"),
  leave_checks: { kind: "objects", paths: { contract: [["checks"]], mergify: [["unsuccessful_checks"], ["checks"]] } },
  // action.queue.checks_start / checks_end
  run_id: { kind: "string", paths: { contract: [["train_car_id"]], mergify: [["batch_id"], ["train_car_id"]] } },
  batch_name: { kind: "string", paths: { mergify: [["batch_name"]] } },
  pull_request_numbers: {
    kind: "numbers",
    paths: { contract: [["pull_request_numbers"]], mergify: [["speculative_check_pull_request", "pull_request_numbers"]] },
  },
  start_reason: same("string", "start_reason"),
  draft_number: same("number", "speculative_check_pull_request.number"),
  checks_started_at: same("string", "speculative_check_pull_request.checks_started_at"),
  checks_ended_at: same("string", "speculative_check_pull_request.checks_ended_at"),
  checks_conclusion: same("string", "speculative_check_pull_request.checks_conclusion"),
  unsuccessful_checks: same("objects", "speculative_check_pull_request.unsuccessful_checks"),
  aborted: same("boolean", "aborted"),
  abort_code: same("string", "abort_code"),
  abort_status: same("string", "abort_status"),
  retry_attempt: same("number", "retry_attempt"),
  // action.queue.batch_bisection_start / _end
  original_batch_pr_numbers: same("numbers", "original_batch_pr_numbers"),
  culprit_pr_numbers: same("numbers", "culprit_pr_numbers"),
  bisection_depth: same("number", "bisection_depth"),
} as const satisfies Record<string, Reading>;

export type Field = keyof typeof READINGS;

/** The queue event types a stay is built from, and the fields read from each. */
export const QUEUE_EVENT_FIELDS = {
  "action.queue.enter": ["queue_name", "branch", "queued_at", "session_id", "priority_rule_name", "partition_name"],
  "action.queue.checks_not_started": ["queue_name", "branch", "queued_at", "session_id", "reason"],
  "action.queue.checks_start": ["queue_name", "branch", "queued_at", "session_id", "run_id", "batch_name", "pull_request_numbers", "start_reason", "draft_number", "checks_started_at"],
  "action.queue.checks_end": [
    "queue_name", "branch", "queued_at", "session_id", "run_id", "batch_name", "pull_request_numbers", "draft_number",
    "checks_started_at", "checks_ended_at", "checks_conclusion", "unsuccessful_checks", "aborted", "abort_code", "abort_status", "retry_attempt",
  ],
  "action.queue.batch_bisection_start": ["queue_name", "original_batch_pr_numbers", "bisection_depth"],
  "action.queue.batch_bisection_end": ["queue_name", "original_batch_pr_numbers", "culprit_pr_numbers"],
  "action.queue.merged": ["queue_name", "branch", "queued_at", "session_id", "partition_names"],
  "action.queue.leave": [
    "queue_name", "branch", "queued_at", "session_id", "partition_name", "merged", "reason", "dequeue_code",
    "seconds_waiting_for_schedule", "seconds_waiting_for_freeze", "leave_checks",
  ],
} as const satisfies Record<string, readonly Field[]>;

export type QueueEventType = keyof typeof QUEUE_EVENT_FIELDS;
/** The event types to ask the log for (`event_type`): the ones a stay is built from. */
export const QUEUE_EVENT_TYPES = Object.keys(QUEUE_EVENT_FIELDS) as QueueEventType[];

export function isQueueEventType(type: string): type is QueueEventType {
  return Object.prototype.hasOwnProperty.call(QUEUE_EVENT_FIELDS, type);
}

type ValueOf<K extends Kind> = K extends "string" ? string : K extends "number" ? number : K extends "boolean" ? boolean : K extends "numbers" ? number[] : Record<string, unknown>[];
export type FieldValue<F extends Field> = ValueOf<(typeof READINGS)[F]["kind"]>;

function at(obj: unknown, path: Path): unknown {
  let v = obj;
  for (const key of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = Object.prototype.hasOwnProperty.call(v, key) ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

function ofKind(kind: Kind, v: unknown): unknown {
  switch (kind) {
    case "string":
      return typeof v === "string" ? v : undefined;
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? v : undefined;
    case "boolean":
      return typeof v === "boolean" ? v : undefined;
    case "numbers":
      return Array.isArray(v) ? v.filter((n): n is number => Number.isSafeInteger(n)) : undefined;
    case "objects":
      return Array.isArray(v) ? v.filter((o) => o !== null && typeof o === "object" && !Array.isArray(o)) : undefined;
  }
}

/**
 * Reads a field of an event's metadata: the paths of `dialect` first (when known), then those of
 * the other dialects, the first value of the right type winning. partition_names of the contract
 * is a list of strings: it is read as one string (its first name).
 */
export function readField<F extends Field>(metadata: unknown, field: F, dialect?: Dialect): FieldValue<F> | undefined {
  const reading: Reading = READINGS[field];
  const order = dialect ? [dialect, ...DIALECTS.filter((d) => d !== dialect)] : DIALECTS;
  for (const d of order) {
    for (const path of reading.paths[d] ?? []) {
      let raw = at(metadata, path);
      if (field === "partition_names" && Array.isArray(raw)) raw = raw.find((x) => typeof x === "string");
      const v = ofKind(reading.kind, raw);
      if (v !== undefined) return v as FieldValue<F>;
    }
  }
  return undefined;
}

/** Which dialect an event's metadata is written in, from the fields only one of them sends. */
export function dialectOf(type: string, metadata: unknown): Dialect | undefined {
  if (metadata === null || typeof metadata !== "object") return undefined;
  const m = metadata as Record<string, unknown>;
  if ("dequeue_code" in m || "batch_id" in m || "merge_commit_sha" in m) return "mergify";
  if ("partition_name" in m || "partition_names" in m || (type.startsWith("action.queue.checks_") && "pull_request_numbers" in m)) return "contract";
  return undefined;
}
