// In dist/, @duckdb/node-api is not bundled (scripts/build.mjs): it and its native addon are loaded
// from the installed packages; the bundle says what to install when it is missing or of another
// version than the one it was built with.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openArchive } from "../../src/archive/db.js";
import { tempDir } from "../helpers/tmp.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** mq as installed without node_modules (npm install --omit=optional: nothing else is external) */
function installedCopy(): string {
  const dir = tempDir("mq-bundled-engine-");
  cpSync(join(root, "bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(root, "dist"), join(dir, "dist"), { recursive: true });
  cpSync(join(root, "package.json"), join(dir, "package.json"));
  return dir;
}

function archiveQuery(dir: string) {
  const data = join(dir, "data");
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "archive.duckdb"), "");
  const r = spawnSync(process.execPath, [join(dir, "bin/mq.js"), "archive", "query", "SELECT 1"], {
    env: { PATH: process.env.PATH, HOME: dir, MQ_DATA_DIR: data, NO_COLOR: "1" },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the bundle's DuckDB", () => {
  it("without the installed package: what to install, exit 8", () => {
    expect(archiveQuery(installedCopy())).toEqual({
      code: 8,
      stdout: "",
      stderr:
        "mq: mq archive needs the optional package @duckdb/node-api, which is not installed\n" +
        "install it next to mq (npm install @duckdb/node-api@1.5.6-r.1), or reinstall mq without --omit=optional\n",
    });
  });

  it("with another version installed: which one to install, exit 8", () => {
    const dir = installedCopy();
    mkdirSync(join(dir, "node_modules/@duckdb/node-api"), { recursive: true });
    writeFileSync(join(dir, "node_modules/@duckdb/node-api/package.json"), JSON.stringify({ name: "@duckdb/node-api", version: "1.4.0" }));
    expect(archiveQuery(dir)).toEqual({
      code: 8,
      stdout: "",
      stderr:
        "mq: mq archive needs @duckdb/node-api 1.5.6-r.1, but 1.4.0 is installed\n" +
        "install the version mq was built with (npm install @duckdb/node-api@1.5.6-r.1)\n",
    });
  });

  it("nested where npm may put it (not hoisted): the addon is found from the installed package", async () => {
    const dir = installedCopy();
    const modules = join(root, "node_modules/@duckdb");
    mkdirSync(join(dir, "node_modules/@duckdb/node-api/node_modules/@duckdb/node-bindings/node_modules/@duckdb"), { recursive: true });
    const api = join(dir, "node_modules/@duckdb/node-api");
    cpSync(join(modules, "node-api/package.json"), join(api, "package.json"));
    cpSync(join(modules, "node-api/lib"), join(api, "lib"), { recursive: true });
    const bindings = join(api, "node_modules/@duckdb/node-bindings");
    cpSync(join(modules, "node-bindings/package.json"), join(bindings, "package.json"));
    cpSync(join(modules, "node-bindings/duckdb.js"), join(bindings, "duckdb.js"));
    symlinkSync(join(root, "node_modules/detect-libc"), join(bindings, "node_modules/detect-libc"));
    for (const platform of readdirSync(modules).filter((name) => name.startsWith("node-bindings-"))) {
      symlinkSync(join(modules, platform), join(bindings, "node_modules/@duckdb", platform));
    }
    const data = join(dir, "data");
    (await openArchive(join(data, "archive.duckdb"), { create: true })).close();
    const r = spawnSync(process.execPath, [join(dir, "bin/mq.js"), "archive", "query", "SELECT 42 AS answer", "-o", "ndjson"], {
      env: { PATH: process.env.PATH, HOME: dir, MQ_DATA_DIR: data, NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: '{"answer":42}\n', stderr: "" });
  });

  // the bundle minifies the engine's classes: instants, decimals, lists and structs were told
  // apart by constructor name, and came out as DuckDB's own text ("2026-11-21 06:06:24.502+00")
  it("values as from src/: instants in ISO 8601 with microseconds, decimals as numbers, lists and structs as JSON", async () => {
    const data = tempDir("mq-bundled-values-");
    (await openArchive(join(data, "archive.duckdb"), { create: true })).close();
    const sql = "SELECT TIMESTAMPTZ '2026-11-21 06:06:24.502+00' AS at, 1.50::DECIMAL(4,2) AS d, [1, 2] AS l, {'k': 'v'} AS s";
    const r = spawnSync(process.execPath, [join(root, "bin/mq.js"), "archive", "query", sql, "-o", "ndjson"], {
      env: { PATH: process.env.PATH, HOME: data, MQ_DATA_DIR: data, NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 0,
      stdout: '{"at":"2026-11-21T06:06:24.502000Z","d":1.5,"l":[1,2],"s":{"k":"v"}}\n',
      stderr: "",
    });
  });
});
