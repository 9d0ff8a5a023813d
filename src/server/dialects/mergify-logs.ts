// The real service's /logs filters and /logs/aggregate over a store of service-shaped events
// (mergify-events.ts). Each filter is one predicate; the store's indexes serve event_type, a
// single pull_request and base_ref, as for the contract.
import type { EventStore, PageQuery, StoredEvent } from "../store.js";

/** The decoded query of /logs or /logs/aggregate (names as the OpenAPI has them). */
export interface MergifyLogsQuery {
  pull_request?: number[];
  not_pull_request?: number[];
  base_ref?: string;
  batch_pull?: number[];
  not_batch_pull?: number[];
  event_type?: string[];
  not_event_type?: string[];
  outcome?: string[];
  not_outcome?: string[];
  trigger?: string[];
  not_trigger?: string[];
}

type Meta = Record<string, unknown>;
const BATCH_TYPES = new Set(["action.queue.checks_start", "action.queue.checks_end"]);
const BISECTION_TYPES = new Set(["action.queue.batch_bisection_start", "action.queue.batch_bisection_end"]);

// batch id -> the draft pull request number its checks snapshot, per store and store size (days
// are added to a store as queries reach them)
const batchNumbers = new WeakMap<EventStore, { size: number; map: Map<string, number> }>();

function batchNumberMap(store: EventStore): Map<string, number> {
  const cached = batchNumbers.get(store);
  if (cached && cached.size === store.size) return cached.map;
  const map = new Map<string, number>();
  for (const p of store.allOf("action.queue.checks_start")) {
    const m = store.event(p).metadata as Meta;
    const spec = m.speculative_check_pull_request as Meta | undefined;
    if (typeof m.batch_id === "string" && typeof spec?.number === "number") map.set(m.batch_id, spec.number);
  }
  batchNumbers.set(store, { size: store.size, map });
  return map;
}

/** The batch (draft) pull request an event belongs to: checks events snapshot it, bisections name the batch. */
function batchPullOf(e: StoredEvent, store: EventStore): number | undefined {
  const m = e.metadata as Meta;
  if (BATCH_TYPES.has(e.type)) {
    const n = (m.speculative_check_pull_request as Meta | undefined)?.number;
    return typeof n === "number" ? n : undefined;
  }
  if (BISECTION_TYPES.has(e.type) && typeof m.batch_id === "string") return batchNumberMap(store).get(m.batch_id);
  return undefined;
}

type Facet = "pull_request" | "batch_pull" | "none";

/** the predicate of every filter, but those of `skip` (a facet does not filter itself) */
function predicate(q: MergifyLogsQuery, store: EventStore, skip: Facet = "none"): (e: StoredEvent) => boolean {
  const set = <T>(xs: readonly T[] | undefined) => (xs && xs.length > 0 ? new Set(xs) : undefined);
  const types = set(q.event_type);
  const notTypes = set(q.not_event_type);
  const prs = skip === "pull_request" ? undefined : set(q.pull_request);
  const notPrs = skip === "pull_request" ? undefined : set(q.not_pull_request);
  const batches = skip === "batch_pull" ? undefined : set(q.batch_pull);
  const notBatches = skip === "batch_pull" ? undefined : set(q.not_batch_pull);
  const outcomes = set(q.outcome);
  const notOutcomes = set(q.not_outcome);
  const triggers = set(q.trigger);
  const notTriggers = set(q.not_trigger);
  return (e) => {
    if (types && !types.has(e.type)) return false;
    if (notTypes?.has(e.type)) return false;
    if (q.base_ref !== undefined && e.base_ref !== q.base_ref) return false;
    if (prs && (e.pull_request === null || !prs.has(e.pull_request))) return false;
    if (notPrs && e.pull_request !== null && notPrs.has(e.pull_request)) return false;
    const outcome = e.outcome as string;
    if (outcomes && !outcomes.has(outcome)) return false;
    if (notOutcomes?.has(outcome)) return false;
    if (triggers && !triggers.has(e.trigger)) return false;
    if (notTriggers?.has(e.trigger)) return false;
    if (batches || notBatches) {
      const b = batchPullOf(e, store);
      if (batches && (b === undefined || !batches.has(b))) return false;
      if (notBatches && b !== undefined && notBatches.has(b)) return false;
    }
    return true;
  };
}

/** whether the query filters on batch pull requests (which need the window's whole store: checks events name the batch) */
export function needsBatches(q: MergifyLogsQuery): boolean {
  return (q.batch_pull?.length ?? 0) + (q.not_batch_pull?.length ?? 0) > 0;
}

/**
 * The store query for a page: indexes where they apply, the rest as one predicate. `store` is
 * read only for the batch filters (needsBatches); without them any store will do.
 */
export function pageFilter(q: MergifyLogsQuery, store: EventStore): Pick<PageQuery, "types" | "pullRequest" | "baseRef" | "match"> {
  return {
    types: q.event_type,
    pullRequest: q.pull_request?.length === 1 ? q.pull_request[0] : undefined,
    baseRef: q.base_ref,
    match: predicate(q, store),
  };
}

const SEC = 1000;
/** The service's bucket ladder for the activity histogram (ActivityLogAggregateResponse). */
const HISTOGRAM_STEPS = [15, 30, 120, 600, 1200, 3600, 4 * 3600, 8 * 3600, 86400].map((s) => s * SEC);
const MAX_BUCKETS = 120;

export function histogramStep(rangeMs: number): number {
  return HISTOGRAM_STEPS.find((s) => rangeMs / s <= MAX_BUCKETS) ?? HISTOGRAM_STEPS[HISTOGRAM_STEPS.length - 1]!;
}

const TOP = 200;

function facet(counts: Map<string, number>, top = Infinity): { value: string; count: number }[] {
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, top)
    .map(([value, count]) => ({ value, count }));
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** /logs/aggregate over [from, to] (epoch ms, inclusive), with the filters of /logs. */
export function aggregate(store: EventStore, from: number, to: number, q: MergifyLogsQuery): unknown {
  const step = histogramStep(to - from);
  const first = Math.floor(from / step) * step;
  const counts = new Array<number>(Math.max(1, Math.ceil((to + 1 - first) / step))).fill(0);
  const all = predicate(q, store);
  const noPr = predicate(q, store, "pull_request");
  const noBatch = predicate(q, store, "batch_pull");
  const byType = new Map<string, number>();
  const byOutcome = new Map<string, number>();
  const byTrigger = new Map<string, number>();
  const byPr = new Map<string, number>();
  const byBatch = new Map<string, number>();
  let total = 0;
  const hi = store.upperBound(to);
  for (let p = store.lowerBound(from); p < hi; p++) {
    const e = store.event(p);
    if (noPr(e) && e.pull_request !== null) bump(byPr, String(e.pull_request));
    if (noBatch(e) && BATCH_TYPES.has(e.type)) {
      const b = batchPullOf(e, store);
      if (b !== undefined) bump(byBatch, String(b));
    }
    if (!all(e)) continue;
    total++;
    counts[Math.floor((store.time(p) - first) / step)]!++;
    bump(byType, e.type);
    bump(byOutcome, String(e.outcome));
    bump(byTrigger, e.trigger);
  }
  return {
    total,
    interval_size_seconds: step / SEC,
    histogram: counts.map((count, i) => ({
      start: new Date(first + i * step).toISOString(),
      end: new Date(first + (i + 1) * step).toISOString(),
      count,
    })),
    by_event_type: facet(byType),
    by_outcome: facet(byOutcome),
    by_trigger: facet(byTrigger, TOP),
    by_pull_request: facet(byPr, TOP),
    by_batch_pull_request: facet(byBatch, TOP),
  };
}
