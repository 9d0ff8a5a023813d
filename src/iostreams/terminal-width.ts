// How wide printed text is on a terminal, and cutting it to a width: the one measure of every
// table, chart and wrapped line mq prints. Apart from terminal-text.ts because the width tables and
// the grapheme segmenter are only worth loading where something is laid out in columns, while the
// escaping runs on every error message.
import { eastAsianWidth } from "get-east-asian-width";
import { stripSgr } from "./terminal-text.js";

/**
 * Columns `text` takes on a terminal once printed, measured a grapheme cluster (a character as a
 * reader sees it) at a time: mq's colour codes take none; an emoji cluster (a ZWJ sequence such as
 * a family, a skin tone, a flag, a keycap, a pictograph with the emoji selector U+FE0F) two; any
 * other cluster the sum of its code points as a terminal's wcwidth counts them: East Asian wide and
 * fullwidth two, combining marks (Thai vowel and tone marks, Devanagari viramas and vowel signs
 * above and below, Hebrew points), format characters and the Hangul medial vowels and final
 * consonants that join a leading consonant none, everything else one. Summing within a cluster
 * keeps the measure the same whatever Unicode version the runtime's segmenter follows (Unicode 15.1
 * made a Devanagari conjunct one cluster). Call it on what is printed (after terminalText), not on
 * the raw value; every table pads and cuts with it, so columns line up.
 */
export function displayWidth(text: string): number {
  // most cells: one column a character
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const plain = text.includes("\x1b") ? stripSgr(text) : text;
  let width = 0;
  for (const { segment } of segmenter.segment(plain)) width += clusterWidth(segment);
  return width;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// an emoji cluster: two regional indicators (a flag), a keycap, a pictograph shown as an emoji
// (emoji presentation by default, or asked for by U+FE0F, or with a skin tone, a ZWJ or tags)
const EMOJI_CLUSTER =
  /^(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\p{Emoji_Presentation}.*|\p{Extended_Pictographic}.*(?:\uFE0F|\u200D|[\u{1F3FB}-\u{1F3FF}]|[\u{E0020}-\u{E007F}]).*)$/su;
// code points that take no column: controls (escaped before printing anyway), combining and
// enclosing marks, format characters (but the soft hyphen, which terminals draw), and the Hangul
// medial vowels and final consonants (old and extended blocks) that join a leading consonant
const ZERO_WIDTH = /^(?:[\p{Cc}\p{Mn}\p{Me}\u1160-\u11FF\uD7B0-\uD7FF]|(?!\u00AD)\p{Cf})$/u;

/** Columns one grapheme cluster takes. */
function clusterWidth(cluster: string): number {
  const first = cluster.codePointAt(0)!;
  if (first < 0x7f && cluster.length === 1) return first < 0x20 ? 0 : 1;
  if (cluster.length > 1 && EMOJI_CLUSTER.test(cluster)) return 2;
  let width = 0;
  for (const ch of cluster) width += codePointWidth(ch);
  return width;
}

function codePointWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0x20 && cp < 0x7f) return 1;
  if (ZERO_WIDTH.test(ch)) return 0;
  return eastAsianWidth(cp, { ambiguousAsWide: false });
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Cuts printed text (already through terminalText; mq's colour codes allowed) to at most `width`
 * columns, ending with `ellipsis` when something was cut. It cuts between whole characters as a
 * reader sees them (grapheme clusters), never inside a surrogate pair, an emoji sequence or an
 * escape such as `\x1b`, which would turn into a different, misleading escape. Colour codes take
 * no width and are kept; a colour open at the cut is closed after the ellipsis.
 */
export function truncateToWidth(text: string, width: number, ellipsis = "…"): string {
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  if (room <= 0) return width > 0 ? ellipsis.slice(0, width) : "";
  let out = "";
  let used = 0;
  const colours = new SgrState();
  for (const part of text.includes("\x1b") ? text.split(SGR_SPLIT) : [text]) {
    if (part.startsWith("\x1b[")) {
      out += part;
      colours.apply(part);
      continue;
    }
    for (const unit of printedUnits(part)) {
      const w = displayWidth(unit);
      if (used + w > room) return out + ellipsis + colours.closing();
      out += unit;
      used += w;
    }
  }
  return out + ellipsis + colours.closing();
}

// mq's own colour codes, kept apart by split (the capture keeps them in the list)
const SGR_SPLIT = /(\x1b\[[0-9;]*m)/;

/** The kind of attribute an SGR code sets, and the code that ends it. */
const SGR_ATTRIBUTES: ReadonlyArray<[RegExp, string]> = [
  [/^(?:3[0-8]|9[0-7])$/, "39"],
  [/^(?:4[0-8]|10[0-7])$/, "49"],
  [/^[12]$/, "22"],
  [/^3$/, "23"],
  [/^4$/, "24"],
  [/^5$/, "25"],
  [/^7$/, "27"],
  [/^8$/, "28"],
  [/^9$/, "29"],
];

/** Which colours and attributes are on after the codes seen so far (chalk writes one per code). */
class SgrState {
  // the code that ends an attribute → the code that set it
  private open = new Map<string, string>();

  apply(code: string): void {
    const first = code.slice(2, -1).split(";")[0]!;
    if (first === "" || first === "0") this.open.clear();
    for (const [on, off] of SGR_ATTRIBUTES) {
      if (first === off) this.open.delete(off);
      else if (on.test(first)) this.open.set(off, code);
    }
  }

  /** codes that turn on again what is open */
  opening(): string {
    return [...this.open.values()].join("");
  }

  /** codes that end what is open */
  closing(): string {
    // the last opened closed first, as chalk nests them
    return [...this.open.keys()]
      .reverse()
      .map((off) => `\x1b[${off}m`)
      .join("");
  }
}

/**
 * Lines of one cell, each standing alone as to colour: a colour open at the end of a line is closed
 * there and opened again at the start of the next, so padding, the next cell and a line cut on its
 * own never take the colour.
 */
export function colourEachLine(lines: readonly string[]): string[] {
  if (!lines.some((l) => l.includes("\x1b"))) return [...lines];
  const state = new SgrState();
  return lines.map((line) => {
    const start = state.opening();
    for (const code of line.match(SGR_CODES) ?? []) state.apply(code);
    return start + line + state.closing();
  });
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
