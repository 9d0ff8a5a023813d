// The door for untrusted text: every class of dangerous character is shown escaped, real text is
// kept, widths are measured on what is printed, and stderr lines never start a workflow command.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { shellWord, stderrText, terminalJson, terminalText } from "../../src/iostreams/terminal-text.js";
import { displayWidth, truncateToWidth } from "../../src/iostreams/terminal-width.js";

describe("terminalText", () => {
  it.each([
    ["ESC (CSI clear screen)", "\x1b[2Jmain", "\\x1b[2Jmain"],
    ["OSC 52 clipboard", "bob\x1b]52;c;aGk=\x07", "bob\\x1b]52;c;aGk=\\x07"],
    ["OSC 0 title", "\x1b]0;pwned\x07x", "\\x1b]0;pwned\\x07x"],
    ["OSC 8 hyperlink", "\x1b]8;;https://e.example\x1b\\click\x1b]8;;\x1b\\", "\\x1b]8;;https://e.example\\x1b\\click\\x1b]8;;\\x1b\\"],
    ["CR overwrite", "ok\rEVIL", "ok\\rEVIL"],
    ["LF inside a cell", "denied\n::error::spoofed", "denied\\n::error::spoofed"],
    ["tab", "a\tb", "a\\tb"],
    ["NUL, BS, BEL, DEL", "\x00\x08\x07\x7f", "\\x00\\x08\\x07\\x7f"],
    ["C1 CSI and OSC", "\x9b2J\x9d0;t\x9c", "\\x9b2J\\x9d0;t\\x9c"],
    ["bidi override", "abc\u202Efdp.exe", "abc\\u202efdp.exe"],
    [
      "bidi embeddings and isolates",
      "\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069",
      "\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069",
    ],
    ["bidi marks", "\u200E\u200F\u061C", "\\u200e\\u200f\\u061c"],
    ["zero-width space, BOM, word joiner", "ma\u200Bin\uFEFF\u2060", "ma\\u200bin\\ufeff\\u2060"],
    ["soft hyphen", "ma\u00ADin", "ma\\xadin"],
    ["line and paragraph separators", "a\u2028b\u2029c", "a\\u2028b\\u2029c"],
    ["tag characters (ASCII smuggling)", "hi\u{E0041}\u{E0042}", "hi\\u{e0041}\\u{e0042}"],
    ["Hangul filler", "\u3164", "\\u3164"],
    ["a lone surrogate", "x\uD800y", "x\\ud800y"],
    ["a zero-width joiner between letters", "ma\u200Din", "ma\\u200din"],
  ])("escapes %s", (_name, input, expected) => {
    expect(terminalText(input)).toBe(expected);
  });

  it.each([
    ["ASCII", "refs/heads/main"],
    ["accents, CJK, RTL script", "café 中文 שלום مرحبا"],
    ["emoji with presentation selector", "✔️ ok"],
    ["a family emoji (ZWJ sequence)", "👨‍👩‍👧"],
    ["a skin-toned profession emoji", "👩🏽‍💻"],
    ["a Persian word with a non-joiner", "می‌خواهم"],
    ["a subdivision flag", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"],
    ["backslashes", "C:\\x1b is text"],
  ])("keeps %s", (_name, text) => {
    expect(terminalText(text)).toBe(text);
  });

  it("leaves no character a terminal would act on, whatever the input", () => {
    let all = "";
    for (let cp = 0; cp < 0x3000; cp++) all += String.fromCodePoint(cp);
    const out = terminalText(all);
    expect(out).not.toMatch(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
  });
});

describe("stderrText", () => {
  it("keeps mq's own line breaks and escapes every other control", () => {
    expect(stderrText("mq: failed: \x1b[31mred\nhint line")).toBe("mq: failed: \\x1b[31mred\nhint line");
  });

  it.each(["::error::spoofed", "  ::add-mask::x", "##[error]legacy form"])(
    "defuses a line that would be a workflow command: %s",
    (line) => {
      const out = stderrText(`mq: failed\n${line}`);
      for (const l of out.split("\n")) expect(l.trimStart()).not.toMatch(/^(::|##\[)/);
      expect(out).toContain(line.trimStart().slice(1));
    },
  );
});

describe("displayWidth and truncateToWidth", () => {
  it("measures what is printed: escapes by their text, colours as nothing, wide characters as two", () => {
    expect(displayWidth(terminalText("\x1b"))).toBe(4);
    expect(displayWidth("\x1b[36mabc\x1b[39m")).toBe(3);
    expect(displayWidth("中文")).toBe(4);
  });

  it("cuts between whole characters and whole escapes", () => {
    expect(truncateToWidth("abcdef", 4)).toBe("abc…");
    expect(truncateToWidth("ab\\x1bcd", 5)).toBe("ab…");
    expect(truncateToWidth("ab\\x1bcd", 7)).toBe("ab\\x1b…");
    expect(truncateToWidth("中文中文", 5)).toBe("中文…");
    expect(truncateToWidth("a👨‍👩‍👧b", 3)).toBe("a…");
    expect(truncateToWidth("short", 10)).toBe("short");
  });
});

describe("terminalJson", () => {
  it("escapes inside strings and parses back to the same value", () => {
    const json = '{"a":"x\u009b2J\u202e\u2028y","b":1.0}';
    const out = terminalJson(json);
    expect(out).toBe('{"a":"x\\u009b2J\\u202e\\u2028y","b":1.0}');
    expect(JSON.parse(out)).toEqual(JSON.parse(json));
  });

  it("keeps the line breaks of pretty-printed JSON (mq logs aggregate -o json on a terminal was one line of \\u000a)", () => {
    const json = JSON.stringify({ a: "x\u202e", b: [1] }, null, 2);
    expect(terminalJson(json)).toBe('{\n  "a": "x\\u202e",\n  "b": [\n    1\n  ]\n}');
  });
});

describe("shellWord", () => {
  it.each([
    ["c2", "c2"],
    ["a b'c", `'a b'\\''c'`],
    ["c1\x1b]0;t\x07|x", `$'c1\\x1b]0;t\\x07|x'`],
    ["a'\\\u202e", `$'a\\'\\\\\\u202e'`],
  ])("%j → %s", (value, word) => {
    expect(shellWord(value)).toBe(word);
  });

  it("gives back the exact value through bash", () => {
    const value = "c1\x1b[2J|\u202e|\u{e0041}|a'b\\c|\t|\n";
    const out = execFileSync("bash", ["-c", `printf %s ${shellWord(value)}`], { encoding: "utf8" });
    expect(out).toBe(value);
  });
});
