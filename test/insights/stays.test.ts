import { describe, expect, it } from "vitest";
import type { LogEvent } from "../../src/api/events.js";
import { StayBuilder, staysOf, stayTimes } from "../../src/insights/stays.js";
import { readField } from "../../src/insights/dialects.js";
import { distribution, nearestRank, WindowAccumulator } from "../../src/insights/figures.js";
import { stayRecord } from "../../src/insights/records.js";
import { judgeInsights, parseInsightsFailIf } from "../../src/insights/gate.js";
import { formatVerdict } from "../../src/output/gate.js";
import { newestFirst, prSevenEvents } from "./fixture.js";

const UNTIL = Date.parse("2026-11-20T12:00:00Z");
const records = (events: LogEvent[], direction?: "newest-first" | "oldest-first") =>
  staysOf(events, { direction })
    .map((s) => stayRecord(s, UNTIL))
    .sort((a, b) => String(a.entered_at).localeCompare(String(b.entered_at)) || Number(a.pull_request) - Number(b.pull_request));

describe("queue stays from the log", () => {
  it("rebuilds the requeued, batched pull request of the fixture (worked out by hand)", () => {
    const stays = records(newestFirst(prSevenEvents("contract"))).filter((r) => r.pull_request === 7);
    expect(stays).toEqual([
      {
        repository: "acme/web",
        pull_request: 7,
        base_ref: "main",
        queue_name: "default",
        partition_name: "__default__",
        priority_rule_name: null,
        session_id: "11111111-1111-4111-8111-111111111111",
        entered_at: "2026-11-20T10:00:00Z",
        left_at: "2026-11-20T10:40:23Z",
        merged_at: null,
        outcome: "failed",
        reason: "CHECKS_FAILED",
        // 10:00:00 -> 10:40:23; first checks at 10:05:00; runs 10:05-10:25 and 10:25:15-10:40:15;
        // waiting is the rest of the stay: 5m before the first run, 15s between them, 8s after
        queue_time: 2423,
        time_to_merge: null,
        wait_time: 300 + 15 + 8,
        idle_capacity: 300 + 15 + 8,
        idle_schedule: 0,
        idle_freeze: 0,
        ci_time: 1200 + 900,
        check_runs: 2,
        retries: 0,
        batch_size: 3,
        bisections: 1,
        began_before_window: false,
      },
      {
        repository: "acme/web",
        pull_request: 7,
        base_ref: "main",
        queue_name: "default",
        partition_name: "__default__",
        priority_rule_name: null,
        session_id: "22222222-2222-4222-8222-222222222222",
        entered_at: "2026-11-20T11:00:00Z",
        left_at: "2026-11-20T11:22:16Z",
        merged_at: "2026-11-20T11:22:15Z",
        outcome: "merged",
        reason: "SUCCESS",
        // 11:00:00 -> 11:22:16 (merged 11:22:15); runs 11:02-11:12 and 11:12:10-11:22:10, the second a
        // retry; waiting 2m before the first, 10s between them, 6s after
        queue_time: 1336,
        time_to_merge: 1335,
        wait_time: 120 + 10 + 6,
        idle_capacity: 120 + 10 + 6,
        idle_schedule: 0,
        idle_freeze: 0,
        ci_time: 600 + 600,
        check_runs: 2,
        retries: 1,
        batch_size: 1,
        bisections: 0,
        began_before_window: false,
      },
    ]);
  });

  it("gives the same stays oldest first and newest first", () => {
    const events = prSevenEvents("contract");
    expect(records(events, "oldest-first")).toEqual(records(newestFirst(events)));
  });

  it("reads the real service's shapes to the same stays (no partition names)", () => {
    const contract = records(newestFirst(prSevenEvents("contract"))).map((r) => ({ ...r, partition_name: null }));
    expect(records(newestFirst(prSevenEvents("mergify")))).toEqual(contract);
  });

  it("a stay begun before the window keeps its entry time from queued_at; one not ended is open", () => {
    const events = newestFirst(prSevenEvents("contract"));
    // the window starts at 10:30: the first stay's enter and first run are outside it
    const late = events.filter((e) => Date.parse(e.received_at) >= Date.parse("2026-11-20T10:30:00Z"));
    const first = records(late).find((r) => r.session_id?.toString().startsWith("1111"))!;
    expect(first).toMatchObject({ entered_at: "2026-11-20T10:00:00Z", began_before_window: true, queue_time: 2423, outcome: "failed" });
    // the window ends at 11:05: the second stay has entered and started its checks only
    const early = events.filter((e) => Date.parse(e.received_at) < Date.parse("2026-11-20T11:05:00Z"));
    const open = staysOf(early).find((s) => s.sessionId?.startsWith("2222"))!;
    expect(open.outcome).toBe("open");
    expect(stayTimes(open, Date.parse("2026-11-20T11:05:00Z"))).toMatchObject({ queueTime: 300, waitTime: 120, ciTime: 180 });
  });

  it("a run that goes on after the stay left counts only while the pull request was in the queue", () => {
    // seen in the bundled data: dequeued at 10:01:30 while its checks ran until 10:26:00
    const meta = { queue_name: "default", branch: "main", queued_at: "2026-11-20T10:00:00Z", session_id: "s" };
    const spec = (ended: string | null) => ({
      checks_started_at: "2026-11-20T10:00:00Z",
      checks_ended_at: ended,
      checks_conclusion: ended ? "failure" : "pending",
    });
    const ev = (id: number, t: string, type: string, m: Record<string, unknown>): LogEvent => ({
      id,
      received_at: t,
      type,
      pull_request: 3,
      base_ref: "main",
      metadata: { ...meta, ...m },
    });
    const stays = staysOf([
      ev(4, "2026-11-20T10:26:00Z", "action.queue.checks_end", {
        train_car_id: "c",
        speculative_check_pull_request: spec("2026-11-20T10:26:00Z"),
      }),
      ev(3, "2026-11-20T10:01:30Z", "action.queue.leave", { merged: false, reason: "Pull request dequeued by a dequeue command" }),
      ev(2, "2026-11-20T10:00:00Z", "action.queue.checks_start", { train_car_id: "c", speculative_check_pull_request: spec(null) }),
      ev(1, "2026-11-20T10:00:00Z", "action.queue.enter", {}),
    ]);
    expect(stays).toHaveLength(1);
    expect(stayRecord(stays[0]!, UNTIL)).toMatchObject({
      outcome: "dequeued",
      reason: "PR_MANUALLY_DEQUEUED",
      queue_time: 90,
      ci_time: 90,
      check_runs: 1,
    });
  });

  it("ignores what it cannot read instead of failing: unknown types, wrong types, missing fields", () => {
    const hostile: LogEvent[] = [
      { id: 1, received_at: "2026-11-20T10:00:00Z", type: "action.queue.unknown", pull_request: 1, base_ref: null, metadata: null },
      { id: 2, received_at: "not a time", type: "action.queue.enter", pull_request: 1, base_ref: null, metadata: {} },
      {
        id: 3,
        received_at: "2026-11-20T10:00:00Z",
        type: "action.queue.leave",
        pull_request: 1,
        base_ref: null,
        metadata: { queued_at: 5, merged: "yes" },
      },
      {
        id: 4,
        received_at: "2026-11-20T10:00:00Z",
        type: "action.queue.checks_end",
        pull_request: 2,
        base_ref: "main",
        metadata: { queued_at: "2026-11-20T09:00:00Z", speculative_check_pull_request: "x", pull_request_numbers: ["a", 3] },
      },
      {
        id: 5,
        received_at: "2026-11-20T10:00:00Z",
        type: "action.queue.batch_bisection_start",
        pull_request: null,
        base_ref: null,
        metadata: { original_batch_pr_numbers: "7" },
      },
    ];
    const stays = staysOf(hostile);
    expect(stays).toHaveLength(1);
    expect(stays[0]).toMatchObject({ pullRequest: 2, outcome: "open", enteredAt: Date.parse("2026-11-20T09:00:00Z") });
    expect(stays[0]!.runs[0]!.pullRequests).toEqual([3]);
    expect(readField({ queue_name: 3 }, "queue_name")).toBeUndefined();
  });

  it("holds only the stays open at the point of the stream, whatever its length", () => {
    let max = 0;
    let count = 0;
    const b = new StayBuilder({ onStay: () => void count++ });
    // 5,000 stays one after the other, three at a time in the queue
    let id = 1e6;
    for (let k = 5000; k >= 1; k--) {
      const enter = Date.UTC(2026, 0, 1) + k * 60_000;
      const q = new Date(enter).toISOString();
      const meta = { queue_name: "default", branch: "main", queued_at: q, session_id: `s${k}` };
      b.push({
        id: id--,
        received_at: new Date(enter + 150_000).toISOString(),
        type: "action.queue.leave",
        pull_request: k,
        base_ref: "main",
        metadata: { ...meta, merged: true, reason: "merged" },
      });
      b.push({ id: id--, received_at: q, type: "action.queue.enter", pull_request: k, base_ref: "main", metadata: meta });
      max = Math.max(max, b.openCount);
    }
    b.finish();
    expect(count).toBe(5000);
    expect(max).toBeLessThanOrEqual(4);
  });
});

describe("figures", () => {
  it("percentiles are nearest-rank", () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([50, 90, 95, 99, 100].map((p) => nearestRank(v, p))).toEqual([5, 9, 10, 10, 10]);
    expect(nearestRank([], 50)).toBeNull();
    expect(distribution([30, 10, 20])).toEqual({ count: 3, avg: 20, p50: 20, p90: 30, p95: 30, p99: 30, max: 30 });
  });

  it("a stay counts in the window of each of its events", () => {
    const stays = staysOf(newestFirst(prSevenEvents("contract")));
    const w = new WindowAccumulator({ since: new Date("2026-11-20T10:30:00Z"), until: new Date("2026-11-20T11:22:16Z") });
    for (const s of stays) w.add(s);
    const r = w.result();
    // entered: #7's second stay only; merged at 11:22:15 inside; left: #7's first (10:40:23), the second leaves at the end (excluded)
    expect(r.values).toMatchObject({ entered: 1, merged: 1, left: 1, failed: 1, stay_failure_rate: 1 });
    expect(r.exitReasons).toEqual([{ reason: "CHECKS_FAILED", count: 1 }]);
    expect(r.distributions.time_to_merge).toMatchObject({ count: 1, p50: 1335 });
  });

  it("--fail-if: figures, changes, percentages and durations, judged by the gate engine of mq stats", () => {
    const g = parseInsightsFailIf("change( p50(time_to_merge) ) > 20%", { compare: true });
    expect(g).toEqual({
      source: "change( p50(time_to_merge) ) > 20%",
      field: "change(p50(time_to_merge))",
      op: ">",
      threshold: 0.2,
      unit: "ratio",
    });
    expect(parseInsightsFailIf("change(merged) < -50%", { compare: true }).threshold).toBe(-0.5);
    expect(parseInsightsFailIf("p95(queue_time) > 2h", { compare: false })).toMatchObject({ threshold: 7200, unit: "seconds" });
    expect(() => parseInsightsFailIf("p97(queue_time) > 2h", { compare: false })).toThrow(/unknown figure "p97\(queue_time\)"/);
    expect(() => parseInsightsFailIf("merged > two", { compare: false })).toThrow(/"two" is not a number/);
    expect(() => parseInsightsFailIf("stay_failure_rate > 20", { compare: false })).toThrow(/stay_failure_rate is a ratio from 0 to 1/);
    expect(() => parseInsightsFailIf("p50(queue_time) > 20%", { compare: false })).toThrow(/p50\(queue_time\) is a duration; give seconds/);
    expect(() => parseInsightsFailIf("change(merged) < 0", { compare: false })).toThrow(/change\(\) needs a comparison window/);
    const row = (figure: string, value: number | null, previous: number | null = null) => ({
      figure,
      value,
      previous,
      change: previous ? value! / previous - 1 : null,
      unit: "seconds" as const,
      verdict: 0 as const,
    });
    const report = {
      repository: "acme/web",
      since: "",
      until: "",
      compare: null,
      exitReasons: [],
      slowest: [],
      figures: [row("p95(queue_time)", 9000, 6000), row("count(queue_time)", 12, 10), row("merged", null)],
    };
    const verdicts = judgeInsights(
      [
        parseInsightsFailIf("p95(queue_time) > 2h", { compare: true }),
        parseInsightsFailIf("change(p95(queue_time)) > 40%", { compare: true }),
        parseInsightsFailIf("merged < 1", { compare: true }),
      ],
      { total: report },
      "all",
    );
    expect(verdicts.map(formatVerdict)).toEqual([
      "FAIL  p95(queue_time) 2h 30m > 2h (12 stays, repository acme/web)",
      "FAIL  change(p95(queue_time)) 50.0% > 40% (10 stays, repository acme/web)",
      "FAIL  merged < 1 (repository acme/web): no value in the window",
    ]);
    expect(
      judgeInsights([parseInsightsFailIf("p95(queue_time) > 2h", { compare: true })], { total: report }, "all", { minCount: 20 }).map(
        formatVerdict,
      ),
    ).toEqual(["skip  p95(queue_time) 2h 30m (12 stays, repository acme/web): fewer than 20 stays (--min-count 20)"]);
  });
});
