// Where the archive lives. Light on purpose (no DuckDB): `mq archive status --help` and the
// error paths need the location without loading the engine.
import { join } from "node:path";

export const ARCHIVE_FILE = "archive.duckdb";

/**
 * The archive's folder: the --data-dir flag, else $MQ_DATA_DIR, else $XDG_DATA_HOME/mq, else
 * ~/.local/share/mq (the XDG base-directory default), as the config folder is found.
 */
export function archiveDir(env: Record<string, string | undefined>, flag?: string): string {
  if (flag) return flag;
  if (env.MQ_DATA_DIR) return env.MQ_DATA_DIR;
  const xdg = env.XDG_DATA_HOME || join(env.HOME ?? ".", ".local", "share");
  return join(xdg, "mq");
}

export function archivePath(env: Record<string, string | undefined>, flag?: string): string {
  return join(archiveDir(env, flag), ARCHIVE_FILE);
}
