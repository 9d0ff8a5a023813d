// `npm run bench` prints its report; it writes a file only when --out names one (a run without it
// replaced bench/RESULTS.md, the history of every run, with one run's table).
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tmp.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** a copy of the bench beside links to the build, so that what it writes lands in a temporary folder */
function benchCopy(): string {
  const root = tempDir("mq-bench-out-");
  cpSync(join(ROOT, "bench"), join(root, "bench"), { recursive: true });
  for (const d of ["bin", "dist", "node_modules", "package.json"]) symlinkSync(join(ROOT, d), join(root, d));
  writeFileSync(join(root, "bench", "RESULTS.md"), "the history\n");
  return root;
}

describe("bench output", () => {
  it("without --out prints the report and leaves bench/RESULTS.md alone", () => {
    const root = benchCopy();
    // --only none: no section, the report's frame only (the quickest whole run)
    const r = spawnSync(process.execPath, ["bench/run.mjs", "--no-build", "--only", "none"], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n## Targets\n/);
    expect(r.stderr).not.toMatch(/written to/);
    expect(readFileSync(join(root, "bench", "RESULTS.md"), "utf8")).toBe("the history\n");
  });

  it("with --out FILE writes the report there too", () => {
    const root = benchCopy();
    const out = join(root, "run.md");
    const r = spawnSync(process.execPath, ["bench/run.mjs", "--no-build", "--only", "none", "--out", out], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(r.stdout);
    expect(r.stderr).toContain(`bench: written to ${out}\n`);
    expect(readFileSync(join(root, "bench", "RESULTS.md"), "utf8")).toBe("the history\n");
  });
});
