// The sentences of the abort codes and the exit reason of a leave event, shared by the bundled
// server (the simulation writes the sentences, the statistics map them back) and by mq insights
// (which reads the same events from any server): plain data below the commands, not the server's.
// Mirrors the contract's abort codes (./abort-codes.ts).

export const ABORT_CODE_TEXT: Readonly<Record<string, string>> = {
  PR_DEQUEUED: "Pull request dequeued",
  PR_DEQUEUED_FROM_PARTITION: "Pull request dequeued from a partition",
  PR_MANUALLY_DEQUEUED: "Pull request dequeued by a dequeue command",
  PR_MANUALLY_MERGED: "Pull request merged manually",
  PR_AHEAD_DEQUEUED: "A pull request ahead in the queue was dequeued",
  BATCH_AHEAD_FAILED: "A pull request ahead in the queue failed to get merged",
  PR_WITH_HIGHER_PRIORITY_QUEUED: "A pull request with a higher priority was queued",
  SCHEDULED_FREEZE_STATUS_CHANGED: "The batch was split because a scheduled freeze changed the freeze status of its pull requests",
  SPECULATIVE_CHECK_NUMBER_REDUCED: "The number of speculative checks was reduced in the queue rules",
  CHECKS_TIMEOUT: "Checks timed out",
  CHECKS_FAILED: "Checks failed",
  CHECKS_RETRIED: "Checks failed and are being retried",
  QUEUE_RULE_MISSING: "Queue rules are missing because of a configuration change",
  CONFIGURATION_CHANGED: "The configuration changed",
  BASE_BRANCH_MISSING: "The base branch no longer exists",
  BASE_BRANCH_CHANGED: "The pull request base branch changed",
  PR_UNEXPECTEDLY_FAILED_TO_MERGE: "The pull request unexpectedly failed to merge",
  BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS: "The maximum batch failure resolution attempts were reached",
  PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE: "Checks were interrupted because the merge queue is paused on the repository",
  CONFLICT_WITH_BASE_BRANCH: "The pull request conflicts with the base branch",
  CONFLICT_WITH_PULL_AHEAD: "The pull request conflicts with at least one pull request ahead in the queue",
  BRANCH_UPDATE_FAILED: "The pull request cannot be updated for security reasons",
  DRAFT_PULL_REQUEST_CHANGED: "New commits were added to the draft pull request by someone else",
  PULL_REQUEST_UPDATED: "The pull request was unexpectedly updated",
  MERGE_QUEUE_RESET: "The merge queue was reset",
  INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS: "The pull request cannot be checked because of an incompatibility with branch protections",
  DRAFT_PULL_REQUEST_CREATION_FAILED: "The draft pull request cannot be created",
  DRAFT_PULL_REQUEST_CREATION_BRANCH_NOT_INDEXED: "The draft pull request cannot be created because the branch is not indexed yet",
  UNPROCESSABLE_PULL_REQUEST: "The pull request could not be processed",
  STACK_PREDECESSOR_DEQUEUED: "The stack predecessor of the pull request was dequeued",
  INTERMEDIATE_RESULTS_SKIPPED: "Intermediate results were skipped during batch promotion",
};

export const MERGED_REASON = "Pull request merged by the merge queue";

const CODE_BY_TEXT: ReadonlyMap<string, string> = new Map(Object.entries(ABORT_CODE_TEXT).map(([code, text]) => [text, code]));

/**
 * The exit reason of one `action.queue.leave`: SUCCESS when merged, the abort code whose sentence
 * is the reason, the reason itself when it is already a code, and otherwise the raw reason (a
 * replayed log from the real service keeps its own words rather than being lumped together).
 */
export function exitReasonOf(merged: unknown, reason: unknown): string {
  if (merged === true) return "SUCCESS";
  const text = typeof reason === "string" ? reason : "";
  const code = CODE_BY_TEXT.get(text);
  if (code) return code;
  if (/^[A-Z][A-Z_]+$/.test(text)) return text;
  return text === "" ? "UNKNOWN" : text;
}
