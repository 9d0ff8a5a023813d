// The reporters of the gate engine (src/stats/fail-if.ts): one verdict line per check on stderr,
// in the threshold's unit, and the same verdicts as a JSON report (--report FILE). GitHub's
// annotations and step summary are in ./github.ts. They read Verdicts only, whatever command judged.
import type { ChalkInstance } from "chalk";
import { labelOf, negate, type GateUnit, type Verdict } from "../stats/fail-if.js";
import { describeKeys, type KeyValue } from "../stats/series.js";
import { formatDuration, formatExactNumber } from "./format.js";
import { terminalText } from "../iostreams/terminal-text.js";
import { wrapLine } from "../iostreams/terminal-width.js";
import { parseDurationSeconds } from "../validators.js";
import { writeNow } from "./write-now.js";

/**
 * Server text on one line: control and bidirectional characters as \u escapes, so a group name
 * cannot move the cursor, recolour the log or start a line of its own.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function plain(n: number): string {
  return String(Number(n.toPrecision(10)));
}

/** A count or plain number as the tables write counts (2,192), every digit kept. */
function grouped(n: number): string {
  return formatExactNumber(Number(n.toPrecision(10)));
}

/** A value in a unit with `digits` of precision (percent decimals, duration parts, number decimals). */
function inUnit(value: number, unit: GateUnit, digits: number): string {
  switch (unit) {
    case "ratio":
      return `${(value * 100).toFixed(digits)}%`;
    case "seconds":
      // two units first (21m 45s); seconds with decimals when that hides a difference
      return digits === 1 ? formatDuration(value) : `${Number(value.toFixed(digits - 1))}s`;
    case "number":
      return formatExactNumber(Number(value.toFixed(digits + 1)));
  }
}

/** The threshold as short as it is exact: 20%, 10m, 0.5. */
export function formatThreshold(threshold: number, unit: GateUnit): string {
  if (unit === "ratio") return `${plain(threshold * 100)}%`;
  if (unit === "seconds") {
    const human = formatDuration(threshold);
    return parseDurationSeconds(human.replaceAll(" ", "")) === threshold ? human : `${plain(threshold)}s`;
  }
  return grouped(threshold);
}

/** A value next to its threshold: as short as the unit allows, but never looking equal when it is not. */
export function formatGateValue(value: number, threshold: number, unit: GateUnit): string {
  const shown = formatThreshold(threshold, unit);
  for (let digits = 1; digits <= 8; digits++) {
    const text = inUnit(value, unit, digits);
    if (value === threshold || text !== shown) return text;
  }
  return unit === "ratio" ? `${plain(value * 100)}%` : unit === "number" ? grouped(value) : plain(value);
}

function keysText(keys: ReadonlyArray<[string, KeyValue]>, scope: Verdict["scope"], over = "all groups"): string {
  if (scope === "all") return keys.length ? `${over}, ${oneLine(describeKeys({ keys: [...keys] }))}` : over;
  return oneLine(describeKeys({ keys: [...keys] }));
}

/** Where a verdict's figure comes from: "13/119 checks, all groups". */
export function verdictWhere(v: Verdict): string {
  const parts: string[] = [];
  if (v.sample)
    parts.push(
      v.sample.part !== undefined
        ? `${grouped(v.sample.part)}/${grouped(v.sample.count)} ${v.sample.noun}`
        : `${grouped(v.sample.count)} ${v.sample.noun}`,
    );
  parts.push(keysText(v.keys, v.scope, v.over));
  return parts.join(", ");
}

const STATUS_WORD: Record<Verdict["status"], string> = { ok: "ok", fail: "FAIL", skip: "skip", empty: "FAIL" };

/**
 * One line per check:
 *   ok    failure_rate 10.9% <= 20% (13/119 checks, all groups)
 *   FAIL  failure_rate 50.0% > 20% (1/2 checks, base_ref main, ...)
 *   skip  failure_rate 50.0% (1/2 checks, ...): fewer than 20 checks (--min-count 20)
 *   FAIL  failure_rate > 20%: no group in the response (filters: --queue defualt)
 */
export function formatVerdict(v: Verdict): string {
  const word = (v.status === "empty" && v.pass ? "skip" : STATUS_WORD[v.status]).padEnd(6);
  const label = labelOf(v.expr);
  const threshold = formatThreshold(v.expr.threshold, v.expr.unit);
  if (v.status === "empty")
    return `${word}${label} ${v.expr.op} ${threshold}${v.over ? ` (${keysText(v.keys, v.scope, v.over)})` : ""}: ${oneLine(v.reason ?? "no data")}`;
  const value = v.value === null ? "" : ` ${formatGateValue(v.value, v.expr.threshold, v.expr.unit)}`;
  if (v.status === "skip") return `${word}${label}${value} (${verdictWhere(v)}): ${v.reason}`;
  const op = v.status === "ok" ? negate(v.expr.op) : v.expr.op;
  return `${word}${label}${value} ${op} ${threshold} (${verdictWhere(v)})`;
}

/** The verdict lines; with `paint`, the status word coloured (FAIL red, ok green, skip dim). */
export function verdictLines(verdicts: readonly Verdict[], paint?: ChalkInstance, columns?: number): string {
  return verdicts
    .map((v) => {
      // group keys are the server's: through the door, so a key holding "\n::error::" stays on its line
      const line = terminalText(formatVerdict(v));
      const word = line.slice(0, 6);
      const colour =
        !paint || paint.level === 0 ? (s: string) => s : !v.pass ? paint.red.bold : v.status === "ok" ? paint.green : paint.dim;
      // on a terminal, broken between words under the check, past the FAIL/ok column
      return wrapLine(colour(word) + line.slice(6), columns, " ".repeat(6)) + "\n";
    })
    .join("");
}

/** A verdict for machines (--report): raw numbers in base units (ratio 0..1, seconds). */
export function verdictRecord(v: Verdict): Record<string, unknown> {
  return {
    expression: v.expr.source,
    field: v.expr.field,
    aggregation: v.expr.aggregation ?? null,
    op: v.expr.op,
    scope: v.scope,
    group: v.keys.length ? Object.fromEntries(v.keys) : null,
    value: v.value,
    threshold: v.expr.threshold,
    unit: v.expr.unit,
    status: v.status === "empty" ? (v.pass ? "skip" : "fail") : v.status,
    pass: v.pass,
    sample: v.sample ?? null,
    reason: v.reason ?? null,
    line: formatVerdict(v),
  };
}

export interface GateReportMeta {
  command: string;
  repository?: string;
  start_at?: string;
  end_at?: string;
}

export function gateReport(verdicts: readonly Verdict[], meta: GateReportMeta): Record<string, unknown> {
  return {
    ...meta,
    pass: verdicts.every((v) => v.pass),
    checks: verdicts.map(verdictRecord),
  };
}

/** Writes the report (--report); a FIFO nobody reads fails at once (ENXIO), never waits (write-now.ts). */
export async function writeGateReport(path: string, verdicts: readonly Verdict[], meta: GateReportMeta): Promise<void> {
  writeNow(path, JSON.stringify(gateReport(verdicts, meta), null, 2) + "\n", "replace");
}
