// GitHub-flavoured Markdown for -o markdown and the Actions step summary. Cells may hold server
// text: it is escaped so that it can neither break the table nor become a link, an image, HTML or
// emphasis in the rendered page.

export interface MarkdownTable {
  head: string[];
  rows: string[][];
  /** right-aligned columns (figures) */
  right?: boolean[];
}

/** Text as literal Markdown inline content on one line (inside a table cell or after a list marker). */
export function escapeMarkdown(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .replace(/[\\`*_{}[\]()!|<>&~]/g, (c) => (c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "&" ? "&amp;" : `\\${c}`))
  );
}

export function renderMarkdownTable(t: MarkdownTable): string {
  const row = (cells: string[]) => `| ${cells.map((c) => escapeMarkdown(c)).join(" | ")} |`;
  const rule = `|${t.head.map((_, i) => (t.right?.[i] ? "---:" : "---")).join("|")}|`;
  return [row(t.head), rule, ...t.rows.map(row)].join("\n") + "\n";
}
