// The server's definition of every statistics endpoint, by the name of its record in
// src/stats/endpoints.ts (the server's route table is built from the records). A definition says
// which events it reads and how (`add`), which of the simulation's facts and how (`facts`), how
// values merge, and how its answer is rendered: adding an endpoint is one definition in the file
// of its family, listed here. time-to-merge (an instant, not a window) is answered by timeToMerge.
//
// The order is the order of a pass: endpoints fed by the same event see it in this order.
import type { AnySpec } from "../stats/engine.js";
import { BATCH_BISECTION, BATCH_SIZE, SKIP_INTERMEDIATE_RESULTS } from "./batches.js";
import { AVERAGE_CI_RUNTIME, CHECKS_RETRIES, FAILURE_RATE, MERGE_QUEUE_CHECKS_OUTCOME, QUEUES_CHECKS_OUTCOME_COUNT } from "./checks.js";
import { QUEUES_ENTERED_COUNT, QUEUES_MERGED_COUNT } from "./counts.js";
import { QUEUE_SIZE, RUNNING_SPECULATIVE_CHECKS } from "./levels.js";
import { BRANCHES, QUEUES } from "./names.js";
import { AVERAGE_QUEUE_TIME, IDLE_QUEUE_TIME, QUEUES_PR_EXIT_REASONS, TOTAL_QUEUE_TIME } from "./sessions.js";

export { TIME_TO_MERGE, timeToMerge } from "./sessions.js";

export const STATS_SPECS: Readonly<Record<string, AnySpec>> = {
  "idle-queue-time": IDLE_QUEUE_TIME,
  "skip-intermediate-results": SKIP_INTERMEDIATE_RESULTS,
  "queues-entered-count": QUEUES_ENTERED_COUNT,
  "queues-merged-count": QUEUES_MERGED_COUNT,
  "failure-rate": FAILURE_RATE,
  "queues-checks-outcome-count": QUEUES_CHECKS_OUTCOME_COUNT,
  "merge-queue-checks-outcome": MERGE_QUEUE_CHECKS_OUTCOME,
  "queues-pr-exit-reasons": QUEUES_PR_EXIT_REASONS,
  "average-ci-runtime": AVERAGE_CI_RUNTIME,
  "average-queue-time": AVERAGE_QUEUE_TIME,
  "total-queue-time": TOTAL_QUEUE_TIME,
  "queue-size": QUEUE_SIZE,
  "running-speculative-checks": RUNNING_SPECULATIVE_CHECKS,
  "batch-size": BATCH_SIZE,
  "batch-bisection": BATCH_BISECTION,
  "checks-retries": CHECKS_RETRIES,
  branches: BRANCHES,
  queues: QUEUES,
};
