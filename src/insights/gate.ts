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
import { compare, formatValue, parseThreshold, type Operator } from "../stats/fail-if.js";

// The operators, threshold values and comparison are those of `mq stats --fail-if` (src/stats/fail-if.ts):
// one engine; what differs is what an expression names (a figure of the report, or its change).
export type { Operator } from "../stats/fail-if.js";

export interface Gate {
  source: string;
  figure: string;
  /** true: the expression tests change(figure), the relative change against the comparison window */
  change: boolean;
  op: Operator;
  threshold: number;
}

const EXPR = /^\s*(.+?)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$/;

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
    else if (compare(v, gate.op, gate.threshold)) result.breaches.push({ gate, value: v });
  }
  return result;
}

export function describeGateBreach(b: { gate: Gate; value: number }): string {
  const label = b.gate.change ? `change(${b.gate.figure})` : b.gate.figure;
  return `--fail-if '${b.gate.source}' breached: ${label} = ${formatValue(b.value)} (threshold ${b.gate.op} ${formatValue(b.gate.threshold)})`;
}
