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
// - The processes the tests spawn share one code cache (bin/code-cache.js): MQ_TEST_CODE_CACHE names
//   a folder of the run's temp root, which the spawning helpers pass as XDG_CACHE_HOME. A fresh HOME
//   per process meant compiling mq anew and writing its cache in each (about 75 ms of CPU of a
//   0.24 s `mq stats` on Node 24); the code-cache and start-up tests give theirs a folder of their own.
// - With MQ_TEST_REPORT (CI), what is left is also written beside the report, for the closing
//   summary of .ci/run (scripts/ci-summary.mjs): CI shows only the end of its output.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { reportPath } from "./ci-reporter.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** the spawned processes' shared code cache, in the run's temp root (not a leftover) */
const CODE_CACHE = "mq-code-cache";

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "mq-test-run-"));
  process.env.TMPDIR = root;
  process.env.MQ_TEST_CODE_CACHE = join(root, CODE_CACHE);
  mkdirSync(process.env.MQ_TEST_CODE_CACHE, { mode: 0o700 });
  if (process.env.MQ_TEST_DIST_BUILT !== "1") execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  return () => {
    let left: string[] = [];
    try {
      left = readdirSync(root).filter((f) => f !== CODE_CACHE);
    } finally {
      rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      delete process.env.MQ_TEST_CODE_CACHE;
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
