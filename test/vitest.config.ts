import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { CiFailuresReporter } from "./helpers/ci-reporter.js";

const TEST = fileURLToPath(new URL(".", import.meta.url));

// The fast files that replace a module (vi.mock, vi.doMock): they need a module graph of their own.
const mocking = readdirSync(TEST, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && !f.endsWith(".e2e.test.ts"))
  .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(TEST, f), "utf8")))
  .map((f) => `test/${f}`);

const common = {
  // end-to-end tests spawn bin/mq.js and start loopback servers
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // tempDir's folders are removed after each file (temp-cleanup.ts)
  setupFiles: ["test/helpers/temp-cleanup.ts"],
};

export default defineConfig({
  test: {
    // the run's own temp root, checked empty at the end (global-setup.ts), once for both projects
    globalSetup: ["test/helpers/global-setup.ts"],
    // Test files run in forks, one at a time per worker. vitest's default is one worker fewer than
    // the cores, which on a 2-core machine is a single worker and one idle core: `npm test` passes
    // --maxWorkers=100% (the fast half is CPU work in-process; its main process only transforms and
    // reports). `npm run test:e2e` keeps the default, as its files spawn processes of their own.
    // The fast files of a worker share its module graph (isolate off): loading mq's modules anew for
    // each file was half the fast half's CPU time. A fast file that replaces a module, and every
    // end-to-end file, gets a fresh module graph of its own.
    projects: [
      {
        test: { ...common, name: "fast", include: ["test/**/*.test.ts"], exclude: ["**/*.e2e.test.ts", ...mocking], isolate: false },
      },
      { test: { ...common, name: "own-graph", include: ["test/**/*.e2e.test.ts", ...mocking] } },
    ],
    // CI also writes a JSON report (the counts) and what failed, from which .ci/run's closing
    // lines say what failed (scripts/ci-summary.mjs)
    reporters: process.env.MQ_TEST_REPORT ? ["default", "json", new CiFailuresReporter(process.env.MQ_TEST_REPORT)] : ["default"],
    outputFile: process.env.MQ_TEST_REPORT ? { json: process.env.MQ_TEST_REPORT } : undefined,
  },
});
