// The event log contract (docs/api.md §2.2-2.4, §6): the envelope, the 38 typed metadata shapes, and the
// two-level page parser the client uses. Every object is loose: the real service adds fields
// (`outcome` on every event, batch_id, scopes, ...) and those must reach the user untouched.
import * as z from "zod";
import { TYPED_EVENT_TYPES, type EventType } from "../dialects/spec.js";
import {
  AbortCodeSchema,
  AbortStatusSchema,
  ActorTypeSchema,
  CheckStateSchema,
  ChecksConclusionSchema,
  DateTimeSchema,
  PlatformAccountTypeSchema,
  RetryModeSchema,
  UuidSchema,
} from "./common.js";

import { parseEventsPage as parsePage, type ParseEventsPageOptions } from "./page.js";

// the page parser and the event check, which need no zod (page.ts)
export { validateEvent, type EventValidation, type MetadataChecks, type ParseEventsPageOptions } from "./page.js";

// ---------------------------------------------------------------------------------------------
// Nested types (docs/api.md §2.4)

export const PlatformAccountSchema = z.looseObject({
  login: z.string(),
  id: z.int(),
  type: PlatformAccountTypeSchema,
});
export type PlatformAccount = z.infer<typeof PlatformAccountSchema>;

export const ActorSchema = z.looseObject({
  type: ActorTypeSchema,
  id: z.union([z.int(), UuidSchema]),
  name: z.string(),
});
export type Actor = z.infer<typeof ActorSchema>;

export const QueueCheckSchema = z.looseObject({
  name: z.string(),
  description: z.string(),
  url: z.string().nullable(),
  state: CheckStateSchema,
  avatar_url: z.string().nullable(),
});
export type QueueCheck = z.infer<typeof QueueCheckSchema>;

// The contract leaves the dictionary's inner shape open (docs/api.md §2.5).
const ConditionDictSchema = z.record(z.string(), z.unknown());
// The contract says "a dictionary or an array of string"; the real service sends an array whose
// items are strings or dictionaries. Accepting that superset keeps scheduled-freeze events from
// warning against the real service while still refusing anything else.
const ConditionsSchema = z.union([ConditionDictSchema, z.array(z.union([z.string(), ConditionDictSchema]))]);

export const ScheduledFreezeAttributesSchema = z.looseObject({
  reason: z.string(),
  start: DateTimeSchema,
  end: DateTimeSchema.nullable(),
  timezone: z.string(),
  matching_conditions: ConditionsSchema,
  exclude_conditions: ConditionsSchema,
});
export type ScheduledFreezeAttributes = z.infer<typeof ScheduledFreezeAttributesSchema>;

export const SpeculativeCheckPullRequestSchema = z.looseObject({
  number: z.int(),
  in_place: z.boolean(),
  checks_timed_out: z.boolean(),
  checks_conclusion: ChecksConclusionSchema,
  checks_started_at: DateTimeSchema.nullable(),
  checks_ended_at: DateTimeSchema.nullable(),
  unsuccessful_checks: z.array(QueueCheckSchema),
});
export type SpeculativeCheckPullRequest = z.infer<typeof SpeculativeCheckPullRequestSchema>;

export interface ConditionEvaluation {
  match: boolean;
  label: string;
  is_label_user_input: boolean;
  description: string | null;
  attribute_name: string | null;
  operator: string | null;
  schedule: Record<string, unknown> | null;
  subconditions: ConditionEvaluation[];
  evaluations: unknown[];
  [key: string]: unknown;
}

export const ConditionEvaluationSchema: z.ZodType<ConditionEvaluation> = z.looseObject({
  match: z.boolean(),
  label: z.string(),
  is_label_user_input: z.boolean(),
  description: z.string().nullable(),
  attribute_name: z.string().nullable(),
  operator: z.string().nullable(),
  schedule: z.record(z.string(), z.unknown()).nullable(),
  get subconditions(): z.ZodArray<z.ZodType<ConditionEvaluation>> {
    return z.array(ConditionEvaluationSchema);
  },
  evaluations: z.array(z.unknown()),
});

// ---------------------------------------------------------------------------------------------
// Metadata per type (docs/api.md §6)

const str = z.string();
const strOrNull = z.string().nullable();
const strings = z.array(z.string());
const ints = z.array(z.int());

const AddedRemoved = z.looseObject({ added: strings, removed: strings });
const CopyLike = z.looseObject({ to: str, pull_request_number: z.int(), conflicts: z.boolean() });
const Message = z.looseObject({ message: str });
const Branch = z.looseObject({ branch: str });
const Empty = z.looseObject({});
const Command = z.looseObject({
  author: PlatformAccountSchema,
  comment_id: z.int(),
  session_id: UuidSchema.nullable(),
});

export const EVENT_METADATA_SCHEMAS = {
  "action.assign": AddedRemoved,
  "action.backport": CopyLike,
  "action.close": Message,
  "action.comment": Message,
  "action.copy": CopyLike,
  "action.delete_head_branch": Branch,
  "action.dismiss_reviews": z.looseObject({ users: strings }),
  "action.edit": z.looseObject({ draft: z.boolean() }),
  "action.platform_actions": z.looseObject({ workflow: str, inputs: z.record(z.string(), z.unknown()) }),
  "action.label": AddedRemoved,
  "action.merge": Branch,
  "action.post_check": z.looseObject({ conclusion: str, title: str, summary: str }),
  "action.queue.batch_bisection_end": z.looseObject({
    queue_name: str,
    partition_name: str,
    priority_rule_name: strOrNull,
    original_batch_pr_numbers: ints,
    culprit_found: z.boolean(),
    culprit_pr_numbers: ints,
    remaining_pr_numbers: ints,
    max_failure_resolution_reached: z.boolean(),
    session_id: UuidSchema,
  }),
  "action.queue.batch_bisection_start": z.looseObject({
    queue_name: str,
    partition_name: str,
    priority_rule_name: strOrNull,
    original_batch_pr_numbers: ints,
    batch_size_before_split: z.int(),
    number_of_sub_batches: z.int(),
    bisection_depth: z.int(),
    is_top_level: z.boolean(),
    session_id: UuidSchema,
  }),
  "action.queue.change": z.looseObject({
    queue_name: str,
    partition_name: str,
    priority_rule_name: strOrNull,
    size: z.int(),
  }),
  "action.queue.checks.change": z.looseObject({
    queue_name: str,
    partition_name: str,
    running_checks: z.int(),
  }),
  "action.queue.checks_end": z.looseObject({
    aborted: z.boolean(),
    abort_code: AbortCodeSchema.nullable(),
    abort_reason: strOrNull,
    abort_status: AbortStatusSchema,
    branch: str,
    partition_name: str,
    priority_rule_name: strOrNull,
    queue_name: str,
    queued_at: DateTimeSchema,
    retry_attempt: z.int().nullable(),
    max_retries: z.int().nullable(),
    speculative_check_pull_request: SpeculativeCheckPullRequestSchema,
    pull_request_numbers: ints,
    train_car_id: UuidSchema.nullable(),
    session_id: UuidSchema,
  }),
  "action.queue.checks_not_started": z.looseObject({
    branch: str,
    partition_name: strOrNull,
    priority_rule_name: strOrNull,
    queue_name: str,
    queued_at: DateTimeSchema,
    reason: str,
    session_id: UuidSchema,
  }),
  "action.queue.checks_start": z.looseObject({
    branch: str,
    partition_name: strOrNull,
    priority_rule_name: strOrNull,
    queue_name: str,
    queued_at: DateTimeSchema,
    start_reason: str,
    speculative_check_pull_request: SpeculativeCheckPullRequestSchema,
    pull_request_numbers: ints,
    train_car_id: UuidSchema.nullable(),
    session_id: UuidSchema,
  }),
  "action.queue.enter": z.looseObject({
    queue_name: str,
    branch: str,
    queued_at: DateTimeSchema,
    partition_name: strOrNull,
    priority_rule_name: strOrNull,
    session_id: UuidSchema,
  }),
  "action.queue.leave": z.looseObject({
    reason: str,
    merged: z.boolean(),
    queue_name: str,
    branch: str,
    partition_name: str,
    queued_at: DateTimeSchema,
    seconds_waiting_for_schedule: z.int(),
    seconds_waiting_for_freeze: z.int(),
    priority_rule_name: strOrNull,
    conditions_evaluation: ConditionEvaluationSchema.nullable(),
    checks: z.array(QueueCheckSchema),
    pull_request_head_sha: str,
    session_id: UuidSchema.nullable(),
  }),
  "action.queue.merged": z.looseObject({
    branch: str,
    partition_names: strings,
    queue_name: str,
    queued_at: DateTimeSchema,
    priority_rule_name: strOrNull,
    session_id: UuidSchema,
  }),
  "action.rebase": Empty,
  "action.refresh": Empty,
  "action.squash": Empty,
  "action.unqueue": Empty,
  "action.update": Empty,
  "action.request_reviews": z.looseObject({ reviewers: strings, team_reviewers: strings }),
  "action.review": z.looseObject({ review_type: str, reviewer: strOrNull, message: strOrNull }),
  "ci_insights.job_retried": z.looseObject({
    rule_id: UuidSchema,
    rule_name: str,
    max_retry: z.int(),
    retry_mode: RetryModeSchema,
    retry_attempt: z.int(),
    // the three condition-match variants are not described by the contract (docs/api.md §2.5)
    condition_matches: z.array(z.record(z.string(), z.unknown())),
  }),
  "command.dequeue": Command,
  "command.queue": Command,
  "queue.pause.create": z.looseObject({ reason: str, created_by: ActorSchema }),
  "queue.pause.update": z.looseObject({ reason: str, updated_by: ActorSchema }),
  "queue.pause.delete": z.looseObject({ deleted_by: ActorSchema }),
  "scheduled_freeze.create": z.looseObject({
    scheduled_freeze_attributes: ScheduledFreezeAttributesSchema,
    created_by: ActorSchema,
    created_at: DateTimeSchema,
  }),
  "scheduled_freeze.delete": z.looseObject({
    scheduled_freeze_attributes: ScheduledFreezeAttributesSchema,
    reason: str,
    deleted_by: ActorSchema,
    deleted_at: DateTimeSchema,
  }),
  "scheduled_freeze.update": z.looseObject({
    scheduled_freeze_attributes_before: ScheduledFreezeAttributesSchema,
    scheduled_freeze_attributes_after: ScheduledFreezeAttributesSchema,
    updated_by: ActorSchema,
    updated_at: DateTimeSchema,
  }),
} as const satisfies Record<TypedEventType, z.ZodType>;

export type TypedEventType = (typeof TYPED_EVENT_TYPES)[number];
export type UntypedEventType = Exclude<EventType, TypedEventType>;

/** type -> metadata, for the 38 typed event types. */
export type EventMetadataByType = {
  [T in TypedEventType]: z.infer<(typeof EVENT_METADATA_SCHEMAS)[T]>;
};

export type AssignMetadata = EventMetadataByType["action.assign"];
export type LabelMetadata = EventMetadataByType["action.label"];
export type BackportMetadata = EventMetadataByType["action.backport"];
export type CopyMetadata = EventMetadataByType["action.copy"];
export type CloseMetadata = EventMetadataByType["action.close"];
export type CommentMetadata = EventMetadataByType["action.comment"];
export type DeleteHeadBranchMetadata = EventMetadataByType["action.delete_head_branch"];
export type DismissReviewsMetadata = EventMetadataByType["action.dismiss_reviews"];
export type EditMetadata = EventMetadataByType["action.edit"];
export type PlatformActionsMetadata = EventMetadataByType["action.platform_actions"];
export type MergeMetadata = EventMetadataByType["action.merge"];
export type PostCheckMetadata = EventMetadataByType["action.post_check"];
export type QueueBatchBisectionEndMetadata = EventMetadataByType["action.queue.batch_bisection_end"];
export type QueueBatchBisectionStartMetadata = EventMetadataByType["action.queue.batch_bisection_start"];
export type QueueChangeMetadata = EventMetadataByType["action.queue.change"];
export type QueueChecksChangeMetadata = EventMetadataByType["action.queue.checks.change"];
export type QueueChecksEndMetadata = EventMetadataByType["action.queue.checks_end"];
export type QueueChecksNotStartedMetadata = EventMetadataByType["action.queue.checks_not_started"];
export type QueueChecksStartMetadata = EventMetadataByType["action.queue.checks_start"];
export type QueueEnterMetadata = EventMetadataByType["action.queue.enter"];
export type QueueLeaveMetadata = EventMetadataByType["action.queue.leave"];
export type QueueMergedMetadata = EventMetadataByType["action.queue.merged"];
export type EmptyMetadata = EventMetadataByType["action.rebase"];
export type RequestReviewsMetadata = EventMetadataByType["action.request_reviews"];
export type ReviewMetadata = EventMetadataByType["action.review"];
export type JobRetriedMetadata = EventMetadataByType["ci_insights.job_retried"];
export type CommandMetadata = EventMetadataByType["command.queue"];
export type QueuePauseCreateMetadata = EventMetadataByType["queue.pause.create"];
export type QueuePauseUpdateMetadata = EventMetadataByType["queue.pause.update"];
export type QueuePauseDeleteMetadata = EventMetadataByType["queue.pause.delete"];
export type ScheduledFreezeCreateMetadata = EventMetadataByType["scheduled_freeze.create"];
export type ScheduledFreezeDeleteMetadata = EventMetadataByType["scheduled_freeze.delete"];
export type ScheduledFreezeUpdateMetadata = EventMetadataByType["scheduled_freeze.update"];

// ---------------------------------------------------------------------------------------------
// Envelope and events (docs/api.md §2.2)

// Any integer, not only the safe ones: the real service's ids are int64, and an event with an id
// beyond 2^53 is still an event (its exact text goes out with it, see api/raw-json.ts).
// Every double at or beyond 2^53 is an integer, so the union is exactly "an integer" (a refine
// would send the compiled checker of check.ts back to zod).
const JsonInt = z.union([z.int(), z.number().gte(2 ** 53), z.number().lte(-(2 ** 53))]);

const envelopeShape = {
  id: JsonInt,
  received_at: DateTimeSchema,
  trigger: z.string(),
  repository: z.string(),
  pull_request: JsonInt.nullable(),
  base_ref: z.string().nullable(),
};

/** The envelope alone: `type` any string, `metadata` any object. */
export const EventEnvelopeSchema = z.looseObject({
  ...envelopeShape,
  type: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

type TypedEventSchemas = {
  [T in TypedEventType]: z.ZodObject<
    typeof envelopeShape & { type: z.ZodLiteral<T>; metadata: (typeof EVENT_METADATA_SCHEMAS)[T] },
    z.core.$loose
  >;
};

const TYPED_SET: ReadonlySet<string> = new Set(TYPED_EVENT_TYPES);

// The whole event and page as zod schemas: for tests, the OpenAPI checks and anyone who wants a
// parsed copy. Built on first use: parseEventsPage checks pages without them (envelope by hand,
// metadata through compiled checks), and building 38 typed event schemas and their union was a
// third of the events module's load, paid by every `mq logs` for nothing.
function buildEventSchemas() {
  const typedEventSchemas = Object.fromEntries(
    TYPED_EVENT_TYPES.map((t) => [t, z.looseObject({ ...envelopeShape, type: z.literal(t), metadata: EVENT_METADATA_SCHEMAS[t] })]),
  ) as TypedEventSchemas;
  /**
   * An event whose type has no documented metadata: the nine untyped filterable types and any type
   * the real service adds later. Its metadata is kept as sent.
   */
  const GenericEventSchema = z.looseObject({
    ...envelopeShape,
    type: z.string().refine((t) => !TYPED_SET.has(t), { message: "a typed event type" }),
    metadata: z.record(z.string(), z.unknown()),
  });
  /** The strict contract: typed events must match their metadata shape exactly (extra fields kept). */
  const EventSchema = z.union([
    z.discriminatedUnion(
      "type",
      TYPED_EVENT_TYPES.map((t) => typedEventSchemas[t]) as unknown as [
        TypedEventSchemas[TypedEventType],
        ...TypedEventSchemas[TypedEventType][],
      ],
    ),
    GenericEventSchema,
  ]);
  const EventsPageSchema = z.looseObject({
    size: z.int(),
    per_page: z.int(),
    events: z.array(EventSchema),
  });
  return { GenericEventSchema, EventSchema, EventsPageSchema };
}

type EventSchemas = ReturnType<typeof buildEventSchemas>;
let eventSchemasBuilt: EventSchemas | undefined;

/** GenericEventSchema, EventSchema (any event, the strict contract) and EventsPageSchema, built once on first call. */
export function eventSchemas(): EventSchemas {
  return (eventSchemasBuilt ??= buildEventSchemas());
}

export type TypedEvent<T extends TypedEventType = TypedEventType> = {
  [K in T]: z.infer<TypedEventSchemas[K]>;
}[T];
export type GenericEvent = z.infer<EventSchemas["GenericEventSchema"]>;
/**
 * Any event. Narrow with `isTypedEvent(ev, "action.queue.enter")`: comparing `ev.type` alone does
 * not narrow because GenericEvent's type is `string`. Outside --strict a typed event's metadata may
 * still differ from its declared shape (it is passed through as the service sent it).
 */
export type Event = TypedEvent | GenericEvent;

export interface EventsPage {
  size: number;
  per_page: number;
  events: Event[];
  [key: string]: unknown;
}

export function isTypedEvent<T extends TypedEventType>(ev: { type: string }, type: T): ev is TypedEvent<T> {
  return ev.type === type;
}

const METADATA_BY_TYPE: ReadonlyMap<string, z.ZodType> = new Map(Object.entries(EVENT_METADATA_SCHEMAS) as [string, z.ZodType][]);

/** The metadata schema of a typed event type, undefined for untyped or unknown types. */
export function metadataSchemaFor(type: string): z.ZodType | undefined {
  return METADATA_BY_TYPE.get(type);
}

/** page.ts's parseEventsPage, its page typed with the contract's events. */
export function parseEventsPage(body: unknown, opts?: ParseEventsPageOptions): EventsPage {
  return parsePage(body, opts) as EventsPage;
}
