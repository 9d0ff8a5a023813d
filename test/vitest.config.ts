import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // end-to-end tests spawn bin/mq.js and start loopback servers
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // the run's own temp root, checked empty at the end (global-setup.ts); tempDir's folders are
    // removed after each file (temp-cleanup.ts)
    globalSetup: ["test/helpers/global-setup.ts"],
    setupFiles: ["test/helpers/temp-cleanup.ts"],
    // Test files run in forks, one at a time per worker, each in a fresh module graph. vitest's
    // default is one worker fewer than the cores, which on a 2-core machine is a single worker
    // and one idle core: `npm test` passes --maxWorkers=100% (the fast half is CPU work in-process;
    // its main process only transforms and reports). `npm test` also passes --no-isolate: the files
    // of a worker share its module graph, which halves the fast half's CPU time (each file loaded
    // mq's modules anew); a file that fakes a module loads mq afresh with vi.resetModules and takes
    // the fake away after (test/archive/missing-engine.test.ts). `npm run test:e2e` keeps the
    // defaults, as its files spawn processes of their own.
    // CI also writes a JSON report, from which .ci/run prints a plain "N passed, N failed" line
    reporters: process.env.MQ_TEST_REPORT ? ["default", "json"] : ["default"],
    outputFile: process.env.MQ_TEST_REPORT ? { json: process.env.MQ_TEST_REPORT } : undefined,
  },
});
