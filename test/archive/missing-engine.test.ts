// Installed with --omit=optional, mq has no DuckDB: the archive commands say what is missing and
// how to get it (exit 8); nothing else notices.
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

// the archive loads the engine with require (archive/db.ts): a require that cannot find it, as
// Node's says so when the package was left out
vi.mock("node:module", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:module")>();
  const createRequire = (from: string | URL) => {
    const req = real.createRequire(from);
    return Object.assign((id: string) => {
      if (id === "@duckdb/node-api")
        throw Object.assign(new Error("Cannot find module '@duckdb/node-api'\nRequire stack:\n- dist/chunks/db.js"), {
          code: "MODULE_NOT_FOUND",
        });
      return req(id);
    }, req);
  };
  return { ...real, default: { ...real, createRequire }, createRequire };
});

describe("without the optional @duckdb/node-api", () => {
  it("mq archive query explains what to install, exit 8", async () => {
    const dir = tempDir("mq-noengine-");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "archive.duckdb"), "");
    const ctx = testContext({ env: { MQ_DATA_DIR: dir } });
    expect(await main(["archive", "query", "SELECT 1"], ctx)).toBe(8);
    expect(ctx.stderrText()).toBe(
      "mq: mq archive needs the optional package @duckdb/node-api, which is not installed\n" +
        "install it next to mq (npm install @duckdb/node-api@1.5.6-r.1), or reinstall mq without --omit=optional\n",
    );
  });

  it("the other commands work as before", async () => {
    const ctx = testContext();
    expect(await main(["logs", "--help"], ctx)).toBe(0);
  });

  it("an archive on disk is not read without the engine: a past window is asked of the API, silently", async () => {
    const { startServer } = await import("../../src/server/index.js");
    const server = await startServer({ now: new Date("2026-11-20T12:00:00Z"), days: 2 });
    try {
      const dir = tempDir("mq-noengine-");
      const { writeFileSync } = await import("node:fs");
      writeFileSync(join(dir, "archive.duckdb"), "");
      const args = [
        "logs",
        "--api-url",
        server.url,
        "--token",
        "mqk_test_token_1234",
        "--repo",
        "acme/web",
        "--since",
        "2026-11-20T00:00:00Z",
        "--until",
        "2026-11-20T01:00:00Z",
        "-o",
        "ndjson",
      ];
      const without = testContext();
      expect(await main(args, without)).toBe(0);
      const ctx = testContext({ env: { MQ_DATA_DIR: dir } });
      expect(await main(args, ctx)).toBe(0);
      expect(ctx.stderrText()).toBe("");
      expect(ctx.stdoutText()).toBe(without.stdoutText());
      expect(ctx.stdoutText().length).toBeGreaterThan(100);
    } finally {
      await server.close();
    }
  });
});
