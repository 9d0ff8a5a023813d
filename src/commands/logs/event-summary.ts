// One line per event for the table: what happened, in words, for each of the 38 typed metadata
// shapes (docs/api.md §6). Types without a documented shape, and typed events whose metadata differs from
// the contract, fall back to a compact key=value list so that nothing is hidden or misread.
import type { Actor, EventMetadataByType, ScheduledFreezeAttributes, TypedEventType } from "../../api/schema/events.js";
import { formatDuration } from "../../output/format.js";

/** The envelope fields a summary needs. */
export interface SummaryEvent {
  type: string;
  received_at: string;
  metadata: Record<string, unknown>;
}

type Summarizer<T extends TypedEventType> = (m: EventMetadataByType[T], ev: SummaryEvent) => string;

const MAX_TEXT = 60;

/** First line of free text, quoted, shortened. */
function quote(text: string | null | undefined): string {
  if (text === null || text === undefined) return '""';
  // the text up to its first line break (a CR before it goes with the trim)
  const nl = text.indexOf("\n");
  const line = (nl < 0 ? text : text.slice(0, nl)).trim();
  const short = line.length > MAX_TEXT ? line.slice(0, MAX_TEXT - 1) + "…" : line;
  return JSON.stringify(short);
}

function list(items: readonly (string | number)[], prefix = ""): string {
  return items.map((i) => `${prefix}${i}`).join(", ");
}

function prs(numbers: readonly number[]): string {
  return numbers.length === 0 ? "none" : list(numbers, "#");
}

function actor(a: Actor): string {
  return a.name;
}

/** `queue "default"`, with the partition when partitions are in use. */
function queue(name: string, partition?: string | null): string {
  return partition && partition !== "__default__" ? `queue "${name}" (partition ${partition})` : `queue "${name}"`;
}

/** Time from `from` to the event, or "" when either end is unreadable. */
function elapsed(from: string, ev: SummaryEvent): string {
  const seconds = (Date.parse(ev.received_at) - Date.parse(from)) / 1000;
  return Number.isFinite(seconds) && seconds >= 0 ? ` after ${formatDuration(seconds)}` : "";
}

/** the most sub-batches listed one by one (`4+3+3`); more are counted by size (`10×4+20×3`) */
const LISTED_SUB_BATCHES = 8;

/**
 * Sizes of sub-batches: `2×4` when even, `4+3` otherwise, `10×4+20×3` for many: a text of bounded
 * length whatever the counts (20,000,000 sub-batches made a 40 MB line). More sub-batches than
 * pull requests cannot be: said so, not shown as empty sub-batches.
 */
function split(size: number, parts: number): string {
  if (parts <= 0) return String(size);
  if (parts > size) return `${parts} sub-batches, more than its ${size} pull request${size === 1 ? "" : "s"}`;
  if (size % parts === 0) return `${parts}×${size / parts}`;
  const base = Math.floor(size / parts);
  const extra = size % parts;
  if (parts > LISTED_SUB_BATCHES) return `${extra}×${base + 1}+${parts - extra}×${base}`;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0)).join("+");
}

function freezeWindow(a: ScheduledFreezeAttributes): string {
  return a.end ? `${a.start} → ${a.end}` : `from ${a.start}`;
}

function addedRemoved(noun: string, m: { added: string[]; removed: string[] }): string {
  const parts = [...m.added.map((x) => `+${x}`), ...m.removed.map((x) => `-${x}`)];
  return parts.length ? `${noun} ${parts.join(" ")}` : `${noun} unchanged`;
}

const SUMMARIES: { [T in TypedEventType]: Summarizer<T> } = {
  "action.assign": (m) => addedRemoved("assignees", m),
  "action.label": (m) => addedRemoved("labels", m),
  "action.backport": (m) => `backported to ${m.to} as #${m.pull_request_number}${m.conflicts ? " (with conflicts)" : ""}`,
  "action.copy": (m) => `copied to ${m.to} as #${m.pull_request_number}${m.conflicts ? " (with conflicts)" : ""}`,
  "action.close": (m) => `closed: ${quote(m.message)}`,
  "action.comment": (m) => `commented: ${quote(m.message)}`,
  "action.delete_head_branch": (m) => `deleted head branch ${m.branch}`,
  "action.dismiss_reviews": (m) => (m.users.length ? `dismissed reviews by ${list(m.users)}` : "dismissed reviews"),
  "action.edit": (m) => (m.draft ? "converted to draft" : "marked ready for review"),
  "action.platform_actions": (m) => {
    const inputs = Object.entries(m.inputs).map(([k, v]) => `${k}=${scalar(v)}`);
    return `ran workflow ${m.workflow}${inputs.length ? ` with ${inputs.join(" ")}` : ""}`;
  },
  "action.merge": (m) => `merged into ${m.branch}`,
  // the real service sends a null conclusion for a check still running
  "action.post_check": (m) => `check ${quote(m.title)}: ${m.conclusion ?? "no conclusion yet"}`,
  "action.queue.batch_bisection_end": (m) => {
    const outcome = m.culprit_found ? `culprit ${prs(m.culprit_pr_numbers)}` : "no culprit found";
    const rest = m.remaining_pr_numbers.length ? `, ${m.remaining_pr_numbers.length} remaining` : "";
    const max = m.max_failure_resolution_reached ? ", max failure resolution reached" : "";
    return `bisection done in ${queue(m.queue_name, m.partition_name)}: ${outcome}${rest}${max}`;
  },
  "action.queue.batch_bisection_start": (m) =>
    `batch split: ${m.batch_size_before_split} → ${split(m.batch_size_before_split, m.number_of_sub_batches)}, depth ${m.bisection_depth}`,
  "action.queue.change": (m) => `${queue(m.queue_name, m.partition_name)} size ${m.size}`,
  "action.queue.checks.change": (m) =>
    `${queue(m.queue_name, m.partition_name)}: ${m.running_checks} check${m.running_checks === 1 ? "" : "s"} running`,
  "action.queue.checks_end": (m, ev) => {
    const where = queue(m.queue_name, m.partition_name);
    const retry = m.retry_attempt !== null ? `, retry ${m.retry_attempt}${m.max_retries !== null ? `/${m.max_retries}` : ""}` : "";
    if (m.aborted) {
      const why = m.abort_code ?? m.abort_reason ?? "unknown reason";
      const status = m.abort_status === "REEMBARKED" ? ", requeued" : "";
      return `checks aborted in ${where}: ${why}${status}${retry}`;
    }
    return `checks ended in ${where}: ${m.speculative_check_pull_request.checks_conclusion}${elapsed(m.queued_at, ev)}${retry}`;
  },
  "action.queue.checks_not_started": (m) => `checks not started in ${queue(m.queue_name, m.partition_name)}: ${m.reason}`,
  "action.queue.checks_start": (m) => {
    // the contract lists the batch at the top; the real service nests it in the speculative check
    const numbers =
      m.pull_request_numbers ?? (m.speculative_check_pull_request as { pull_request_numbers?: number[] }).pull_request_numbers ?? [];
    const batch = numbers.length > 1 ? ` for ${prs(numbers)}` : "";
    return `checks started in ${queue(m.queue_name, m.partition_name)}${batch}: ${m.start_reason}`;
  },
  "action.queue.enter": (m) =>
    `entered ${queue(m.queue_name, m.partition_name)}${m.priority_rule_name ? ` with priority ${m.priority_rule_name}` : ""}`,
  "action.queue.leave": (m, ev) =>
    `left ${queue(m.queue_name, m.partition_name)}: ${m.merged ? "merged" : m.reason}${elapsed(m.queued_at, ev)}`,
  "action.queue.merged": (m, ev) => {
    const parts = (m.partition_names ?? []).filter((p) => p !== "__default__");
    const where = parts.length ? `queue "${m.queue_name}" (partition ${parts.join(", ")})` : `queue "${m.queue_name}"`;
    return `merged by ${where} into ${m.branch}${elapsed(m.queued_at, ev)}`;
  },
  "action.rebase": () => "rebased",
  "action.refresh": () => "refreshed",
  "action.squash": () => "squashed",
  "action.unqueue": () => "removed from the queue",
  "action.update": () => "updated with its base branch",
  "action.request_reviews": (m) => {
    const who = [...m.reviewers, ...m.team_reviewers.map((t) => `team ${t}`)];
    return who.length ? `requested reviews from ${list(who)}` : "requested reviews";
  },
  "action.review": (m) => `review ${m.review_type}${m.reviewer ? ` by ${m.reviewer}` : ""}${m.message ? `: ${quote(m.message)}` : ""}`,
  "ci_insights.job_retried": (m) => `${m.retry_mode} retried by rule ${quote(m.rule_name)}: attempt ${m.retry_attempt}/${m.max_retry}`,
  "command.dequeue": (m) => `dequeue command by ${m.author.login}`,
  "command.queue": (m) => `queue command by ${m.author.login}`,
  "queue.pause.create": (m) => `queue paused by ${actor(m.created_by)}: ${quote(m.reason)}`,
  "queue.pause.update": (m) => `pause updated by ${actor(m.updated_by)}: ${quote(m.reason)}`,
  "queue.pause.delete": (m) => `queue unpaused by ${actor(m.deleted_by)}`,
  "scheduled_freeze.create": (m) =>
    `freeze created by ${actor(m.created_by)}: ${quote(m.scheduled_freeze_attributes.reason)}, ${freezeWindow(m.scheduled_freeze_attributes)}`,
  "scheduled_freeze.update": (m) => {
    const before = m.scheduled_freeze_attributes_before;
    const after = m.scheduled_freeze_attributes_after;
    const changes: string[] = [];
    if (before.reason !== after.reason) changes.push(`renamed from ${quote(before.reason)}`);
    if (before.start !== after.start || before.end !== after.end) changes.push(`now ${freezeWindow(after)}`);
    return `freeze ${quote(after.reason)} updated by ${actor(m.updated_by)}${changes.length ? `: ${changes.join(", ")}` : ""}`;
  },
  "scheduled_freeze.delete": (m) =>
    `freeze ${quote(m.scheduled_freeze_attributes.reason)} deleted by ${actor(m.deleted_by)}: ${quote(m.reason)}`,
};

/* eslint-disable @typescript-eslint/no-explicit-any -- shapes of the real service (its OpenAPI), checked before a summary is trusted */
/** The real service's types the contract does not have (src/api/dialects/mergify.ts). */
const SERVICE_SUMMARIES: Record<string, (m: any, ev: SummaryEvent) => string> = {
  "action.github_actions": (m) => SUMMARIES["action.platform_actions"](m, { type: "", received_at: "", metadata: m }),
  "action.dequeue": () => "removed from the queue",
  "action.queue.conflict_deferred": (m) =>
    `deferred in ${queue(m.queue_name)}: ${m.reason}${m.blocking_pull_request_numbers.length ? ` (blocked by ${prs(m.blocking_pull_request_numbers)})` : ""}`,
  "ci_insights.auto_quarantine.enabled": (m) => `auto-quarantine enabled by ${actor(m.enabled_by)}`,
  "ci_insights.auto_quarantine.disabled": (m) => `auto-quarantine disabled by ${actor(m.disabled_by)}`,
  "ci_insights.auto_quarantine.modified": (m) => `auto-quarantine settings changed by ${actor(m.updated_by)}`,
  "product.enabled": (m) => `${m.product} enabled by ${actor(m.enabled_by)}`,
  "product.disabled": (m) => `${m.product} disabled by ${actor(m.disabled_by)}`,
  "test.quarantined": (m) => `test ${quote(m.test_name)} quarantined (${m.source}, ${m.health_status_at_event}): ${quote(m.reason)}`,
  "test.dequarantined": (m) => `test ${quote(m.test_name)} released from quarantine (${m.source}, ${m.health_status_at_event})`,
};
/* eslint-enable @typescript-eslint/no-explicit-any */

function scalar(v: unknown): string {
  if (typeof v === "string") return /[\s"=]/.test(v) || v === "" ? JSON.stringify(v) : v;
  if (v === null || typeof v !== "object") return String(v);
  if (Array.isArray(v)) return v.every((x) => x === null || typeof x !== "object") ? v.map(scalar).join(",") : `[${v.length}]`;
  const o = v as Record<string, unknown>;
  // people and bots read better by name than as an object
  for (const key of ["login", "name"]) if (typeof o[key] === "string") return scalar(o[key]);
  return "{…}";
}

/** `key=value` pairs in the order sent: the summary for types without a documented shape. */
export function keyValueSummary(metadata: Record<string, unknown>): string {
  const pairs = Object.entries(metadata).map(([k, v]) => `${k}=${scalar(v)}`);
  return pairs.join(" ");
}

/**
 * The summary of one event. `trusted` says the metadata matched the contract for its type; when
 * it did not (outside --strict) the hand-written summary could misread it, so key=value is used.
 */
export function summarizeEvent(ev: SummaryEvent, trusted = true): string {
  const fn = (SUMMARIES as Record<string, ((m: unknown, ev: SummaryEvent) => string) | undefined>)[ev.type] ?? SERVICE_SUMMARIES[ev.type];
  if (fn && trusted) {
    try {
      const text = fn(ev.metadata, ev);
      // a field the shape promised was missing: the sentence would mislead, key=value does not
      if (!text.includes("undefined") || !/\bundefined\b/.test(text)) return text;
    } catch {
      // a shape the summary did not expect: say what was sent rather than fail the whole table
    }
  }
  return keyValueSummary(ev.metadata);
}

/** The family a type belongs to, for colouring: the first segment, `action.queue` kept apart. */
export function eventFamily(type: string): string {
  if (type.startsWith("action.queue.")) return "action.queue";
  const dot = type.indexOf(".");
  return dot < 0 ? type : type.slice(0, dot);
}

export const SUMMARIZED_TYPES: readonly string[] = Object.keys(SUMMARIES);
/** types of the real service with a sentence of their own */
export const SERVICE_SUMMARIZED_TYPES: readonly string[] = Object.keys(SERVICE_SUMMARIES);
