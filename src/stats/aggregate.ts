// A field's value over a whole window, from its interval records. Used by --fail-if, by the
// "window" row of each table and by `mq stats summary`, so the three always agree.
//
// The default aggregation depends on what the field means (its rule in the endpoint records of
// ./endpoints.ts); a plain mean of interval values would be wrong for most of them:
// - counts (entered, merged, failures, retries...) are summed;
// - max_* is the maximum and min_* the minimum of the interval values;
// - failure_rate is Σfailures / Σtotal and recovery_rate is Σrecovered / (Σrecovered + Σnot_recovered),
//   never the mean of the interval rates;
// - an average whose record also carries sum_X and count_X (the real service sends them for
//   runtime, queue time and batch size) is Σsum_X / Σcount_X, the exact mean;
// - avg_depth and avg_batch_size_before_split are weighted by bisection_count, avg_retry_depth by
//   sessions_with_retries (the events they average);
// - other averages (queue sizes and running checks, which are time averages, and the averages the
//   contract gives without a count) are weighted by the length of their interval;
// - time-to-merge's mean and median have one value per queue: that value (or the mean of several).
// Records whose value is missing or null are left out; a window with no value gives undefined.

export type Aggregation = "avg" | "max" | "min" | "sum" | "last";
export const AGGREGATIONS: readonly Aggregation[] = ["avg", "max", "min", "sum", "last"];

import { FIGURES, type AggregationRule } from "./endpoints.js";
import { maxOf, minOf } from "../arrays.js";

type Rec = Readonly<Record<string, unknown>>;

/** A field's rule: from the records, or from its name for a field they do not describe. */
export function ruleOf(field: string, over: "window" | "groups" = "window"): AggregationRule {
  const spec = FIGURES.get(field);
  if (spec) return (over === "groups" ? spec.groups : undefined) ?? spec.window;
  if (field.startsWith("max_")) return { by: "max" };
  if (field.startsWith("min_")) return { by: "min" };
  return { by: "mean" };
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function values(records: readonly Rec[], field: string): number[] {
  const out: number[] = [];
  for (const r of records) {
    const v = num(r[field]);
    if (v !== undefined) out.push(v);
  }
  return out;
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function weightedMean(
  records: readonly Rec[],
  field: string,
  weight: (r: Rec) => number | undefined,
  overItems = false,
): number | undefined {
  let total = 0;
  let weights = 0;
  for (const r of records) {
    const v = num(r[field]);
    const w = weight(r);
    if (v === undefined || w === undefined) continue;
    total += v * w;
    weights += w;
  }
  if (weights === 0) {
    // weighted by a count that is 0 everywhere: a mean over nothing is no figure (0 ÷ 0), and a
    // plain mean of the values would be one nobody measured
    if (overItems) return undefined;
    // records without an interval (time-to-merge's one value per queue): their mean
    const xs = values(records, field);
    return xs.length ? sum(xs) / xs.length : undefined;
  }
  return total / weights;
}

function intervalSeconds(r: Rec): number | undefined {
  const start = Date.parse(String(r.start));
  const end = Date.parse(String(r.end));
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return undefined;
  return (end - start) / 1000;
}

/** How the default aggregation of `field` is computed, in words (for --help and the README). */
export function defaultAggregationOf(field: string): string {
  const rule = ruleOf(field);
  switch (rule.by) {
    case "sum":
    case "max":
    case "min":
      return rule.by;
    case "ratio":
      return `Σ${rule.num} / Σ(${rule.den.join(" + ")})`;
    case "weighted":
      return `mean weighted by ${rule.weight}`;
    case "mean":
      return "mean weighted by interval length (Σsum / Σcount when the API sends them)";
  }
}

/** The value of `field` over the window (the default aggregation). */
export function windowValue(field: string, records: readonly Rec[]): number | undefined {
  return applyRule(ruleOf(field), field, records);
}

function applyRule(rule: AggregationRule, field: string, records: readonly Rec[]): number | undefined {
  const xs = values(records, field);
  switch (rule.by) {
    case "sum":
      return xs.length ? sum(xs) : undefined;
    case "max":
      return xs.length ? maxOf(xs) : undefined;
    case "min":
      return xs.length ? minOf(xs) : undefined;
    case "ratio": {
      const numerator = sum(values(records, rule.num));
      const denominator = sum(rule.den.flatMap((d) => values(records, d)));
      if (denominator > 0) return numerator / denominator;
      // zero checks in the window: there is no rate (0% would pass a threshold on no evidence)
      if (records.some((r) => num(r[rule.num]) !== undefined)) return undefined;
      // counts absent (a server beyond the contract): the mean of the rates is all there is
      return xs.length ? sum(xs) / xs.length : undefined;
    }
    case "weighted":
    case "mean": {
      if (!xs.length) return undefined;
      // the real service's sum_X and count_X give the exact mean, whatever else weighs the field
      const base = field.replace(/^avg_/, "");
      const sumKey = (rule.by === "mean" && rule.sum) || `sum_${base}`;
      const countKey = (rule.by === "mean" && rule.count) || `count_${base}`;
      if (records.every((r) => num(r[sumKey]) !== undefined && num(r[countKey]) !== undefined)) {
        const count = sum(values(records, countKey));
        if (count > 0) return sum(values(records, sumKey)) / count;
      }
      if (rule.by === "weighted") return weightedMean(records, field, (r) => num(r[rule.weight]), true);
      return weightedMean(records, field, intervalSeconds);
    }
  }
}

/** An explicit aggregation of the interval values (records in time order for `last`). */
export function aggregate(agg: Aggregation, field: string, records: readonly Rec[]): number | undefined {
  const xs = values(records, field);
  if (!xs.length) return undefined;
  switch (agg) {
    case "avg":
      return sum(xs) / xs.length;
    case "max":
      return maxOf(xs);
    case "min":
      return minOf(xs);
    case "sum":
      return sum(xs);
    case "last":
      return xs[xs.length - 1];
  }
}

/**
 * One record per interval with every group's records of that interval combined, each field as
 * windowValue combines it (counts summed, rates from the summed counts, max of max, ...): what
 * `last(entered)` or `max(failure_rate)` over "all groups" must see, rather than each group's
 * intervals one after another. Records come out in time order.
 */
export function mergeIntervals(records: readonly Rec[]): Rec[] {
  const byInterval = new Map<string, Rec[]>();
  for (const r of records) {
    const key = `${String(r.start)}\u0000${String(r.end)}`;
    const list = byInterval.get(key);
    if (list) list.push(r);
    else byInterval.set(key, [r]);
  }
  const merged: Rec[] = [];
  for (const group of byInterval.values()) {
    const out: Record<string, unknown> = { start: group[0]!.start, end: group[0]!.end };
    const fields = new Set(group.flatMap((r) => Object.keys(r).filter((k) => num(r[k]) !== undefined)));
    for (const field of fields) {
      // the real service's sum_X / count_X are the counts behind an average: they add up
      out[field] =
        field.startsWith("sum_") || field.startsWith("count_")
          ? sum(values(group, field))
          : applyRule(ruleOf(field, "groups"), field, group);
    }
    merged.push(out);
  }
  return merged.sort((a, b) => Date.parse(String(a.start)) - Date.parse(String(b.start)));
}

/**
 * Why `field` has no exact value over `records` pooled from several parts: repositories (the
 * total of `--repo a,b`) or groups (a response's "all groups" row, `mq stats summary`); undefined:
 * it has one, windowValue's. Counts and sums add, extremes combine, a rate is Σnum / Σden and a
 * weighted mean Σ(value × weight) / Σweight; an average over items needs the count behind it (the
 * real service's sum_X / count_X), and a percentile never combines. An average of averages would
 * be a number nobody measured: the total says it is not available and why (the catalogue's rule).
 */
export function totalUnavailable(
  field: string,
  records: readonly Rec[],
  parts: "repositories" | "groups" = "repositories",
): string | undefined {
  const spec = FIGURES.get(field);
  if (spec?.percentile !== undefined) {
    const each = parts === "groups" ? "group" : "repository";
    return `the ${spec.percentile === 50 ? "median" : `p${spec.percentile}`} of each ${each} does not give the one of all (mq insights${parts === "repositories" ? " --repo" : ""} computes exact percentiles from the events)`;
  }
  const rule = ruleOf(field, parts === "groups" ? "groups" : "window");
  const valued = records.filter((r) => num(r[field]) !== undefined);
  switch (rule.by) {
    case "sum":
    case "max":
    case "min":
      return undefined;
    case "ratio":
      return valued.length > 0 && !records.some((r) => num(r[rule.num]) !== undefined)
        ? `the API sends ${field} without ${rule.num} and ${rule.den.join(" + ")}, the counts it is a ratio of`
        : undefined;
    case "weighted":
      return valued.every((r) => num(r[rule.weight]) !== undefined)
        ? undefined
        : `the API sends ${field} without ${rule.weight}, the count it averages over`;
    case "mean": {
      if (rule.over === "time") return undefined;
      const base = field.replace(/^avg_/, "");
      const sumKey = rule.sum ?? `sum_${base}`;
      const countKey = rule.count ?? `count_${base}`;
      // windowValue uses them only when every record carries them
      if (records.every((r) => num(r[sumKey]) !== undefined && num(r[countKey]) !== undefined)) return undefined;
      return `the API sends ${field} without the count behind it (no ${sumKey} and ${countKey}), and an average of averages would be wrong`;
    }
  }
}
