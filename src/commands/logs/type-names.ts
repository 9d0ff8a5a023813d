// The TYPE column's short names: on a terminal too narrow for an event type's label, the table shows
// its short name. Each is at most SHORT_TYPE_WIDTH characters and no two types share a label or a
// short name at any column width (test/commands/logs/type-names.test.ts). Output formats other than
// the table always carry the full type.

/** The widest short name: the TYPE column never gets narrower than this. */
export const SHORT_TYPE_WIDTH = 11;

/** Event type → its short name; "q." is action.queue, "ci.aq." CI Insights' auto-quarantine. */
export const SHORT_TYPE_NAMES: Readonly<Record<string, string>> = {
  "action.assign": "assign",
  "action.backport": "backport",
  "action.close": "close",
  "action.comment": "comment",
  "action.copy": "copy",
  "action.delete_head_branch": "del_branch",
  "action.dequeue": "dequeue",
  "action.dismiss_reviews": "dismiss_rv",
  "action.edit": "edit",
  "action.github_actions": "gh_actions",
  "action.label": "label",
  "action.merge": "merge",
  "action.platform_actions": "pf_actions",
  "action.post_check": "post_check",
  "action.queue.batch_bisection_end": "q.bis.end",
  "action.queue.batch_bisection_start": "q.bis.start",
  "action.queue.change": "q.change",
  "action.queue.checks.change": "q.chk.chg",
  "action.queue.checks_end": "q.chk.end",
  "action.queue.checks_not_started": "q.chk.none",
  "action.queue.checks_start": "q.chk.start",
  "action.queue.conflict_deferred": "q.conflict",
  "action.queue.enter": "q.enter",
  "action.queue.leave": "q.leave",
  "action.queue.merged": "q.merged",
  "action.rebase": "rebase",
  "action.refresh": "refresh",
  "action.request_reviews": "request_rv",
  "action.requeue": "requeue",
  "action.review": "review",
  "action.squash": "squash",
  "action.unqueue": "unqueue",
  "action.update": "update",
  "ci_insights.auto_quarantine.disabled": "ci.aq.off",
  "ci_insights.auto_quarantine.enabled": "ci.aq.on",
  "ci_insights.auto_quarantine.modified": "ci.aq.mod",
  "ci_insights.job_retried": "ci.retried",
  "ci_issue.created": "issue.new",
  "ci_issue.linked": "issue.link",
  "ci_issue.merged": "issue.mrgd",
  "ci_issue.renamed": "issue.ren",
  "ci_issue.reopened": "issue.reop",
  "ci_issue.resolved": "issue.res",
  "ci_issue.unresolved": "issue.unres",
  "command.dequeue": "cmd.dequeue",
  "command.queue": "cmd.queue",
  "command.requeue": "cmd.requeue",
  "product.disabled": "prod.off",
  "product.enabled": "prod.on",
  "queue.pause.create": "pause.new",
  "queue.pause.delete": "pause.del",
  "queue.pause.update": "pause.upd",
  "scheduled_freeze.create": "freeze.new",
  "scheduled_freeze.delete": "freeze.del",
  "scheduled_freeze.update": "freeze.upd",
  "test.dequarantined": "test.unquar",
  "test.quarantined": "test.quar",
};

/** The type as the table shows it: without "action.", the family's usual prefix (its colour says it). */
export function typeLabel(type: string): string {
  return type.startsWith("action.") ? type.slice("action.".length) : type;
}

/** A label's dot-suffixes, longest first: "queue.checks.change" → "checks.change", "change". */
function suffixes(label: string): string[] {
  const out: string[] = [];
  for (let i = label.indexOf("."); i !== -1; i = label.indexOf(".", i + 1)) out.push(label.slice(i + 1));
  return out;
}

/**
 * For each known type, the suffixes of its label that name it alone: two parts at least (a last part
 * alone reads as a family or a verb: "queue", "change"), and no other type's label, short name or
 * suffix reads the same.
 */
const DISTINCT_SUFFIXES: ReadonlyMap<string, readonly string[]> = (() => {
  const uses = new Map<string, number>();
  const count = (text: string) => uses.set(text, (uses.get(text) ?? 0) + 1);
  for (const [type, short] of Object.entries(SHORT_TYPE_NAMES)) {
    for (const text of new Set([typeLabel(type), short, ...suffixes(typeLabel(type))])) count(text);
  }
  return new Map(
    Object.keys(SHORT_TYPE_NAMES).map((type) => [type, suffixes(typeLabel(type)).filter((s) => s.includes(".") && uses.get(s) === 1)]),
  );
})();

/**
 * The type's cell in a column `width` wide, from `label` (typeLabel of the type, made safe for the
 * terminal): the label when it fits, else the longest of its suffixes that fits and names it alone
 * ("checks.change"), else its short name. A type with no short name (one a server invents) loses
 * its leading parts, then is cut with "…".
 */
export function fitType(type: string, label: string, width: number): string {
  if (label.length <= width) return label;
  const known = DISTINCT_SUFFIXES.get(type);
  if (known !== undefined) {
    const suffix = known.find((s) => s.length <= width);
    if (suffix !== undefined) return suffix;
    const short = SHORT_TYPE_NAMES[type]!;
    if (short.length <= width) return short;
  }
  let text = label;
  while (text.length > width && text.includes(".")) text = text.slice(text.indexOf(".") + 1);
  return text.length <= width ? text : text.slice(0, Math.max(width - 1, 1)) + "…";
}
