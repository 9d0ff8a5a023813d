// The one measure of printed text (displayWidth): a grapheme cluster at a time, as a terminal
// lays it out, for the scripts whose columns went astray with cli-table3's string-width 4: Thai
// marks, Devanagari, Hangul conjoining jamo, emoji ZWJ sequences, combining marks, CJK, RTL text.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { colourEachLine, displayWidth, truncateToWidth } from "../../src/iostreams/terminal-width.js";

describe("displayWidth", () => {
  it.each([
    ["Thai with vowel and tone marks above", "กี่", 1],
    ["Thai word", "ภาษาไทย", 7],
    ["Devanagari with a virama and vowel signs", "नमस्ते", 4],
    ["Devanagari spacing vowel sign", "कि", 2],
    ["Hangul conjoining jamo (L V T)", "\u1100\u1161\u11a8", 2],
    ["Hangul syllables", "한국어", 6],
    ["CJK", "日本語", 6],
    ["fullwidth Latin", "ＡＢ", 4],
    ["a ZWJ family", "👨‍👩‍👧", 2],
    ["a newer ZWJ family", "🧑‍🧑‍🧒", 2],
    ["a rainbow flag (VS16 and ZWJ)", "🏳️‍🌈", 2],
    ["a skin tone", "👍🏽", 2],
    ["a country flag", "🇫🇷", 2],
    ["a subdivision flag (tags)", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", 2],
    ["a keycap", "1️⃣", 2],
    ["a text pictograph asked as emoji", "❤️", 2],
    ["a text pictograph", "☺", 1],
    ["an emoji of Unicode 15", "🫨", 2],
    ["e and a combining acute", "e\u0301", 1],
    ["stacked combining marks", "a\u0300\u0301\u0302", 1],
    ["Hebrew with a point", "שׁלום", 4],
    ["Arabic", "مرحبا", 5],
    ["printable ASCII", "queue: default", 14],
    ["mq's colour codes", "\x1b[31mred\x1b[39m", 3],
  ])("%s: %j is %i columns", (_, text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it("is the sum of its parts cut between grapheme clusters", () => {
    const pieces = ["a", " ", "é", "e\u0301", "日", "กี่", "स्", "ते", "\u1100\u1161", "👨‍👩‍👧", "🇫🇷", "ש", "\\x1b", "…"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        expect(displayWidth(parts.join(""))).toBe(parts.reduce((sum, p) => sum + displayWidth(p), 0));
      }),
      { numRuns: 300 },
    );
  });

  it("takes the printable-ASCII shortcut only where the full measure agrees", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        // a leading é takes the full measure for the rest
        expect(displayWidth(`é${text}`) - 1).toBe(displayWidth(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe("truncateToWidth", () => {
  it.each([
    ["👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 5, "👨‍👩‍👧👨‍👩‍👧…"],
    ["कि कि कि", 4, "कि …"],
    ["กี่กี่กี่", 2, "กี่…"],
    ["\u1100\u1161\u11a8\u1100\u1161\u11a8", 3, "\u1100\u1161\u11a8…"],
    ["日本語", 4, "日…"],
  ])("%j to %i columns is %j", (text, width, cut) => {
    expect(truncateToWidth(text, width)).toBe(cut);
    expect(displayWidth(cut)).toBeLessThanOrEqual(width);
  });

  it("keeps colour codes and closes what is open after the ellipsis", () => {
    expect(truncateToWidth("\x1b[36m\x1b[1mabcdef\x1b[22m\x1b[39m", 4)).toBe("\x1b[36m\x1b[1mabc…\x1b[22m\x1b[39m");
    expect(truncateToWidth("ab\x1b[31mcdef\x1b[39m", 4)).toBe("ab\x1b[31mc…\x1b[39m");
  });
});

describe("colourEachLine", () => {
  it("closes a colour at a line's end and opens it again on the next", () => {
    expect(colourEachLine(["\x1b[31mone", "two\x1b[39m", "three"])).toEqual(["\x1b[31mone\x1b[39m", "\x1b[31mtwo\x1b[39m", "three"]);
  });
});
