// How wide printed text is on a terminal, and cutting it to a width. Apart from terminal-text.ts
// because string-width (and its emoji regex) is only worth loading where a table or chart is drawn,
// while the escaping runs on every error message.
import stringWidth from "string-width";
import { stripSgr } from "./terminal-text.js";

/**
 * Columns `text` takes on a terminal once printed: mq's colour codes take none, East Asian wide
 * characters and emoji two, combining marks none. The same measure cli-table3 pads with, so a
 * table's columns line up. Call it on what is printed (after terminalText), not on the raw value.
 */
export function displayWidth(text: string): number {
  // most cells: one column a character, as string-width would count them, without its regexes
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return stringWidth(stripSgr(text));
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Cuts printed text (already through terminalText, without colour codes) to at most `width`
 * columns, ending with `ellipsis` when something was cut. It cuts between whole characters as a
 * reader sees them (grapheme clusters), never inside a surrogate pair, an emoji sequence or an
 * escape such as `\x1b`, which would turn into a different, misleading escape.
 */
export function truncateToWidth(text: string, width: number, ellipsis = "…"): string {
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  if (room <= 0) return width > 0 ? ellipsis.slice(0, width) : "";
  let out = "";
  let used = 0;
  for (const unit of printedUnits(text)) {
    const w = displayWidth(unit);
    if (used + w > room) break;
    out += unit;
    used += w;
  }
  return out + ellipsis;
}

/** Grapheme clusters, with each escape written by terminalText (`\x1b`, `\u202e`, `\u{e0041}`) kept whole. */
function* printedUnits(text: string): Generator<string> {
  const ESCAPED = /\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|u\{[0-9a-f]{1,6}\}|[nrt])/y;
  let i = 0;
  for (const { segment, index } of segmenter.segment(text)) {
    // the rest of an escape already given out whole
    if (index < i) continue;
    ESCAPED.lastIndex = index;
    const m = segment === "\\" ? ESCAPED.exec(text) : null;
    if (m) {
      i = index + m[0].length;
      yield m[0];
    } else {
      i = index + segment.length;
      yield segment;
    }
  }
}

// mq's own colour codes in a line to wrap: they take no columns
const SGR_CODES = /\x1b\[[0-9;]*m/g;

/**
 * A line of prose broken at spaces onto lines of at most `columns`, the lines after the first
 * indented by `indent` (a word longer than a line stays whole). Colour codes take no width; a
 * colour open at a break carries on to the next line, as it would in the terminal anyway.
 */
export function wrapLine(text: string, columns: number | undefined, indent = ""): string {
  const width = (s: string) => displayWidth(s.includes("\x1b") ? s.replace(SGR_CODES, "") : s);
  if (columns === undefined || width(text) <= columns) return text;
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(" ")) {
    const prefix = lines.length ? indent : lead;
    if (line !== prefix && width(line) + 1 + width(word) > columns) {
      lines.push(line);
      line = indent + word;
    } else line = line === prefix ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join("\n");
}
