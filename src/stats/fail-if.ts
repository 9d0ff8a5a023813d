// --fail-if EXPR: a CI threshold on one numeric field of a statistics endpoint.
//   EXPR := [AGG "("] FIELD [")"] OP VALUE
//   AGG  := avg | max | min | sum | last          (absent: the field's value over the window)
//   OP   := > | >= | < | <= | == | !=
//   VALUE:= a number, a percentage (20% = 0.2) or a duration (90s, 30m, 1h, 2d)
// Parsed while flags are parsed, so a bad expression is a usage error before any request; evaluated
// per series (a group, or a group and outcome/reason) and, when there are several, over all of them.
import { UsageError } from "../errors.js";
import { parseDurationSeconds } from "../validators.js";
import { AGGREGATIONS, aggregate, mergeIntervals, windowValue, type Aggregation } from "./aggregate.js";
import type { StatsEndpoint } from "./endpoints.js";
import { describeKeys, toGroups, toSeries } from "./series.js";

export type Operator = ">" | ">=" | "<" | "<=" | "==" | "!=";
export const OPERATORS: readonly Operator[] = [">", ">=", "<", "<=", "==", "!="];

export interface FailIfExpr {
  /** the expression as the user wrote it */
  source: string;
  aggregation?: Aggregation;
  field: string;
  op: Operator;
  threshold: number;
}

const EXPR = /^\s*(?:([A-Za-z_][\w]*)\s*\(\s*([A-Za-z_][\w]*)\s*\)|([A-Za-z_][\w]*))\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$/;

const SYNTAX_HELP =
  "write FIELD OP VALUE or AGG(FIELD) OP VALUE, with OP one of > >= < <= == != and AGG one of avg, max, min, sum, last";

/** A threshold as --fail-if takes it: a number, a percentage (20% = 0.2) or a duration in seconds (30m). */
export function parseThreshold(text: string): number | undefined {
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  const pct = /^([-+]?(?:\d+\.?\d*|\.\d+))%$/.exec(text);
  if (pct) return Number(pct[1]) / 100;
  return parseDurationSeconds(text);
}

/** Parses one --fail-if value against the numeric fields of `endpointName`. */
export function parseFailIf(source: string, endpointName: string, fields: readonly string[]): FailIfExpr {
  if (fields.length === 0) {
    throw new UsageError(`--fail-if is not available for mq stats ${endpointName}: it returns names, not figures.`);
  }
  const m = EXPR.exec(source);
  if (!m) throw new UsageError(`--fail-if "${source}" is not an expression: ${SYNTAX_HELP}; fields of mq stats ${endpointName}: ${fields.join(", ")}.`);
  const [, agg, aggField, bareField, op, value] = m;
  if (agg !== undefined && !(AGGREGATIONS as readonly string[]).includes(agg)) {
    throw new UsageError(`--fail-if "${source}": unknown aggregation "${agg}"; use one of ${AGGREGATIONS.join(", ")}.`);
  }
  const field = (aggField ?? bareField)!;
  if (!fields.includes(field)) {
    throw new UsageError(`--fail-if "${source}": unknown field "${field}" for mq stats ${endpointName}; fields: ${fields.join(", ")}.`);
  }
  const threshold = parseThreshold(value!);
  if (threshold === undefined || !Number.isFinite(threshold)) {
    throw new UsageError(`--fail-if "${source}": "${value}" is not a number, a percentage (20%) or a duration (30m).`);
  }
  return { source: source.trim(), aggregation: agg as Aggregation | undefined, field, op: op as Operator, threshold };
}

export function compare(value: number, op: Operator, threshold: number): boolean {
  switch (op) {
    case ">":
      return value > threshold;
    case ">=":
      return value >= threshold;
    case "<":
      return value < threshold;
    case "<=":
      return value <= threshold;
    case "==":
      return value === threshold;
    case "!=":
      return value !== threshold;
  }
}

/** The value the expression tests over `records` (undefined when the window has no value). */
export function evaluateValue(expr: FailIfExpr, records: readonly Readonly<Record<string, unknown>>[]): number | undefined {
  return expr.aggregation ? aggregate(expr.aggregation, expr.field, records) : windowValue(expr.field, records);
}

export interface Breach {
  expr: FailIfExpr;
  value: number;
  /** "base_ref main, queue_name default, ..." or "all groups" */
  where: string;
}

export interface CheckTarget {
  where: string;
  records: readonly Readonly<Record<string, unknown>>[];
}

export interface CheckResult {
  breaches: Breach[];
  /** expressions that had no value anywhere (no data in the window) */
  unevaluated: FailIfExpr[];
}

export function check(exprs: readonly FailIfExpr[], targets: readonly CheckTarget[]): CheckResult {
  const breaches: Breach[] = [];
  const unevaluated: FailIfExpr[] = [];
  for (const expr of exprs) {
    let evaluated = false;
    for (const target of targets) {
      const value = evaluateValue(expr, target.records);
      if (value === undefined) continue;
      evaluated = true;
      if (compare(value, expr.op, expr.threshold)) breaches.push({ expr, value, where: target.where });
    }
    if (!evaluated) unevaluated.push(expr);
  }
  return { breaches, unevaluated };
}

/** A number for a breach line: exact but without float noise (0.30000000000000004 → 0.3). */
export function formatValue(value: number): string {
  return String(Number(value.toPrecision(10)));
}

export function describeBreach(b: Breach): string {
  const label = b.expr.aggregation ? `${b.expr.aggregation}(${b.expr.field})` : b.expr.field;
  return `--fail-if '${b.expr.source}' breached: ${label} = ${formatValue(b.value)} (threshold ${b.expr.op} ${formatValue(b.expr.threshold)}) for ${b.where}`;
}

/** The series --fail-if evaluates: each group (and outcome), plus all of them together when several. */
export function checkTargets(endpoint: StatsEndpoint, body: unknown): CheckTarget[] {
  const series = toSeries(endpoint, toGroups(endpoint, body));
  const targets: CheckTarget[] = series.map((s) => ({ where: describeKeys(s), records: s.records }));
  if (series.length > 1) targets.push({ where: "all groups", records: mergeIntervals(series.flatMap((s) => s.records)) });
  return targets;
}
