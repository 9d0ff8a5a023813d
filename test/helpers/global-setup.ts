// Once per run, in vitest's main process, before any test file.
// - The run gets a temp root of its own: TMPDIR points at a fresh folder, so every os.tmpdir() of
//   the test files, of the build and of the processes they spawn lands in it (other runs on the
//   machine keep theirs). The teardown fails the run naming anything left in it, then removes it.
// - End-to-end tests spawn bin/mq.js, which loads dist/: bundle it once before any test runs.
//   Without `npm run build`'s clean: chunk names are content hashes, so a test run started while
//   another is spawning mq (two terminals, an editor's watcher) leaves it the chunks it loads.
//   It runs scripts/build.mjs (what `npm run build:bundle` runs) without npm: npm on Node 22 and
//   later turns on Node's compile cache in the temp folder, which would be left in the run's.
//   MQ_TEST_DIST_BUILT=1 (.ci/run, which has just built dist/) skips it: two runs side by side
//   would otherwise rewrite dist/ while the other's processes load it.
// - With MQ_TEST_REPORT (CI), what is left is also written beside the report, for the closing
//   summary of .ci/run (scripts/ci-summary.mjs): CI shows only the end of its output.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { reportPath } from "./ci-reporter.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "mq-test-run-"));
  process.env.TMPDIR = root;
  if (process.env.MQ_TEST_DIST_BUILT !== "1") execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  return () => {
    let left: string[] = [];
    try {
      left = readdirSync(root);
    } finally {
      rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      if (outer === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = outer;
    }
    if (left.length > 0) {
      const report = process.env.MQ_TEST_REPORT;
      if (report) writeFileSync(reportPath(report, "leftovers"), JSON.stringify(left.sort()));
      const shown = left.sort().slice(0, 50).join("\n  ");
      const more = left.length > 50 ? `\n  ... and ${left.length - 50} more` : "";
      const message = `the tests left ${left.length} entries in the temporary directory (${root}):\n  ${shown}${more}`;
      // vitest prints an error thrown here but keeps the exit status of the tests
      process.exitCode = 1;
      throw new Error(message);
    }
  };
}
