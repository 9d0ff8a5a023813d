// Borderless terminal tables in the style of `gh pr list`: two spaces between columns, a bold
// header, and the table fitted to the terminal width by truncating the last (usually free-text)
// column first, then the widest, with an ellipsis.
import type { ChalkInstance } from "chalk";
import { hasUnsafeCharacters, terminalText } from "../iostreams/terminal-text.js";
import { colourEachLine, displayWidth, truncateToWidth } from "../iostreams/terminal-width.js";
import { maxOf } from "../arrays.js";

export interface TableSpec {
  head: string[];
  rows: string[][];
  /** terminal width; no fitting when omitted */
  columns?: number;
  colors?: ChalkInstance;
  align?: ("left" | "right")[];
  /** fixed column widths (from columnWidths over earlier rows): a table printed in parts lines up */
  widths?: number[];
  /** wrap cells at spaces onto more lines instead of cutting them (a label column that does not fit) */
  wrap?: boolean;
  /**
   * Cells hold line breaks of mq's own (wrapWords over cells already through safeCell): each line
   * goes through the net and is cut to the width on its own; otherwise a line break in a cell is
   * escaped, as any control character a server sent.
   */
  lines?: boolean;
}

const GAP = 2;
const MIN_COLUMN = 8;
const NO_BORDERS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: " ".repeat(GAP),
};

/** Columns a cell takes once printed (see displayWidth); a multi-line header is as wide as its longest line. */
export function visibleWidth(text: string): number {
  return text.includes("\n") ? maxOf(text.split("\n").map(displayWidth)) : displayWidth(text);
}

// mq's own colour codes, which a cell may carry around text that went through the door
const SGR_SPLIT = /(\x1b\[[0-9;]*m)/;
const WRAPPED = /^((?:\x1b\[[0-9;]*m)*)([^\x1b]*)((?:\x1b\[[0-9;]*m)*)$/;

/**
 * The last net before the terminal: renderers pass server text through terminalText before they
 * colour it; should one forget, whatever in a cell is not an SGR colour code (or, in a header, mq's
 * own line break at an underscore) is escaped here.
 */
export function safeCell(cell: string, header = false): string {
  if (!hasUnsafeCharacters(cell)) return cell;
  const escape = header ? (part: string) => part.split("\n").map(terminalText).join("\n") : terminalText;
  return cell
    .split(SGR_SPLIT)
    .map((part, i) => (i % 2 === 1 ? part : escape(part)))
    .join("");
}

/** A cell cut to `width` columns between whole characters, keeping its colours (see truncateToWidth). */
function fitCell(cell: string, width: number): string {
  if (visibleWidth(cell) <= width || cell.includes("\n")) return cell;
  return truncateToWidth(cell, width);
}

/**
 * A cell broken onto lines of at most `width` columns, at spaces and after underscores (an
 * outcome such as CHECKS_TIMEOUT reads as CHECKS_ / TIMEOUT); a word still too long is left to be
 * cut with an ellipsis. A cell coloured as a whole keeps its colour on each line.
 */
export function wrapWords(cell: string, width: number): string {
  if (visibleWidth(cell) <= width || cell.includes("\n")) return cell;
  const m = WRAPPED.exec(cell);
  if (!m) return cell;
  const words = m[2]!.split(/(?<=_)|(?<= )/);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && displayWidth((line + word).trimEnd()) > width) {
      lines.push(line.trimEnd());
      line = "";
    }
    line += word;
  }
  lines.push(line.trimEnd());
  return lines.map((l) => m[1]! + l + m[3]!).join("\n");
}

/** Column widths that fit `columns`: shrink the last column, then the widest, never below a minimum. */
export function fitColumnWidths(natural: number[], columns: number | undefined): number[] {
  const widths = [...natural];
  if (columns === undefined || widths.length === 0) return widths;
  const available = columns - GAP * (widths.length - 1);
  let excess = widths.reduce((a, b) => a + b, 0) - available;
  if (excess <= 0) return widths;
  const last = widths.length - 1;
  const cut = Math.min(excess, Math.max(0, widths[last]! - MIN_COLUMN));
  widths[last]! -= cut;
  excess -= cut;
  while (excess > 0) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]! -= 1;
    excess -= 1;
  }
  return widths;
}

/** The widths renderTable gives these rows: each column's widest cell, fitted to `columns`. */
export function columnWidths(spec: Pick<TableSpec, "head" | "rows" | "columns">): number[] {
  // measured on what is printed: a cell escaped by the net is wider than its raw text
  const natural = spec.head.map((h, i) =>
    Math.max(visibleWidth(safeCell(h, true)), ...spec.rows.map((r) => visibleWidth(safeCell(r[i] ?? "")))),
  );
  return fitColumnWidths(natural, spec.columns);
}

export function renderTable(spec: TableSpec): string {
  const { head, rows } = spec;
  const widths = spec.widths ?? columnWidths(spec);
  return drawTable(
    (spec.colors ? head.map((h) => spec.colors!.bold(h)) : head).map((h) => safeCell(h, true)),
    rows,
    widths,
    spec.align ?? head.map(() => "left"),
    head.length,
    spec.wrap === true,
    spec.lines === true,
  );
}

/**
 * The table's lines: each cell cut (or wrapped) and padded to its column's width with the one
 * measure of printed text (displayWidth), two spaces between columns, a row as tall as its tallest
 * cell, trailing spaces trimmed.
 */
function drawTable(
  head: string[],
  rows: readonly string[][],
  widths: readonly number[],
  align: readonly ("left" | "right")[],
  n: number,
  wrap = false,
  lines = false,
): string {
  const w = widths.map((x) => Math.max(x, 1));
  // a table that wraps breaks long cells at spaces; the others are cut to the width
  const cellLines = (cell: string, width: number, isHead: boolean): string[] => {
    // a header's own line breaks (at an underscore) are kept; in a table that wraps it wraps too
    if (isHead) return colourEachLine(wrap ? wordWrap(width, cell) : cell.split("\n"));
    if (lines && cell.includes("\n")) return cell.split("\n").map((line) => fitCell(safeCell(line), width));
    return wrap ? colourEachLine(wordWrap(width, safeCell(cell))) : [fitCell(safeCell(cell), width)];
  };
  let out = "";
  const draw = (row: readonly string[], isHead: boolean) => {
    const cells = Array.from({ length: n }, (_, i) => cellLines(row[i] ?? "", w[i]!, isHead));
    const height = Math.max(1, ...cells.map((c) => c.length));
    for (let k = 0; k < height; k++) {
      let line = "";
      for (let i = 0; i < n; i++) {
        const text = truncateToWidth(cells[i]![k] ?? "", w[i]!);
        const pad = " ".repeat(Math.max(0, w[i]! - displayWidth(text)));
        line += (i === 0 ? "" : NO_BORDERS.middle) + (align[i] === "right" ? pad + text : text + pad);
      }
      out += line.trimEnd() + "\n";
    }
  };
  if (head.length) draw(head, true);
  for (const row of rows) draw(row, false);
  return out;
}

/**
 * A cell's text broken onto lines of at most `width` columns at white space (a line break in the
 * text starts a line); a word longer than a line stays whole, to be cut with an ellipsis.
 */
function wordWrap(width: number, text: string): string[] {
  const out: string[] = [];
  for (const input of text.split("\n")) {
    const parts = input.split(/(\s+)/);
    let line = "";
    let used = 0;
    for (let i = 0; i < parts.length; i += 2) {
      const word = parts[i]!;
      const space = i > 0 && used > 0 ? parts[i - 1]! : "";
      const next = used + displayWidth(space) + displayWidth(word);
      if (next > width && used > 0) {
        out.push(line);
        line = word;
        used = displayWidth(word);
      } else {
        line += space + word;
        used = next;
      }
    }
    if (used > 0) out.push(line);
  }
  return out;
}

// mq's colour codes: they take no width
const SGR = /\u001b\[[0-9;]*m/g;
// characters one column wide for displayWidth whatever their neighbours: printable
// ASCII, Latin-1 letters and signs (not the soft hyphen), dashes, ellipsis, middle dot, arrows
const NARROW = /^[\x20-\x7e\xa1-\xac\xae-\xff\u2013\u2014\u2026\u2190-\u2193]*$/;
// what String.prototype.trimEnd removes (\s is the same set: WhiteSpace and LineTerminator)
const TRAILING_SPACE = /\s$/;

/**
 * Body rows of a table whose column widths are already fixed, in the plain case without the
 * grapheme segmenter: the streaming path of a long table (`mq logs --all` on a terminal), where
 * measuring each cell was most of the run. The text is byte for byte what renderTable gives for the same rows and
 * widths (test/output/table.test.ts checks it over random cells): each cell padded or cut to its
 * width with "…", two spaces between cells, trailing spaces trimmed, colour codes kept. A row with
 * a cell outside the plain case (wide or zero-width characters, a line break, a coloured cell that
 * must be cut) goes through renderTable's own drawing, so the two can never disagree.
 */
export function fixedWidthRows(widths: readonly number[], align?: readonly ("left" | "right")[]): (rows: readonly string[][]) => string {
  const n = widths.length;
  const w = widths.map((x) => Math.max(x, 1));
  const right = widths.map((_, i) => align?.[i] === "right");
  const aligns = widths.map((_, i) => (right[i] ? "right" : "left") as "left" | "right");
  // padding strings made once (a width a hostile server made huge is padded afresh each time)
  const pads: string[] = [];
  const padOf = (k: number): string => (k <= 256 ? (pads[k] ??= " ".repeat(k)) : " ".repeat(k));
  const last = n - 1;
  // the last column, left-aligned, is not padded: the row's trailing spaces are trimmed anyway
  const padLast = right[last] === true;
  const cell = (raw: string, i: number): string | undefined => {
    const width = w[i]!;
    const pad = i !== last || padLast;
    // most cells: characters one column each and none to escape (NARROW holds no control, no
    // format character, no ESC), so the net, the measure and the cut below come to this; a cut
    // through a backslash could split an escape such as `\x1b`, which truncateToWidth keeps whole
    if (NARROW.test(raw)) {
      if (raw.length <= width) return !pad ? raw : right[i] ? padOf(width - raw.length) + raw : raw + padOf(width - raw.length);
      if (!raw.includes("\\")) return raw.slice(0, width - 1) + "…";
    }
    // the same net and cut as renderTable's cells
    const text = fitCell(safeCell(raw), width);
    const hasCodes = text.includes("\u001b");
    const plain = hasCodes ? text.replace(SGR, "") : text;
    if (!NARROW.test(plain)) return undefined;
    if (plain.length > width) {
      // a coloured cell to cut: its colours closed after the ellipsis, by the full drawing
      if (hasCodes) return undefined;
      return text.slice(0, width - 1) + "…";
    }
    if (!pad) return text;
    return right[i] ? padOf(width - plain.length) + text : text + padOf(width - plain.length);
  };
  return (rows) => {
    let out = "";
    for (const row of rows) {
      let line = "";
      let ok = true;
      let c: string | undefined;
      for (let i = 0; i < n; i++) {
        c = cell(row[i] ?? "", i);
        if (c === undefined) {
          ok = false;
          break;
        }
        line += i === 0 ? c : NO_BORDERS.middle + c;
      }
      if (!ok) out += drawTable([], [row], widths, aligns, n);
      // trailing white space trimmed: none when the last cell ends with something else
      else out += (c !== "" && !TRAILING_SPACE.test(c!) ? line : line.trimEnd()) + "\n";
    }
    return out;
  };
}
