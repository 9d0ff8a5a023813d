// How wide printed text is on a terminal, and cutting it to a width: the one measure of every
// table, chart and wrapped line mq prints. Apart from terminal-text.ts because the width tables are
// only worth loading where something is laid out in columns, while the escaping runs on every
// error message.
import { eastAsianWidth } from "get-east-asian-width";
import { stripSgr } from "./terminal-text.js";

/**
 * Columns `text` takes on a terminal once printed, a character as a reader sees it (a grapheme
 * cluster) at a time: mq's colour codes take none; an emoji sequence (a ZWJ sequence such as a
 * family, a skin tone, a flag, a keycap, a pictograph with the emoji selector U+FE0F) two; any
 * other cluster the sum of its code points as a terminal's wcwidth counts them: East Asian wide and
 * fullwidth two, combining marks (Thai vowel and tone marks, Devanagari viramas and vowel signs
 * above and below, Hebrew points), format characters and the Hangul medial vowels and final
 * consonants that join a leading consonant none, everything else one. Summing within a cluster
 * keeps the measure the same whatever Unicode version the runtime's segmenter follows (Unicode 15.1
 * made a Devanagari conjunct one cluster), and needs no segmenter (ICU's costs ~30 µs a cell): only
 * emoji sequences are taken whole. Call it on what is printed (after terminalText), not on the raw
 * value; every table pads and cuts with it, so columns line up.
 */
export function displayWidth(text: string): number {
  // most cells: one column a character
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let plain = text.includes("\x1b") ? stripSgr(text) : text;
  // an emoji sequence counts as one wide character
  if (MAY_HOLD_EMOJI.test(plain)) plain = plain.replace(WIDE_EMOJI, "\u3000");
  let width = 0;
  for (const ch of plain) {
    const cp = ch.codePointAt(0)!;
    width += cp < 0x300 ? (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? 0 : 1) : codePointWidth(cp, ch);
  }
  return width;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// what an emoji sequence can start with: digits and # * (keycaps), pictographs, regional indicators
const MAY_HOLD_EMOJI = /[#*0-9\u00a9\u00ae\u203c-\u3299\u{1F000}-\u{1FAFF}]/u;
// the joiners and modifiers that keep a pictograph an emoji: U+FE0F, skin tones, tag characters
const MODIFIER = "(?:\\uFE0F|\\p{Emoji_Modifier}|[\\u{E0020}-\\u{E007F}])";
// a wide emoji sequence: a flag (two regional indicators), a keycap, a pictograph shown as an
// emoji (by default, or asked for by a modifier, or joined by ZWJ to another), and what ZWJ joins to it
const WIDE_EMOJI = new RegExp(
  "\\p{Regional_Indicator}{2}|[#*0-9]\\uFE0F?\\u20E3|" +
    `(?:\\p{Emoji_Presentation}${MODIFIER}*|\\p{Extended_Pictographic}${MODIFIER}+|\\p{Extended_Pictographic}(?=\\u200D\\p{Extended_Pictographic}))` +
    `(?:\\u200D\\p{Extended_Pictographic}${MODIFIER}*)*`,
  "gu",
);
// code points that take no column: controls (escaped before printing anyway), combining and
// enclosing marks, format characters (but the soft hyphen, which terminals draw), and the Hangul
// medial vowels and final consonants (old and extended blocks) that join a leading consonant
const ZERO_WIDTH = /^(?:[\p{Cc}\p{Mn}\p{Me}\u1160-\u11FF\uD7B0-\uD7FF]|(?!\u00AD)\p{Cf})$/u;

// widths of the code points met so far above U+02FF (at most the ones a run prints)
const widths = new Map<number, number>();

function codePointWidth(cp: number, ch: string): number {
  let w = widths.get(cp);
  if (w === undefined) {
    w = ZERO_WIDTH.test(ch) ? 0 : eastAsianWidth(cp, { ambiguousAsWide: false });
    widths.set(cp, w);
  }
  return w;
}

/**
 * Cuts printed text (already through terminalText; mq's colour codes allowed) to at most `width`
 * columns, ending with `ellipsis` when something was cut. It cuts between whole characters as a
 * reader sees them (printedUnits), never inside a surrogate pair, an emoji sequence or an
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

/**
 * The characters of printed text as a reader sees them: a code point with the zero-width ones that
 * follow it (combining marks, Hangul medial and final jamo, selectors), an emoji sequence whole,
 * and each escape written by terminalText (`\x1b`, `\u202e`, `\u{e0041}`) whole.
 */
function* printedUnits(text: string): Generator<string> {
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    let end = i + (cp > 0xffff ? 2 : 1);
    if (cp === 0x5c) {
      ESCAPED.lastIndex = i;
      const m = ESCAPED.exec(text);
      if (m) end = i + m[0].length;
    } else if (MAY_HOLD_EMOJI.test(String.fromCodePoint(cp))) {
      EMOJI_AT.lastIndex = i;
      const m = EMOJI_AT.exec(text);
      if (m) end = i + m[0].length;
    }
    // the zero-width code points after it belong to it
    while (end < text.length) {
      const next = text.codePointAt(end)!;
      if (next < 0x300 || codePointWidth(next, String.fromCodePoint(next)) !== 0) break;
      end += next > 0xffff ? 2 : 1;
    }
    yield text.slice(i, end);
    i = end;
  }
}

const ESCAPED = /\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|u\{[0-9a-f]{1,6}\}|[nrt])/y;
const EMOJI_AT = new RegExp(WIDE_EMOJI.source, "uy");

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
  // a time (formatTime's "2026-11-20 11:58:03Z") is one word: its date and its clock stay together
  for (const word of text.slice(lead.length).split(/(?<!\b\d{4}-\d\d-\d\d) | (?!\d\d:\d\d:\d\dZ)/)) {
    const prefix = lines.length ? indent : lead;
    if (line !== prefix && width(line) + 1 + width(word) > columns) {
      lines.push(line);
      line = indent + word;
    } else line = line === prefix ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join("\n");
}
