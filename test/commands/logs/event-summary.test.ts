import { describe, expect, it } from "vitest";
import fixtureEvents from "../../../src/api/fixtures/events.json" with { type: "json" };
import { TYPED_EVENT_TYPES } from "../../../src/api/dialects/spec.js";
import {
  eventFamily,
  keyValueSummary,
  SUMMARIZED_TYPES,
  summarizeEvent,
  type SummaryEvent,
} from "../../../src/commands/logs/event-summary.js";

const events = fixtureEvents as unknown as SummaryEvent[];

describe("summarizeEvent", () => {
  it("has a hand-written summary for each of the 38 typed shapes", () => {
    expect([...SUMMARIZED_TYPES].sort()).toEqual([...TYPED_EVENT_TYPES].sort());
  });

  it("summarises every fixture event in one line", () => {
    const out = Object.fromEntries(events.map((e) => [e.type, summarizeEvent(e)]));
    for (const line of Object.values(out)) expect(line).not.toMatch(/\n|undefined|\[object/);
    expect(out).toMatchInlineSnapshot(`
      {
        "action.assign": "assignees +jdoe",
        "action.backport": "backported to release/4.1 as #4833",
        "action.close": "closed: "Closing: superseded by #4830"",
        "action.comment": "commented: "Thanks! This is queued for merge."",
        "action.copy": "copied to release/4.0 as #4834 (with conflicts)",
        "action.delete_head_branch": "deleted head branch feature/faster-login",
        "action.dismiss_reviews": "dismissed reviews by asmith, bchen",
        "action.edit": "marked ready for review",
        "action.label": "labels +ready-to-merge -work-in-progress",
        "action.merge": "merged into main",
        "action.platform_actions": "ran workflow deploy-preview.yml with environment=preview ref=feature/faster-login",
        "action.post_check": "check "Rule: automatic merge": success",
        "action.queue.batch_bisection_end": "bisection done in queue "default": culprit #4821, 3 remaining",
        "action.queue.batch_bisection_start": "batch split: 4 → 2×2, depth 1",
        "action.queue.change": "queue "default" size 5",
        "action.queue.checks.change": "queue "default": 2 checks running",
        "action.queue.checks_end": "checks aborted in queue "default": CHECKS_FAILED",
        "action.queue.checks_not_started": "checks not started in queue "default": The draft pull request could not be created",
        "action.queue.checks_start": "checks started in queue "default" for #4820, #4821: First time checking pull request",
        "action.queue.enter": "entered queue "default"",
        "action.queue.leave": "left queue "default": Pull request checks failed after 58m 38s",
        "action.queue.merged": "merged by queue "default" into main after 55m 31s",
        "action.rebase": "rebased",
        "action.refresh": "refreshed",
        "action.request_reviews": "requested reviews from asmith, team platform",
        "action.requeue": "queue_name=default reason="retried after a flaky failure"",
        "action.review": "review APPROVE by merge-bot",
        "action.squash": "squashed",
        "action.unqueue": "removed from the queue",
        "action.update": "updated with its base branch",
        "ci_insights.job_retried": "job retried by rule "retry flaky network tests": attempt 1/3",
        "ci_issue.created": "ci_issue_id=812 name="flaky: test_login_timeout" job_name="ci / test (node 20)"",
        "ci_issue.linked": "ci_issue_id=812 pull_request_number=4821",
        "ci_issue.merged": "ci_issue_id=812 merged_into_ci_issue_id=790",
        "ci_issue.renamed": "ci_issue_id=812 old_name="flaky: test_login_timeout" new_name="flaky: login times out on CI"",
        "ci_issue.reopened": "ci_issue_id=790",
        "ci_issue.resolved": "ci_issue_id=790 resolved_by=jdoe",
        "ci_issue.unresolved": "ci_issue_id=790",
        "command.dequeue": "dequeue command by jdoe",
        "command.queue": "queue command by jdoe",
        "command.requeue": "author=jdoe comment_id=2481940112 session_id=3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6c",
        "queue.pause.create": "queue paused by jdoe: "incident INC-311: main is broken"",
        "queue.pause.delete": "queue unpaused by release-bot",
        "queue.pause.update": "pause updated by jdoe: "incident INC-311: waiting for the revert"",
        "scheduled_freeze.create": "freeze created by jdoe: "release 4.2 code freeze", 2026-11-21T18:00:00+01:00 → 2026-11-23T08:00:00+01:00",
        "scheduled_freeze.delete": "freeze "release 4.2 code freeze" deleted by release-bot: "release shipped early"",
        "scheduled_freeze.update": "freeze "release 4.2 code freeze" updated by jdoe: now 2026-11-21T18:00:00+01:00 → 2026-11-24T08:00:00+01:00",
      }
    `);
  });

  it("falls back to key=value when the metadata does not match its type", () => {
    const ev = { type: "action.queue.leave", received_at: "2026-11-20T10:00:00Z", metadata: { reason: 3, queue: null } };
    expect(summarizeEvent(ev, false)).toBe("reason=3 queue=null");
    expect(summarizeEvent({ ...ev, metadata: {} })).toBe("");
  });

  it("key=value quotes strings with spaces and names people by login or name", () => {
    expect(keyValueSummary({ a: "x y", b: [1, 2], c: { login: "jdoe", id: 1 }, d: { deep: true }, e: [{ x: 1 }], f: "" })).toBe(
      'a="x y" b=1,2 c=jdoe d={…} e=[1] f=""',
    );
  });

  it("describes uneven batch splits", () => {
    const ev = events.find((e) => e.type === "action.queue.batch_bisection_start")!;
    expect(summarizeEvent({ ...ev, metadata: { ...ev.metadata, batch_size_before_split: 8, number_of_sub_batches: 2 } })).toBe(
      "batch split: 8 → 2×4, depth 1",
    );
    expect(summarizeEvent({ ...ev, metadata: { ...ev.metadata, batch_size_before_split: 7, number_of_sub_batches: 3 } })).toBe(
      "batch split: 7 → 3+2+2, depth 1",
    );
  });

  it("keeps a batch split short and true whatever its counts (20,000,000 sub-batches were a 40 MB line of 1+1+1+1+0+0…)", () => {
    const ev = events.find((e) => e.type === "action.queue.batch_bisection_start")!;
    const at = (size: number, parts: number) =>
      summarizeEvent({ ...ev, metadata: { ...ev.metadata, batch_size_before_split: size, number_of_sub_batches: parts } });
    expect(at(4, 20_000_000)).toBe("batch split: 4 → 20000000 sub-batches, more than its 4 pull requests, depth 1");
    expect(at(1, 2)).toBe("batch split: 1 → 2 sub-batches, more than its 1 pull request, depth 1");
    expect(at(100, 30)).toBe("batch split: 100 → 10×4+20×3, depth 1");
    expect(at(40_000_001, 20_000_000)).toBe("batch split: 40000001 → 1×3+19999999×2, depth 1");
    expect(at(9, 8)).toBe("batch split: 9 → 2+1+1+1+1+1+1+1, depth 1");
  });

  it("groups types into families for colour", () => {
    expect(["action.queue.leave", "action.merge", "ci_issue.created", "queue.pause.create"].map(eventFamily)).toEqual([
      "action.queue",
      "action",
      "ci_issue",
      "queue",
    ]);
  });
});
