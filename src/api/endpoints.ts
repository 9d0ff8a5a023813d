// The statistics endpoints of docs/api.md §4.2 as plain data. The CLI tree, completion, the bundled server
// and the renderers all read this one table; the zod schemas for each endpoint live in
// src/api/schema/stats.ts under the same `name`.

/** Which query parameters an endpoint takes. */
export type StatsParamKind =
  | "filters" // the standard filter set F
  | "filters-no-priority" // F without priority_rule_name (running-speculative-checks)
  | "range" // start_at and end_at only (branches, queues)
  | "time-to-merge"; // at and branch

/** How the response is shaped. */
export type StatsShape =
  | "groups" // { groups: [{ group keys, stats: interval[] }] }
  | "time-to-merge" // top-level array of partitions
  | "checks-outcome" // { groups: [{ group keys, stats: QueueChecksOutcome }] }
  | "bisection" // { started: groups, completed: groups }
  | "list"; // { base_refs: [] } or { queue_names: [] }

export interface StatsEndpoint {
  /** kebab-case subcommand name */
  readonly name: string;
  /** path below /repos/{owner}/{repository}/stats/ */
  readonly path: string;
  readonly summary: string;
  readonly params: StatsParamKind;
  readonly shape: StatsShape;
  /** numeric fields of one interval record (for --fail-if, charts, csv) */
  readonly fields: readonly string[];
  /** the field a chart plots */
  readonly mainField?: string;
  /** fields that hold durations (humanised on a terminal) */
  readonly durationFields?: readonly string[];
  /** for list endpoints: the key of the array */
  readonly listKey?: string;
  /** deprecated endpoints: what to use instead */
  readonly deprecatedUse?: string;
}

export const STATS_ENDPOINTS: readonly StatsEndpoint[] = [
  {
    name: "time-to-merge",
    path: "time_to_merge",
    summary: "mean and median time to merge per partition and queue (deprecated)",
    params: "time-to-merge",
    shape: "time-to-merge",
    fields: ["mean", "median"],
    durationFields: ["mean", "median"],
    deprecatedUse: "mq stats average-queue-time or mq stats total-queue-time",
  },
  {
    name: "merge-queue-checks-outcome",
    path: "merge_queue_checks_outcome",
    summary: "totals of check outcomes per group over the window (deprecated)",
    params: "filters",
    shape: "checks-outcome",
    fields: ["count"],
    deprecatedUse: "mq stats queues-checks-outcome-count",
  },
  {
    name: "queues-checks-outcome-count",
    path: "queues_checks_outcome_count",
    summary: "check outcomes per interval (success and each abort code)",
    params: "filters",
    shape: "groups",
    fields: ["count"],
    mainField: "count",
  },
  {
    name: "queues-entered-count",
    path: "queues_entered_count",
    summary: "pull requests that entered the queue per interval",
    params: "filters",
    shape: "groups",
    fields: ["entered"],
    mainField: "entered",
  },
  {
    name: "queues-merged-count",
    path: "queues_merged_count",
    summary: "pull requests merged by the queue per interval",
    params: "filters",
    shape: "groups",
    fields: ["merged"],
    mainField: "merged",
  },
  {
    name: "average-ci-runtime",
    path: "average_ci_runtime",
    summary: "average CI runtime of queue checks per interval",
    params: "filters",
    shape: "groups",
    fields: ["runtime"],
    mainField: "runtime",
    durationFields: ["runtime"],
  },
  {
    name: "average-queue-time",
    path: "average_queue_time",
    summary: "average time in queue, with idle time for capacity, schedule and freeze",
    params: "filters",
    shape: "groups",
    fields: ["queue_time", "idle_capacity", "idle_schedule", "idle_freeze"],
    mainField: "queue_time",
    durationFields: ["queue_time", "idle_capacity", "idle_schedule", "idle_freeze"],
  },
  {
    name: "total-queue-time",
    path: "total_queue_time",
    summary: "average, maximum and minimum time in queue per interval",
    params: "filters",
    shape: "groups",
    fields: ["avg_queue_time", "max_queue_time", "min_queue_time"],
    mainField: "avg_queue_time",
    durationFields: ["avg_queue_time", "max_queue_time", "min_queue_time"],
  },
  {
    name: "queue-size",
    path: "queue_size",
    summary: "average, maximum and minimum queue size per interval",
    params: "filters",
    shape: "groups",
    fields: ["avg_size", "max_size", "min_size"],
    mainField: "avg_size",
  },
  {
    name: "running-speculative-checks",
    path: "running_speculative_checks",
    summary: "speculative checks running at once per interval",
    params: "filters-no-priority",
    shape: "groups",
    fields: ["avg_running_checks", "max_running_checks", "min_running_checks"],
    mainField: "avg_running_checks",
  },
  {
    name: "batch-size",
    path: "batch_size",
    summary: "average, maximum and minimum batch size per interval",
    params: "filters",
    shape: "groups",
    fields: ["avg_batch_size", "max_batch_size", "min_batch_size"],
    mainField: "avg_batch_size",
  },
  {
    name: "batch-bisection",
    path: "batch_bisection",
    summary: "batch bisections started and completed, depth and culprits",
    params: "filters",
    shape: "bisection",
    fields: [
      "bisection_count",
      "avg_depth",
      "max_depth",
      "avg_batch_size_before_split",
      "bisection_completed_count",
      "culprit_found_count",
      "max_failure_reached_count",
    ],
    mainField: "bisection_count",
  },
  {
    name: "branches",
    path: "branches",
    summary: "base refs with queue activity in the range",
    params: "range",
    shape: "list",
    fields: [],
    listKey: "base_refs",
  },
  {
    name: "checks-retries",
    path: "checks_retries",
    summary: "check retries, sessions recovered by a retry, retry depth",
    params: "filters",
    shape: "groups",
    fields: [
      "total_retries",
      "sessions_with_retries",
      "recovered",
      "not_recovered",
      "recovery_rate",
      "avg_retry_depth",
      "max_retry_depth",
    ],
    mainField: "total_retries",
  },
  {
    name: "failure-rate",
    path: "failure_rate",
    summary: "share of queue checks that failed per interval",
    params: "filters",
    shape: "groups",
    fields: ["total", "failures", "failure_rate"],
    mainField: "failure_rate",
  },
  {
    name: "queues-pr-exit-reasons",
    path: "queues_pr_exit_reasons",
    summary: "why pull requests left the queue, once per queue session",
    params: "filters",
    shape: "groups",
    fields: ["count"],
    mainField: "count",
  },
  {
    name: "queues",
    path: "queues",
    summary: "queue names with activity in the range",
    params: "range",
    shape: "list",
    fields: [],
    listKey: "queue_names",
  },
];

export function findStatsEndpoint(name: string): StatsEndpoint | undefined {
  return STATS_ENDPOINTS.find((e) => e.name === name || e.path === name);
}
