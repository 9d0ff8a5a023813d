// The gate engine behind --fail-if: parse → targets → verdicts. Reporters (the verdict lines, the
// JSON report, GitHub annotations and step summaries) live in src/output/ and read Verdicts only,
// so another command (mq insights) gates on its own figures by handing judge() its own targets.
//
//   EXPR := [AGG "("] FIELD [")"] OP VALUE
//   AGG  := avg | max | min | sum | last          (absent: the field's value over the window)
//   OP   := > | >= | < | <= | == | !=
//   VALUE:= a number, a percentage (20% = 0.2) or a duration (90s, 30m, 1h, 2d)
//
// Parsed while flags are parsed, so a bad expression is a usage error before any request. A value
// must fit what the field is: a rate takes 0..1 or a percentage, a duration seconds or a duration,
// a count or a size a plain number; `failure_rate > 20` (meaning 20%) would otherwise never fire.
import { UsageError } from "../errors.js";
import { closestMatches } from "../closest.js";
import { parseDurationSeconds } from "../validators.js";
import { AGGREGATIONS, aggregate, mergeIntervals, ruleOf, totalUnavailable, windowValue, type Aggregation } from "./aggregate.js";
import type { FieldKind, SampleSpec, StatsEndpoint } from "./endpoints.js";
import { fieldsOfSection, toGroups, toSeries, type KeyValue } from "./series.js";
import { pushAll } from "../arrays.js";

export type Operator = ">" | ">=" | "<" | "<=" | "==" | "!=";
export const OPERATORS: readonly Operator[] = [">", ">=", "<", "<=", "==", "!="];

/** What a value is measured in: the verdicts print value and threshold in it. */
export type GateUnit = "ratio" | "seconds" | "number";

/** Which figure a check judges: all groups together (what a team means), each group, or both. */
export type GateScope = "all" | "each" | "both";
export const GATE_SCOPES: readonly GateScope[] = ["all", "each", "both"];

export interface FailIfExpr {
  /** the expression as the user wrote it */
  source: string;
  aggregation?: Aggregation;
  field: string;
  op: Operator;
  threshold: number;
  unit: GateUnit;
}

const EXPR = /^\s*(?:([A-Za-z_][\w]*)\s*\(\s*([A-Za-z_][\w]*)\s*\)|([A-Za-z_][\w]*))\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$/;

const SYNTAX_HELP = "write FIELD OP VALUE or AGG(FIELD) OP VALUE, with OP one of > >= < <= == != and AGG one of avg, max, min, sum, last";

type Written = "number" | "percent" | "duration";

/** A threshold as --fail-if takes it: a number, a percentage (20% = 0.2) or a duration in seconds (30m). */
export function parseThreshold(text: string): number | undefined {
  return readThreshold(text)?.value;
}

/** The threshold and how it was written (which decides what fields it fits). */
function readThreshold(text: string): { value: number; written: Written } | undefined {
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return { value: Number(text), written: "number" };
  const pct = /^([-+]?(?:\d+\.?\d*|\.\d+))%$/.exec(text);
  if (pct) return { value: Number(pct[1]) / 100, written: "percent" };
  const seconds = parseDurationSeconds(text);
  return seconds === undefined ? undefined : { value: seconds, written: "duration" };
}

export function unitOf(kind: FieldKind | undefined): GateUnit {
  return kind === "rate" ? "ratio" : kind === "duration" ? "seconds" : "number";
}

/**
 * Parses one --fail-if value. `subject` names the command in messages ("mq stats failure-rate");
 * `kinds` are its numeric fields and what each measures.
 */
export interface FieldNames {
  /** other names of a field, read silently (a stats subcommand's catalogue name for an API field) */
  aliases?: Readonly<Record<string, string>>;
  /** names a field had before the catalogue, read with a deprecation warning */
  formerly?: Readonly<Record<string, string>>;
  /** where the deprecation warning goes (a line without the "mq: " prefix) */
  warn?: (line: string) => void;
}

export function parseFailIf(
  source: string,
  subject: string,
  kinds: Readonly<Record<string, FieldKind>>,
  names: FieldNames = {},
): FailIfExpr {
  const fields = Object.keys(kinds);
  if (fields.length === 0) {
    throw new UsageError(`--fail-if is not available for ${subject}: it returns names, not figures.`);
  }
  const m = EXPR.exec(source);
  if (!m) throw new UsageError(`--fail-if "${source}" is not an expression: ${SYNTAX_HELP}; fields of ${subject}: ${fields.join(", ")}.`);
  const [, agg, aggField, bareField, op, text] = m;
  if (agg !== undefined && !(AGGREGATIONS as readonly string[]).includes(agg)) {
    throw new UsageError(`--fail-if "${source}": unknown aggregation "${agg}"; use one of ${AGGREGATIONS.join(", ")}.`);
  }
  const written = (aggField ?? bareField)!;
  let field = names.aliases?.[written] ?? written;
  const now = names.formerly?.[written];
  if (!fields.includes(field) && now !== undefined) {
    names.warn?.(`warning: --fail-if "${source}": ${written} is a former name; it is read as ${now} (mq help figures). Write ${now}.`);
    field = now;
  }
  if (!fields.includes(field)) {
    const known = [...fields, ...Object.keys(names.aliases ?? {})];
    const near = closestMatches(written, known);
    const hint = near.length ? ` Did you mean ${near.join(" or ")}?` : "";
    throw new UsageError(
      `--fail-if "${source}": unknown field "${written}" for ${subject}.${hint} Fields: ${fields.join(", ")} (mq help figures).`,
    );
  }
  const unit = unitOf(kinds[field]);
  const threshold = thresholdFor(source, field, unit, text!);
  return { source: source.trim(), aggregation: agg as Aggregation | undefined, field, op: op as Operator, threshold, unit };
}

/**
 * The threshold of an expression on `field`, checked against what the field is: a rate takes 0..1
 * or a percentage, a duration seconds or a duration, a count a plain number. `change` (a relative
 * change: any sign, any size) takes a percentage or a ratio without the 0..1 bound.
 */
export function thresholdFor(source: string, field: string, unit: GateUnit, text: string, opts: { change?: boolean } = {}): number {
  const parsed = readThreshold(text);
  if (parsed === undefined || !Number.isFinite(parsed.value)) {
    throw new UsageError(`--fail-if "${source}": "${text}" is not a number, a percentage (20%) or a duration (30m).`);
  }
  const fits =
    unit === "ratio" ? parsed.written !== "duration" : unit === "seconds" ? parsed.written !== "percent" : parsed.written === "number";
  if (!fits) {
    const takes =
      unit === "ratio"
        ? "a ratio (0.2) or a percentage (20%)"
        : unit === "seconds"
          ? "seconds (600) or a duration (10m)"
          : "a plain number";
    const what = opts.change ? "a relative change" : describeUnit(unit);
    throw new UsageError(`--fail-if "${source}": ${field} is ${what}; give ${takes}, not "${text}".`);
  }
  if (unit === "ratio" && !opts.change && (parsed.value < 0 || parsed.value > 1)) {
    throw new UsageError(
      `--fail-if "${source}": ${field} is a ratio from 0 to 1; write ${parsed.value / 100} or ${parsed.value}% for ${parsed.value} percent.`,
    );
  }
  return parsed.value;
}

function describeUnit(unit: GateUnit): string {
  return unit === "ratio" ? "a rate" : unit === "seconds" ? "a duration" : "a count or a size";
}

/** A number without float noise (0.30000000000000004 → 0.3): for messages that print raw values. */
export function formatValue(value: number): string {
  return String(Number(value.toPrecision(10)));
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

/** The operator that holds when `op` does not: what an `ok` line shows. */
export function negate(op: Operator): Operator {
  return ({ ">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "==" } as const)[op];
}

/** The left side as written: `failure_rate` or `max(failures)`. */
export function labelOf(expr: FailIfExpr): string {
  return expr.aggregation ? `${expr.aggregation}(${expr.field})` : expr.field;
}

/** The value the expression tests over `records` (undefined when the window has no value). */
export function evaluateValue(
  expr: FailIfExpr,
  records: readonly Readonly<Record<string, unknown>>[],
  field = expr.field,
): number | undefined {
  return expr.aggregation ? aggregate(expr.aggregation, field, records) : windowValue(field, records);
}

function evaluateTarget(expr: FailIfExpr, t: Target, field: string): number | undefined {
  if (t.value !== undefined) return t.value ?? undefined;
  return expr.aggregation ? aggregate(expr.aggregation, field, t.records) : targetValue(t, field);
}

// ---------------------------------------------------------------------------------------------
// targets: what an expression is judged over

type Rec = Readonly<Record<string, unknown>>;

export interface Target {
  scope: "all" | "each";
  /** the group's keys (and category, section); empty for all groups */
  keys: Array<[string, KeyValue]>;
  /** one record per interval (all groups: the groups combined interval by interval) */
  records: readonly Rec[];
  /**
   * all groups: every group's records as sent. The value over the window is computed from these:
   * the same as from the combined intervals for sums, extremes, ratios and weighted means, and for
   * an average the API gives without a count, each group's interval weighs in, so a busy hour of
   * five queues counts more than a quiet hour of one (the combined intervals would weigh both alike).
   */
  flat?: readonly Rec[];
  /** what "all" covers when it is not all groups of one response ("all repositories") */
  over?: string;
  /** the target has no exact value (a total the API's figures cannot give), and why */
  unavailable?: string;
  /** a figure computed elsewhere (mq insights): judged as it is, not from records (null: none) */
  value?: number | null;
  /** the items behind `value` */
  sample?: Sample;
}

/**
 * What a verdict over several repositories' total covers (its `over`): all repositories, or, when
 * some could not be read, how many of them and which failed (a verdict over the others must not
 * read as one over all). mq stats and mq insights both say it so.
 */
export function totalCovers(covered: number, failed: readonly string[]): string {
  if (failed.length === 0) return "all repositories";
  return `${covered} of ${covered + failed.length} repositories; ${failed.join(", ")} could not be read`;
}

/** A target's value of `field` over the window (no aggregation). */
export function targetValue(t: Target, field: string): number | undefined {
  return windowValue(field, t.flat ?? t.records);
}

/** How many items stand behind a figure: `13/119 checks` for a rate, `119 checks` otherwise. */
export interface Sample {
  count: number;
  /** the numerator, for a rate */
  part?: number;
  noun: string;
}

export type { SampleSpec };

function total(records: readonly Rec[], field: string): number {
  let sum = 0;
  for (const r of records) if (typeof r[field] === "number" && Number.isFinite(r[field])) sum += r[field] as number;
  return sum;
}

/** The sample behind `field` over `records`, when the endpoint counts its items. */
export function sampleOf(field: string, records: readonly Rec[], spec: SampleSpec | undefined): Sample | undefined {
  if (!spec) return undefined;
  const rule = ruleOf(field);
  if (rule.by === "ratio") {
    return { count: rule.den.reduce((s, d) => s + total(records, d), 0), part: total(records, rule.num), noun: spec.noun };
  }
  return { count: total(records, spec.field), noun: spec.noun };
}

/**
 * The targets of `field` in a statistics response:
 * - all: one figure over every group, interval by interval (per outcome or exit reason for the
 *   endpoints that split by one, per section for batch-bisection);
 * - each: every group (and outcome);
 * - time-to-merge has one row per partition and queue and no counts to combine them with, so its
 *   rows are judged one by one whatever the scope (a mean of means would be a figure nobody sent).
 */
export function statsTargets(endpoint: StatsEndpoint, body: unknown, field: string, scope: GateScope): Target[] {
  const groups = toGroups(endpoint, body);
  if (endpoint.shape === "time-to-merge") {
    const rows = groups.flatMap((g) =>
      g.records.map((r) => ({
        keys: [...g.keys, ["queue_name", (r.queue_name as KeyValue) ?? null]] as Array<[string, KeyValue]>,
        records: [r],
      })),
    );
    return rows.map((r) => ({ scope: rows.length === 1 ? "all" : "each", ...r }));
  }
  const series = toSeries(endpoint, groups).filter((s) => fieldsOfSection(endpoint, s.section).includes(field));
  const out: Target[] = [];
  if (scope !== "all") {
    for (const s of series) out.push({ scope: "each", keys: s.section ? [["section", s.section], ...s.keys] : s.keys, records: s.records });
  }
  if (scope !== "each" && series.length) {
    // one "all groups" figure per outcome (or exit reason) and per section
    const byPart = new Map<string, { keys: Array<[string, KeyValue]>; records: Rec[]; series: number }>();
    for (const s of series) {
      const keys: Array<[string, KeyValue]> = [];
      if (s.section && endpoint.sections) keys.push(["section", s.section]);
      if (endpoint.category) keys.push([endpoint.category, s.keys.find(([k]) => k === endpoint.category)?.[1] ?? null]);
      const id = JSON.stringify(keys);
      const part = byPart.get(id) ?? { keys, records: [], series: 0 };
      pushAll(part.records, s.records);
      part.series++;
      byPart.set(id, part);
    }
    for (const part of byPart.values()) {
      // several groups combine only by the catalogue's rule: an average without its count, a
      // percentile, is n/a with the reason, never an average of averages
      const unavailable = part.series > 1 ? totalUnavailable(field, part.records, "groups") : undefined;
      out.push({
        scope: "all",
        keys: part.keys,
        records: mergeIntervals(part.records),
        flat: part.records,
        ...(unavailable !== undefined ? { unavailable } : {}),
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// verdicts

export type VerdictStatus = "ok" | "fail" | "skip" | "empty";

export interface Verdict {
  expr: FailIfExpr;
  scope: "all" | "each";
  keys: Array<[string, KeyValue]>;
  /** the value judged (null when there was none) */
  value: number | null;
  /**
   * ok / fail: judged; skip: not judged (fewer items than --min-count, or a group without a
   * value); empty: the expression had no value anywhere (fails unless empty windows are allowed)
   */
  status: VerdictStatus;
  pass: boolean;
  sample?: Sample;
  /** why a check was skipped or found nothing */
  reason?: string;
  /** what an "all" verdict covers when it is not all groups ("all repositories") */
  over?: string;
}

export interface GateOptions {
  /** judge only figures with at least this many items behind them */
  minCount?: number;
  /** a window or filter without data passes (default: it fails) */
  allowEmpty?: boolean;
  /** why there is no target, when the caller knows (the filters given) */
  emptyReason?: string;
  sample?: SampleSpec;
  /** the field in the records when the expression names it otherwise (summary figures) */
  sourceField?: string;
}

/**
 * The sample behind what an expression tests: last() tests the last interval, so its items; the
 * other aggregations test interval values, so the window's count without a ratio's numerator.
 */
function aggregatedSample(expr: FailIfExpr, field: string, t: Target, spec: SampleSpec | undefined): Sample | undefined {
  if (t.sample) return t.sample;
  if (!expr.aggregation) return sampleOf(field, t.flat ?? t.records, spec);
  if (expr.aggregation === "last") {
    const last = [...t.records].reverse().find((r) => typeof r[field] === "number");
    return sampleOf(field, last ? [last] : [], spec);
  }
  const sample = sampleOf(field, t.flat ?? t.records, spec);
  return sample && { count: sample.count, noun: sample.noun };
}

/** Judges one expression over its targets: one verdict per target, or one saying there was nothing. */
export function judge(expr: FailIfExpr, targets: readonly Target[], opts: GateOptions = {}): Verdict[] {
  const field = opts.sourceField ?? expr.field;
  const verdicts: Verdict[] = [];
  let judged = 0;
  let skippedSmall = 0;
  for (const t of targets) {
    const sample = aggregatedSample(expr, field, t, opts.sample);
    const value = evaluateTarget(expr, t, field);
    const base = { expr, scope: t.scope, keys: t.keys, sample, ...(t.over ? { over: t.over } : {}) };
    if (t.unavailable !== undefined) {
      // a figure that cannot be computed exactly is not judged on a guess: it counts as no data
      skippedSmall++;
      const allowed = opts.allowEmpty === true;
      verdicts.push({
        ...base,
        value: null,
        status: "empty",
        pass: allowed,
        reason: `not available: ${t.unavailable}${allowed ? " (--allow-empty)" : ""}`,
      });
      continue;
    }
    if (opts.minCount !== undefined && sample && sample.count < opts.minCount) {
      skippedSmall++;
      verdicts.push({
        ...base,
        value: value ?? null,
        status: "skip",
        pass: true,
        reason: `fewer than ${opts.minCount} ${sample.noun} (--min-count ${opts.minCount})`,
      });
      continue;
    }
    if (value === undefined) {
      verdicts.push({ ...base, value: null, status: "skip", pass: true, reason: "no value in the window" });
      continue;
    }
    judged++;
    const breached = compare(value, expr.op, expr.threshold);
    verdicts.push({ ...base, value, status: breached ? "fail" : "ok", pass: !breached });
  }
  // a check that saw nothing must not pass silently (a typo in --queue matches no group), unless
  // everything it saw was set aside on purpose by --min-count
  if (judged === 0 && skippedSmall === 0) {
    const reason = targets.length === 0 ? (opts.emptyReason ?? "no group in the response") : "no value in the window";
    const allowed = opts.allowEmpty === true;
    const scope = targets.every((t) => t.scope === "each") && targets.length ? "each" : "all";
    const over = scope === "all" && targets.length && targets.every((t) => t.over === targets[0]!.over) ? targets[0]!.over : undefined;
    return [
      ...verdicts.filter((v) => v.status !== "skip" || v.reason !== "no value in the window"),
      {
        expr,
        scope,
        keys: [],
        value: null,
        status: "empty",
        pass: allowed,
        reason: allowed ? `${reason} (--allow-empty)` : reason,
        ...(over ? { over } : {}),
      },
    ];
  }
  return verdicts;
}

/** The checks of a statistics subcommand over its response. */
export function judgeStats(
  exprs: readonly FailIfExpr[],
  endpoint: StatsEndpoint,
  body: unknown,
  scope: GateScope,
  opts: GateOptions = {},
): Verdict[] {
  return exprs.flatMap((expr) => judge(expr, statsTargets(endpoint, body, expr.field, scope), { sample: endpoint.sample, ...opts }));
}

export function failed(verdicts: readonly Verdict[]): Verdict[] {
  return verdicts.filter((v) => !v.pass);
}
