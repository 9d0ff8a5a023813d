// DuckDB's engine, required from the installed package: this module is what `loadDuckDb` (db.ts)
// imports, the one import() of the engine, so that dist/ keeps it (and the engine's JavaScript the
// build inlines) in a chunk of its own that only an opened archive loads.
import { createRequire } from "node:module";
import type * as DuckDbModule from "@duckdb/node-api";
import { ArchiveError } from "../errors.js";
import { DUCKDB_PACKAGE, DUCKDB_VERSION } from "./duckdb-version.js";

/** true in dist/ (scripts/build.mjs defines it): there the engine's JavaScript is in the bundle */
declare const MQ_BUNDLED_DUCKDB: boolean | undefined;

/**
 * The engine's module. From src/ (tests, tsx), the installed package. In the bundle, its JavaScript
 * is inlined in the archive's chunk by scripts/build.mjs (Node's CommonJS loader spent ~30 ms
 * resolving, reading and compiling its 124 files one by one), and only its native addon is loaded
 * from the installed packages, found as the package itself would find it. The installed package
 * is still resolved first: without it (--omit=optional), the same MODULE_NOT_FOUND as before; and
 * its version must be the one the bundle inlines, since the addon installed with it is what runs.
 */
export function requireDuckDb(): typeof DuckDbModule {
  const req = createRequire(import.meta.url);
  if (typeof MQ_BUNDLED_DUCKDB === "undefined") return req(DUCKDB_PACKAGE) as typeof DuckDbModule;
  const installed = (req(`${DUCKDB_PACKAGE}/package.json`) as { version?: string }).version;
  if (installed !== DUCKDB_VERSION) {
    throw new ArchiveError(
      `mq archive needs ${DUCKDB_PACKAGE} ${DUCKDB_VERSION}, but ${installed ?? "an unknown version"} is installed`,
      `install the version mq was built with (npm install ${DUCKDB_PACKAGE}@${DUCKDB_VERSION})`,
    );
  }
  // a literal require, which esbuild bundles; from src/ this line is never reached
  return require("@duckdb/node-api") as typeof DuckDbModule;
}
