// The catalogue of figures: every number mq prints, once. A figure's name is unique (two quantities
// never share one), and its entry says its unit, what it is in one sentence, the numerator and
// denominator of a ratio, the events or endpoint it reads, where it is printed, and how it combines
// across groups, repositories and intervals. `mq help figures` prints it, docs/figures.md is
// generated from it (scripts/gen-figures.mjs), --fail-if resolves names through it and the
// OpenMetrics exporter takes its metric names and help text from it.
//
// The statistics endpoints' fields keep the names the API gives them in the responses (`-o json`
// is the body as sent); an entry lists them as `api` ("failure-rate.failure_rate"). How an endpoint
// field aggregates is its record's rule (src/stats/endpoints.ts): the entries below are derived
// from those records, so a rule and its description cannot drift apart.
// Plain data and small functions: nothing here reads the network or the terminal.
import { EXPORTED_FIGURES, SINCE_START } from "./exporter-figures.js";
import { STATS_ENDPOINTS, type AggregationRule, type FieldSpec, type StatsEndpoint } from "../stats/endpoints.js";

export type FigureUnit = "count" | "ratio" | "seconds" | "size" | "per_day" | "timestamp" | "text" | "flag";

/** How a figure combines: across groups, across repositories, or over the intervals of a window. */
export type Combination =
  | { by: "sum" }
  | { by: "max" }
  | { by: "min" }
  /** recomputed from the summed numerator and denominator, never a mean of rates */
  | { by: "ratio"; num: string; den: string }
  /** a mean weighted by the named count */
  | { by: "weighted"; weight: string }
  /** Σsum ÷ Σcount from the counts the API sends with it; n/a where it sends none */
  | { by: "sum-over-count"; sum: string; count: string; otherwise: string }
  /** a level over time: the mean weighted by interval length (exact for a time average) */
  | { by: "time" }
  /** recomputed from the pooled stays of every part (mq insights: exact) */
  | { by: "pooled" }
  /** there is one value: no combination happens */
  | { by: "single"; why: string }
  /** no rule gives it: n/a, and why */
  | { by: "none"; reason: string };

export interface Figure {
  /** the name mq uses everywhere (--fail-if, summary records, insights figures, prs fields) */
  readonly name: string;
  readonly unit: FigureUnit;
  /** one sentence */
  readonly definition: string;
  /** a ratio's numerator and denominator, by figure name */
  readonly ratio?: { readonly numerator: string; readonly denominator: string };
  /** the events (or the endpoint) it is read from */
  readonly reads: string;
  /** the commands that print it */
  readonly shownBy: readonly string[];
  /** where the statistics API sends it: "endpoint.field" */
  readonly api?: readonly string[];
  readonly groups: Combination;
  readonly repositories: Combination;
  readonly intervals: Combination;
  /** its OpenMetrics family (before the unit suffix) */
  readonly metric?: string;
  /** names it had before, accepted by --fail-if with a deprecation warning */
  readonly formerly?: readonly string[];
  /** what `mq exporter` serves it as (its name: the figure's, with mq_ in front) */
  readonly exporter?: { readonly type: "counter" | "gauge" | "histogram"; readonly labels: readonly string[] };
  /** the catalogue's section */
  readonly section: "stats" | "summary" | "insights" | "stay" | "exporter";
}

// ---------------------------------------------------------------------------------------------
// the statistics endpoints' fields

/** Catalogue names of endpoint fields whose API name alone would say too little or clash. */
const RENAMED: Readonly<Record<string, string>> = {
  "failure-rate.failure_rate": "check_failure_rate",
  "failure-rate.total": "checks",
  "failure-rate.failures": "check_failures",
  "merge-queue-checks-outcome.count": "check_outcomes",
  "queues-checks-outcome-count.count": "check_outcomes",
  "queues-pr-exit-reasons.count": "exits",
  "time-to-merge.mean": "time_to_merge_mean",
  "time-to-merge.median": "time_to_merge_median",
  "average-ci-runtime.runtime": "avg_ci_runtime",
  "idle-queue-time.ci_runtime": "avg_ci_runtime",
  "average-queue-time.queue_time": "avg_queue_time",
  "average-queue-time.idle_capacity": "avg_idle_capacity",
  "average-queue-time.idle_schedule": "avg_idle_schedule",
  "average-queue-time.idle_freeze": "avg_idle_freeze",
  "idle-queue-time.idle_capacity": "avg_idle_capacity",
  "idle-queue-time.idle_schedule": "avg_idle_schedule",
  "idle-queue-time.idle_freeze": "avg_idle_freeze",
  "queue-size.avg_size": "avg_queue_size",
  "queue-size.max_size": "max_queue_size",
  "queue-size.min_size": "min_queue_size",
};

const IDLE = {
  capacity: "waiting for a free slot (capacity)",
  schedule: "waiting outside the queue's schedule",
  freeze: "waiting while the queue was frozen",
};

/** One sentence per endpoint field, by catalogue name. */
const DEFINITIONS: Readonly<Record<string, string>> = {
  time_to_merge_mean: "The mean time from entering the queue to being merged, per partition and queue, as the API computes it.",
  time_to_merge_median: "The median time from entering the queue to being merged, per partition and queue, as the API computes it.",
  check_outcomes: "Queue checks that ended with each outcome (success or an abort code).",
  entered: "Pull requests that entered a queue.",
  merged: "Pull requests the queue merged.",
  avg_ci_runtime: "The mean time a queue check ran, from its start to its end.",
  avg_queue_time: "The mean time a pull request spent in the queue, from entering to leaving.",
  max_queue_time: "The longest time a pull request spent in the queue.",
  min_queue_time: "The shortest time a pull request spent in the queue.",
  avg_idle_capacity: `The mean time a pull request spent ${IDLE.capacity}.`,
  avg_idle_schedule: `The mean time a pull request spent ${IDLE.schedule}.`,
  avg_idle_freeze: `The mean time a pull request spent ${IDLE.freeze}.`,
  p95_idle_capacity: `The 95th percentile of the time spent ${IDLE.capacity}, as the API computes it.`,
  p95_idle_schedule: `The 95th percentile of the time spent ${IDLE.schedule}, as the API computes it.`,
  p95_idle_freeze: `The 95th percentile of the time spent ${IDLE.freeze}, as the API computes it.`,
  p95_ci_runtime: "The 95th percentile of the time a queue check ran, as the API computes it.",
  max_idle_capacity: `The longest time spent ${IDLE.capacity}.`,
  max_idle_schedule: `The longest time spent ${IDLE.schedule}.`,
  max_idle_freeze: `The longest time spent ${IDLE.freeze}.`,
  max_ci_runtime: "The longest time a queue check ran.",
  sum_idle_capacity: `The total time spent ${IDLE.capacity}.`,
  sum_idle_schedule: `The total time spent ${IDLE.schedule}.`,
  sum_idle_freeze: `The total time spent ${IDLE.freeze}.`,
  sum_ci_runtime: "The total time queue checks ran.",
  count_idle: "The pull requests the idle times and CI runtime of idle-queue-time are averaged over.",
  batches_saved: "Batches whose checks were skipped because a later batch's result covered them.",
  avg_queue_size: "The number of pull requests in the queue, averaged over time.",
  max_queue_size: "The most pull requests in the queue at once.",
  min_queue_size: "The fewest pull requests in the queue at once.",
  avg_running_checks: "The number of speculative checks running at once, averaged over time.",
  max_running_checks: "The most speculative checks running at once.",
  min_running_checks: "The fewest speculative checks running at once.",
  avg_batch_size: "The mean number of pull requests tested together in a batch.",
  max_batch_size: "The largest batch.",
  min_batch_size: "The smallest batch.",
  bisection_count: "Batch bisections started.",
  avg_depth: "The mean depth a bisection reached.",
  max_depth: "The deepest a bisection went.",
  avg_batch_size_before_split: "The mean size of a batch when its bisection started.",
  bisection_completed_count: "Batch bisections completed.",
  culprit_found_count: "Completed bisections that found the pull request at fault.",
  max_failure_reached_count: "Completed bisections that stopped at the maximum number of failures (a count, whatever its name says).",
  total_retries: "Queue checks that were retries.",
  sessions_with_retries: "Queue sessions in which at least one check was retried.",
  recovered: "Sessions with retries whose checks passed after a retry.",
  not_recovered: "Sessions with retries whose checks still failed.",
  recovery_rate: "The share of sessions with retries that a retry recovered.",
  avg_retry_depth: "The mean number of retries in a session with retries.",
  max_retry_depth: "The most retries in one session.",
  checks: "Queue checks that ended (check runs of the queue's speculative checks).",
  check_failures: "Queue checks that ended in failure, timed out or error.",
  check_failure_rate: "The share of queue checks that failed: failed checks ÷ checks.",
  exits: "Pull requests that left a queue, once per queue session, by exit reason (SUCCESS for a merge).",
};

function unitOf(spec: FieldSpec): FigureUnit {
  return spec.kind === "duration" ? "seconds" : spec.kind === "rate" ? "ratio" : spec.kind;
}

const nameOf = (endpoint: string, field: string) => RENAMED[`${endpoint}.${field}`] ?? field;

/** An endpoint record's aggregation rule as a combination, over intervals or across groups and repositories. */
function combinationOf(
  endpoint: StatsEndpoint,
  field: string,
  spec: FieldSpec,
  over: "intervals" | "groups" | "repositories",
): Combination {
  if (endpoint.shape === "time-to-merge") {
    return over === "intervals"
      ? { by: "single", why: "one value per partition and queue over the whole window" }
      : {
          by: "none",
          reason: `one ${field} per partition and queue without the number of merges behind it: no rule combines them (mq insights gives time_to_merge over every queue)`,
        };
  }
  if (spec.percentile !== undefined && over !== "intervals") {
    return {
      by: "none",
      reason: "a percentile of each part does not give the percentile of all (mq insights computes exact ones from the events)",
    };
  }
  const rule: AggregationRule = (over === "groups" ? spec.groups : undefined) ?? spec.window;
  switch (rule.by) {
    case "sum":
    case "max":
    case "min":
      return { by: rule.by };
    case "ratio":
      return { by: "ratio", num: nameOf(endpoint.name, rule.num), den: rule.den.map((d) => nameOf(endpoint.name, d)).join(" + ") };
    case "weighted":
      return { by: "weighted", weight: rule.weight };
    case "mean": {
      if (rule.over === "time") return { by: "time" };
      const base = field.replace(/^avg_/, "");
      const sum = rule.sum ?? `sum_${base}`;
      const count = rule.count ?? `count_${base}`;
      return {
        by: "sum-over-count",
        sum,
        count,
        otherwise:
          over === "intervals"
            ? "without them (the contract), the interval means weighted by interval length: an estimate"
            : "without them (the contract) the mean of each part's mean would be a figure nobody measured: n/a",
      };
    }
  }
}

function statsFigures(): Figure[] {
  const byName = new Map<string, { endpoint: StatsEndpoint; field: string; spec: FieldSpec; api: string[]; shownBy: string[] }>();
  for (const e of STATS_ENDPOINTS) {
    for (const [field, spec] of Object.entries(e.figures)) {
      const name = nameOf(e.name, field);
      const seen = byName.get(name);
      if (seen) {
        seen.api.push(`${e.name}.${field}`);
        seen.shownBy.push(`mq stats ${e.name}`);
      } else byName.set(name, { endpoint: e, field, spec, api: [`${e.name}.${field}`], shownBy: [`mq stats ${e.name}`] });
    }
  }
  return [...byName].map(([name, { endpoint, field, spec, api, shownBy }]) => {
    const rule = spec.window;
    return {
      name,
      section: "stats" as const,
      unit: unitOf(spec),
      definition: DEFINITIONS[name] ?? `${field} of mq stats ${endpoint.name}.`,
      ...(rule.by === "ratio"
        ? { ratio: { numerator: nameOf(endpoint.name, rule.num), denominator: rule.den.map((d) => nameOf(endpoint.name, d)).join(" + ") } }
        : {}),
      reads: `the statistics endpoint${api.length > 1 ? "s" : ""} ${[...new Set(api.map((a) => a.split(".")[0]))].join(", ")}`,
      shownBy,
      api,
      groups: combinationOf(endpoint, field, spec, "groups"),
      repositories: combinationOf(endpoint, field, spec, "repositories"),
      intervals: combinationOf(endpoint, field, spec, "intervals"),
      metric: `mq_queue_${metricStem(endpoint, field, name)}`,
      ...(name === "check_failure_rate" ? { formerly: ["failure_rate"] } : {}),
    };
  });
}

/** The OpenMetrics family of an endpoint field: the record's metric name, else the catalogue name. */
function metricStem(endpoint: StatsEndpoint, field: string, name: string): string {
  return name === "check_failure_rate" ? name : (endpoint.metricNames?.[field] ?? field);
}

// ---------------------------------------------------------------------------------------------
// mq insights and the stays of mq prs / mq pr: figures rebuilt from the event log

const QUEUE_EVENTS = "the queue events of the log (action.queue.*)";
const ALL_QUEUES = { by: "pooled" } as const;
const STAY_VALUE: Combination = { by: "single", why: "one stay's own value" };

/** A figure of `mq insights`: over every queue (no groups), repositories pooled, the window read whole. */
function insights(name: string, unit: FigureUnit, definition: string, repositories: Combination, extra: Partial<Figure> = {}): Figure {
  return {
    name,
    section: "insights",
    unit,
    definition,
    reads: QUEUE_EVENTS,
    shownBy: ["mq insights"],
    groups: ALL_QUEUES,
    repositories,
    intervals: { by: "pooled" },
    ...extra,
  };
}

/** A field of a stay (`mq prs`, `mq pr N`, the slowest stays of `mq insights`). */
function stay(name: string, unit: FigureUnit, definition: string): Figure {
  return {
    name,
    section: "stay",
    unit,
    definition,
    reads: QUEUE_EVENTS,
    shownBy: ["mq prs", "mq pr"],
    groups: STAY_VALUE,
    repositories: STAY_VALUE,
    intervals: STAY_VALUE,
  };
}

/** The distributions of `mq insights`: a stay field over the stays of the window. */
export const DISTRIBUTION_OVER: Readonly<Record<string, string>> = {
  time_to_merge: "the stays merged in the window",
  queue_time: "the stays that left in the window",
  ci_time:
    "the stays that entered and left in the window and ran checks (one begun before it is left out: the window does not hold it whole)",
  wait_time: "the stays that entered and left in the window (one begun before it is left out: the window does not hold it whole)",
};

const STATISTIC_TEXT: Readonly<Record<string, string>> = {
  count: "The number of",
  avg: "The mean",
  p50: "The median (nearest rank: the value of rank ⌈0.5·n⌉) of",
  p90: "The 90th percentile (nearest rank: the value of rank ⌈0.9·n⌉) of",
  p95: "The 95th percentile (nearest rank: the value of rank ⌈0.95·n⌉) of",
  p99: "The 99th percentile (nearest rank: the value of rank ⌈0.99·n⌉) of",
  max: "The largest",
};

function insightsFigures(): Figure[] {
  const sum: Combination = { by: "sum" };
  const out: Figure[] = [
    insights("left", "count", "Stays that left a queue in the window, merged or not (as queues-pr-exit-reasons counts them).", sum),
    insights("failed", "count", "Stays that left a queue in the window after failing: checks, conflicts, merge errors.", sum),
    insights(
      "stay_failure_rate",
      "ratio",
      "The share of the stays that left in the window that left failed: failed ÷ left (not the check failure rate of mq stats).",
      { by: "ratio", num: "failed", den: "left" },
      { ratio: { numerator: "failed", denominator: "left" }, formerly: ["failure_rate"] },
    ),
    insights("throughput", "per_day", "Pull requests merged per day of the window: merged ÷ the window's length in days.", {
      by: "ratio",
      num: "merged",
      den: "days",
    }),
  ];
  out.push(
    insights(
      "exit_reason(REASON)",
      "count",
      "Stays that left in the window with that exit reason (SUCCESS for a merge), as queues-pr-exit-reasons counts them.",
      sum,
    ),
  );
  for (const [dist, over] of Object.entries(DISTRIBUTION_OVER)) {
    for (const [st, text] of Object.entries(STATISTIC_TEXT)) {
      out.push(
        insights(
          `${st}(${dist})`,
          st === "count" ? "count" : "seconds",
          `${text} ${dist} over ${over}.`,
          st === "count" ? sum : { by: "pooled" },
        ),
      );
    }
  }
  return out;
}

function stayFigures(): Figure[] {
  return [
    stay("entered_at", "timestamp", "When the stay entered the queue (queued_at, which every queue event carries)."),
    stay("left_at", "timestamp", "When the stay left the queue (its leave event); null while it is open."),
    stay("merged_at", "timestamp", "When the queue merged the pull request; null unless merged."),
    stay("outcome", "text", "How the stay ended: merged, failed (checks, conflicts, merge errors), dequeued (any other reason) or open."),
    stay("reason", "text", "The exit reason (abort code) of the leave event; SUCCESS for a merge."),
    stay("queue_time", "seconds", "Entering to leaving (to the window's end while open)."),
    stay("time_to_merge", "seconds", "Entering to the merged event; null unless merged."),
    stay(
      "wait_time",
      "seconds",
      "The time in queue with no check run of the stay running (before its first checks, between runs, before the merge): queue_time - ci_time.",
    ),
    stay(
      "idle_capacity",
      "seconds",
      "The waiting time not spent outside the schedule or frozen: waiting for a free slot (wait_time - idle_schedule - idle_freeze).",
    ),
    stay(
      "idle_schedule",
      "seconds",
      "The waiting time outside the queue's schedule, as the leave event gives it, at most the waiting time.",
    ),
    stay(
      "idle_freeze",
      "seconds",
      "The waiting time while the queue was frozen, as the leave event gives it, at most the waiting time left.",
    ),
    stay(
      "ci_time",
      "seconds",
      "The time some check run of the stay was running while it was in the queue, overlapping runs counted once (a run shared by a batch counts for each of its pull requests).",
    ),
    stay("check_runs", "count", "Check runs the stay's pull request was tested in."),
    stay("batch_size", "count", "The largest batch the stay's pull request was tested in."),
    stay("bisections", "count", "Batch bisections the stay's batches went through."),
    stay("began_before_window", "flag", "True when the stay entered before the window (its entry time is still the real one)."),
  ];
}

/** The fields of a row of `mq queue` (src/queue/reconstruct.ts): an open stay at the end of the lookback. */
function queueFigures(): Figure[] {
  const row = (name: string, unit: FigureUnit, definition: string): Figure => ({ ...stay(name, unit, definition), shownBy: ["mq queue"] });
  // the estimate (src/queue/estimate.ts) is also mq wait's status line
  const eta = (name: string, unit: FigureUnit, definition: string): Figure => ({
    ...row(name, unit, definition),
    shownBy: ["mq queue", "mq wait"],
  });
  return [
    row(
      "position",
      "count",
      "1…k within the stay's base ref, queue and partition, in order of entry (queued_at), ties by pull request number; the log gives no priority rank, so a pull request a higher priority moved ahead is not seen ahead.",
    ),
    row("time_in_queue", "seconds", "From entering the queue to the end of the lookback (the instant shown)."),
    row(
      "state",
      "text",
      "What the open stay is doing: checks_running or bisecting (a check run of it started and not ended; bisecting when started for a bisection), else waiting_for_schedule, waiting_for_freeze or paused (its last checks_not_started says so, or its last run was stopped by a freeze or a pause), else waiting_for_capacity.",
    ),
    row(
      "state_since",
      "timestamp",
      "When the state began: the running checks' start, the checks_not_started, the last run's end, or the entry.",
    ),
    eta(
      "eta_p50",
      "timestamp",
      "Estimated merge time, from the stays rebuilt from the same lookback, by the first of four bases with at least 5 samples (eta_basis). Each sample is a merged stay's time from an instant to its merge; kept are those of at least the time this stay has spent since its own such instant, and eta_p50 is that instant plus the median (nearest rank) of the kept. batch (only while a check run of this stay is running: the last started, of b pull requests): the check runs of b pull requests, started in the lookback, of the merged stays of the same base ref, queue and partition, from each run's start (no later than the merge); this stay's instant is its run's start. position: the merged stays of the same base ref, queue and partition that stood at this stay's position p, from when they reached it (one that entered with k stays of its line ahead still in the queue stood at k + 1, and reached p ≤ k + 1 at the (k + 1 − p)-th end, merge or leave, of those; one that merged before reaching p gives none); this stay's instant is the last end of a stay of its line entered before it, or its entry. queue: the merged stays of the same base ref and queue, from entered_at (their time to merge); this stay's instant is its entered_at. none: null.",
    ),
    eta(
      "eta_p90",
      "timestamp",
      "As eta_p50 with the 90th percentile (nearest rank) of the same samples: nine in ten of them had merged by then.",
    ),
    eta(
      "eta_sample",
      "count",
      "The samples eta_p50 and eta_p90 are taken from (the kept of their basis); with basis none, those of the queue basis (fewer than 5).",
    ),
    eta(
      "eta_basis",
      "text",
      "What eta_p50 and eta_p90 are conditioned on: batch (its running check run's batch size and the time since it started), position (its position and the time at it), queue (only its time in queue), or none (fewer than 5 samples on every basis: no estimate).",
    ),
    row(
      "entered_before_lookback",
      "flag",
      "True when the stay's enter event is older than the lookback (its entry time comes from its later events).",
    ),
  ];
}

/** A count a stay has and `mq insights` sums over the stays that left in the window. */
const RETRIES: Figure = {
  ...stay(
    "retries",
    "count",
    "Check runs that were retries (retry_attempt ≥ 1): a stay's own in mq prs and mq pr, summed over the stays that entered and left in the window in mq insights (one begun before it is left out).",
  ),
  shownBy: ["mq prs", "mq pr", "mq insights"],
  repositories: { by: "sum" },
  intervals: { by: "pooled" },
};

// ---------------------------------------------------------------------------------------------
// mq exporter: counters and histograms of the events received since it started (or --since)

function exported(
  name: string,
  unit: FigureUnit,
  type: "counter" | "gauge" | "histogram",
  labels: readonly string[],
  definition: string,
  reads: string,
): Figure {
  // a counter or a histogram's buckets add up across label sets and scrapes (rate() and increase()
  // over intervals); a gauge is a level: the largest, or the sum of the parts, is the query's choice
  const combine: Combination = type === "gauge" ? { by: "single", why: "a level at the time of the scrape" } : { by: "sum" };
  return {
    name,
    section: "exporter",
    unit,
    definition,
    reads,
    shownBy: ["mq exporter"],
    groups: combine,
    repositories: combine,
    intervals: combine,
    exporter: { type, labels },
  };
}

/** What `mq exporter` serves, by figure name (the metric is `mq_` + name). */
const EXPORTER_FIGURES: readonly Figure[] = EXPORTED_FIGURES.map((f) =>
  exported(f.name, f.unit, f.type, f.labels, f.definition, f.reads ?? SINCE_START),
);

// ---------------------------------------------------------------------------------------------
// the catalogue

/** The figures of `mq stats summary`, in its order: catalogue names of endpoint fields. */
export const SUMMARY_FIGURES = [
  "entered",
  "merged",
  "checks",
  "check_failures",
  "check_failure_rate",
  "avg_queue_time",
  "max_queue_time",
  "avg_ci_runtime",
  "avg_queue_size",
  "max_queue_size",
  "total_retries",
  "recovery_rate",
] as const;
export type SummaryFigureName = (typeof SUMMARY_FIGURES)[number];

/** Summary names before the catalogue, accepted by --fail-if with a deprecation warning. */
const SUMMARY_FORMERLY: Readonly<Record<string, SummaryFigureName>> = {
  failure_rate: "check_failure_rate",
  failures: "check_failures",
  retries: "total_retries",
};

function build(): Figure[] {
  const stats = statsFigures().map((f) => {
    const inSummary = (SUMMARY_FIGURES as readonly string[]).includes(f.name);
    const formerly = Object.entries(SUMMARY_FORMERLY)
      .filter(([, now]) => now === f.name)
      .map(([old]) => old);
    const shownBy = [
      ...f.shownBy,
      ...(inSummary ? ["mq stats summary"] : []),
      ...(f.name === "entered" || f.name === "merged" ? ["mq insights"] : []),
    ];
    const reads = f.name === "entered" || f.name === "merged" ? `${f.reads}; mq insights: ${QUEUE_EVENTS}` : f.reads;
    return { ...f, shownBy, reads, ...(formerly.length ? { formerly: [...new Set([...(f.formerly ?? []), ...formerly])] } : {}) };
  });
  return [...stats, ...insightsFigures(), ...stayFigures(), RETRIES, ...queueFigures(), ...EXPORTER_FIGURES];
}

let catalogue: { all: readonly Figure[]; byName: ReadonlyMap<string, Figure> } | undefined;

/** The catalogue's entries, built on first use: `mq --help` and `mq auth status` never ask. */
function built(): NonNullable<typeof catalogue> {
  if (catalogue === undefined) {
    const all = build();
    catalogue = { all, byName: new Map(all.map((f) => [f.name, f])) };
  }
  return catalogue;
}

/** Every figure of the catalogue, in its order. */
export function figureCatalogue(): readonly Figure[] {
  return built().all;
}

export function figure(name: string): Figure | undefined {
  return built().byName.get(name);
}

/** The catalogue name of an endpoint field ("failure-rate", "failure_rate" → "check_failure_rate"). */
export function catalogueNameOf(endpoint: string, field: string): string {
  return nameOf(endpoint, field);
}

/** The figure an old name stands for in a command (`failure_rate` in mq stats summary → check_failure_rate). */
export function formerName(old: string, among: readonly string[]): string | undefined {
  return among.find((n) => figure(n)?.formerly?.includes(old));
}

// ---------------------------------------------------------------------------------------------
