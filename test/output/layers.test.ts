// Layers import downward: output/ renders what the domain hands it and never reaches back into
// commands/; the stats domain knows nothing of rendering; commands ask the I/O object about the
// terminal instead of reading isTTY. (Import circles are checked by the CI's dependency check.)
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
}

/** Every module a file imports (static, dynamic and type-only), as paths from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specifiers.filter((s) => s.startsWith(".")).map((s) => relative(root, resolve(root, dirname(file), s)));
}

function offenders(dir: string, forbidden: string): string[] {
  return sources(dir).flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith(forbidden))
      .map((i) => `${f} -> ${i}`),
  );
}

describe("layers", () => {
  it("the scan sees imports of every kind", () => {
    expect(importsOf("src/commands/stats/index.ts")).toContain("src/stats/endpoints.js");
    expect(importsOf("src/commands/stats/run.ts")).toContain("src/output/exporter.js");
  });

  it("src/output/** imports nothing from src/commands/**", () => {
    expect(sources("src/output").length).toBeGreaterThan(5);
    expect(offenders("src/output", "src/commands/")).toEqual([]);
  });

  it("src/stats/** imports nothing from src/output/** or src/api/**", () => {
    expect(offenders("src/stats", "src/output/")).toEqual([]);
    expect(offenders("src/stats", "src/api/")).toEqual([]);
  });

  it("commands never test whether a stream is a terminal themselves", () => {
    const reads = sources("src/commands").filter((f) =>
      /\bisTTY\b|stdoutIsTTY|stderrIsTTY|stdinIsTTY/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(reads).toEqual([]);
  });
});
