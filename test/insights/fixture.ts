// A hand-made history of pull request #7 in acme/web, in both dialects: a first stay tested in a
// batch with #8 and #9, the batch failing, bisected, #7 found guilty and dropped; a requeue; a
// second stay alone whose checks fail once, are retried and pass; merged. Times are UTC on
// 2026-11-20. The expected answers in the tests are worked out by hand from this list.
export type Dialect = "contract" | "mergify";

const DAY = "2026-11-20T";
const at = (hms: string) => `${DAY}${hms}Z`;
const S1 = "11111111-1111-4111-8111-111111111111";
const S2 = "22222222-2222-4222-8222-222222222222";
const S8 = "88888888-8888-4888-8888-888888888888";
const CAR = (n: number) => `0000000${n}-0000-4000-8000-00000000000${n}`;
const alice = { login: "alice", id: 101, type: "User" };

interface Raw {
  t: string;
  type: string;
  pr: number | null;
  meta: Record<string, unknown>;
}

function check(name: string, state: string) {
  return {
    name,
    description: state === "success" ? "Successful" : `${name} ${state}`,
    url: `https://ci.example.com/${name}`,
    state,
    avatar_url: null,
  };
}

export function prSevenEvents(dialect: Dialect) {
  const contract = dialect === "contract";
  const queued = (hms: string, session: string) => ({
    queue_name: "default",
    branch: "main",
    queued_at: at(hms),
    priority_rule_name: null,
    session_id: session,
    ...(contract ? { partition_name: "__default__" } : {}),
  });
  const spec = (number: number, numbers: number[], started: string, ended: string | null, conclusion: string, failing: string[] = []) => ({
    number,
    in_place: numbers.length === 1,
    checks_timed_out: false,
    checks_conclusion: conclusion,
    checks_started_at: at(started),
    checks_ended_at: ended ? at(ended) : null,
    unsuccessful_checks: failing.map((f) => check(f, "failure")),
    ...(contract ? {} : { pull_request_numbers: numbers }),
  });
  const run = (car: number, numbers: number[]) =>
    contract
      ? { pull_request_numbers: numbers, train_car_id: CAR(car) }
      : { train_car_id: null, batch_id: CAR(car), batch_name: `batch-${car}`, scopes: null, parent_batch_ids: null };
  const start = (
    t: string,
    pr: number,
    qAt: string,
    session: string,
    car: number,
    draft: number,
    numbers: number[],
    reason: string,
  ): Raw => ({
    t,
    type: "action.queue.checks_start",
    pr,
    meta: {
      ...queued(qAt, session),
      start_reason: reason,
      speculative_check_pull_request: spec(draft, numbers, t, null, "pending"),
      ...run(car, numbers),
    },
  });
  const end = (
    t: string,
    pr: number,
    qAt: string,
    session: string,
    car: number,
    draft: number,
    numbers: number[],
    started: string,
    conclusion: string,
    abort: [string, string] | null,
    retry: number | null,
    failing: string[] = [],
  ): Raw => ({
    t,
    type: "action.queue.checks_end",
    pr,
    meta: {
      ...queued(qAt, session),
      aborted: abort !== null,
      abort_code: abort?.[0] ?? null,
      abort_reason: abort ? (abort[0] === "CHECKS_FAILED" ? "Checks failed" : "Checks failed and are being retried") : null,
      abort_status: abort?.[1] ?? "DEFINITIVE",
      retry_attempt: retry,
      max_retries: retry === null ? null : 1,
      speculative_check_pull_request: spec(draft, numbers, started, t, conclusion, failing),
      ...run(car, numbers),
    },
  });
  const bisection = (t: string, startEvent: boolean, extra: Record<string, unknown>): Raw => ({
    t,
    type: startEvent ? "action.queue.batch_bisection_start" : "action.queue.batch_bisection_end",
    pr: null,
    meta: {
      queue_name: "default",
      priority_rule_name: null,
      original_batch_pr_numbers: [7, 8, 9],
      session_id: S1,
      ...(contract ? { partition_name: "__default__" } : { batch_id: CAR(1), train_car_id: null, batch_name: "batch-1" }),
      ...extra,
    },
  });
  const leave = (t: string, qAt: string, session: string, merged: boolean, reason: string, code: string, failing: string[]): Raw => ({
    t,
    type: "action.queue.leave",
    pr: 7,
    meta: {
      ...queued(qAt, session),
      reason,
      merged,
      seconds_waiting_for_schedule: 0,
      seconds_waiting_for_freeze: 0,
      conditions_evaluation: null,
      checks: merged ? [check("ci/test", "success")] : failing.map((f) => check(f, "failure")),
      pull_request_head_sha: "a".repeat(40),
      ...(contract
        ? {}
        : {
            unsuccessful_checks: failing.map((f) => check(f, "failure")),
            dequeue_code: code,
            batch_id: null,
            scopes: null,
            all_scopes: null,
          }),
    },
  });
  const raws: Raw[] = [
    { t: "09:59:50", type: "command.queue", pr: 7, meta: { author: alice, comment_id: 5001, session_id: S1 } },
    { t: "10:00:00", type: "action.queue.enter", pr: 7, meta: queued("10:00:00", S1) },
    { t: "10:01:00", type: "action.queue.enter", pr: 8, meta: queued("10:01:00", S8) },
    start("10:05:00", 7, "10:00:00", S1, 1, 901, [7, 8, 9], "First time checks"),
    start("10:05:00", 8, "10:01:00", S8, 1, 901, [7, 8, 9], "First time checks"),
    end("10:25:00", 7, "10:00:00", S1, 1, 901, [7, 8, 9], "10:05:00", "failure", ["CHECKS_FAILED", "REEMBARKED"], null, ["ci/test"]),
    end("10:25:00", 8, "10:01:00", S8, 1, 901, [7, 8, 9], "10:05:00", "failure", ["CHECKS_FAILED", "REEMBARKED"], null, ["ci/test"]),
    bisection("10:25:05", true, { batch_size_before_split: 3, number_of_sub_batches: 2, bisection_depth: 1, is_top_level: true }),
    start("10:25:15", 7, "10:00:00", S1, 2, 7, [7], "Batch bisection"),
    start("10:25:15", 8, "10:01:00", S8, 3, 902, [8, 9], "Batch bisection"),
    end("10:38:15", 8, "10:01:00", S8, 3, 902, [8, 9], "10:25:15", "success", null, null),
    end("10:40:15", 7, "10:00:00", S1, 2, 7, [7], "10:25:15", "failure", ["CHECKS_FAILED", "DEFINITIVE"], null, ["ci/test"]),
    bisection("10:40:20", false, {
      culprit_found: true,
      culprit_pr_numbers: [7],
      remaining_pr_numbers: [8, 9],
      max_failure_resolution_reached: false,
    }),
    leave("10:40:23", "10:00:00", S1, false, "Checks failed", "CHECKS_FAILED", ["ci/test"]),
    { t: "10:59:57", type: "command.requeue", pr: 7, meta: { author: alice, comment_id: 5002 } },
    { t: "11:00:00", type: "action.queue.enter", pr: 7, meta: queued("11:00:00", S2) },
    start("11:02:00", 7, "11:00:00", S2, 4, 7, [7], "First time checks"),
    end("11:12:00", 7, "11:00:00", S2, 4, 7, [7], "11:02:00", "failure", ["CHECKS_RETRIED", "REEMBARKED"], 0, ["ci/e2e"]),
    {
      t: "11:12:04",
      type: "ci_insights.job_retried",
      pr: 7,
      meta: {
        rule_id: "5f0c6a1e-8d3b-4c1e-9f4a-2b7d9e1c3a55",
        rule_name: "Retry flaky jobs",
        max_retry: 1,
        retry_mode: "job",
        retry_attempt: 1,
        condition_matches: [],
      },
    },
    start("11:12:10", 7, "11:00:00", S2, 5, 7, [7], "Re-embarked pull requests"),
    end("11:22:10", 7, "11:00:00", S2, 5, 7, [7], "11:12:10", "success", null, 1),
    {
      t: "11:22:15",
      type: "action.queue.merged",
      pr: 7,
      meta: contract
        ? {
            branch: "main",
            partition_names: ["__default__"],
            queue_name: "default",
            queued_at: at("11:00:00"),
            priority_rule_name: null,
            session_id: S2,
          }
        : {
            branch: "main",
            queue_name: "default",
            queued_at: at("11:00:00"),
            priority_rule_name: null,
            session_id: S2,
            merge_commit_sha: "b".repeat(40),
          },
    },
    leave("11:22:16", "11:00:00", S2, true, "Pull request merged by the merge queue", "PR_MERGED", []),
  ];
  return raws.map((r, i) => ({
    id: 1000 + i,
    received_at: at(r.t),
    trigger: "Rule: queue to default",
    repository: "acme/web",
    pull_request: r.pr,
    base_ref: "main",
    type: r.type,
    metadata: r.meta,
    ...(contract ? {} : { outcome: "success" }),
  }));
}

/** The log's order: newest first. */
export function newestFirst<T extends { received_at: string; id: number }>(events: T[]): T[] {
  return [...events].sort((a, b) => Date.parse(b.received_at) - Date.parse(a.received_at) || b.id - a.id);
}
