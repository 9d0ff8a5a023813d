import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // end-to-end tests spawn bin/mq.js and start loopback servers
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ["test/helpers/global-setup.ts"],
    // CI also writes a JSON report, from which .ci/run prints a plain "N passed, N failed" line
    reporters: process.env.MQ_TEST_REPORT ? ["default", "json"] : ["default"],
    outputFile: process.env.MQ_TEST_REPORT ? { json: process.env.MQ_TEST_REPORT } : undefined,
  },
});
