// One style for times and numbers: their rules live in src/iostreams/human.ts (passed on by
// src/output/format.ts), so no renderer writes a time, a count or a size by hand. This scan fails
// when one does: a time cut or patched from toISOString, a local clock read field by field, a
// locale's formatting; and, in the commands, any toISOString at all (records take formatInstant or
// formatInstantMs, screens formatTime).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
}

/** The home of the rules; the bundled server (its own logs, not mq's screens); the archive's microsecond records. */
const EXEMPT = new Set(["src/iostreams/human.ts", "src/archive/db.ts"]);

const BY_HAND: ReadonlyArray<[string, RegExp]> = [
  ["a time cut from toISOString", /toISOString\(\)\s*\.\s*(slice|substring|substr|replace|split)\b/],
  ["a time patched after toISOString", /\.replace\(\s*["'`]\.000Z["'`]/],
  // the API's own instant cut to the minute ("2026-11-13 12:00Z"): the stats headers did this
  ["an instant's text cut to the minute", /\.slice\(0,\s*16\)/],
  ["a local clock read field by field", /\.get(Hours|Minutes|Seconds|Date|Month|FullYear|Day)\(\)/],
  ["a locale's formatting", /\.toLocale(String|DateString|TimeString)\(/],
  ["a formatter of its own", /new\s+Intl\.(DateTimeFormat|NumberFormat|RelativeTimeFormat)\b/],
];

function offenders(files: readonly string[], patterns: ReadonlyArray<[string, RegExp]>): string[] {
  return files.flatMap((file) =>
    readFileSync(join(root, file), "utf8")
      .split("\n")
      .flatMap((line, i) => patterns.filter(([, re]) => re.test(line)).map(([what]) => `${file}:${i + 1}: ${what}: ${line.trim()}`)),
  );
}

describe("one style for times and numbers", () => {
  it("the scan sees what it looks for", () => {
    const probe = (line: string) => BY_HAND.some(([, re]) => re.test(line));
    expect(probe(`const t = d.toISOString().slice(0, 16).replace("T", " ");`)).toBe(true);
    expect(probe(`const t = d.toISOString().replace(".000Z", "Z");`)).toBe(true);
    expect(probe(`view.start_at.slice(0, 16).replace("T", " ")`)).toBe(true);
    expect(probe("const h = `${d.getHours()}:${d.getMinutes()}`;")).toBe(true);
    expect(probe(`n.toLocaleString("en-US")`)).toBe(true);
    expect(probe("formatTime(d)")).toBe(false);
  });

  it("no module outside src/iostreams/human.ts formats a time or a number by hand", () => {
    const files = sources("src").filter((f) => !f.startsWith("src/server/") && !EXEMPT.has(f));
    expect(files.length).toBeGreaterThan(100);
    expect(offenders(files, BY_HAND)).toEqual([]);
  });

  it("no command calls toISOString: screens take formatTime, records formatInstant", () => {
    const files = sources("src/commands");
    expect(offenders(files, [["toISOString in a command", /\btoISOString\(/]])).toEqual([]);
  });
});
