// GitHub-flavoured Markdown for -o markdown and the Actions step summary. Cells may hold server
// text: it is escaped so that it can neither break the table nor become a link (GFM's autolink
// literals too: https://…, www.…, name@host), an image, HTML, math ($…$) or emphasis in the
// rendered page (test/output/markdown-render.test.ts renders it with micromark and GFM).

export interface MarkdownTable {
  head: string[];
  rows: string[][];
  /** right-aligned columns (figures) */
  right?: boolean[];
}

/**
 * Text as literal Markdown inline content on one line (inside a table cell or after a list marker):
 * the one escaper of server text for Markdown. Line breaks become spaces; every character that
 * starts Markdown syntax is backslash-escaped (`<`, `>`, `&` as entities), and the characters that
 * make GFM autolink literals are broken the same way: the `:` of `scheme://`, the `.` after `www`,
 * and every `@`.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .replace(/[\\`*_{}[\]()!|<>&~$@]|:(?=\/\/)|(?<=\bwww)\./gi, (c) =>
        c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "&" ? "&amp;" : `\\${c}`,
      )
  );
}

export function renderMarkdownTable(t: MarkdownTable): string {
  const row = (cells: string[]) => `| ${cells.map((c) => escapeMarkdown(c)).join(" | ")} |`;
  const rule = `|${t.head.map((_, i) => (t.right?.[i] ? "---:" : "---")).join("|")}|`;
  return [row(t.head), rule, ...t.rows.map(row)].join("\n") + "\n";
}
