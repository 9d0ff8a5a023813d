// Tables fitted to the terminal: headers broken at underscores (or spaces) when the table is too
// wide, then, still too wide, columns left out by priority and named under the table: a row is
// never printed twice. Any command's table goes through here (stats, insights, prs, archive status).
import type { ChalkInstance } from "chalk";
import { columnWidths, renderTable, safeCell, wrapWords } from "./table.js";
import { displayWidth, truncateToWidth, wrapLine } from "../iostreams/terminal-width.js";
import { alignDurations } from "../iostreams/human.js";

/** The width the table would take with these headers, before fitting. */
export function naturalWidth(head: string[], rows: string[][]): number {
  return columnWidths({ head, rows }).reduce((a, b) => a + b, 0) + 2 * (head.length - 1);
}

/**
 * Field names stay the headers (they are what --fail-if and --fields take); when the table is wider
 * than the terminal they break at underscores onto several lines instead of being cut.
 */
export function fitHeads(head: string[], rows: string[][], columns: number | undefined, breakAt: RegExp = /_/g): string[] {
  if (columns === undefined || naturalWidth(head, rows) <= columns) return head;
  return head.map((c, i) => (i === 0 ? c : c.replace(breakAt, "\n")));
}

/**
 * The columns a table of labels and figures keeps on a terminal too narrow for all of them: the
 * label (the first `lead` columns, at most a third of the width, as it wraps), then figures left
 * out one at a time in `order` (by default the rightmost first) until the rest fit. A row is never
 * printed twice; notShown names what went.
 */
export function keptColumns(head: string[], cells: string[][], columns: number | undefined, lead = 1, order?: readonly number[]): number[] {
  let keep = head.map((_, i) => i);
  if (columns === undefined) return keep;
  const widths = columnWidths({ head, rows: cells });
  const labelWidth = widths.slice(0, lead).reduce((a, w) => a + w, 0) + 2 * (lead - 1);
  const label = Math.min(labelWidth, Math.max(12, Math.floor(columns / 3)));
  const fits = () => label + keep.slice(lead).reduce((a, i) => a + 2 + widths[i]!, 0) <= columns;
  const drop = (order ?? keep.slice(lead).reverse()).filter((i) => i >= lead);
  for (const i of drop) {
    if (fits() || keep.length <= lead + 1) break;
    keep = keep.filter((k) => k !== i);
  }
  return keep;
}

/** The line under a table that left columns out: which, and what shows them (or it, for one). */
export function notShown(columns: number, names: readonly string[]): string {
  return wrapLine(
    `not shown at ${columns} columns: ${names.join(", ")} (a wider terminal or -o csv shows ${names.length === 1 ? "it" : "them"})`,
    columns,
  );
}

/**
 * A table of label columns and figures fitted to the terminal: headers broken at underscores
 * (or spaces), then, still too wide, columns left out one at a time (`drop`: the order, by
 * default the rightmost first; the `lead` label columns never), with a last line naming them.
 * A row is never printed twice. A table whose last column is free text (`freeLast`: an outcome,
 * a step) keeps it while the other columns leave it room: at least `freeLast.min` columns
 * (headers whole, else broken), where it is cut with an ellipsis or wrapped; else at least its
 * header's width, where its words go onto more lines (an outcome breaks after its underscores).
 */
export function fittedTable(spec: {
  head: string[];
  rows: string[][];
  columns: number | undefined;
  colors?: ChalkInstance;
  align: Array<"left" | "right">;
  lead?: number;
  /** where headers break (field names at underscores; words at spaces) */
  breakHeadsAt?: RegExp;
  /** `narrow: false`: below `min`, columns give way rather than the text going on more lines */
  freeLast?: { min: number; wrap?: boolean; narrow?: boolean };
  /** the columns left out first when the table is too wide (indexes into head) */
  drop?: number[];
  /** columns holding durations (formatDuration's texts): each written to one precision (alignDurations) */
  durations?: readonly number[];
}): string {
  if (spec.durations) spec = { ...spec, rows: alignDurationColumns(spec.rows, spec.durations) };
  const { columns } = spec;
  const all = spec.head.map((_, i) => i);
  if (columns === undefined) return renderTable({ head: spec.head, rows: spec.rows, colors: spec.colors, align: spec.align });
  const lead = spec.lead ?? 1;
  // by default the rightmost first; a free-text last column (an outcome) last
  const rightFirst = all.slice(lead).reverse();
  const order = (spec.drop ?? (spec.freeLast ? [...rightFirst.slice(1), rightFirst[0]!] : rightFirst)).filter((i) => i >= lead);
  let keep = all;
  for (let k = 0; ; k++) {
    const pick = <T>(xs: readonly T[]) => keep.map((i) => xs[i]!);
    const freeLast = spec.freeLast && keep[keep.length - 1] === all[all.length - 1] ? spec.freeLast : undefined;
    const last = k >= order.length || keep.length <= lead + 1;
    const text = fitOnce({ ...spec, head: pick(spec.head), rows: spec.rows.map(pick), align: pick(spec.align), freeLast }, columns, last);
    if (text !== undefined) {
      const left = all.filter((i) => !keep.includes(i)).map((i) => spec.head[i]!.replace(/\n/g, " "));
      return left.length === 0 ? text : `${text}${notShown(columns, left)}\n`;
    }
    keep = keep.filter((i) => i !== order[k]);
  }
}

/**
 * ROWS with the durations of each of COLUMNS written to one precision, so that no column reads
 * "5h 0m 14s" beside "7h 57m" (alignDurations: other cells stay as they are).
 */
export function alignDurationColumns(rows: readonly string[][], columns: readonly number[]): string[][] {
  const out = rows.map((r) => [...r]);
  for (const j of columns) {
    const aligned = alignDurations(rows.map((r) => r[j] ?? ""));
    out.forEach((r, i) => {
      if (j < r.length) r[j] = aligned[i]!;
    });
  }
  return out;
}

/** The table at COLUMNS with these columns, or undefined when it does not fit (unless LAST: then cut). */
function fitOnce(
  spec: {
    head: string[];
    rows: string[][];
    colors?: ChalkInstance;
    align: Array<"left" | "right">;
    breakHeadsAt?: RegExp;
    freeLast?: { min: number; wrap?: boolean; narrow?: boolean };
  },
  columns: number,
  last: boolean,
): string | undefined {
  const { rows } = spec;
  const broken = (head: string[]) => head.map((c, i) => (i === 0 ? c : c.replace(spec.breakHeadsAt ?? /_/g, "\n")));
  if (spec.freeLast) {
    const lastCol = spec.head.length - 1;
    // the room the other columns leave the last, with the headers whole and then broken
    const room = (head: string[]) => {
      const widths = columnWidths({ head, rows });
      return { widths, left: columns - widths.slice(0, lastCol).reduce((a, w) => a + w + 2, 0) };
    };
    const one = (head: string[], widths: number[], cells: string[][], wrap: boolean | undefined, lines?: boolean) =>
      renderTable({ head, rows: cells, colors: spec.colors, align: spec.align, widths, wrap, lines });
    const whole = room(spec.head);
    const parted = room(broken(spec.head));
    for (const [head, { widths, left }] of [
      [spec.head, whole],
      [broken(spec.head), parted],
    ] as const) {
      if (left >= Math.min(widths[lastCol]!, spec.freeLast.min)) {
        widths[lastCol] = Math.min(widths[lastCol]!, left);
        return one([...head], widths, rows, spec.freeLast.wrap);
      }
    }
    // narrower than its minimum but as wide as its header: the free text on more lines
    const { widths, left } = parted;
    const header = columnWidths({ head: [broken(spec.head)[lastCol]!], rows: [] })[0]!;
    if (left >= header && (spec.freeLast.narrow !== false || last)) {
      widths[lastCol] = left;
      // through the net first: the only line breaks are then wrapWords' own
      const cells = rows.map((r) => r.map((cell, i) => (i === lastCol ? wrapWords(safeCell(cell), left) : cell)));
      return one(broken(spec.head), widths, cells, false, true);
    }
  }
  const head = fitHeads(spec.head, rows, columns, spec.breakHeadsAt);
  if (!last && naturalWidth(head, rows) > columns) return undefined;
  return renderTable({ head, rows, columns, colors: spec.colors, align: spec.align });
}

/** A line cut to the width with an ellipsis (a heading on a narrow terminal). */
export function fitLine(text: string, columns: number | undefined): string {
  if (columns === undefined || displayWidth(text) <= columns) return text;
  return truncateToWidth(text, Math.max(columns, 1));
}
