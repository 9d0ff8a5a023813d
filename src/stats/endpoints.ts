// The statistics endpoints (docs/api.md §4.2), one record each: everything mq knows about an endpoint lives
// in its record. The CLI tree, --fail-if, the renderers, the response schemas
// (src/api/schema/stats.ts builds them from `shape` and `figures`) and the bundled server's route
// table all read these records. Adding an endpoint is one record here plus one handler in
// src/server/stats.ts under the same name (see the README, "Adding a stats endpoint").
// Plain data on purpose: the CLI tree is built from it at start-up, so no zod and no output modules.
import { acceptedFlags, type StatsParamKind } from "./flags.js";
import type { DialectName } from "../globals.js";

export type { StatsParamKind } from "./flags.js";

/** How the response is shaped (the schema module has one builder per shape). */
export type StatsShape =
  | "groups" // { groups: [{ group keys, stats: interval[] }] }
  | "time-to-merge" // top-level array of partitions
  | "checks-outcome" // { groups: [{ group keys, stats: QueueChecksOutcome }] }
  | "bisection" // { started: groups, completed: groups }
  | "list"; // { base_refs: [] } or { queue_names: [] }

/** Which API a record exists in: the contract the project was founded on (spec), and the real service (mergify). */
export type StatsDialect = DialectName;

/** What a figure measures: decides how it is shown (durations humanised, rates as percentages). */
export type FieldKind = "count" | "rate" | "duration" | "size";

/**
 * How interval values combine into one value (over a window, or across groups for one interval):
 * - sum: counts add up;
 * - max / min: the extreme of the interval values;
 * - mean: Σsum / Σcount when every record carries them (the real service sends them: sum_X and
 *   count_X, or the fields the rule names), else the mean weighted by interval length (a plain mean
 *   for records without an interval); `over: "time"` marks a level averaged over time (queue size,
 *   running checks), whose interval-weighted mean is exact, unlike an average over items;
 * - weighted: the mean weighted by another field (the events the average is over);
 * - ratio: Σnum / Σ(den...), never the mean of the interval rates.
 */
export type AggregationRule =
  | { readonly by: "sum" | "max" | "min" }
  | { readonly by: "mean"; readonly sum?: string; readonly count?: string; readonly over?: "time" }
  | { readonly by: "weighted"; readonly weight: string }
  | { readonly by: "ratio"; readonly num: string; readonly den: readonly string[] };

export interface FieldSpec {
  readonly kind: FieldKind;
  /** the JSON type the contract gives it */
  readonly type: "int" | "number";
  /** null allowed (time-to-merge's figures when no pull request merged) */
  readonly nullable?: boolean;
  /** over the intervals of a window */
  readonly window: AggregationRule;
  /** across groups for one interval; the window rule when absent */
  readonly groups?: AggregationRule;
  /**
   * a percentile the API computed (95 for p95_X, 50 for a median): it does not combine, so over a
   * window the rule gives a bound at best, and across repositories there is no total
   */
  readonly percentile?: number;
}

/** A record as written below; STATS_ENDPOINTS adds what is derived from it. */
interface StatsEndpointSpec {
  /** kebab-case subcommand name; the server handler's key */
  readonly name: string;
  /** path below /repos/{owner}/{repository}/stats/ */
  readonly path: string;
  readonly summary: string;
  readonly dialects: readonly StatsDialect[];
  /** which query parameters it takes (and so which flags it accepts) */
  readonly params: StatsParamKind;
  /** the response's shape; with `figures` and `category`, its schema */
  readonly shape: StatsShape;
  /** the numeric fields of one interval record, in the order the API sends them */
  readonly figures: Readonly<Record<string, FieldSpec>>;
  /** bisection: which figures each section carries */
  readonly sections?: Readonly<Record<"started" | "completed", readonly string[]>>;
  /** the string field that splits interval records into series (one per check outcome or exit reason) */
  readonly category?: string;
  /** the group keys carry partition_names (an array) instead of partition_name */
  readonly partitionNames?: boolean;
  /** the field a chart plots */
  readonly mainField?: string;
  /** the figures a terminal table shows when there are too many for one (all are in json, ndjson, csv) */
  readonly tableFields?: readonly string[];
  /** for list endpoints: the key of the array */
  readonly listKey?: string;
  /** deprecated endpoints: what to use instead */
  readonly deprecatedUse?: string;
  /** the items behind its figures (checks, sessions): --min-count and the verdicts' counts */
  readonly sample?: SampleSpec;
  /** metric names (openmetrics) for fields whose name alone says too little; mq_queue_<field> otherwise */
  readonly metricNames?: Readonly<Record<string, string>>;
  /**
   * the command lines at the end of its subcommand's help, 2 to 4 (test/help-examples.e2e.test.ts
   * runs each); without them, two derived from the record (defaultExamples)
   */
  readonly examples?: readonly string[];
}

/** The field that counts the items behind an endpoint's figures, and what they are called. */
export interface SampleSpec {
  readonly field: string;
  readonly noun: string;
}

export interface StatsEndpoint extends StatsEndpointSpec {
  readonly examples: readonly string[];
  /** the names of `figures` (for --fail-if, charts, csv) */
  readonly fields: readonly string[];
  /** the figures that hold durations (humanised on a terminal) */
  readonly durationFields: readonly string[];
  /** the flags its subcommand accepts, as users type them */
  readonly accepts: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// field specs, by what they are

const SUM: AggregationRule = { by: "sum" };
const MAX: AggregationRule = { by: "max" };
const MIN: AggregationRule = { by: "min" };
const MEAN: AggregationRule = { by: "mean" };
const TIME_MEAN: AggregationRule = { by: "mean", over: "time" };

const count: FieldSpec = { kind: "count", type: "int", window: SUM };
const duration = (window: AggregationRule = MEAN): FieldSpec => ({ kind: "duration", type: "number", window });
const size = (type: "int" | "number", window: AggregationRule): FieldSpec => ({ kind: "size", type, window });
const weighted = (weight: string): FieldSpec => size("number", { by: "weighted", weight });
const rate = (num: string, den: readonly string[]): FieldSpec => ({ kind: "rate", type: "number", window: { by: "ratio", num, den } });
/** avg_X, max_X and min_X of a level sampled over time (queue size, running checks, batch size) */
const levels = (base: string, kind: "size" | "duration" | "level" = "size") =>
  kind === "duration"
    ? { [`avg_${base}`]: duration(), [`max_${base}`]: duration(MAX), [`min_${base}`]: duration(MIN) }
    : {
        [`avg_${base}`]: size("number", kind === "level" ? TIME_MEAN : MEAN),
        [`max_${base}`]: size("int", MAX),
        [`min_${base}`]: size("int", MIN),
      };
/** an idle part of the time in queue: the real service sends sum_X and one count_idle for all parts */
const idlePart = (part: string): FieldSpec => duration({ by: "mean", sum: `sum_${part}`, count: "count_idle" });
/** a percentile the API computed: over a window the highest interval value is shown (an upper bound) */
const p95 = (): FieldSpec => ({ ...duration(MAX), percentile: 95 });

const BOTH: readonly StatsDialect[] = ["spec", "mergify"];

const RECORDS: readonly StatsEndpointSpec[] = [
  {
    name: "time-to-merge",
    path: "time_to_merge",
    summary: "mean and median time to merge per partition and queue",
    dialects: BOTH,
    params: "time-to-merge",
    shape: "time-to-merge",
    figures: { mean: { ...duration(), nullable: true }, median: { ...duration(), nullable: true, percentile: 50 } },
    metricNames: { mean: "time_to_merge_mean", median: "time_to_merge_median" },
    deprecatedUse: "mq stats average-queue-time or mq stats total-queue-time",
    examples: [
      "mq --offline stats time-to-merge --repo acme/web",
      "mq --offline stats time-to-merge --repo acme/web --branch main -o json",
    ],
  },
  {
    name: "merge-queue-checks-outcome",
    path: "merge_queue_checks_outcome",
    summary: "totals of check outcomes per group over the window",
    dialects: BOTH,
    params: "filters",
    shape: "checks-outcome",
    figures: { count },
    category: "check_outcome",
    metricNames: { count: "check_outcomes" },
    deprecatedUse: "mq stats queues-checks-outcome-count",
    examples: [
      "mq --offline stats merge-queue-checks-outcome --repo acme/web --since 7d",
      "mq --offline stats merge-queue-checks-outcome --repo acme/web --queue default -o json",
    ],
  },
  {
    name: "queues-checks-outcome-count",
    path: "queues_checks_outcome_count",
    summary: "check outcomes per interval (success and each abort code)",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: { count },
    category: "check_outcome",
    metricNames: { count: "check_outcomes" },
    mainField: "count",
    examples: [
      "mq --offline stats queues-checks-outcome-count --repo acme/web --since 7d",
      "mq --offline stats queues-checks-outcome-count --repo acme/web --base-ref main -o csv",
    ],
  },
  {
    name: "queues-entered-count",
    path: "queues_entered_count",
    summary: "pull requests that entered the queue per interval",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: { entered: count },
    mainField: "entered",
    examples: [
      "mq --offline stats queues-entered-count --repo acme/web --since 7d",
      "mq --offline stats queues-entered-count --repo acme/web --since 30d --chart",
    ],
  },
  {
    name: "queues-merged-count",
    path: "queues_merged_count",
    summary: "pull requests merged by the queue per interval",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: { merged: count },
    partitionNames: true,
    mainField: "merged",
    examples: [
      "mq --offline stats queues-merged-count --repo acme/web --since 7d",
      "mq --offline stats queues-merged-count --repo acme/web --since 7d -o csv",
    ],
  },
  {
    name: "average-ci-runtime",
    path: "average_ci_runtime",
    summary: "average CI runtime of queue checks per interval",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: { runtime: duration() },
    metricNames: { runtime: "ci_runtime" },
    mainField: "runtime",
    examples: [
      "mq --offline stats average-ci-runtime --repo acme/web --since 7d",
      "mq --offline stats average-ci-runtime --repo acme/web --since 14d --chart",
    ],
  },
  {
    name: "average-queue-time",
    path: "average_queue_time",
    summary: "average time in queue, with idle time for capacity, schedule and freeze",
    dialects: ["spec"],
    params: "filters",
    shape: "groups",
    figures: {
      queue_time: duration(),
      idle_capacity: idlePart("idle_capacity"),
      idle_schedule: idlePart("idle_schedule"),
      idle_freeze: idlePart("idle_freeze"),
    },
    mainField: "queue_time",
    examples: [
      "mq --offline stats average-queue-time --repo acme/web --since 7d",
      "mq --offline stats average-queue-time --repo acme/web --queue default -o ndjson",
    ],
  },
  {
    name: "idle-queue-time",
    path: "idle_queue_time",
    summary: "idle time in queue (capacity, schedule, freeze) and CI time, with p95 and a per-group summary",
    dialects: ["mergify"],
    params: "filters",
    shape: "groups",
    figures: {
      idle_capacity: idlePart("idle_capacity"),
      idle_schedule: idlePart("idle_schedule"),
      idle_freeze: idlePart("idle_freeze"),
      ci_runtime: idlePart("ci_runtime"),
      p95_idle_capacity: p95(),
      p95_idle_schedule: p95(),
      p95_idle_freeze: p95(),
      p95_ci_runtime: p95(),
      max_idle_capacity: duration(MAX),
      max_idle_schedule: duration(MAX),
      max_idle_freeze: duration(MAX),
      max_ci_runtime: duration(MAX),
      sum_idle_capacity: duration(SUM),
      sum_idle_schedule: duration(SUM),
      sum_idle_freeze: duration(SUM),
      sum_ci_runtime: duration(SUM),
      count_idle: count,
    },
    mainField: "idle_capacity",
    tableFields: ["idle_capacity", "p95_idle_capacity", "idle_schedule", "idle_freeze", "ci_runtime", "p95_ci_runtime", "count_idle"],
    examples: [
      "mq --offline --dialect mergify stats idle-queue-time --repo acme/web --since 7d",
      "mq --offline --dialect mergify stats idle-queue-time --repo acme/web --since 7d --fail-if 'max(p95_idle_capacity) > 4h' --fail-if-scope each",
    ],
  },
  {
    name: "skip-intermediate-results",
    path: "skip_intermediate_results",
    summary: "batches saved by skipping intermediate results per interval",
    dialects: ["mergify"],
    params: "filters",
    shape: "groups",
    figures: { batches_saved: count },
    mainField: "batches_saved",
    examples: [
      "mq --offline --dialect mergify stats skip-intermediate-results --repo acme/web --since 7d",
      "mq --offline --dialect mergify stats skip-intermediate-results --repo acme/web --since 7d -o csv",
    ],
  },
  {
    name: "total-queue-time",
    path: "total_queue_time",
    summary: "average, maximum and minimum time in queue per interval",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: levels("queue_time", "duration"),
    mainField: "avg_queue_time",
    examples: [
      "mq --offline stats total-queue-time --repo acme/web --since 7d",
      "mq --offline stats total-queue-time --repo acme/web --since 1d --fail-if 'max(max_queue_time) >= 2592000'",
      "mq --offline --dialect mergify stats total-queue-time --repo acme/web,acme/api --since 7d",
    ],
  },
  {
    name: "queue-size",
    path: "queue_size",
    summary: "average, maximum and minimum queue size per interval",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: levels("size", "level"),
    mainField: "avg_size",
    examples: [
      "mq --offline stats queue-size --repo acme/web --since 1d",
      "mq --offline stats queue-size --repo acme/web --since 7d --chart",
      "mq --offline stats queue-size --repo acme/web --since 2h --watch --interval 10",
    ],
  },
  {
    name: "running-speculative-checks",
    path: "running_speculative_checks",
    summary: "speculative checks running at once per interval",
    dialects: BOTH,
    params: "filters-no-priority",
    shape: "groups",
    figures: levels("running_checks", "level"),
    mainField: "avg_running_checks",
    examples: [
      "mq --offline stats running-speculative-checks --repo acme/web --since 1d",
      "mq --offline stats running-speculative-checks --repo acme/web --base-ref main -o json",
    ],
  },
  {
    name: "batch-size",
    path: "batch_size",
    summary: "average, maximum and minimum batch size per interval",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: levels("batch_size"),
    mainField: "avg_batch_size",
    examples: [
      "mq --offline stats batch-size --repo acme/web --since 7d",
      "mq --offline stats batch-size --repo acme/web --since 7d -o csv",
    ],
  },
  {
    name: "batch-bisection",
    path: "batch_bisection",
    summary: "batch bisections started and completed, depth and culprits",
    dialects: BOTH,
    params: "filters",
    shape: "bisection",
    figures: {
      bisection_count: count,
      avg_depth: weighted("bisection_count"),
      max_depth: size("int", MAX),
      avg_batch_size_before_split: weighted("bisection_count"),
      bisection_completed_count: count,
      culprit_found_count: count,
      // a count, not a maximum, whatever its name says
      max_failure_reached_count: count,
    },
    sections: {
      started: ["bisection_count", "avg_depth", "max_depth", "avg_batch_size_before_split"],
      completed: ["bisection_completed_count", "culprit_found_count", "max_failure_reached_count"],
    },
    mainField: "bisection_count",
    examples: [
      "mq --offline stats batch-bisection --repo acme/web --since 7d",
      "mq --offline stats batch-bisection --repo acme/web --since 7d -o json",
    ],
  },
  {
    name: "branches",
    path: "branches",
    summary: "base refs with queue activity in the range",
    dialects: BOTH,
    params: "range",
    shape: "list",
    figures: {},
    listKey: "base_refs",
    examples: ["mq --offline stats branches --repo acme/web", "mq --offline stats branches --repo acme/web --since 30d -o json"],
  },
  {
    name: "checks-retries",
    path: "checks_retries",
    summary: "check retries, sessions recovered by a retry, retry depth",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: {
      total_retries: count,
      sessions_with_retries: count,
      recovered: count,
      not_recovered: count,
      recovery_rate: rate("recovered", ["recovered", "not_recovered"]),
      avg_retry_depth: weighted("sessions_with_retries"),
      max_retry_depth: size("int", MAX),
    },
    sample: { field: "sessions_with_retries", noun: "sessions with retries" },
    mainField: "total_retries",
    examples: [
      "mq --offline stats checks-retries --repo acme/web --since 7d",
      "mq --offline stats checks-retries --repo acme/web --since 7d -o ndjson",
    ],
  },
  {
    name: "failure-rate",
    path: "failure_rate",
    summary: "share of queue checks that failed per interval",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: { total: count, failures: count, failure_rate: rate("failures", ["total"]) },
    sample: { field: "total", noun: "checks" },
    metricNames: { total: "checks", failures: "check_failures" },
    mainField: "failure_rate",
    examples: [
      "mq --offline stats failure-rate --repo acme/web --since 7d",
      "mq --offline stats failure-rate --repo acme/web --since 30d --chart",
      "mq --offline stats failure-rate --repo acme/web,acme/api --since 1d --fail-if 'failure_rate > 90%' --fail-if-scope both",
      "mq --offline stats failure-rate --repo acme/web --since 1d -o none --fail-if 'failure_rate > 90%' --fail-if-scope both --min-count 5",
    ],
  },
  {
    name: "queues-pr-exit-reasons",
    path: "queues_pr_exit_reasons",
    summary: "why pull requests left the queue, once per queue session",
    dialects: BOTH,
    params: "filters",
    shape: "groups",
    figures: { count },
    category: "exit_reason",
    metricNames: { count: "exits" },
    mainField: "count",
    examples: [
      "mq --offline stats queues-pr-exit-reasons --repo acme/web --since 7d",
      "mq --offline stats queues-pr-exit-reasons --repo acme/web --since 7d -o csv",
    ],
  },
  {
    name: "queues",
    path: "queues",
    summary: "queue names with activity in the range",
    dialects: BOTH,
    params: "range",
    shape: "list",
    figures: {},
    listKey: "queue_names",
    examples: ["mq --offline stats queues --repo acme/web", "mq --offline stats queues --repo acme/web --since 30d -o json"],
  },
];

/** Two examples for an endpoint whose record gives none: its table over a week, and its records. */
function defaultExamples(spec: StatsEndpointSpec): string[] {
  const dialect = spec.dialects.includes("spec") ? "" : `--dialect ${spec.dialects[0]} `;
  const line = `mq --offline ${dialect}stats ${spec.name} --repo acme/web${spec.params === "time-to-merge" ? "" : " --since 7d"}`;
  return [line, `${line} -o json`];
}

function derive(spec: StatsEndpointSpec): StatsEndpoint {
  const fields = Object.keys(spec.figures);
  return {
    ...spec,
    fields,
    durationFields: fields.filter((f) => spec.figures[f]!.kind === "duration"),
    accepts: acceptedFlags(spec.params),
    examples: spec.examples ?? defaultExamples(spec),
  };
}

export const STATS_ENDPOINTS: readonly StatsEndpoint[] = RECORDS.map(derive);

export function findStatsEndpoint(name: string): StatsEndpoint | undefined {
  return STATS_ENDPOINTS.find((e) => e.name === name || e.path === name);
}

/**
 * Every figure of every endpoint by name. A field name means the same thing wherever it appears
 * (a test checks the records agree), so aggregation can go by name: mergeIntervals meets fields
 * without knowing the endpoint.
 */
export const FIGURES: ReadonlyMap<string, FieldSpec> = new Map(STATS_ENDPOINTS.flatMap((e) => Object.entries(e.figures)));
