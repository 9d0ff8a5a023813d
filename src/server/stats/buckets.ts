// The intervals a statistics window is cut into (docs/server.md, "the interval ladder").

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// buckets are aligned on Mondays 00:00 UTC (1970-01-05), so days and weeks start where people expect
const ALIGN = 4 * DAY;

/**
 * The most intervals a window is cut into. The count endpoints list every interval of every group,
 * zeros included, so without a bound a window of 0001..9999 made a 279 MB answer.
 */
export const MAX_INTERVALS = 1000;

/** The interval ladder: the bucket length for a range (docs/server.md). */
export function intervalFor(rangeMs: number): number {
  if (rangeMs <= 2 * HOUR) return 5 * MIN;
  if (rangeMs <= 2 * DAY) return HOUR;
  if (rangeMs <= 14 * DAY) return 6 * HOUR;
  if (rangeMs <= 62 * DAY) return DAY;
  if (rangeMs <= 366 * DAY) return 7 * DAY;
  // a multiple of 30 days: a clipped first and last bucket make at most ceil(range / step) + 1
  // intervals, so a step of at least range / (MAX_INTERVALS - 1) keeps within the bound
  return 30 * DAY * Math.max(1, Math.ceil(rangeMs / ((MAX_INTERVALS - 1) * 30 * DAY)));
}

export interface Bucket {
  start: number;
  end: number;
}

/** Buckets covering [from, to), on multiples of the interval, the first and last clipped. */
export function bucketsFor(from: number, to: number): Bucket[] {
  const step = intervalFor(to - from);
  const out: Bucket[] = [];
  let s = from;
  while (s < to) {
    const next = Math.min(to, Math.floor((s - ALIGN) / step) * step + ALIGN + step);
    out.push({ start: s, end: next });
    s = next;
  }
  return out;
}

/** The bucket a time falls in (buckets are few, at most MAX_INTERVALS: a binary search). */
export function bucketIndex(buckets: readonly Bucket[], t: number): number {
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (buckets[mid]!.start <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const iso = (t: number) => new Date(t).toISOString();

// a bucket's interval is written once per group: formatted once per bucket
const intervals = new WeakMap<Bucket, { start: string; end: string }>();

/** a bucket as an answer's interval record starts: its start and end as text */
export function interval(b: Bucket): { start: string; end: string } {
  let i = intervals.get(b);
  if (!i) intervals.set(b, (i = { start: iso(b.start), end: iso(b.end) }));
  return i;
}
