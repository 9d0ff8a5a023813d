// The README and docs/*.md stay true to the tree: every relative link leads to a file that exists
// (and, with a #fragment, to a heading of it), and every path the README and docs/ name in backticks
// under src/, test/, bench/, scripts/, bin/ or docs/ exists. A file moved without its page fails here, naming both.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const pages = [
  "README.md",
  "bench/RESULTS.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(text: string): Set<string> {
  const out = new Set<string>();
  let inBlock = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) inBlock = !inBlock;
    const m = !inBlock && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    let s = slug(m[1]!);
    for (let n = 1; out.has(s); n++) s = `${slug(m[1]!)}-${n}`;
    out.add(s);
  }
  return out;
}

/** Prose only: code blocks show commands and output, not references. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");

describe.each(pages)("%s", (page) => {
  const text = readFileSync(join(root, page), "utf8");

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, fragment] = target!.split("#") as [string, string | undefined];
      const file = path === "" ? join(root, page) : join(root, dirname(page), path);
      if (!existsSync(file)) broken.push(`${target}: no ${relative(root, file)}`);
      else if (fragment !== undefined && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(fragment))
        broken.push(`${target}: no heading #${fragment}`);
    }
    expect(broken).toEqual([]);
  });

  // bench/RESULTS.md is a record of past runs: the paths it names are those of their day
  it.skipIf(page === "bench/RESULTS.md")("names only paths that exist", () => {
    const missing = [...prose(text).matchAll(/`((?:src|test|bench|scripts|bin|docs)\/[\w./<>*-]*[\w/])`/g)]
      .map((m) => m[1]!)
      .filter((p) => !/[<>*]/.test(p))
      .filter((p) => !existsSync(join(root, p)));
    expect([...new Set(missing)]).toEqual([]);
  });
});
