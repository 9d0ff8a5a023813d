// What `mq exporter` serves, as entries of the figure catalogue (catalogue.ts makes each a Figure
// of the section "exporter"): the metric is `mq_` + name; a counter's name ends in _total, a
// duration's in _seconds. Plain data, so the catalogue and the exporter read the same names.

/** What the counters and histograms read, unless an entry says otherwise. */
export const SINCE_START = "the events received at or after --since (or the exporter's start), as they arrive";

export interface ExportedFigure {
  readonly name: string;
  readonly unit: "count" | "seconds" | "timestamp";
  readonly type: "counter" | "gauge" | "histogram";
  readonly labels: readonly string[];
  readonly definition: string;
  readonly reads?: string;
}

const QUEUE_LABELS = ["repository", "queue", "partition"] as const;

export const EXPORTED_FIGURES: readonly ExportedFigure[] = [
  {
    name: "queue_size",
    unit: "count",
    type: "gauge",
    labels: QUEUE_LABELS,
    definition:
      "Pull requests in the queue now: the open stays of mq queue's reconstruction at the exporter's last round (its 7-day lookback, stays entered before --since included), by queue and partition.",
    reads: "every queue event of the 7 days before each round (the open stays' events kept between rounds)",
  },
  {
    name: "queue_entered_total",
    unit: "count",
    type: "counter",
    labels: QUEUE_LABELS,
    definition: "Pull requests that entered a queue: action.queue.enter events.",
  },
  {
    name: "queue_merged_total",
    unit: "count",
    type: "counter",
    labels: QUEUE_LABELS,
    definition: "Pull requests the queue merged: action.queue.merged events.",
  },
  {
    name: "queue_left_total",
    unit: "count",
    type: "counter",
    labels: [...QUEUE_LABELS, "reason"],
    definition: "Pull requests that left a queue, by exit reason (the abort code; SUCCESS for a merge): action.queue.leave events.",
  },
  {
    name: "queue_repeat_evictions_total",
    unit: "count",
    type: "counter",
    labels: ["repository", "queue"],
    definition:
      "Pull requests that left a queue failed (checks, conflicts, merge errors) within a day of having left it failed before: the second and later evictions.",
    reads: `${SINCE_START}; each failed leave's pull request remembered for a day of event time`,
  },
  {
    name: "checks_total",
    unit: "count",
    type: "counter",
    labels: ["repository", "queue", "outcome"],
    definition: "Queue checks that ended, by outcome (success, failure, timed_out, cancelled, ...): action.queue.checks_end events.",
  },
  {
    name: "time_to_merge_seconds",
    unit: "seconds",
    type: "histogram",
    labels: QUEUE_LABELS,
    definition: "The time from entering the queue (queued_at) to being merged, one observation per merged event.",
  },
  {
    name: "queue_time_seconds",
    unit: "seconds",
    type: "histogram",
    labels: QUEUE_LABELS,
    definition: "The time from entering the queue (queued_at) to leaving it, merged or not, one observation per leave event.",
  },
  {
    name: "ci_time_seconds",
    unit: "seconds",
    type: "histogram",
    labels: ["repository", "queue"],
    definition: "The time a queue check ran, from its start to its end, one observation per checks_end event that gives both.",
  },
  {
    name: "exporter_last_event_timestamp_seconds",
    unit: "timestamp",
    type: "gauge",
    labels: ["repository"],
    definition: "When the newest event the exporter has read of the repository was received (Unix time, seconds).",
    reads: "the events read so far",
  },
  {
    name: "exporter_errors_total",
    unit: "count",
    type: "counter",
    labels: ["repository", "kind"],
    definition: "Polls of a repository that failed, by kind (auth, not_found, rate_limited, server, network, contract, other).",
    reads: "the exporter's own polls",
  },
];
