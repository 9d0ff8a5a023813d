// The queue's check runs (action.queue.checks_end): how many failed, their outcomes, how long CI
// ran, and the retried runs of each session.
import { FACT, type QueueFact } from "../simulate/index.js";
import {
  addRetry,
  addRun,
  addRuntime,
  bump,
  COUNTS,
  RETRY_SESSIONS,
  RUNS,
  RUNTIME,
  sortedCounts,
  type Counts,
  type RetrySessions,
  type Runs,
  type Runtime,
} from "../stats/accumulators.js";
import { bucketIndex, interval } from "../stats/buckets.js";
import { grouped, type EndpointDoc, type Slots, type Spec } from "../stats/engine.js";
import { checkOutcome, FAILED_CONCLUSIONS, isFailedCheck, meta, millis, outcomeOf, round, sessionKey, trainCar } from "../stats/fields.js";
import { byKey, keyOf, matches, SESSIONS, type GroupKey } from "../stats/keys.js";

const CHECKS_END = "action.queue.checks_end";

/** a checks_end fact's outcome (checkOutcome over its event) */
const factOutcome = (f: QueueFact) => outcomeOf(f.text, f.conclusion);

/** failure_rate: runs, and runs whose conclusion is failure, timed_out or error, per interval, zeros included */
export const FAILURE_RATE: Spec<Runs> = {
  types: [CHECKS_END],
  ...RUNS,
  add: (acc, e, t) => addRun(acc(keyOf(e), t), isFailedCheck(e)),
  doc: {
    from: "`action.queue.checks_end`",
    figure:
      "`total` = events; `failures` = those whose `speculative_check_pull_request.checks_conclusion` is `failure`, `timed_out` or `error`; `failure_rate` = failures / total (0 when total is 0)",
  },
  facts: { kinds: [FACT.checksEnd], add: (cell, f, c) => addRun(cell(c.key), FAILED_CONCLUSIONS.has(f.conclusion)) },
  render: (slots, buckets, f) => ({
    groups: grouped(
      slots,
      buckets,
      byKey(f),
      (a, b) => {
        const total = a?.total ?? 0;
        const failures = a?.failures ?? 0;
        return [{ ...interval(b), total, failures, failure_rate: total === 0 ? 0 : failures / total }];
      },
      true,
    ),
  }),
};

/** Checks outcomes (SUCCESS or the abort code) of `checks_end` events, counted per group and slot. */
function checkOutcomes(whole: boolean, doc: EndpointDoc, render: Spec<Counts>["render"]): Spec<Counts> {
  return {
    types: [CHECKS_END],
    whole,
    ...COUNTS,
    add: (acc, e, t) => bump(acc(keyOf(e), t), checkOutcome(e)),
    facts: { kinds: [FACT.checksEnd], add: (cell, f, c) => bump(cell(c.key), factOutcome(f)) },
    doc,
    render,
  };
}

export const QUEUES_CHECKS_OUTCOME_COUNT = checkOutcomes(
  false,
  {
    from: "`action.queue.checks_end`",
    figure:
      "`check_outcome` = `abort_code`, else `SUCCESS` for a successful run (`CHECKS_TIMEOUT` / `CHECKS_FAILED` for an unsuccessful run without a code); `count` per outcome",
  },
  (slots, buckets, f) => ({
    groups: grouped(
      slots,
      buckets,
      byKey(f),
      (a, b) => sortedCounts(a!).map(([check_outcome, count]) => ({ ...interval(b), check_outcome, count })),
      false,
    ),
  }),
);

/** the deprecated endpoint: the same counts over one bucket, the whole window */
export const MERGE_QUEUE_CHECKS_OUTCOME = checkOutcomes(
  true,
  { from: "`action.queue.checks_end`", figure: "the counts of `queues_checks_outcome_count` over the whole window, one object per group" },
  (slots, _buckets, f, from, to) => {
    const groups = grouped(slots, [{ start: from, end: to }], byKey(f), (a) => [Object.fromEntries(sortedCounts(a!))], false);
    return { groups: groups.map((grp) => ({ ...grp, stats: (grp.stats as unknown[])[0] ?? {} })) };
  },
);

/** average_ci_runtime: one run per train car (the pull requests of a batch share it), checks_started_at to checks_ended_at */
export const AVERAGE_CI_RUNTIME: Spec<Runtime> = {
  types: [CHECKS_END],
  ...RUNTIME,
  add: (acc, e, t, sink) => {
    const spec = meta(e).speculative_check_pull_request as Record<string, unknown> | undefined;
    const runtime = millis(spec?.checks_started_at, spec?.checks_ended_at);
    if (runtime === undefined) return;
    const car = trainCar(e);
    if (car !== undefined) {
      if (!sink.first("runtime", car)) return;
    }
    addRuntime(acc(keyOf(e), t), runtime);
  },
  doc: {
    from: "`action.queue.checks_end`",
    figure: "`runtime` = mean of `checks_ended_at` − `checks_started_at` (seconds), once per `train_car_id`",
  },
  facts: {
    kinds: [FACT.checksEnd],
    add: (cell, f, c) => {
      // a: checks_started_at, b: checks_ended_at (ms); flag: the car's first fact
      const runtime = f.b - f.a;
      if (runtime >= 0 && f.flag) addRuntime(cell(c.key), runtime);
    },
  },
  render: (slots, buckets, f, _from, _to, o) => ({
    groups: grouped(
      slots,
      buckets,
      byKey(f),
      (a, b) => [
        {
          ...interval(b),
          runtime: round(a!.ms / 1000 / a!.runs),
          ...(o.sums ? { sum_runtime: round(a!.ms / 1000), count_runtime: a!.runs } : {}),
        },
      ],
      false,
    ),
  }),
};

/** a bucket's sessions with retried runs (checks_retries, as rendered) */
interface RetryTotals {
  retries: number;
  sessions: number;
  recovered: number;
  depthSum: number;
  maxDepth: number;
}

/**
 * checks_retries: per session, its retried runs (retry_attempt >= 1) in the window; the session
 * counts in the bucket of its last retried run, and is recovered when that run succeeded. Sessions
 * span days, so they are kept whole (one slot) and bucketed when rendered.
 */
export const CHECKS_RETRIES: Spec<RetrySessions> = {
  types: [CHECKS_END],
  whole: true,
  ...RETRY_SESSIONS,
  // a session's group key goes as its number
  pack: (a, key) => [...a].map(([sid, s]) => [sid, key(s.key), s.t, s.retries, s.depth, s.lastOk]),
  unpack: (packed, key) =>
    new Map(
      (packed as Array<[string, number, number, number, number, boolean]>).map(([sid, k, t, retries, depth, lastOk]) => [
        sid,
        { key: key(k) as GroupKey, t, retries, depth, lastOk },
      ]),
    ),
  add: (acc, e, t) => {
    const m = meta(e);
    if (typeof m.retry_attempt !== "number" || m.retry_attempt < 1) return;
    addRetry(acc(SESSIONS, t), sessionKey(e) ?? `event:${e.id}`, keyOf(e), t, checkOutcome(e) === "SUCCESS", m.retry_attempt);
  },
  doc: {
    from: "`action.queue.checks_end` with `retry_attempt` ≥ 1",
    figure:
      "per session, in the bucket of its last retried run: `total_retries` = retried runs, `sessions_with_retries`, `recovered` = sessions whose last retried run succeeded, `not_recovered`, `recovery_rate` = recovered / sessions, `avg_retry_depth` / `max_retry_depth` = highest `retry_attempt`",
  },
  facts: {
    kinds: [FACT.checksEnd],
    add: (cell, f, c) => {
      // c: retry_attempt (-1 for null); session: its session_id when retried
      if (f.c >= 1) addRetry(cell(SESSIONS), f.session, c.key, f.t, factOutcome(f) === "SUCCESS", f.c);
    },
  },
  render: (slots, buckets, f) => {
    const bucketed: Slots<RetryTotals> = new Map();
    for (const s of slots.get(0)?.get(SESSIONS)?.values() ?? []) {
      if (!matches(s.key, f)) continue;
      const i = bucketIndex(buckets, s.t);
      let m = bucketed.get(i);
      if (!m) bucketed.set(i, (m = new Map()));
      let a = m.get(s.key);
      if (!a) m.set(s.key, (a = { retries: 0, sessions: 0, recovered: 0, depthSum: 0, maxDepth: 0 }));
      a.retries += s.retries;
      a.sessions++;
      if (s.lastOk) a.recovered++;
      a.depthSum += s.depth;
      a.maxDepth = Math.max(a.maxDepth, s.depth);
    }
    return {
      groups: grouped(
        bucketed,
        buckets,
        () => true,
        (a, b) => [
          {
            ...interval(b),
            total_retries: a!.retries,
            sessions_with_retries: a!.sessions,
            recovered: a!.recovered,
            not_recovered: a!.sessions - a!.recovered,
            recovery_rate: a!.recovered / a!.sessions,
            avg_retry_depth: round(a!.depthSum / a!.sessions),
            max_retry_depth: a!.maxDepth,
          },
        ],
        false,
      ),
    };
  },
};
