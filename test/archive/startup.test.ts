// DuckDB (a 70 MB native package that takes about a second to load) must cost nothing to the
// commands that do not use it: nothing mq loads at start-up may import it. The bundle's static
// import graph from dist/main.cjs is what `mq --help`, `mq logs --help` and every command's
// start-up load; DuckDB may only be reached through a dynamic import().
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = join(root, "dist");

/** Every file reached from `entry` through static imports, and the bare packages they name. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    // `import x from "y"`, `import "y"`, `export ... from "y"`, `require("y")`: not `import("y")`
    for (const m of text.matchAll(
      /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']|(?<![\w$.])require\(["']([^"']+)["']\)/g,
    )) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

describe("start-up never loads DuckDB", () => {
  // dist/ is built by the suite's global setup (test/helpers/global-setup.ts)
  it("the bundle reaches @duckdb/node-api only from a chunk loaded by dynamic import", () => {
    const { files, packages } = staticGraph(join(dist, "main.cjs"));
    expect(files.size).toBeGreaterThan(0);
    expect([...packages].filter((p) => p.includes("duckdb"))).toEqual([]);
    for (const f of files) expect(readFileSync(f, "utf8"), f).not.toMatch(/from\s*["']@duckdb/);
    // what loads the package (its name alone, in an error message, loads nothing)
    const all = execFileSync("grep", ["-rlE", `require\\("@duckdb/node-api|from ?"@duckdb/node-api`, dist], { encoding: "utf8" })
      .trim()
      .split("\n");
    // the archive code is in the bundle, but in a chunk start-up does not load
    expect(all.length).toBeGreaterThan(0);
    for (const f of all) expect(files.has(f), `${f} is loaded at start-up`).toBe(false);
  });

  it("bin/mq.js answers --version without loading the bundle", () => {
    const bin = readFileSync(join(root, "bin/mq.js"), "utf8");
    expect(bin).toMatch(/--version/);
    expect(bin.indexOf('require("./code-cache.js")')).toBeGreaterThan(bin.indexOf("--version"));
  });
});
