// The event types of the contract (docs/api.md §4.1.1), as plain data: the CLI tree, --type validation
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
  (t): t is Exclude<EventType, (typeof UNTYPED_EVENT_TYPES)[number]> =>
    !(UNTYPED_EVENT_TYPES as readonly string[]).includes(t),
);

/** Family globs (`action.queue.*`, `ci_issue.*`, ...) offered for --type and completion. */
export const EVENT_TYPE_FAMILIES: readonly string[] = (() => {
  const families = new Set<string>();
  for (const t of EVENT_TYPES) {
    const parts = t.split(".");
    for (let i = 1; i < parts.length; i++) families.add(parts.slice(0, i).join(".") + ".*");
  }
  return [...families].sort();
})();

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
