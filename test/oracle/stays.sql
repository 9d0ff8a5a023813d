-- A second implementation of the queue stays and their figures, in SQL over the archive's raw
-- events (DuckDB), sharing nothing with src/insights: the oracle of test/oracle/oracle.e2e.test.ts.
-- Written from the definitions of docs/insights.md and `mq help figures`, for the events of both
-- dialects: the contract's (the bundled server's default) and the real service's (its OpenAPI,
-- docs/mergify-openapi.json: a check run is its batch_id, a batch's pull requests are under
-- speculative_check_pull_request, a leave says why in dequeue_code, no partition is named).
--
-- Variables (SET VARIABLE before each query):
--   repo        owner/name, lower case, as the archive keys it
--   read_from   read_to: the span of the log read, both ends inclusive (as the API's
--               received_from/received_to): what a stay is rebuilt from
--   until_ms    epoch ms that ends a stay still open (the window's end)
--
-- A stay is one pull request's time in one queue, named by (pull request, queued_at): every queue
-- event of it carries its queued_at (the enter event's own time when it does not).

-- name: stays
-- the queue events of the span read; m_NAME is the text (`->>`) of the event's metadata field NAME,
-- every field the queries use read in one pass (each path read apart parses the event anew)
CREATE OR REPLACE TEMP TABLE queue_events AS
SELECT
  id,
  type,
  pr,
  t,
  base_ref,
  f[1] AS m_queued_at,
  f[2] AS m_train_car_id,
  f[3] AS m_batch_id,
  f[4] AS m_spc_checks_started_at,  -- spc: of speculative_check_pull_request
  f[5] AS m_spc_checks_ended_at,
  f[6] AS m_retry_attempt,
  f[7] AS m_branch,
  f[8] AS m_queue_name,
  f[9] AS m_partition_name,
  f[10] AS m_priority_rule_name,
  f[11] AS m_session_id,
  f[12] AS m_merged,
  f[13] AS m_reason,
  f[14] AS m_dequeue_code,
  f[15] AS m_seconds_waiting_for_schedule,
  f[16] AS m_seconds_waiting_for_freeze,
  f[17] AS m_bisection_depth,
  f[18] AS m_pull_request_numbers,
  f[19] AS m_spc_pull_request_numbers,
  f[20] AS m_original_batch_pr_numbers
FROM (
  SELECT
    id,
    type,
    pull_request AS pr,
    epoch_ms(received_at) AS t,
    base_ref,
    json_extract_string(raw, [
      '$.metadata.queued_at', '$.metadata.train_car_id', '$.metadata.batch_id',
      '$.metadata.speculative_check_pull_request.checks_started_at',
      '$.metadata.speculative_check_pull_request.checks_ended_at', '$.metadata.retry_attempt',
      '$.metadata.branch', '$.metadata.queue_name', '$.metadata.partition_name',
      '$.metadata.priority_rule_name', '$.metadata.session_id', '$.metadata.merged',
      '$.metadata.reason', '$.metadata.dequeue_code', '$.metadata.seconds_waiting_for_schedule',
      '$.metadata.seconds_waiting_for_freeze', '$.metadata.bisection_depth',
      '$.metadata.pull_request_numbers', '$.metadata.speculative_check_pull_request.pull_request_numbers',
      '$.metadata.original_batch_pr_numbers'
    ]) AS f
  FROM events
  WHERE repository = getvariable('repo')
    AND received_at BETWEEN getvariable('read_from') AND getvariable('read_to')
    AND type LIKE 'action.queue.%'
);

CREATE OR REPLACE TEMP TABLE stay_events AS
SELECT
  *,
  coalesce(epoch_ms(CAST(m_queued_at AS TIMESTAMPTZ)), CASE WHEN type = 'action.queue.enter' THEN t END) AS queued
FROM queue_events
WHERE pr IS NOT NULL
  AND type IN ('action.queue.enter', 'action.queue.checks_not_started', 'action.queue.checks_start',
               'action.queue.checks_end', 'action.queue.merged', 'action.queue.leave');

-- one row per check run of a stay (train car): when it ran, how it ended, whether it was a retry
CREATE OR REPLACE TEMP TABLE runs AS
SELECT
  pr,
  queued,
  coalesce(m_train_car_id, m_batch_id) AS run,  -- the service sends both, equal
  coalesce(
    arg_max(epoch_ms(CAST(m_spc_checks_started_at AS TIMESTAMPTZ)), t)
      FILTER (WHERE m_spc_checks_started_at IS NOT NULL),
    min(t) FILTER (WHERE type = 'action.queue.checks_start')
  ) AS started,
  min(coalesce(epoch_ms(CAST(m_spc_checks_ended_at AS TIMESTAMPTZ)), t))
    FILTER (WHERE type = 'action.queue.checks_end') AS ended,
  bool_or(type = 'action.queue.checks_end') AS ended_event,
  max(CAST(m_retry_attempt AS INTEGER)) FILTER (WHERE type = 'action.queue.checks_end') AS retry_attempt,
  max(coalesce(json_array_length(m_pull_request_numbers), json_array_length(m_spc_pull_request_numbers))) AS batch
FROM stay_events
WHERE type IN ('action.queue.checks_start', 'action.queue.checks_end')
GROUP BY ALL;

CREATE OR REPLACE TEMP TABLE stay_rows AS
WITH
  stays AS (
    SELECT
      pr,
      queued,
      -- what names the stay: the newest event that says
      arg_max(coalesce(base_ref, m_branch), t) FILTER (WHERE coalesce(base_ref, m_branch) IS NOT NULL) AS base_ref,
      arg_max(m_queue_name, t) FILTER (WHERE m_queue_name IS NOT NULL) AS queue_name,
      arg_max(m_partition_name, t) FILTER (WHERE m_partition_name IS NOT NULL) AS partition_name,
      arg_max(m_priority_rule_name, t) FILTER (WHERE m_priority_rule_name IS NOT NULL) AS priority_rule_name,
      arg_max(m_session_id, t) FILTER (WHERE m_session_id IS NOT NULL) AS session_id,
      min(t) FILTER (WHERE type = 'action.queue.enter') AS enter_event_at,
      min(t) FILTER (WHERE type = 'action.queue.merged') AS merged_event_at,
      min(t) FILTER (WHERE type = 'action.queue.leave') AS left_at,
      arg_min(CAST(m_merged AS BOOLEAN), t) FILTER (WHERE type = 'action.queue.leave') AS leave_merged,
      arg_min(m_reason, t) FILTER (WHERE type = 'action.queue.leave') AS leave_reason,
      arg_min(m_dequeue_code, t) FILTER (WHERE type = 'action.queue.leave') AS leave_code,
      coalesce(arg_min(CAST(m_seconds_waiting_for_schedule AS DOUBLE), t) FILTER (WHERE type = 'action.queue.leave'), 0) AS schedule_s,
      coalesce(arg_min(CAST(m_seconds_waiting_for_freeze AS DOUBLE), t) FILTER (WHERE type = 'action.queue.leave'), 0) AS freeze_s,
      max(t) AS last_t,
      max(id) AS last_id
    FROM stay_events
    WHERE queued IS NOT NULL
    GROUP BY pr, queued
  ),
  -- the exit reason of a leave: SUCCESS when merged, else the service's dequeue_code, else the abort code whose sentence it is
  -- (the contract's abort codes and their sentences), a reason that already is a code, or the
  -- words themselves
  sentences (code, sentence) AS (
    VALUES
      ('PR_DEQUEUED', 'Pull request dequeued'),
      ('PR_DEQUEUED_FROM_PARTITION', 'Pull request dequeued from a partition'),
      ('PR_MANUALLY_DEQUEUED', 'Pull request dequeued by a dequeue command'),
      ('PR_MANUALLY_MERGED', 'Pull request merged manually'),
      ('PR_AHEAD_DEQUEUED', 'A pull request ahead in the queue was dequeued'),
      ('BATCH_AHEAD_FAILED', 'A pull request ahead in the queue failed to get merged'),
      ('PR_WITH_HIGHER_PRIORITY_QUEUED', 'A pull request with a higher priority was queued'),
      ('SCHEDULED_FREEZE_STATUS_CHANGED', 'The batch was split because a scheduled freeze changed the freeze status of its pull requests'),
      ('SPECULATIVE_CHECK_NUMBER_REDUCED', 'The number of speculative checks was reduced in the queue rules'),
      ('CHECKS_TIMEOUT', 'Checks timed out'),
      ('CHECKS_FAILED', 'Checks failed'),
      ('CHECKS_RETRIED', 'Checks failed and are being retried'),
      ('QUEUE_RULE_MISSING', 'Queue rules are missing because of a configuration change'),
      ('CONFIGURATION_CHANGED', 'The configuration changed'),
      ('BASE_BRANCH_MISSING', 'The base branch no longer exists'),
      ('BASE_BRANCH_CHANGED', 'The pull request base branch changed'),
      ('PR_UNEXPECTEDLY_FAILED_TO_MERGE', 'The pull request unexpectedly failed to merge'),
      ('BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS', 'The maximum batch failure resolution attempts were reached'),
      ('PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE', 'Checks were interrupted because the merge queue is paused on the repository'),
      ('CONFLICT_WITH_BASE_BRANCH', 'The pull request conflicts with the base branch'),
      ('CONFLICT_WITH_PULL_AHEAD', 'The pull request conflicts with at least one pull request ahead in the queue'),
      ('BRANCH_UPDATE_FAILED', 'The pull request cannot be updated for security reasons'),
      ('DRAFT_PULL_REQUEST_CHANGED', 'New commits were added to the draft pull request by someone else'),
      ('PULL_REQUEST_UPDATED', 'The pull request was unexpectedly updated'),
      ('MERGE_QUEUE_RESET', 'The merge queue was reset'),
      ('INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS', 'The pull request cannot be checked because of an incompatibility with branch protections'),
      ('DRAFT_PULL_REQUEST_CREATION_FAILED', 'The draft pull request cannot be created'),
      ('DRAFT_PULL_REQUEST_CREATION_BRANCH_NOT_INDEXED', 'The draft pull request cannot be created because the branch is not indexed yet'),
      ('UNPROCESSABLE_PULL_REQUEST', 'The pull request could not be processed'),
      ('STACK_PREDECESSOR_DEQUEUED', 'The stack predecessor of the pull request was dequeued'),
      ('INTERMEDIATE_RESULTS_SKIPPED', 'Intermediate results were skipped during batch promotion')
  ),
  -- exit reasons that count as failing the queue (mq help figures: failed)
  failing (code) AS (
    VALUES ('CHECKS_FAILED'), ('CHECKS_TIMEOUT'), ('BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS'),
      ('DROPPED_BY_BISECTION_ELIMINATION'), ('PR_UNEXPECTEDLY_FAILED_TO_MERGE'), ('CONFLICT_WITH_BASE_BRANCH'),
      ('CONFLICT_WITH_PULL_AHEAD'), ('BRANCH_UPDATE_FAILED'), ('INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS'),
      ('UNPROCESSABLE_PULL_REQUEST'), ('BASE_REF_ALIGNMENT_TIMEOUT')
  ),
  ended AS (
    SELECT
      s.*,
      CASE
        WHEN s.left_at IS NULL THEN NULL
        WHEN s.leave_merged OR s.leave_code IN ('PR_MERGED', 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED') THEN 'SUCCESS'
        WHEN coalesce(s.leave_code, '') <> '' THEN s.leave_code
        WHEN x.code IS NOT NULL THEN x.code
        WHEN regexp_full_match(coalesce(s.leave_reason, ''), '[A-Z][A-Z_]+') THEN s.leave_reason
        WHEN coalesce(s.leave_reason, '') = '' THEN 'UNKNOWN'
        ELSE s.leave_reason
      END AS reason
    FROM stays s
    LEFT JOIN sentences x ON x.sentence = s.leave_reason
  ),
  shaped AS (
    SELECT
      e.*,
      coalesce(e.merged_event_at, CASE WHEN e.reason = 'SUCCESS' THEN e.left_at END) AS merged_at,
      CASE
        WHEN e.merged_event_at IS NOT NULL OR e.reason = 'SUCCESS' THEN 'merged'
        WHEN e.left_at IS NULL THEN 'open'
        WHEN e.reason IN (SELECT code FROM failing) THEN 'failed'
        ELSE 'dequeued'
      END AS outcome,
      coalesce(e.left_at, coalesce(e.merged_event_at, CASE WHEN e.reason = 'SUCCESS' THEN e.left_at END), getvariable('until_ms')) AS end_at
    FROM ended e
  ),
  -- the time some run of the stay ran while it was in the queue: each run cut to the stay, then
  -- their union (a run counts from where the runs before it reached)
  cut AS (
    SELECT r.pr, r.queued, greatest(r.started, r.queued) AS a, least(coalesce(r.ended, getvariable('until_ms')), s.end_at) AS b
    FROM runs r
    JOIN shaped s USING (pr, queued)
    WHERE r.started IS NOT NULL
  ),
  reach AS (
    SELECT *, max(b) OVER (PARTITION BY pr, queued ORDER BY a, b ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
    FROM cut
    WHERE b > a
  ),
  ci AS (
    SELECT pr, queued, sum(greatest(0, b - greatest(a, coalesce(before, a)))) AS ci_ms FROM reach GROUP BY ALL
  ),
  run_counts AS (
    SELECT
      pr,
      queued,
      count(*) AS check_runs,
      count(*) FILTER (WHERE retry_attempt >= 1 AND ended_event) AS retries,
      max(coalesce(nullif(batch, 0), 1)) AS batch_size
    FROM runs
    GROUP BY ALL
  ),
  -- a batch bisection counts once, at its top level, for each pull request of the batch whose
  -- stay was in the queue then (and of which the log read holds events after it)
  bisections AS (
    SELECT s.pr, s.queued, count(*) AS bisections
    FROM queue_events b
    JOIN shaped s
      ON list_contains(CAST(CAST(b.m_original_batch_pr_numbers AS JSON) AS BIGINT[]), s.pr)
      AND s.queued <= b.t
      AND (s.last_t, s.last_id) > (b.t, b.id)
      AND (s.enter_event_at IS NULL OR s.enter_event_at < b.t)
    WHERE b.type = 'action.queue.batch_bisection_start'
      AND coalesce(CAST(b.m_bisection_depth AS INTEGER), 1) = 1
    GROUP BY ALL
  )
SELECT
  s.pr AS pull_request,
  s.base_ref,
  s.queue_name,
  s.partition_name,
  s.priority_rule_name,
  s.session_id,
  s.queued AS entered_ms,
  s.enter_event_at,
  s.left_at AS left_ms,
  s.merged_at AS merged_ms,
  s.outcome,
  s.reason,
  greatest(0, s.end_at - s.queued) AS queue_ms,
  CASE WHEN s.merged_at IS NOT NULL THEN greatest(0, s.merged_at - s.queued) END AS to_merge_ms,
  coalesce(ci.ci_ms, 0) AS ci_ms,
  s.schedule_s,
  s.freeze_s,
  coalesce(rc.check_runs, 0) AS check_runs,
  coalesce(rc.retries, 0) AS retries,
  coalesce(rc.batch_size, 0) AS batch_size,
  coalesce(bi.bisections, 0) AS bisections
FROM shaped s
LEFT JOIN ci USING (pr, queued)
LEFT JOIN run_counts rc USING (pr, queued)
LEFT JOIN bisections bi USING (pr, queued);

-- name: prs
-- The rows of `mq prs` (durations in seconds; waiting split by cause, schedule then freeze, each
-- at most what is left of it)
SELECT
  pull_request,
  base_ref,
  queue_name,
  partition_name,
  priority_rule_name,
  session_id,
  entered_ms,
  left_ms,
  merged_ms,
  outcome,
  reason,
  queue_ms / 1000 AS queue_time,
  to_merge_ms / 1000 AS time_to_merge,
  (queue_ms - ci_ms) / 1000 AS wait_time,
  least(schedule_s * 1000, queue_ms - ci_ms) / 1000 AS idle_schedule,
  least(freeze_s * 1000, queue_ms - ci_ms - least(schedule_s * 1000, queue_ms - ci_ms)) / 1000 AS idle_freeze,
  ci_ms / 1000 AS ci_time,
  check_runs,
  retries,
  batch_size,
  bisections,
  enter_event_at IS NULL AS began_before_window
FROM stay_rows;

-- name: counts
-- The counts of `mq insights` over [from_ms, to_ms): a stay counts where its events fall
SELECT
  count(*) FILTER (WHERE enter_event_at >= getvariable('from_ms') AND enter_event_at < getvariable('to_ms')) AS entered,
  count(*) FILTER (WHERE merged_ms >= getvariable('from_ms') AND merged_ms < getvariable('to_ms')) AS merged,
  count(*) FILTER (WHERE left_ms >= getvariable('from_ms') AND left_ms < getvariable('to_ms')) AS "left",
  count(*) FILTER (WHERE left_ms >= getvariable('from_ms') AND left_ms < getvariable('to_ms') AND outcome = 'failed') AS failed,
  -- runs and retries only of stays wholly in the window (their enter event in it)
  coalesce(sum(retries) FILTER (
    WHERE left_ms >= getvariable('from_ms') AND left_ms < getvariable('to_ms')
      AND enter_event_at >= getvariable('from_ms') AND enter_event_at < getvariable('to_ms')
  ), 0) AS retries
FROM stay_rows;

-- name: distributions
-- Each distribution of `mq insights` over [from_ms, to_ms), in milliseconds: time to merge of the
-- stays merged in the window; time in queue of those that left in it; CI time (of those with a
-- check run) and waiting time of those that left in it and entered in it. Percentiles
-- nearest-rank: the value of rank ceil(p/100 * n) in ascending order (integer arithmetic).
WITH
  samples AS (
    SELECT 'time_to_merge' AS distribution, to_merge_ms AS ms
    FROM stay_rows WHERE merged_ms >= getvariable('from_ms') AND merged_ms < getvariable('to_ms')
    UNION ALL
    SELECT 'queue_time', queue_ms
    FROM stay_rows WHERE left_ms >= getvariable('from_ms') AND left_ms < getvariable('to_ms')
    UNION ALL
    SELECT 'ci_time', ci_ms
    FROM stay_rows
    WHERE left_ms >= getvariable('from_ms') AND left_ms < getvariable('to_ms')
      AND enter_event_at >= getvariable('from_ms') AND enter_event_at < getvariable('to_ms') AND check_runs > 0
    UNION ALL
    SELECT 'wait_time', queue_ms - ci_ms
    FROM stay_rows
    WHERE left_ms >= getvariable('from_ms') AND left_ms < getvariable('to_ms')
      AND enter_event_at >= getvariable('from_ms') AND enter_event_at < getvariable('to_ms')
  ),
  ranked AS (
    SELECT
      distribution,
      ms,
      row_number() OVER (PARTITION BY distribution ORDER BY ms) AS k,
      count(*) OVER (PARTITION BY distribution) AS n
    FROM samples
  )
SELECT
  distribution,
  any_value(n) AS count,
  avg(ms) AS avg_ms,
  max(ms) FILTER (WHERE k = (50 * n + 99) // 100) AS p50_ms,
  max(ms) FILTER (WHERE k = (90 * n + 99) // 100) AS p90_ms,
  max(ms) FILTER (WHERE k = (95 * n + 99) // 100) AS p95_ms,
  max(ms) FILTER (WHERE k = (99 * n + 99) // 100) AS p99_ms,
  max(ms) AS max_ms
FROM ranked
GROUP BY distribution;

-- name: exit_reasons
SELECT reason, count(*) AS count
FROM stay_rows
WHERE left_ms >= getvariable('from_ms') AND left_ms < getvariable('to_ms')
GROUP BY reason;
