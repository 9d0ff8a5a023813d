// What `mq exporter` counts: every event it reads changes counters and histograms at once, from the
// event alone (queued_at is on every queue event, so a time to merge needs no earlier event), and
// the whole state is plain data that --state-dir keeps across restarts. Names, help text and units
// come from the figure catalogue (src/figures/catalogue.ts, section "exporter").
import type { LogEvent } from "../../api/events.js";
import { figureCatalogue, type Figure } from "../../figures/catalogue.js";
import { dialectOf, readField } from "../../insights/dialects.js";
import { exitReason, FAILURE_REASONS } from "../../insights/stays.js";
import type { MetricFamily } from "../../output/openmetrics.js";
import type { QueueEntry } from "../../queue/reconstruct.js";

/** Histogram bounds, seconds: a minute to a week (+Inf implied). */
export const BUCKETS: readonly number[] = [60, 300, 600, 1800, 3600, 7200, 14400, 28800, 86400, 172800, 604800];

const DAY_MS = 86_400_000;

type Labels = Record<string, string>;

interface Histogram {
  labels: Labels;
  /** per bound of BUCKETS, not cumulative */
  counts: number[];
  sum: number;
  count: number;
}

/** The counters and histograms of every repository: the part of the state --state-dir keeps. */
export interface MetricsState {
  counters: Record<string, Record<string, { labels: Labels; value: number }>>;
  histograms: Record<string, Record<string, Histogram>>;
  /** seconds, by repository */
  lastEvent: Record<string, number>;
  /** repository \0 pull request -> ms of its last failed leave (kept a day) */
  evictions: Record<string, number>;
  /**
   * mq_queue_size by label set, as of the last round: a label set once seen stays (a queue that
   * empties shows 0, not nothing)
   */
  queueSize: Record<string, { labels: Labels; value: number }>;
}

export function emptyMetrics(): MetricsState {
  return { counters: {}, histograms: {}, lastEvent: {}, evictions: {}, queueSize: {} };
}

const keyOf = (labels: Labels) => JSON.stringify(Object.entries(labels));

function add(state: MetricsState, name: string, labels: Labels, by = 1): void {
  const family = (state.counters[name] ??= {});
  const key = keyOf(labels);
  const c = (family[key] ??= { labels, value: 0 });
  c.value += by;
}

function observe(state: MetricsState, name: string, labels: Labels, seconds: number): void {
  if (!Number.isFinite(seconds) || seconds < 0) return;
  const family = (state.histograms[name] ??= {});
  const key = keyOf(labels);
  const h = (family[key] ??= { labels, counts: BUCKETS.map(() => 0), sum: 0, count: 0 });
  const i = BUCKETS.findIndex((b) => seconds <= b);
  if (i >= 0) h.counts[i]!++;
  h.sum += seconds;
  h.count++;
}

const ms = (iso: unknown): number | undefined => {
  if (typeof iso !== "string") return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
};

/** partition_name, or the merged event's partition_names (a list: its names joined by commas) */
function partitionOf(metadata: unknown, dialect: ReturnType<typeof dialectOf>): string | undefined {
  const one = readField(metadata, "partition_name", dialect);
  if (one !== undefined) return one;
  const many = (metadata as { partition_names?: unknown } | null)?.partition_names;
  if (typeof many === "string") return many;
  if (Array.isArray(many) && many.every((p) => typeof p === "string")) return many.join(",");
  return undefined;
}

/** Counts one event of REPOSITORY; events of other types change nothing. */
export function countEvent(state: MetricsState, repository: string, ev: LogEvent): void {
  const t = ms(ev.received_at);
  if (t === undefined) return;
  state.lastEvent[repository] = Math.max(state.lastEvent[repository] ?? 0, t / 1000);
  if (!ev.type.startsWith("action.queue.")) return;
  const m = ev.metadata;
  const dialect = dialectOf(ev.type, m);
  const queue = readField(m, "queue_name", dialect) ?? "";
  const partition = partitionOf(m, dialect);
  const queueLabels: Labels = { repository, queue, ...(partition !== undefined ? { partition } : {}) };
  const queuedAt = ms(readField(m, "queued_at", dialect));
  switch (ev.type) {
    case "action.queue.enter":
      add(state, "queue_entered_total", queueLabels);
      break;
    case "action.queue.merged":
      add(state, "queue_merged_total", queueLabels);
      if (queuedAt !== undefined) observe(state, "time_to_merge_seconds", queueLabels, (t - queuedAt) / 1000);
      break;
    case "action.queue.leave": {
      const reason = exitReason(m, dialect);
      add(state, "queue_left_total", { ...queueLabels, reason });
      if (queuedAt !== undefined) observe(state, "queue_time_seconds", queueLabels, (t - queuedAt) / 1000);
      if (FAILURE_REASONS.has(reason) && ev.pull_request !== null) {
        const key = `${repository}\u0000${ev.pull_request}`;
        const before = state.evictions[key];
        if (before !== undefined && t - before <= DAY_MS) add(state, "queue_repeat_evictions_total", { repository, queue });
        state.evictions[key] = t;
      }
      break;
    }
    case "action.queue.checks_end": {
      const outcome = readField(m, "checks_conclusion", dialect) ?? (readField(m, "aborted", dialect) ? "cancelled" : "success");
      add(state, "checks_total", { repository, queue, outcome });
      const started = ms(readField(m, "checks_started_at", dialect));
      const ended = ms(readField(m, "checks_ended_at", dialect));
      if (started !== undefined && ended !== undefined) observe(state, "ci_time_seconds", { repository, queue }, (ended - started) / 1000);
      break;
    }
  }
}

/**
 * REPOSITORY's queue size now: the open stays of `mq queue`'s reconstruction (src/queue), counted
 * by queue and partition (over base refs, which are no label).
 */
export function setQueueSize(state: MetricsState, repository: string, entries: readonly QueueEntry[]): void {
  for (const size of Object.values(state.queueSize)) if (size.labels.repository === repository) size.value = 0;
  for (const { stay } of entries) {
    const labels: Labels = { repository, queue: stay.queue ?? "", ...(stay.partition !== null ? { partition: stay.partition } : {}) };
    const size = (state.queueSize[keyOf(labels)] ??= { labels, value: 0 });
    size.value++;
  }
}

/** Forgets the evictions older than a day before NOW (ms): what memory holds stays a day's worth. */
export function pruneEvictions(state: MetricsState, nowMs: number): void {
  for (const [key, at] of Object.entries(state.evictions)) if (nowMs - at > DAY_MS) delete state.evictions[key];
}

/** A poll of REPOSITORY failed with KIND. */
export function countError(state: MetricsState, repository: string, kind: string): void {
  add(state, "exporter_errors_total", { repository, kind });
}

const EXPORTED: readonly Figure[] = figureCatalogue().filter((f) => f.exporter !== undefined);

const entries = (labels: Labels) => Object.entries(labels) as Array<[string, string]>;
const sorted = <T extends { labels: Labels }>(xs: Iterable<T>) => [...xs].sort((a, b) => keyOf(a.labels).localeCompare(keyOf(b.labels)));

/** Every exported family in the catalogue's order, label sets in a stable order. */
export function metricFamilies(state: MetricsState): MetricFamily[] {
  return EXPORTED.map((f) => {
    const base = {
      name: `mq_${f.name.replace(/_total$/, "").replace(/_seconds$/, "")}`,
      help: f.definition,
      ...(f.name.endsWith("_seconds") ? { unit: "seconds" as const } : {}),
      type: f.exporter!.type,
    };
    if (f.exporter!.type === "histogram") {
      return {
        ...base,
        samples: [],
        histograms: sorted(Object.values(state.histograms[f.name] ?? {})).map((h) => {
          let running = 0;
          return {
            labels: entries(h.labels),
            buckets: BUCKETS.map((b, i) => [b, (running += h.counts[i]!)] as const),
            sum: h.sum,
            count: h.count,
          };
        }),
      };
    }
    if (f.name === "queue_size") {
      return { ...base, samples: sorted(Object.values(state.queueSize)).map((c) => ({ labels: entries(c.labels), value: c.value })) };
    }
    if (f.name === "exporter_last_event_timestamp_seconds") {
      const samples = Object.entries(state.lastEvent)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([repository, value]) => ({ labels: [["repository", repository]] as Array<[string, string]>, value }));
      return { ...base, samples };
    }
    return {
      ...base,
      samples: sorted(Object.values(state.counters[f.name] ?? {})).map((c) => ({ labels: entries(c.labels), value: c.value })),
    };
  });
}
