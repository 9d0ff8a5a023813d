// --fail-if for `mq insights`: a CI threshold on one of its figures, or on a figure's change against
// the comparison window.
//   EXPR   := [change "("] FIGURE [")"] OP VALUE
//   FIGURE := entered | merged | failure_rate | ... | STAT "(" DIST ")"   (see FIGURE_NAMES)
//   OP     := > | >= | < | <= | == | !=
//   VALUE  := a number, a percentage (20% = 0.2) or a duration (90s, 30m, 2h, 1d)
// e.g. `p95(queue_time) > 2h`, `change(p50(time_to_merge)) > 20%`. Parsed with the flags (a bad
// expression is a usage error before any request).
import { UsageError } from "../errors.js";
import { FIGURE_NAMES } from "./figures.js";

export type Operator = ">" | ">=" | "<" | "<=" | "==" | "!=";

export interface Gate {
  source: string;
  figure: string;
  /** true: the expression tests change(figure), the relative change against the comparison window */
  change: boolean;
  op: Operator;
  threshold: number;
}

const EXPR = /^\s*(.+?)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$/;
const DURATION = /^(\d+(?:\.\d+)?)(s|m|h|d|w)$/;
const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

export function parseThreshold(text: string): number | undefined {
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  const pct = /^([-+]?(?:\d+\.?\d*|\.\d+))%$/.exec(text);
  if (pct) return Number(pct[1]) / 100;
  const d = DURATION.exec(text);
  return d ? Number(d[1]) * UNIT[d[2]!]! : undefined;
}

export function parseGate(source: string): Gate {
  const m = EXPR.exec(source);
  const help = `write FIGURE OP VALUE or change(FIGURE) OP VALUE, e.g. 'p95(queue_time) > 2h'; figures: ${FIGURE_NAMES.join(", ")}`;
  if (!m) throw new UsageError(`--fail-if "${source}" is not an expression: ${help}.`);
  let subject = m[1]!.replace(/\s+/g, "");
  const change = /^change\((.+)\)$/.exec(subject);
  if (change) subject = change[1]!;
  if (!FIGURE_NAMES.includes(subject)) {
    throw new UsageError(`--fail-if "${source}": unknown figure "${subject}"; figures: ${FIGURE_NAMES.join(", ")}.`);
  }
  const threshold = parseThreshold(m[3]!);
  if (threshold === undefined || !Number.isFinite(threshold)) {
    throw new UsageError(`--fail-if "${source}": "${m[3]}" is not a number, a percentage (20%) or a duration (30m).`);
  }
  return { source: source.trim(), figure: subject, change: change !== null, op: m[2] as Operator, threshold };
}

export function holds(value: number, op: Operator, threshold: number): boolean {
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

export interface GateResult {
  breaches: Array<{ gate: Gate; value: number }>;
  /** gates whose figure has no value (an empty window, no comparison) */
  unevaluated: Gate[];
}

/** `value(figure, change)` gives the figure or its change, null when there is none. */
export function evaluateGates(gates: readonly Gate[], value: (figure: string, change: boolean) => number | null): GateResult {
  const result: GateResult = { breaches: [], unevaluated: [] };
  for (const gate of gates) {
    const v = value(gate.figure, gate.change);
    if (v === null) result.unevaluated.push(gate);
    else if (holds(v, gate.op, gate.threshold)) result.breaches.push({ gate, value: v });
  }
  return result;
}

export function describeGateBreach(b: { gate: Gate; value: number }): string {
  const label = b.gate.change ? `change(${b.gate.figure})` : b.gate.figure;
  return `--fail-if '${b.gate.source}' breached: ${label} = ${String(Number(b.value.toPrecision(10)))} (threshold ${b.gate.op} ${String(Number(b.gate.threshold.toPrecision(10)))})`;
}
