// Server text in -o markdown and in the step summary, rendered by a real GitHub-flavoured Markdown
// renderer (micromark with its GFM and math extensions, raw HTML allowed as GitHub allows some):
// hostile strings go in, and what comes out holds no link, image, HTML or math, the table keeps its
// columns, and each cell reads as the text that was sent.
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { math, mathHtml } from "micromark-extension-math";
import { describe, expect, it } from "vitest";
import { escapeMarkdown, renderMarkdownTable } from "../../src/output/markdown.js";
import { renderStepSummary } from "../../src/output/github.js";

const render = (md: string) =>
  micromark(md, { allowDangerousHtml: true, extensions: [gfm(), math()], htmlExtensions: [gfmHtml(), mathHtml()] });

const HOSTILE = [
  "https://evil.example/path?q=1",
  "HTTP://EVIL.EXAMPLE",
  "see www.evil.example now",
  "(www.evil.example)",
  "admin@evil.example",
  "mailto:admin@evil.example",
  "xmpp:admin@evil.example",
  "<https://evil.example>",
  "[click](https://evil.example)",
  "![img](https://evil.example/x.png)",
  "[ref]: https://evil.example",
  "<img src=x onerror=alert(1)>",
  "<a href='https://evil.example'>x</a>",
  "<!-- hidden -->",
  "&lt;script&gt; &#60;b&#62; &amp;",
  "$x^2$ and $$y$$ and $`z`$",
  "a | b || c",
  "a\\|b",
  "line\nbreak\r\nand\u2028more",
  "`code` **bold** _it_ ~~strike~~ ~one~",
  "# heading",
  "- item",
  "1. item",
  "> quote",
  "\\",
  "trailing \\",
  "[^note]",
  "- [ ] task",
  ":+1: @someone #123",
];

/** The text content of rendered HTML: tags dropped, the entities micromark writes decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

function checkTable(md: string, columns: number): string[] {
  const html = render(md);
  const tags = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
  expect(new Set(tags)).toEqual(new Set(["table", "thead", "tbody", "tr", "th", "td"]));
  const rows = html.split("<tr>").slice(1);
  for (const row of rows) expect((row.match(/<t[hd][ >]/g) ?? []).length).toBe(columns);
  return rows.map((row) => textOf(row.slice(row.indexOf(">") + 1, row.indexOf("</t"))).trim());
}

describe("markdown escaping under a GFM renderer", () => {
  it("a table of hostile cells: no link, image, HTML or math; every row keeps its columns; each cell reads as sent", () => {
    const md = renderMarkdownTable({ head: ["name", "value"], rows: HOSTILE.map((h) => [h, h]) });
    const firstCells = checkTable(md, 2).slice(1);
    const sent = HOSTILE.map((h) => h.replace(/[\r\n\u2028]+/g, " ").trim());
    expect(firstCells).toEqual(sent);
  });

  it("one hostile string at a time, inline in a paragraph as the step summary puts it", () => {
    for (const h of HOSTILE) {
      const html = render(`### \`mq stats\` · ${escapeMarkdown(h)}\n`);
      expect(html, h).not.toMatch(/<(?!\/?(h3|code)>)/);
      expect(textOf(html).trim(), h).toBe(`mq stats · ${h.replace(/[\r\n\u2028]+/g, " ")}`.trim());
    }
  });

  it("the step summary with hostile repository, window and groups renders no link", () => {
    const evil = "acme/www.evil.example https://e.example a@b.example $x$";
    const md = renderStepSummary({
      command: "mq stats ci-runtime",
      repository: evil,
      window: { start: evil, end: "2026-11-20" },
      headline: { head: ["figure", "value"], rows: [[evil, "1.5"]] },
      verdicts: [],
      chart: { label: evil, values: [1, 2], min: evil, max: "2" },
    });
    const html = render(md);
    expect(html).not.toMatch(/<a |<img|<math|<span class="math/);
  });
});
