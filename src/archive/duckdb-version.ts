// The engine the archive is built for: the optional package and the version whose JavaScript the
// bundle inlines (duckdb-engine.ts), which must be the installed one (its native addon is what runs).
export const DUCKDB_PACKAGE = "@duckdb/node-api";
export const DUCKDB_VERSION = "1.5.6-r.1";
