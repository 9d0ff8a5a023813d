// Where the archive lives. Light on purpose (no DuckDB): `mq archive status --help` and the
// error paths need the location without loading the engine.
import { join } from "node:path";
import { homeDir } from "../config/dir.js";

export const ARCHIVE_FILE = "archive.duckdb";

/**
 * The archive's folder: the --data-dir flag, else $MQ_DATA_DIR, else $XDG_DATA_HOME/mq, else
 * ~/.local/share/mq (the XDG base-directory default), with the config folder's home rule.
 */
export function archiveDir(env: Record<string, string | undefined>, flag?: string): string {
  if (flag) return flag;
  if (env.MQ_DATA_DIR) return env.MQ_DATA_DIR;
  // without HOME, the account's home folder (or exit 7), as the config folder: never the
  // current folder, where an archive would land in whatever checkout the user stands in
  const xdg =
    env.XDG_DATA_HOME ||
    join(
      homeDir(env, () => {}),
      ".local",
      "share",
    );
  return join(xdg, "mq");
}

export function archivePath(env: Record<string, string | undefined>, flag?: string): string {
  return join(archiveDir(env, flag), ARCHIVE_FILE);
}
