import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // end-to-end tests spawn bin/mq.js and start loopback servers
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ["test/helpers/global-setup.ts"],
  },
});
