-- A second implementation of `mq queue`'s positions and merge estimates (eta_p50, eta_p90,
-- eta_sample, eta_basis), in SQL over the archive's raw events, sharing nothing with src/queue:
-- written from the catalogue's definitions (`mq help figures`, docs/figures.md). It reads the
-- stays and check runs of stays.sql (run its `stays` query first, over the lookback: read_from
-- is its start) and:
--   until_ms    epoch ms of the queue's instant (the lookback's end)
--
-- A stay's line is its base ref, queue and partition; it is in the queue from entered_ms until it
-- merged or left. Its position at an instant is 1 + the stays of its line entered before it (ties
-- by pull request number) still in the queue then.

-- name: eta
CREATE OR REPLACE TEMP TABLE line_stays AS
SELECT
  pull_request AS pr,
  coalesce(base_ref, '') AS b,
  coalesce(queue_name, '') AS q,
  coalesce(partition_name, '') AS pa,
  entered_ms AS e,
  CASE WHEN outcome <> 'open' THEN coalesce(merged_ms, left_ms) END AS ended,
  CASE WHEN outcome = 'merged' THEN merged_ms END AS merged
FROM stay_rows;

-- for each merged stay, the stays of its line entered before it and still in the queue when it entered
CREATE OR REPLACE TEMP TABLE ahead AS
SELECT m.pr, m.e, x.ended AS x_end
FROM line_stays m
JOIN line_stays x
  ON x.b = m.b AND x.q = m.q AND x.pa = m.pa
  AND (x.e < m.e OR (x.e = m.e AND x.pr < m.pr))
  AND (x.ended IS NULL OR x.ended > m.e)
WHERE m.merged IS NOT NULL;

-- each position p a merged stay stood at, and when it reached it: it entered at k + 1 (k ahead),
-- and reached k + 1 - j at the j-th end of those ahead; kept while no later than its merge
CREATE OR REPLACE TEMP TABLE reached AS
WITH
  entries AS (
    SELECT m.pr, m.e, m.b, m.q, m.pa, m.merged, count(a.pr) AS k
    FROM line_stays m
    LEFT JOIN ahead a ON a.pr = m.pr AND a.e = m.e
    WHERE m.merged IS NOT NULL
    GROUP BY ALL
  ),
  ends AS (
    SELECT pr, e, x_end, row_number() OVER (PARTITION BY pr, e ORDER BY x_end NULLS LAST) AS j
    FROM ahead
  )
SELECT b, q, pa, k + 1 AS p, e AS at_ms, merged FROM entries
UNION ALL
SELECT n.b, n.q, n.pa, n.k + 1 - d.j, d.x_end, n.merged
FROM entries n
JOIN ends d ON d.pr = n.pr AND d.e = n.e
WHERE d.x_end IS NOT NULL;

CREATE OR REPLACE TEMP TABLE queue_now AS
SELECT
  s.*,
  row_number() OVER (PARTITION BY s.b, s.q, s.pa ORDER BY s.e, s.pr) AS position,
  -- it reached its position at the last end of a stay of its line entered before it, or when it entered
  greatest(
    s.e,
    coalesce(
      (SELECT max(x.ended) FROM line_stays x
       WHERE x.b = s.b AND x.q = s.q AND x.pa = s.pa AND (x.e < s.e OR (x.e = s.e AND x.pr < s.pr))),
      s.e
    )
  ) AS at_position
FROM line_stays s
WHERE s.ended IS NULL;

-- the check run of each open stay running at the instant (started, not ended; the last started)
CREATE OR REPLACE TEMP TABLE running AS
SELECT pr, queued AS e, max(started) AS started, arg_max(coalesce(nullif(batch, 0), 1), started) AS size
FROM runs
WHERE started IS NOT NULL AND NOT ended_event
GROUP BY ALL;

WITH
  by_batch AS (
    SELECT o.pr, o.e, x.started AS base_ms, m.merged - r.started AS ms
    FROM queue_now o
    JOIN running x ON x.pr = o.pr AND x.e = o.e
    JOIN line_stays m ON m.b = o.b AND m.q = o.q AND m.pa = o.pa AND m.merged IS NOT NULL
    JOIN runs r ON r.pr = m.pr AND r.queued = m.e AND r.started IS NOT NULL
      AND coalesce(nullif(r.batch, 0), 1) = x.size
      AND r.started >= epoch_ms(getvariable('read_from'))
      AND r.started <= m.merged
      AND m.merged - r.started >= getvariable('until_ms') - x.started
  ),
  by_position AS (
    SELECT o.pr, o.e, o.at_position AS base_ms, r.merged - r.at_ms AS ms
    FROM queue_now o
    JOIN reached r
      ON r.b = o.b AND r.q = o.q AND r.pa = o.pa AND r.p = o.position
      AND r.at_ms <= r.merged
      AND r.merged - r.at_ms >= getvariable('until_ms') - o.at_position
  ),
  by_queue AS (
    SELECT o.pr, o.e, o.e AS base_ms, greatest(0, m.merged - m.e) AS ms
    FROM queue_now o
    JOIN line_stays m
      ON m.b = o.b AND m.q = o.q AND m.merged IS NOT NULL
      AND greatest(0, m.merged - m.e) >= getvariable('until_ms') - o.e
  ),
  -- nearest rank: the value of rank ceil(p/100 * n) in ascending order
  quantiles AS (
    SELECT basis, pr, e, any_value(n) AS n,
      any_value(base_ms) + max(ms) FILTER (WHERE k = (50 * n + 99) // 100) AS p50_ms,
      any_value(base_ms) + max(ms) FILTER (WHERE k = (90 * n + 99) // 100) AS p90_ms
    FROM (
      SELECT *, row_number() OVER (PARTITION BY basis, pr, e ORDER BY ms) AS k, count(*) OVER (PARTITION BY basis, pr, e) AS n
      FROM (
        SELECT 'batch' AS basis, * FROM by_batch
        UNION ALL SELECT 'position', * FROM by_position
        UNION ALL SELECT 'queue', * FROM by_queue
      )
    )
    GROUP BY ALL
  )
SELECT
  o.pr AS pull_request,
  o.e AS entered_ms,
  o.position,
  CASE WHEN bt.n >= 5 THEN 'batch' WHEN p.n >= 5 THEN 'position' WHEN q.n >= 5 THEN 'queue' ELSE 'none' END AS eta_basis,
  CASE WHEN bt.n >= 5 THEN bt.n WHEN p.n >= 5 THEN p.n ELSE coalesce(q.n, 0) END AS eta_sample,
  CASE WHEN bt.n >= 5 THEN bt.p50_ms WHEN p.n >= 5 THEN p.p50_ms WHEN q.n >= 5 THEN q.p50_ms END AS eta_p50_ms,
  CASE WHEN bt.n >= 5 THEN bt.p90_ms WHEN p.n >= 5 THEN p.p90_ms WHEN q.n >= 5 THEN q.p90_ms END AS eta_p90_ms
FROM queue_now o
LEFT JOIN quantiles bt ON bt.basis = 'batch' AND bt.pr = o.pr AND bt.e = o.e
LEFT JOIN quantiles p ON p.basis = 'position' AND p.pr = o.pr AND p.e = o.e
LEFT JOIN quantiles q ON q.basis = 'queue' AND q.pr = o.pr AND q.e = o.e;

