// The 17 statistics responses (docs/api.md §2.6, §4.2), keyed by the endpoint names of src/api/endpoints.ts.
// Objects are loose: the real service adds fields (sum_*, count_*, summary) that must survive.
import * as z from "zod";
import { ContractError } from "../../errors.js";
import { CHECKS_OUTCOME_COUNTERS, DateTimeSchema, formatIssue } from "./common.js";

export const STATS_ENDPOINT_NAMES = [
  "time-to-merge",
  "merge-queue-checks-outcome",
  "queues-checks-outcome-count",
  "queues-entered-count",
  "queues-merged-count",
  "average-ci-runtime",
  "average-queue-time",
  "total-queue-time",
  "queue-size",
  "running-speculative-checks",
  "batch-size",
  "batch-bisection",
  "branches",
  "checks-retries",
  "failure-rate",
  "queues-pr-exit-reasons",
  "queues",
] as const;
export type StatsEndpointName = (typeof STATS_ENDPOINT_NAMES)[number];

const num = z.number();
const int = z.int();

const intervalShape = { start: DateTimeSchema, end: DateTimeSchema };

// The real service's groups carry no partition_name (nor partition_names): `lenient` builds the
// same schemas with those keys optional, so parseStatsResponse can tell "differs from the contract
// the way the real service does" (a warning) from "broken" (an error).
function groupKeys(lenient: boolean, opts: { priority?: boolean; partitions?: boolean } = {}) {
  const { priority = true, partitions = false } = opts;
  const partition = partitions
    ? { partition_names: lenient ? z.array(z.string()).optional() : z.array(z.string()) }
    : { partition_name: lenient ? z.string().optional() : z.string() };
  return {
    base_ref: z.string(),
    ...partition,
    queue_name: z.string(),
    ...(priority ? { priority_rule_name: z.string().nullable() } : {}),
  };
}

function groupsOf<S extends z.core.$ZodLooseShape>(
  lenient: boolean,
  fields: S,
  opts?: { priority?: boolean; partitions?: boolean },
) {
  return z.looseObject({
    groups: z.array(
      z.looseObject({ ...groupKeys(lenient, opts), stats: z.array(z.looseObject({ ...intervalShape, ...fields })) }),
    ),
  });
}

/** QueueChecksOutcome: one optional integer counter per abort code and SUCCESS; unknown counters kept. */
export const QueueChecksOutcomeSchema = z.looseObject(
  Object.fromEntries(CHECKS_OUTCOME_COUNTERS.map((c) => [c, int.optional()])) as {
    [K in (typeof CHECKS_OUTCOME_COUNTERS)[number]]: z.ZodOptional<z.ZodInt>;
  },
);
export type QueueChecksOutcome = z.infer<typeof QueueChecksOutcomeSchema>;

function build(lenient: boolean) {
  return {
    "time-to-merge": z.array(
      z.looseObject({
        partition_name: lenient ? z.string().optional() : z.string(),
        queues: z.array(
          z.looseObject({
            queue_name: z.string(),
            time_to_merge: z.looseObject({ mean: num.nullable(), median: num.nullable() }),
          }),
        ),
      }),
    ),
    "merge-queue-checks-outcome": z.looseObject({
      groups: z.array(z.looseObject({ ...groupKeys(lenient), stats: QueueChecksOutcomeSchema })),
    }),
    "queues-checks-outcome-count": groupsOf(lenient, { check_outcome: z.string(), count: int }),
    "queues-entered-count": groupsOf(lenient, { entered: int }),
    "queues-merged-count": groupsOf(lenient, { merged: int }, { partitions: true }),
    "average-ci-runtime": groupsOf(lenient, { runtime: num }),
    "average-queue-time": groupsOf(lenient, {
      queue_time: num,
      idle_capacity: num,
      idle_schedule: num,
      idle_freeze: num,
    }),
    "total-queue-time": groupsOf(lenient, { avg_queue_time: num, max_queue_time: num, min_queue_time: num }),
    "queue-size": groupsOf(lenient, { avg_size: num, max_size: int, min_size: int }),
    "running-speculative-checks": groupsOf(
      lenient,
      { avg_running_checks: num, max_running_checks: int, min_running_checks: int },
      { priority: false },
    ),
    "batch-size": groupsOf(lenient, { avg_batch_size: num, max_batch_size: int, min_batch_size: int }),
    "batch-bisection": z.looseObject({
      started: groupsOf(lenient, {
        bisection_count: int,
        avg_depth: num,
        max_depth: int,
        avg_batch_size_before_split: num,
      }).shape.groups,
      completed: groupsOf(lenient, {
        bisection_completed_count: int,
        culprit_found_count: int,
        max_failure_reached_count: int,
      }).shape.groups,
    }),
    branches: z.looseObject({ base_refs: z.array(z.string()) }),
    "checks-retries": groupsOf(lenient, {
      total_retries: int,
      sessions_with_retries: int,
      recovered: int,
      not_recovered: int,
      recovery_rate: num,
      avg_retry_depth: num,
      max_retry_depth: int,
    }),
    "failure-rate": groupsOf(lenient, { total: int, failures: int, failure_rate: num }),
    "queues-pr-exit-reasons": groupsOf(lenient, { exit_reason: z.string(), count: int }),
    queues: z.looseObject({ queue_names: z.array(z.string()) }),
  } as const satisfies Record<StatsEndpointName, z.ZodType>;
}

/** The contract's response schema per endpoint name. */
export const STATS_RESPONSE_SCHEMAS = build(false);
const LENIENT_SCHEMAS: Record<string, z.ZodType> = build(true);

export type StatsResponseByName = {
  [N in StatsEndpointName]: z.infer<(typeof STATS_RESPONSE_SCHEMAS)[N]>;
};

export type TimeToMergeResponse = StatsResponseByName["time-to-merge"];
export type ChecksOutcomeResponse = StatsResponseByName["merge-queue-checks-outcome"];
export type ChecksOutcomeCountResponse = StatsResponseByName["queues-checks-outcome-count"];
export type EnteredCountResponse = StatsResponseByName["queues-entered-count"];
export type MergedCountResponse = StatsResponseByName["queues-merged-count"];
export type AverageCiRuntimeResponse = StatsResponseByName["average-ci-runtime"];
export type AverageQueueTimeResponse = StatsResponseByName["average-queue-time"];
export type TotalQueueTimeResponse = StatsResponseByName["total-queue-time"];
export type QueueSizeResponse = StatsResponseByName["queue-size"];
export type RunningChecksResponse = StatsResponseByName["running-speculative-checks"];
export type BatchSizeResponse = StatsResponseByName["batch-size"];
export type BatchBisectionResponse = StatsResponseByName["batch-bisection"];
export type BranchesResponse = StatsResponseByName["branches"];
export type ChecksRetriesResponse = StatsResponseByName["checks-retries"];
export type FailureRateResponse = StatsResponseByName["failure-rate"];
export type ExitReasonsResponse = StatsResponseByName["queues-pr-exit-reasons"];
export type QueueNamesResponse = StatsResponseByName["queues"];

/** A group of any `{ groups }` endpoint, with the group keys every renderer reads. */
export interface StatsGroup {
  base_ref: string;
  partition_name?: string;
  partition_names?: string[];
  queue_name: string;
  priority_rule_name?: string | null;
  stats: Array<{ start: string; end: string; [field: string]: unknown }>;
  [key: string]: unknown;
}

export interface ParseStatsOptions {
  /** Throw ContractError when the body differs from the contract in the real service's known way. */
  strict?: boolean;
  /** Called once when the body differs from the contract the way the real service does. */
  onMismatch?: (name: StatsEndpointName, message: string) => void;
}

const PREFIX = "response does not match the contract";

function issueMessage(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => formatIssue(i))
    .join("; ");
}

export function isStatsEndpointName(name: string): name is StatsEndpointName {
  return Object.prototype.hasOwnProperty.call(STATS_RESPONSE_SCHEMAS, name);
}

/**
 * Validates a statistics response and returns the body itself (unknown fields and key order kept).
 * A body that only lacks the group keys the real service omits (partition_name, partition_names)
 * is accepted with onMismatch (ContractError with strict); anything else throws ContractError
 * naming the path, e.g. `groups[0].stats[2].entered: Invalid input: expected int, received string`.
 */
export function parseStatsResponse<N extends StatsEndpointName>(
  name: N,
  body: unknown,
  opts: ParseStatsOptions = {},
): StatsResponseByName[N] {
  const schema = STATS_RESPONSE_SCHEMAS[name] as z.ZodType | undefined;
  if (schema === undefined) throw new Error(`unknown statistics endpoint: ${name}`);
  const strictResult = schema.safeParse(body);
  if (strictResult.success) return body as StatsResponseByName[N];
  const message = issueMessage(strictResult.error);
  const lenient = LENIENT_SCHEMAS[name]!.safeParse(body);
  if (!lenient.success) throw new ContractError(`${PREFIX}: ${name}: ${issueMessage(lenient.error)}`);
  if (opts.strict) throw new ContractError(`${PREFIX}: ${name}: ${message}`);
  opts.onMismatch?.(name, message);
  return body as StatsResponseByName[N];
}
