// The contract of /work/shared/spec/api.md (the bundled server's default) as a dialect record.
import { ABORT_CODES } from "../abort-codes.js";
import { STATS_ENDPOINTS, type StatsParamKind } from "../../stats/endpoints.js";
import { familiesOf, type Dialect, type ParamSpec } from "./types.js";

// The contract's event types (docs/api.md §4.1.1) are plain data: the CLI tree, --type validation
// and shell completion need them at start-up, before zod is loaded.

/** The 47 values the log endpoint accepts in `event_type`. */
export const EVENT_TYPES = [
  "action.assign",
  "action.backport",
  "action.close",
  "action.comment",
  "action.copy",
  "action.delete_head_branch",
  "action.dismiss_reviews",
  "action.edit",
  "action.platform_actions",
  "action.label",
  "action.merge",
  "action.post_check",
  "action.queue.batch_bisection_end",
  "action.queue.batch_bisection_start",
  "action.queue.change",
  "action.queue.checks.change",
  "action.queue.checks_end",
  "action.queue.checks_not_started",
  "action.queue.checks_start",
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.merged",
  "action.rebase",
  "action.refresh",
  "action.request_reviews",
  "action.requeue",
  "action.review",
  "action.squash",
  "action.unqueue",
  "action.update",
  "ci_insights.job_retried",
  "ci_issue.created",
  "ci_issue.linked",
  "ci_issue.merged",
  "ci_issue.renamed",
  "ci_issue.reopened",
  "ci_issue.resolved",
  "ci_issue.unresolved",
  "command.dequeue",
  "command.queue",
  "command.requeue",
  "queue.pause.create",
  "queue.pause.delete",
  "queue.pause.update",
  "scheduled_freeze.create",
  "scheduled_freeze.delete",
  "scheduled_freeze.update",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The nine filterable types whose metadata shape the contract does not give (docs/api.md §6, rule 1). */
export const UNTYPED_EVENT_TYPES = [
  "action.requeue",
  "ci_issue.created",
  "ci_issue.linked",
  "ci_issue.merged",
  "ci_issue.renamed",
  "ci_issue.reopened",
  "ci_issue.resolved",
  "ci_issue.unresolved",
  "command.requeue",
] as const satisfies readonly EventType[];

/** The 38 types with a documented metadata shape (docs/api.md §6). */
export const TYPED_EVENT_TYPES = EVENT_TYPES.filter(
  (t): t is Exclude<EventType, (typeof UNTYPED_EVENT_TYPES)[number]> => !(UNTYPED_EVENT_TYPES as readonly string[]).includes(t),
);

const dateTime = (name: string): ParamSpec => ({ name, array: false, type: "string", format: "date-time" });
const names = (name: string): ParamSpec => ({ name, array: true, type: "string", minLength: 1, maxLength: 255, maxItems: 255 });

/** docs/api.md §4.2: the standard filter set F and its variants */
const STATS_PARAMS: Record<StatsParamKind, ParamSpec[]> = {
  filters: [
    names("base_ref"),
    names("partition_name"),
    names("queue_name"),
    names("priority_rule_name"),
    dateTime("start_at"),
    dateTime("end_at"),
  ],
  "filters-no-priority": [names("base_ref"), names("partition_name"), names("queue_name"), dateTime("start_at"), dateTime("end_at")],
  range: [dateTime("start_at"), dateTime("end_at")],
  "time-to-merge": [dateTime("at"), { name: "branch", array: false, type: "string" }],
};

/** docs/api.md §4.1 */
const LOGS_PARAMS: ParamSpec[] = [
  { name: "pull_request", array: false, type: "integer", minimum: 1, exclusiveMaximum: 2147483647 },
  { name: "base_ref", array: false, type: "string", minLength: 1, maxLength: 255 },
  { name: "event_type", array: true, type: "string", enum: EVENT_TYPES },
  dateTime("received_from"),
  dateTime("received_to"),
  { name: "cursor", array: false, type: "string" },
  { name: "per_page", array: false, type: "integer", minimum: 1, maximum: 100, default: 10 },
];

export const SPEC_DIALECT: Dialect = {
  name: "spec",
  title: "the contract of docs/api.md",
  eventTypes: EVENT_TYPES,
  eventFamilies: familiesOf(EVENT_TYPES),
  outcomes: [],
  abortCodes: ABORT_CODES,
  endpoints: {
    logs: LOGS_PARAMS,
    ...Object.fromEntries(
      STATS_ENDPOINTS.filter((e) => e.dialects.includes("spec")).map((e) => [`stats/${e.path}`, STATS_PARAMS[e.params]]),
    ),
  },
  defaultPerPage: 10,
  linkRels: ["next", "prev", "first", "last"],
  partitions: true,
  hosts: [],
};
