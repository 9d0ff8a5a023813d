// The closing lines of .ci/run (scripts/ci-summary.mjs): CI shows only the last ~100 lines of its
// output, so each failure must be named there, with its run, file, test and first lines, bounded.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script without types
import { MAX_DETAIL_LINES, summarize } from "../../scripts/ci-summary.mjs";
import { tempDir } from "./tmp.js";

const ROOT = "/ci/clone";
const STACK = [
  "    at /ci/clone/node_modules/@vitest/runner/dist/index.js:1:1",
  "    at file:///ci/clone/test/output/table.test.ts:12:5",
  "    at /ci/clone/test/output/other.ts:3:3",
].join("\n");

const counts = (passed: number, failed: number, skipped = 0) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: skipped,
  numTodoTests: 0,
  testResults: [],
});

function write(dir: string, name: string, value: unknown) {
  writeFileSync(join(dir, name), typeof value === "string" ? value : JSON.stringify(value));
}

describe("the summary of .ci/run", () => {
  it("counts each run and names each failed test once, with the runs it failed in, ANSI stripped", () => {
    const dir = tempDir();
    const error = {
      name: "AssertionError",
      message: "expected \u001b[31m'a'\u001b[39m to be 'b'",
      stack: `AssertionError: expected\n${STACK}`,
    };
    const failures = {
      tests: [{ file: `${ROOT}/test/output/table.test.ts`, name: "table > fits 80 columns", errors: [error] }],
      files: [],
      unhandled: [],
    };
    for (const run of ["fast-system", "fast-node22"]) {
      write(dir, `${run}.json`, counts(1, 1, 1));
      write(dir, `${run}.failures.json`, failures);
    }
    write(dir, "fast-node24.json", counts(2, 0));
    write(dir, "fast-node24.failures.json", { tests: [], files: [], unhandled: [] });
    expect(summarize(dir, ["fast-system", "fast-node22", "fast-node24"], ROOT)).toEqual([
      "fast-system: 1 passed, 1 failed, 1 skipped",
      "fast-node22: 1 passed, 1 failed, 1 skipped",
      "fast-node24: 2 passed, 0 failed, 0 skipped",
      "vitest: 4 passed, 2 failed, 2 skipped",
      "what failed (1; the first lines of each, the run's whole output is above):",
      "-- [fast-system, fast-node22] test/output/table.test.ts > table > fits 80 columns",
      "   AssertionError: expected 'a' to be 'b'",
      "   at test/output/table.test.ts:12:5",
    ]);
  });

  it("says nothing more when every run passed", () => {
    const dir = tempDir();
    write(dir, "fast-system.json", counts(1, 0));
    expect(summarize(dir, ["fast-system"], ROOT)).toEqual([
      "fast-system: 1 passed, 0 failed, 0 skipped",
      "vitest: 1 passed, 0 failed, 0 skipped",
    ]);
  });

  it("names a file that failed outside its tests, errors outside any test, leftovers and a run that could not start", () => {
    const dir = tempDir();
    write(dir, "e2e-system.json", counts(0, 0));
    write(dir, "e2e-system.failures.json", {
      tests: [],
      files: [
        {
          file: `${ROOT}/test/b.test.ts`,
          errors: [{ name: "Error", message: "Cannot find module './x.js' imported from /ci/clone/test/b.test.ts" }],
        },
      ],
      unhandled: [{ name: "Error", message: "boom", stack: `Error: boom\n${STACK}` }],
    });
    write(dir, "e2e-system.leftovers.json", ["mq-test-a", "mq-test-b"]);
    write(dir, "e2e-node24.log", "> vitest run\n\u001b[31mError: Cannot find module 'vitest'\u001b[39m\n");
    expect(summarize(dir, ["e2e-system", "e2e-node24"], ROOT)).toEqual([
      "e2e-system: 0 passed, 0 failed, 0 skipped",
      "e2e-node24: no report (the run could not start)",
      "vitest: 0 passed, 0 failed, 0 skipped",
      "what failed (4; the first lines of each, the run's whole output is above):",
      "-- [e2e-system] test/b.test.ts (the file itself: it did not load, or a hook failed)",
      "   Error: Cannot find module './x.js' imported from test/b.test.ts",
      "-- [e2e-system] an error outside any test (vitest's Unhandled Errors)",
      "   Error: boom",
      "   at test/output/table.test.ts:12:5",
      "-- [e2e-system] left 2 entries in the temporary directory",
      "   mq-test-a, mq-test-b",
      "-- [e2e-node24] the run could not start; the end of its output:",
      "   > vitest run",
      "   Error: Cannot find module 'vitest'",
    ]);
  });

  it("keeps the details within MAX_DETAIL_LINES however much failed, and counts what it left out", () => {
    const dir = tempDir();
    const message = Array.from({ length: 50 }, (_, i) => `line ${i} ${"x".repeat(500)}`).join("\n");
    const tests = Array.from({ length: 40 }, (_, i) => ({ file: `${ROOT}/test/many.test.ts`, name: `case ${i}`, errors: [{ message }] }));
    write(dir, "fast-system.json", counts(0, 40));
    write(dir, "fast-system.failures.json", { tests, files: [], unhandled: [] });
    const lines: string[] = summarize(dir, ["fast-system"], ROOT);
    const details = lines.slice(lines.indexOf("what failed (40; the first lines of each, the run's whole output is above):"));
    expect(details.length).toBeLessThanOrEqual(MAX_DETAIL_LINES);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(200);
    expect(details.at(-1)).toBe("... and 29 more: test/many.test.ts");
  });
});
