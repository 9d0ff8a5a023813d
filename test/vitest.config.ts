import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { CiFailuresReporter } from "./helpers/ci-reporter.js";
import { SlowFirstSequencer } from "./helpers/sequencer.js";

const TEST = fileURLToPath(new URL(".", import.meta.url));

// The fast files that replace a module (vi.mock, vi.doMock): they need a module graph of their own.
const mocking = readdirSync(TEST, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && !f.endsWith(".e2e.test.ts"))
  .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(TEST, f), "utf8")))
  .map((f) => `test/${f}`);

// The end-to-end files whose behaviour depends on the Node runtime that runs mq: start-up and its
// code cache, signals, a closed or full standard output, the fold helper's worker thread, DuckDB's
// native addon, the bundle run from anywhere, the proxy through the bundle, the shells' completion.
// .ci/run runs the whole end-to-end half on Node 24, and these on the system Node as well (`npm run test:runtime`).
export const RUNTIME_E2E = [
  "test/e2e/startup.e2e.test.ts",
  "test/e2e/code-cache.e2e.test.ts",
  "test/e2e/offline-anywhere.e2e.test.ts",
  "test/e2e/proxy.e2e.test.ts",
  "test/reliability/signals.e2e.test.ts",
  "test/reliability/closed-stdout.e2e.test.ts",
  "test/reliability/full-disk.e2e.test.ts",
  "test/server/fold-helper.e2e.test.ts",
  "test/archive/bundled-engine.e2e.test.ts",
  "test/completion/*.e2e.test.ts",
];

const common = {
  // end-to-end tests spawn bin/mq.js and start loopback servers
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // tempDir's folders are removed after each file (temp-cleanup.ts)
  setupFiles: ["test/helpers/temp-cleanup.ts", ...(process.env.MQ_TEST_CPU ? ["test/helpers/cpu-report.ts"] : [])],
  // CI (MQ_TEST_REPORT) runs six runs of the same files on a fresh clone: each module is transformed
  // once and kept in node_modules/.experimental-vitest-cache for the others (written atomically, so
  // runs side by side may share it; its key is the file's content and the config), about a fifth
  // of a fast run's CPU on a warm cache
  experimental: { fsModuleCache: process.env.MQ_TEST_REPORT !== undefined },
};

// An end-to-end file shares the cores with another file and the processes both spawn: a limit
// meant for a hung test, not a slow machine (at load 17, tests of 6 s on a quiet machine took 30).
const spawning = { testTimeout: 90_000, hookTimeout: 90_000 };

// The property tests (fast-check) run on one fixed seed (fast-check-seed.ts); the end-to-end
// files of RUNTIME_E2E have none.
const seeded = { setupFiles: [...common.setupFiles, "test/helpers/fast-check-seed.ts"] };

export default defineConfig({
  test: {
    // the run's own temp root, checked empty at the end (global-setup.ts), once for both projects
    globalSetup: ["test/helpers/global-setup.ts"],
    // Test files run in forks, one at a time per worker, a worker per core: vitest's default, one
    // fewer than the cores, is a single worker on 2 cores and leaves a core idle (the fast half is CPU
    // work in-process; with one worker the end-to-end files, one after the other, kept 1.3 of 2 cores
    // busy: CI's run took 555 s wall for 743 CPU-s, as a file mostly waits for what it spawns).
    // MQ_TEST_MAX_WORKERS says otherwise: .ci/run gives one worker to each of the runs it runs side
    // by side.
    maxWorkers: process.env.MQ_TEST_MAX_WORKERS || "100%",
    // vitest keeps each file's last duration in node_modules/.vite/vitest/results.json and reads it
    // back without a guard: CI's runs side by side (MQ_TEST_REPORT) would rewrite it at once
    cache: process.env.MQ_TEST_REPORT ? false : undefined,
    // The files of a worker share its process and module graph (isolate off): loading mq's modules
    // anew for each file was half the fast half's CPU time, and a fresh worker for each end-to-end
    // file (a fork, vitest, the file's modules, mq's code compiled and made hot again in-process)
    // about 2 CPU-s of each: 12 of them took 84-86 CPU-s in all with a worker each, 56-62 sharing.
    // Only a fast file that replaces a module gets a fresh graph of its own ("own-graph"; "runtime"
    // holds the end-to-end files of RUNTIME_E2E, "e2e" the others). So a test that changes state a
    // module or the process keeps (a cache, a setting, a spy) puts it back, and a file closes what
    // it started. The package scripts choose projects by name (--project): a project's own exclude
    // would drop a command line's --exclude, and `npm test` then ran the end-to-end files too.
    projects: [
      {
        test: {
          ...common,
          ...seeded,
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: ["**/*.e2e.test.ts", ...mocking],
          isolate: false,
        },
      },
      { test: { ...common, ...seeded, name: "own-graph", include: mocking } },
      {
        test: { ...common, ...seeded, ...spawning, name: "e2e", include: ["test/**/*.e2e.test.ts"], exclude: RUNTIME_E2E, isolate: false },
      },
      { test: { ...common, ...spawning, name: "runtime", include: RUNTIME_E2E, isolate: false } },
    ],
    // the slowest end-to-end files start first, so that both workers end together (sequencer.ts)
    sequence: { sequencer: SlowFirstSequencer },
    // CI also writes a JSON report (the counts) and what failed, from which .ci/run's closing
    // lines say what failed (scripts/ci-summary.mjs)
    reporters: process.env.MQ_TEST_REPORT ? ["default", "json", new CiFailuresReporter(process.env.MQ_TEST_REPORT)] : ["default"],
    outputFile: process.env.MQ_TEST_REPORT ? { json: process.env.MQ_TEST_REPORT } : undefined,
  },
});
