// `mq stats summary`: the headline figures of a window, each the window value of one endpoint's
// field over all its groups, aggregated exactly as --fail-if's "all groups" does.
import { findStatsEndpoint, type FieldKind, type StatsEndpoint } from "./endpoints.js";
import { figure, SUMMARY_FIGURES, type SummaryFigureName } from "../figures/catalogue.js";
import { judge, statsTargets, targetValue, type FailIfExpr, type GateOptions, type GateScope, type Verdict } from "./fail-if.js";

export const SUMMARY_DESCRIPTION =
  "headline figures of the window: entered, merged, check failure rate, queue time, CI runtime, queue size, retries";

/**
 * Where each headline figure comes from: the endpoint, and the field aggregated over the window.
 * The names are the catalogue's (src/figures/catalogue.ts, SUMMARY_FIGURES, in this order).
 */
export const SUMMARY_SOURCES: Readonly<Record<SummaryFigureName, readonly [string, string]>> = {
  entered: ["queues-entered-count", "entered"],
  merged: ["queues-merged-count", "merged"],
  checks: ["failure-rate", "total"],
  check_failures: ["failure-rate", "failures"],
  check_failure_rate: ["failure-rate", "failure_rate"],
  avg_queue_time: ["total-queue-time", "avg_queue_time"],
  max_queue_time: ["total-queue-time", "max_queue_time"],
  avg_ci_runtime: ["average-ci-runtime", "runtime"],
  avg_queue_size: ["queue-size", "avg_size"],
  max_queue_size: ["queue-size", "max_size"],
  total_retries: ["checks-retries", "total_retries"],
  recovery_rate: ["checks-retries", "recovery_rate"],
};

/** The names the summary's figures had before the catalogue: --fail-if reads them with a warning. */
export const SUMMARY_FORMERLY: Readonly<Record<string, SummaryFigureName>> = Object.fromEntries(
  SUMMARY_FIGURES.flatMap((name) => (figure(name)?.formerly ?? []).map((old) => [old, name] as const)),
);

export type { SummaryFigureName };

/**
 * The summary as printed: the window, then every figure (a count with no events is 0; another
 * figure without a value is null, its reason in `unavailable`).
 */
export type SummaryFigures = { start_at: string; end_at: string } & Record<SummaryFigureName, number | null> & {
    unavailable?: Partial<Record<SummaryFigureName, string>>;
  };

/** The endpoints the summary asks, once each. */
export function summaryEndpoints(): StatsEndpoint[] {
  return [...new Set(Object.values(SUMMARY_SOURCES).map(([e]) => e))].map((n) => findStatsEndpoint(n)!);
}

/** Headline figures from the responses (keyed by endpoint name). */
export function summaryFigures(bodies: ReadonlyMap<string, unknown>): Record<SummaryFigureName, number | null> {
  const out = {} as Record<SummaryFigureName, number | null>;
  for (const [name, [endpointName, field]] of Object.entries(SUMMARY_SOURCES) as Array<[SummaryFigureName, readonly [string, string]]>) {
    const endpoint = findStatsEndpoint(endpointName)!;
    // the "all groups" target of --fail-if, so a summary figure and its gate can never disagree
    const [all] = statsTargets(endpoint, bodies.get(endpointName), field, "all");
    const value = all && all.unavailable === undefined ? targetValue(all, field) : undefined;
    // a count with no events is 0 (a window without retries has 0 retries, not no figure)
    out[name] = value ?? (figure(name)?.unit === "count" && all?.unavailable === undefined ? 0 : null);
  }
  return out;
}

/** Why each figure without a value has none: a ratio of 0 ÷ 0, no rule across groups, or no data. */
export function summaryUnavailable(
  bodies: ReadonlyMap<string, unknown>,
  figures: Record<SummaryFigureName, number | null>,
): Partial<Record<SummaryFigureName, string>> {
  const out: Partial<Record<SummaryFigureName, string>> = {};
  for (const [name, [endpointName, field]] of Object.entries(SUMMARY_SOURCES) as Array<[SummaryFigureName, readonly [string, string]]>) {
    if (figures[name] !== null) continue;
    const [all] = statsTargets(findStatsEndpoint(endpointName)!, bodies.get(endpointName), field, "all");
    const ratio = figure(name)?.ratio;
    out[name] =
      all?.unavailable ??
      (ratio
        ? `no ${ratio.denominator.replace(/_/g, " ")} in the window: ${ratio.numerator} ÷ ${ratio.denominator} is 0 ÷ 0`
        : "no data in the window");
  }
  return out;
}

/** What each figure measures (for --fail-if on the summary): the kind of the field it comes from. */
export function summaryKinds(): Record<SummaryFigureName, FieldKind> {
  const out = {} as Record<SummaryFigureName, FieldKind>;
  for (const [name, [endpointName, field]] of Object.entries(SUMMARY_SOURCES) as Array<[SummaryFigureName, readonly [string, string]]>) {
    out[name] = findStatsEndpoint(endpointName)!.figures[field]!.kind;
  }
  return out;
}

/** The summary's checks: each figure judged over the response of the endpoint it comes from. */
export function judgeSummary(
  exprs: readonly FailIfExpr[],
  bodies: ReadonlyMap<string, unknown>,
  scope: GateScope,
  opts: GateOptions = {},
): Verdict[] {
  return exprs.flatMap((expr) => {
    const [endpointName, field] = SUMMARY_SOURCES[expr.field as SummaryFigureName];
    const endpoint = findStatsEndpoint(endpointName)!;
    return judge(expr, statsTargets(endpoint, bodies.get(endpointName), field, scope), {
      sample: endpoint.sample,
      ...opts,
      sourceField: field,
    });
  });
}
