// `mq serve --dialect mergify`: the simulated (contract-shaped) events as the real service sends
// them. Each event is translated once, when its day enters the store: its type renamed where the
// two sides differ, a few fields the service adds derived from what the simulation knows, then
// shaped to the service's own schema (conform.ts), and its `outcome` derived.
import { MERGIFY_EVENT_COMPONENTS } from "../../api/dialects/mergify.generated.js";
import { carryExactId } from "../../api/event-ids.js";
import { MERGIFY_DEQUEUE_CODES } from "../../api/dialects/mergify.generated.js";
import { MERGIFY_METADATA, MERGIFY_SCHEMAS } from "../../api/dialects/mergify-schemas.generated.js";
import { WHOLE_QUEUE } from "../simulate/model.js";
import type { StoredEvent } from "../store.js";
import type { FactView } from "../stats/facts.js";
import { exitReasonOf } from "../texts.js";
import { conform, type ConformContext } from "./conform.js";

type Meta = Record<string, unknown>;

/**
 * Contract types the service does not have, and the service type each is served as. The
 * simulation has no source for the service's own families (tests, products, auto-quarantine), so
 * the contract's CI-issue events, similar in rhythm, stand in for them.
 */
export const SPEC_TO_MERGIFY_TYPE: Readonly<Record<string, string>> = {
  "action.platform_actions": "action.github_actions",
  "action.unqueue": "action.dequeue",
  "action.requeue": "action.queue.conflict_deferred",
  "command.requeue": "command.queue",
  "ci_issue.created": "test.quarantined",
  "ci_issue.resolved": "test.dequarantined",
  "ci_issue.linked": "ci_insights.auto_quarantine.enabled",
  "ci_issue.unresolved": "ci_insights.auto_quarantine.disabled",
  "ci_issue.renamed": "ci_insights.auto_quarantine.modified",
  "ci_issue.merged": "product.enabled",
  "ci_issue.reopened": "product.disabled",
};

const FAILED_CONCLUSIONS = new Set(["failure", "error", "timed_out", "startup_failure"]);
const FAILED_EXITS = new Set([
  "CHECKS_FAILED",
  "CHECKS_TIMEOUT",
  "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
  "PR_UNEXPECTEDLY_FAILED_TO_MERGE",
  "CONFLICT_WITH_BASE_BRANCH",
  "CONFLICT_WITH_PULL_AHEAD",
  "BRANCH_UPDATE_FAILED",
  "DRAFT_PULL_REQUEST_CREATION_FAILED",
]);
const DEQUEUE_CODES: ReadonlySet<string> = new Set(MERGIFY_DEQUEUE_CODES);

type Outcome = "success" | "failure" | "pending" | "neutral";

/** The service derives `outcome` from the type, refined by metadata for a few types. */
const OUTCOME_OF: Readonly<Record<string, (m: Meta) => Outcome>> = {
  "action.queue.enter": () => "pending",
  "action.queue.checks_start": () => "pending",
  "action.queue.checks_not_started": () => "pending",
  "action.queue.conflict_deferred": () => "pending",
  "action.queue.batch_bisection_start": () => "pending",
  "action.queue.merged": () => "success",
  "action.merge": () => "success",
  "action.queue.checks_end": (m) => {
    const spec = m.speculative_check_pull_request as Meta | undefined;
    return m.aborted === true || FAILED_CONCLUSIONS.has(String(spec?.checks_conclusion)) ? "failure" : "success";
  },
  "action.queue.leave": (m) =>
    m.merged === true ? "success" : typeof m.dequeue_code === "string" && FAILED_EXITS.has(m.dequeue_code) ? "failure" : "neutral",
  "action.queue.batch_bisection_end": (m) => (m.culprit_found === true ? "failure" : "success"),
  "action.post_check": (m) =>
    m.conclusion === "success" ? "success" : FAILED_CONCLUSIONS.has(String(m.conclusion)) ? "failure" : "neutral",
  "ci_insights.job_retried": () => "failure",
  "test.quarantined": () => "failure",
  "test.dequarantined": () => "success",
};

export function outcomeOf(type: string, metadata: Meta): Outcome {
  return OUTCOME_OF[type]?.(metadata) ?? "neutral";
}

/** A uuid that depends only on the event id and a salt, so a history is served identically each time. */
function uuidOf(id: number, salt: number): string {
  let h = (BigInt(id) * 0x9e3779b97f4a7c15n + BigInt(salt) * 0xbf58476d1ce4e5b9n) & ((1n << 128n) - 1n);
  h ^= h >> 61n;
  const hex = h.toString(16).padStart(32, "0").slice(-32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function shaOf(id: number): string {
  return (uuidOf(id, 7) + uuidOf(id, 8)).replace(/-/g, "").slice(0, 40);
}

const actor = (id: number): Meta => ({ type: "application", id: uuidOf(id, 3), name: "CI Insights" });

/** What the service adds or names differently, derived from the contract-shaped metadata. */
const DERIVE: Readonly<Record<string, (m: Meta, e: StoredEvent) => Meta>> = {
  "action.queue.checks_start": (m) => batchFields(m),
  "action.queue.checks_end": (m) => batchFields(m),
  "action.queue.leave": (m) => {
    const checks = Array.isArray(m.checks) ? (m.checks as Meta[]) : [];
    const exit = exitReasonOf(m.merged, m.reason);
    return {
      ...m,
      unsuccessful_checks: checks.filter(
        (c) => c.state !== "success" && c.state !== "neutral" && c.state !== "skipped" && c.state !== "pending",
      ),
      dequeue_code: m.merged === true ? "PR_MERGED" : DEQUEUE_CODES.has(exit) ? exit : null,
      batch_id: null,
      scopes: null,
      all_scopes: null,
    };
  },
  "action.queue.merged": (m, e) => ({ ...m, merge_commit_sha: shaOf(e.id) }),
  // the service's events name no partition: they count the whole queue, every partition together
  "action.queue.change": (m) => (typeof m[WHOLE_QUEUE as never] === "number" ? { ...m, size: m[WHOLE_QUEUE as never] } : m),
  "action.queue.checks.change": (m) =>
    typeof m[WHOLE_QUEUE as never] === "number" ? { ...m, running_checks: m[WHOLE_QUEUE as never] } : m,
  "action.queue.batch_bisection_start": (m) => ({ ...m, batch_id: m.train_car_id ?? null }),
  "action.queue.batch_bisection_end": (m) => ({
    ...m,
    batch_id: m.train_car_id ?? null,
    confirmed_culprit_pr_numbers: m.culprit_pr_numbers ?? [],
    // a bisection that gave up dropped the pull requests it could not clear
    dropped_unverified_pr_numbers:
      m.max_failure_resolution_reached === true && Array.isArray(m.original_batch_pr_numbers) && Array.isArray(m.remaining_pr_numbers)
        ? (m.original_batch_pr_numbers as unknown[]).filter((n) => !(m.remaining_pr_numbers as unknown[]).includes(n))
        : [],
  }),
  "action.queue.conflict_deferred": (_m, e) => ({
    branch: e.base_ref ?? "main",
    queue_name: "default",
    priority_rule_name: null,
    queued_at: e.received_at,
    reason: "Deferred: it conflicts with a pull request ahead in the queue",
    session_id: uuidOf(e.id, 1),
    blocking_pull_request_numbers: [],
  }),
  "ci_insights.job_retried": (m, e) => ({
    ...m,
    condition_matches: (Array.isArray(m.condition_matches) ? (m.condition_matches as Meta[]) : []).map((c, i) => ({
      attribute: typeof c.job_name === "string" ? c.job_name : "job",
      matched_value: typeof c.pattern === "string" ? c.pattern : "",
      source: "job_log",
      matched_line_number: 1 + (((e.id >> 10) + i) % 500),
    })),
    outcome: "retried",
  }),
  "test.quarantined": (m, e) => ({
    quarantine_id: uuidOf(e.id, 4),
    test_id: uuidOf(Number(m.ci_issue_id ?? e.id), 5),
    test_name: String(m.name ?? "test"),
    source: "auto",
    reason: "Flaky on the default branch",
    branch: e.base_ref,
    quarantined_at: e.received_at,
    health_status_at_event: "flaky",
    quarantined_by: null,
  }),
  "test.dequarantined": (m, e) => ({
    quarantine_id: uuidOf(e.id, 4),
    test_id: uuidOf(Number(m.ci_issue_id ?? e.id), 5),
    test_name: String(m.name ?? "test"),
    source: "auto",
    original_quarantine: { source: "auto", reason: "Flaky on the default branch", branch: e.base_ref, created_at: e.received_at },
    health_status_at_event: "healthy",
    dequarantined_at: e.received_at,
    dequarantined_by: null,
  }),
  "ci_insights.auto_quarantine.enabled": (_m, e) => ({ enabled_by: actor(e.id), enabled_at: e.received_at }),
  "ci_insights.auto_quarantine.disabled": (_m, e) => ({ disabled_by: actor(e.id), disabled_at: e.received_at }),
  "ci_insights.auto_quarantine.modified": (_m, e) => ({
    updated_by: actor(e.id),
    updated_at: e.received_at,
    auto_quarantine_config_attributes_before: { ignore_broken_on_default_branch: false },
    auto_quarantine_config_attributes_after: { ignore_broken_on_default_branch: true },
  }),
  "product.enabled": (_m, e) => ({ product: "ci_insights", enabled_by: actor(e.id), enabled_at: e.received_at }),
  "product.disabled": (_m, e) => ({ product: "ci_insights", disabled_by: actor(e.id), disabled_at: e.received_at }),
};

/** checks_start/checks_end: the service nests the batch's pull requests and names the batch. */
function batchFields(m: Meta): Meta {
  const spec = (m.speculative_check_pull_request ?? {}) as Meta;
  const car = typeof m.train_car_id === "string" ? m.train_car_id : null;
  return {
    ...m,
    speculative_check_pull_request: { ...spec, pull_request_numbers: m.pull_request_numbers ?? [] },
    batch_id: car,
    batch_name: car !== null && typeof spec.number === "number" ? `merge-queue #${spec.number}` : null,
    scopes: [],
    parent_batch_ids: [],
    previous_batch_id: null,
    previous_batch_name: null,
    all_scopes: false,
  };
}

/**
 * What the statistics read of these events, against the simulation's own (stats/facts.ts): the
 * service's queue events name no partition (its schema has no partition_name or
 * partition_names), so every group is "__default__"; every other field the statistics read is
 * kept as is. test/server/stats-facts.test.ts checks this against toMergifyEvent.
 */
export const MERGIFY_FACT_VIEW: FactView = { partitions: false };

/** One event in the service's shape (a new object; the contract-shaped one is left alone). */
export function toMergifyEvent(e: StoredEvent): StoredEvent {
  const type = SPEC_TO_MERGIFY_TYPE[e.type] ?? e.type;
  const schema = MERGIFY_METADATA[type];
  const raw = (typeof e.metadata === "object" && e.metadata !== null ? e.metadata : {}) as Meta;
  let metadata: Meta = raw;
  if (schema !== undefined) {
    let salt = 10;
    const c: ConformContext = { components: MERGIFY_SCHEMAS, instant: e.received_at, uuid: () => uuidOf(e.id, salt++) };
    const derived = DERIVE[type]?.(raw, e) ?? raw;
    metadata = conform(derived, schema, c) as Meta;
  }
  const ev: StoredEvent = {
    id: e.id,
    received_at: e.received_at,
    trigger: e.trigger,
    repository: e.repository,
    pull_request: e.pull_request,
    base_ref: e.base_ref,
    outcome: typeof e.outcome === "string" && MERGIFY_EVENT_COMPONENTS[type] === undefined ? e.outcome : outcomeOf(type, metadata),
    type,
    metadata,
  } as StoredEvent;
  return carryExactId(e, ev);
}
