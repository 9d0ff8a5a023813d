// The bodies of test/commands/stats/many.test.ts's loopback server: a body per repository and
// statistic, each figure small enough to work out by hand (the test's expectations are worked out
// from these).
const I1 = { start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z" };
const I2 = { start: "2026-11-20T11:00:00Z", end: "2026-11-20T12:00:00Z" };
const G = { base_ref: "main", partition_name: "__default__", queue_name: "default", priority_rule_name: null };

/** repository → stats path → body; a repository absent here answers 404 */
export const BODIES: Record<string, Record<string, unknown>> = {
  "acme/web": {
    // 1 of 10 checks failed (10%)
    failure_rate: {
      groups: [
        {
          ...G,
          stats: [
            { ...I1, total: 4, failures: 1, failure_rate: 0.25 },
            { ...I2, total: 6, failures: 0, failure_rate: 0 },
          ],
        },
      ],
    },
    total_queue_time: { groups: [{ ...G, stats: [{ ...I1, avg_queue_time: 600, max_queue_time: 900, min_queue_time: 300 }] }] },
    queues_pr_exit_reasons: {
      groups: [
        {
          ...G,
          stats: [
            { ...I1, exit_reason: "SUCCESS", count: 3 },
            { ...I1, exit_reason: "CHECKS_FAILED", count: 1 },
          ],
        },
      ],
    },
    queues_entered_count: {
      groups: [
        {
          ...G,
          stats: [
            { ...I1, entered: 4 },
            { ...I2, entered: 2 },
          ],
        },
      ],
    },
    queues_merged_count: {
      groups: [{ base_ref: "main", partition_names: [], queue_name: "default", priority_rule_name: null, stats: [{ ...I2, merged: 3 }] }],
    },
    average_ci_runtime: { groups: [{ ...G, stats: [{ ...I1, runtime: 300 }] }] },
    queue_size: {
      groups: [
        {
          ...G,
          stats: [
            { ...I1, avg_size: 2, max_size: 3, min_size: 1 },
            { ...I2, avg_size: 1, max_size: 2, min_size: 0 },
          ],
        },
      ],
    },
    checks_retries: {
      groups: [
        {
          ...G,
          stats: [
            {
              ...I1,
              total_retries: 2,
              sessions_with_retries: 2,
              recovered: 1,
              not_recovered: 1,
              recovery_rate: 0.5,
              avg_retry_depth: 1,
              max_retry_depth: 1,
            },
          ],
        },
      ],
    },
  },
  "acme/api": {
    // 9 of 30 checks failed (30%): the total is 10/40 = 25%, not the mean of 10% and 30%
    failure_rate: { groups: [{ ...G, stats: [{ ...I1, total: 30, failures: 9, failure_rate: 0.3 }] }] },
    total_queue_time: { groups: [{ ...G, stats: [{ ...I2, avg_queue_time: 1200, max_queue_time: 3600, min_queue_time: 60 }] }] },
    queues_pr_exit_reasons: { groups: [{ ...G, stats: [{ ...I2, exit_reason: "SUCCESS", count: 5 }] }] },
    queues_entered_count: { groups: [{ ...G, stats: [{ ...I2, entered: 10 }] }] },
    queues_merged_count: {
      groups: [{ base_ref: "main", partition_names: [], queue_name: "default", priority_rule_name: null, stats: [{ ...I2, merged: 7 }] }],
    },
    average_ci_runtime: { groups: [{ ...G, stats: [{ ...I2, runtime: 900 }] }] },
    queue_size: {
      groups: [
        {
          ...G,
          stats: [
            { ...I1, avg_size: 4, max_size: 6, min_size: 2 },
            { ...I2, avg_size: 3, max_size: 5, min_size: 1 },
          ],
        },
      ],
    },
    checks_retries: {
      groups: [
        {
          ...G,
          stats: [
            {
              ...I2,
              total_retries: 6,
              sessions_with_retries: 3,
              recovered: 3,
              not_recovered: 0,
              recovery_rate: 1,
              avg_retry_depth: 2,
              max_retry_depth: 3,
            },
          ],
        },
      ],
    },
  },
  // a hostile server: terminal escapes and a spreadsheet formula in a category it names
  "acme/evil": {
    queues_pr_exit_reasons: {
      groups: [
        {
          ...G,
          stats: [
            { ...I1, exit_reason: "X\u001b[2J\nRED", count: 1 },
            { ...I1, exit_reason: "=HYPERLINK(1)", count: 2 },
          ],
        },
      ],
    },
  },
  "acme/empty1": { failure_rate: { groups: [] } },
  "acme/empty2": { failure_rate: { groups: [] } },
  // the real service's shape: sum_X and count_X behind the average
  "acme/sums1": {
    total_queue_time: {
      groups: [
        {
          ...G,
          stats: [{ ...I1, avg_queue_time: 100, max_queue_time: 200, min_queue_time: 50, sum_queue_time: 300, count_queue_time: 3 }],
        },
      ],
    },
  },
  "acme/sums2": {
    total_queue_time: {
      groups: [
        {
          ...G,
          stats: [{ ...I1, avg_queue_time: 400, max_queue_time: 500, min_queue_time: 300, sum_queue_time: 400, count_queue_time: 1 }],
        },
      ],
    },
  },
};
