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
  "action.queue.checks_start": [
    "queue_name",
    "branch",
    "queued_at",
    "session_id",
    "run_id",
    "batch_name",
    "pull_request_numbers",
    "start_reason",
    "draft_number",
    "checks_started_at",
  ],
  "action.queue.checks_end": [
    "queue_name",
    "branch",
    "queued_at",
    "session_id",
    "run_id",
    "batch_name",
    "pull_request_numbers",
    "draft_number",
    "checks_started_at",
    "checks_ended_at",
    "checks_conclusion",
    "unsuccessful_checks",
    "aborted",
    "abort_code",
    "abort_status",
    "retry_attempt",
  ],
  "action.queue.batch_bisection_start": ["queue_name", "original_batch_pr_numbers", "bisection_depth"],
  "action.queue.batch_bisection_end": ["queue_name", "original_batch_pr_numbers", "culprit_pr_numbers"],
  "action.queue.merged": ["queue_name", "branch", "queued_at", "session_id", "partition_names"],
  "action.queue.leave": [
    "queue_name",
    "branch",
    "queued_at",
    "session_id",
    "partition_name",
    "merged",
    "reason",
    "dequeue_code",
    "seconds_waiting_for_schedule",
    "seconds_waiting_for_freeze",
  ],
} as const satisfies Record<string, readonly Field[]>;

export type QueueEventType = keyof typeof QUEUE_EVENT_FIELDS;
/** The event types to ask the log for (`event_type`): the ones a stay is built from. */
export const QUEUE_EVENT_TYPES = Object.keys(QUEUE_EVENT_FIELDS) as QueueEventType[];

export function isQueueEventType(type: string): type is QueueEventType {
  return Object.prototype.hasOwnProperty.call(QUEUE_EVENT_FIELDS, type);
}

type ValueOf<K extends Kind> = K extends "string"
  ? string
  : K extends "number"
    ? number
    : K extends "boolean"
      ? boolean
      : K extends "numbers"
        ? number[]
        : Record<string, unknown>[];
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
 * For each dialect an event may be known to be in (or none), the paths of each field in the order
 * they are tried: that dialect's first, then the others', each path once (the dialects share most).
 */
const LOOKUP_PATHS: ReadonlyMap<Dialect | undefined, Readonly<Record<Field, readonly Path[]>>> = new Map(
  [undefined, ...DIALECTS].map((dialect) => {
    const order = dialect ? [dialect, ...DIALECTS.filter((d) => d !== dialect)] : DIALECTS;
    const byField = {} as Record<Field, Path[]>;
    for (const field of Object.keys(READINGS) as Field[]) {
      const reading: Reading = READINGS[field];
      const paths: Path[] = [];
      for (const d of order)
        for (const path of reading.paths[d] ?? []) if (!paths.some((p) => p.join(".") === path.join("."))) paths.push(path);
      byField[field] = paths;
    }
    return [dialect, byField];
  }),
);

/**
 * Reads a field of an event's metadata: the paths of `dialect` first (when known), then those of
 * the other dialects, the first value of the right type winning. partition_names of the contract
 * is a list of strings: it is read as one string (its first name). Called for most fields of every
 * queue event of a window: it allocates nothing on the way.
 */
export function readField<F extends Field>(metadata: unknown, field: F, dialect?: Dialect): FieldValue<F> | undefined {
  if (metadata === null || typeof metadata !== "object") return undefined;
  const kind = READINGS[field].kind;
  for (const path of (LOOKUP_PATHS.get(dialect) ?? LOOKUP_PATHS.get(undefined)!)[field]) {
    let raw = at(metadata, path);
    if (raw === undefined) continue;
    if (field === "partition_names" && Array.isArray(raw)) raw = raw.find((x) => typeof x === "string");
    const v = ofKind(kind, raw);
    if (v !== undefined) return v as FieldValue<F>;
  }
  return undefined;
}

/** The metadata keys only one dialect sends: their presence tells which dialect an event is in. */
const DIALECT_MARKERS = {
  mergify: ["dequeue_code", "batch_id", "merge_commit_sha"],
  contract: ["partition_name", "partition_names"],
  /** the contract's, on checks_start / checks_end only (the real service nests them) */
  contractChecks: ["pull_request_numbers"],
} as const;

/** Which dialect an event's metadata is written in, from the fields only one of them sends. */
export function dialectOf(type: string, metadata: unknown): Dialect | undefined {
  if (metadata === null || typeof metadata !== "object") return undefined;
  const m = metadata as Record<string, unknown>;
  if (DIALECT_MARKERS.mergify.some((k) => k in m)) return "mergify";
  if (
    DIALECT_MARKERS.contract.some((k) => k in m) ||
    (type.startsWith("action.queue.checks_") && DIALECT_MARKERS.contractChecks.some((k) => k in m))
  )
    return "contract";
  return undefined;
}

/** A tree of metadata keys: true for a key kept whole, a subtree for an object of which some keys are read. */
interface KeyTree {
  [key: string]: true | KeyTree;
}

/** Every key readField (any field, any dialect) and dialectOf look at. */
const STAY_KEYS: KeyTree = (() => {
  const tree: KeyTree = Object.create(null) as KeyTree;
  const add = (path: readonly string[]) => {
    let node = tree;
    path.forEach((key, i) => {
      if (i === path.length - 1) node[key] = true;
      else {
        const next = node[key];
        if (next === true) return;
        node = next ?? (node[key] = Object.create(null) as KeyTree);
      }
    });
  };
  for (const reading of Object.values(READINGS) as Reading[])
    for (const paths of Object.values(reading.paths)) for (const path of paths ?? []) add(path);
  for (const keys of Object.values(DIALECT_MARKERS)) for (const key of keys) add([key]);
  return tree;
})();

/**
 * What `STAY_KEYS` is made of, as text: the archive stores stayEvent() of each queue event
 * (archive/db.ts), so a change here must come with a new archive schema version whose migration
 * recomputes them (test/insights/dialects.test.ts holds the two together).
 */
export const STAY_KEYS_SPEC: string = JSON.stringify(STAY_KEYS, (_key, value: unknown) =>
  value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value,
);

function project(value: Record<string, unknown>, keys: KeyTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in keys) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const sub = keys[key]!;
    const v = value[key];
    if (sub === true) out[key] = v;
    // readField reads nothing under a value that is not an object
    else if (v !== null && typeof v === "object" && !Array.isArray(v)) out[key] = project(v as Record<string, unknown>, sub);
  }
  return out;
}

/**
 * The part of an event a queue stay is built from: its envelope (id, received_at, type,
 * repository, pull_request, base_ref) and the metadata keys of STAY_KEYS. readField and dialectOf give the
 * same answers on it as on the whole event, so StayBuilder builds the same stays from either; the
 * archive keeps it next to the event (a third of its size), for the analyses to parse that instead.
 */
export function stayEvent(event: {
  id: unknown;
  received_at: unknown;
  type: unknown;
  repository?: unknown;
  pull_request?: unknown;
  base_ref?: unknown;
  metadata?: unknown;
}): Record<string, unknown> {
  const m = event.metadata;
  return {
    id: event.id,
    received_at: event.received_at,
    type: event.type,
    repository: event.repository,
    pull_request: event.pull_request,
    base_ref: event.base_ref,
    metadata: m !== null && typeof m === "object" && !Array.isArray(m) ? project(m as Record<string, unknown>, STAY_KEYS) : null,
  };
}
