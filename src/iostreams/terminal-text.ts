// The one door through which text mq did not write itself (event fields, metadata, group keys,
// queue and branch names, an error's `detail`, cursors, URLs, ids, header values) reaches a
// terminal or stderr. A terminal obeys the bytes it is given: ESC and the C1 controls move the
// cursor, clear the screen, retitle the window (OSC 0), write the clipboard (OSC 52) or open a
// hyperlink (OSC 8); CR overwrites a row; LF starts a line that a CI runner may read as a workflow
// command (`::error::`); bidi overrides and invisible characters make text read differently from
// what it is. Such characters are shown escaped (`\x1b`, `\u202e`), so the user sees that they were
// there, and mq's own colours are added after, around the escaped text. Widths are measured on
// what is printed (terminal-width.ts).

// What is escaped: every control (C0, DEL, C1), every format character (bidi marks, embeddings,
// overrides and isolates, zero-width space, BOM, soft hyphen, tags...), the line and paragraph
// separators, a surrogate left without its pair, and Unicode's default-ignorable code points
// (characters that render as nothing, such as the Hangul fillers).
//
// What is kept although it is in those classes, because real text needs it and it cannot move the
// cursor or reorder a line: variation selectors (emoji presentation, CJK variants), a zero-width
// joiner between two pictographs (family and profession emoji), a zero-width non-joiner between two
// non-ASCII letters (Persian, Indic scripts), and the tag characters of a subdivision flag.
const KEEP =
  "[\\uFE00-\\uFE0F\\u180B-\\u180D\\u180F\\u{E0100}-\\u{E01EF}]" +
  "|(?<=\\p{Extended_Pictographic}[\\uFE0F\\u{1F3FB}-\\u{1F3FF}]?)\\u200D(?=\\p{Extended_Pictographic})" +
  "|(?<=[^\\P{L}\\x00-\\x7F]\\p{M}*)\\u200C(?=[^\\P{L}\\x00-\\x7F])" +
  "|\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+\\u{E007F}";
const UNSAFE = "[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Default_Ignorable_Code_Point}]";

// Built on first use: Unicode property classes cost a little to compile, and most runs of mq
// print no server text at all (`mq --version`, `mq --help`).
let escapeAll: RegExp | undefined;
let anyUnsafe: RegExp | undefined;
/** every character to escape, and (group 1) the sequences kept whole */
const ESCAPE_ALL = (): RegExp => (escapeAll ??= new RegExp(`(${KEEP})|${UNSAFE}`, "gu"));
/** a quick test: most cells are plain text and never go through the replacement */
const ANY_UNSAFE = (): RegExp => (anyUnsafe ??= new RegExp(UNSAFE, "u"));

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `\x1b` below U+0100, `\u202e` in the BMP, `\u{e0041}` above; a lone surrogate as `\ud800`. */
export function escapeCodePoint(ch: string): string {
  const short = SHORT[ch];
  if (short !== undefined) return short;
  const cp = ch.codePointAt(0)!;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\u{${cp.toString(16)}}`;
}

/**
 * Untrusted text as it may be printed on a terminal: one line, every control, bidi and invisible
 * format character shown escaped. The door for table cells, chart titles, names, and every piece
 * of server text in a message.
 */
export function terminalText(text: string): string {
  if (!ANY_UNSAFE().test(text)) return text;
  return text.replace(ESCAPE_ALL(), (ch: string, keep: string | undefined) => (keep !== undefined ? keep : escapeCodePoint(ch)));
}

/** Whether `text` holds a character terminalText would escape. */
export function hasUnsafeCharacters(text: string): boolean {
  return ANY_UNSAFE().test(text);
}

/**
 * A value from a server or a file inside a message for stderr: terminalText, so no raw newline can
 * start a new line (a CI runner reads `::error::...` at the start of a line as a workflow command).
 */
export function messageText(value: unknown): string {
  return terminalText(typeof value === "string" ? value : String(value));
}

// GitHub Actions reads a line as a workflow command when, after leading white space, it starts with
// `::` (`::error::`, `::add-mask::`, `::set-output::`) or with the older `##[` form.
const WORKFLOW_COMMAND = /^(\s*)(::|##\[)/;

/**
 * The last net before stderr, for whole messages (mq's own lines joined with `\n`, pieces of server
 * text already through messageText): controls other than mq's line breaks are escaped, and a line
 * that would start a workflow command has its first character escaped (`\x3a:error::`). mq never
 * writes a workflow command on purpose; should one ever be wanted, it must not pass through here.
 */
export function stderrText(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const safe = terminalText(line);
      return WORKFLOW_COMMAND.test(safe)
        ? safe.replace(WORKFLOW_COMMAND, (_m, ws: string, cmd: string) => ws + escapeCodePoint(cmd[0]!) + cmd.slice(1))
        : safe;
    })
    .join("\n");
}

// mq's own colours: SGR sequences only (chalk writes nothing else).
const SGR = /\x1b\[[0-9;]*m/g;

/** Removes mq's own colour codes (SGR); any other escape sequence is left for the caller to see. */
export function stripSgr(text: string): string {
  return text.includes("\x1b") ? text.replace(SGR, "") : text;
}

/**
 * JSON text for a terminal: the same JSON value, with every character terminalText would escape
 * written as a `\uXXXX` escape. Such characters can only sit inside strings (JSON allows no other
 * place), so the result parses to exactly the same data; a pipe gets the bytes as sent instead.
 * A line feed is the exception: a JSON string cannot hold a raw one, so it is the layout of
 * pretty-printed JSON (`-o json` documents), and escaping it printed the document as one line.
 */
export function terminalJson(json: string): string {
  if (!ANY_UNSAFE().test(json)) return json;
  return json.replace(ESCAPE_ALL(), (ch: string, keep: string | undefined) => {
    if (keep !== undefined || ch === "\n") return ch;
    let out = "";
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
    return out;
  });
}

// Words a POSIX shell reads back unchanged without quotes.
const SHELL_SAFE = /^[\w@%+=:,./-]+$/;

/**
 * One argument of a command line printed for the user to copy (the resume command): as is when
 * plain, in single quotes when it holds shell characters, and in bash/zsh ANSI-C quotes with
 * escapes (`$'c1\x1b]0;t\x07'`) when it holds characters terminalText escapes, so the terminal
 * shows no raw control and the pasted command still gives back the exact value.
 */
export function shellWord(value: string): string {
  if (SHELL_SAFE.test(value)) return value;
  if (!ANY_UNSAFE().test(value)) return `'${value.replace(/'/g, `'\\''`)}'`;
  let out = "";
  for (const ch of value) {
    if (ch === "\\") out += "\\\\";
    else if (ch === "'") out += "\\'";
    else if (ANY_UNSAFE().test(ch)) {
      const cp = ch.codePointAt(0)!;
      out +=
        cp < 0x100
          ? `\\x${cp.toString(16).padStart(2, "0")}`
          : cp <= 0xffff
            ? `\\u${cp.toString(16).padStart(4, "0")}`
            : `\\U${cp.toString(16).padStart(8, "0")}`;
    } else out += ch;
  }
  return `$'${out}'`;
}
