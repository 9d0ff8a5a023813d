// Installed with --omit=optional, mq has no DuckDB: the archive commands say what is missing and
// how to get it (exit 8); nothing else notices.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";

vi.mock("@duckdb/node-api", () => {
  throw Object.assign(new Error("Cannot find package '@duckdb/node-api' imported from dist/chunks/db.js"), { code: "ERR_MODULE_NOT_FOUND" });
});

describe("without the optional @duckdb/node-api", () => {
  it("mq archive query explains what to install, exit 8", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mq-noengine-"));
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
});
