// Tables fitted to the terminal: headers broken at underscores (or spaces) when the table is too
// wide, then, still too wide, split into parts one under the other that each repeat the label
// columns. Any command's table goes through here (stats, insights, prs, archive status).
import type { ChalkInstance } from "chalk";
import { columnWidths, renderTable, safeCell, wrapWords } from "./table.js";
import { displayWidth, truncateToWidth } from "../iostreams/terminal-width.js";

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
 * The columns of each part of a table too wide for the terminal even with its headers broken:
 * the label (the first `lead` columns), then as many figures as fit, part after part
 * (checks-retries has seven figures).
 */
export function splitColumns(head: string[], cells: string[][], columns: number | undefined, lead = 1): number[][] {
  const all = head.map((_, i) => i);
  if (columns === undefined) return [all];
  const widths = columnWidths({ head, rows: cells });
  const labels = all.slice(0, lead);
  const labelWidth = widths.slice(0, lead).reduce((a, w) => a + w, 0) + 2 * (lead - 1);
  const label = Math.min(labelWidth, Math.max(12, Math.floor(columns / 3)));
  if (label + widths.slice(lead).reduce((a, w) => a + 2 + w, 0) <= columns) return [all];
  const parts: number[][] = [];
  let part: number[] = [...labels];
  let used = label;
  for (let i = lead; i < head.length; i++) {
    if (part.length > lead && used + 2 + widths[i]! > columns) {
      parts.push(part);
      part = [...labels];
      used = label;
    }
    part.push(i);
    used += 2 + widths[i]!;
  }
  parts.push(part);
  return parts;
}

/**
 * A table of label columns and figures fitted to the terminal as the tables above are: headers
 * broken at underscores, then, still too wide, split into parts one under the other, each with
 * the `lead` label columns (`mq stats <endpoint> --repo a,b`: the repository and category). A
 * table whose last column is free text (`freeLast`: an outcome, a step) stays one table while the
 * other columns leave that column room: at least `freeLast.min` columns (headers whole, else
 * broken), where it is cut with an ellipsis or wrapped; else at least its header's width, where its
 * words go onto more lines (an outcome breaks after its underscores). A part's headers break only
 * when that part needs it.
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
  freeLast?: { min: number; wrap?: boolean };
}): string {
  const { columns, rows } = spec;
  const broken = (head: string[]) => head.map((c, i) => (i === 0 ? c : c.replace(spec.breakHeadsAt ?? /_/g, "\n")));
  if (spec.freeLast && columns !== undefined) {
    const last = spec.head.length - 1;
    // the room the other columns leave the last, with the headers whole and then broken
    const room = (head: string[]) => {
      const widths = columnWidths({ head, rows });
      return { widths, left: columns - widths.slice(0, last).reduce((a, w) => a + w + 2, 0) };
    };
    const one = (head: string[], widths: number[], cells: string[][], wrap: boolean | undefined, lines?: boolean) =>
      renderTable({ head, rows: cells, colors: spec.colors, align: spec.align, widths, wrap, lines });
    const whole = room(spec.head);
    const parted = room(broken(spec.head));
    for (const [head, { widths, left }] of [
      [spec.head, whole],
      [broken(spec.head), parted],
    ] as const) {
      if (left >= Math.min(widths[last]!, spec.freeLast.min)) {
        widths[last] = Math.min(widths[last]!, left);
        return one([...head], widths, rows, spec.freeLast.wrap);
      }
    }
    // narrower than its minimum but as wide as its header: the free text on more lines
    const { widths, left } = parted;
    const header = columnWidths({ head: [broken(spec.head)[last]!], rows: [] })[0]!;
    if (left >= header) {
      widths[last] = left;
      // through the net first: the only line breaks are then wrapWords' own
      const cells = rows.map((r) => r.map((cell, i) => (i === last ? wrapWords(safeCell(cell), left) : cell)));
      return one(broken(spec.head), widths, cells, false, true);
    }
  }
  const head = fitHeads(spec.head, rows, columns, spec.breakHeadsAt);
  const parts = splitColumns(head, rows, columns, spec.lead ?? 1);
  return parts
    .map((keep) => {
      const pick = <T>(xs: readonly T[]) => keep.map((i) => xs[i]!);
      // a part that fits with its headers whole keeps them whole
      const partHead =
        parts.length > 1 && columns !== undefined && naturalWidth(pick(spec.head), rows.map(pick)) <= columns
          ? pick(spec.head)
          : pick(head);
      return renderTable({ head: partHead, rows: rows.map(pick), columns, colors: spec.colors, align: pick(spec.align) });
    })
    .join("\n");
}

/** A line cut to the width with an ellipsis (a heading on a narrow terminal). */
export function fitLine(text: string, columns: number | undefined): string {
  if (columns === undefined || displayWidth(text) <= columns) return text;
  return truncateToWidth(text, Math.max(columns, 1));
}
