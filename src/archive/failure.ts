// What DuckDB's failures mean to a user, and the archive's size on disk: plain functions of an
// error and a path, which readers, sync and the opener share without loading the engine.
import { SERVICE_RETENTION_DAYS } from "../api/retention.js";
import { stat } from "node:fs/promises";
import { ArchiveError, MqError } from "../errors.js";

/** The archive file's size in bytes, its write-ahead log included. */
export async function archiveSize(path: string): Promise<number> {
  let size = 0;
  for (const p of [path, `${path}.wal`]) {
    try {
      size += (await stat(p)).size;
    } catch {
      // no WAL: nothing to add
    }
  }
  return size;
}

/** DuckDB's error, as one line that says what failed and what to do. */
export function archiveFailure(err: unknown, path: string, doing: string): MqError {
  if (err instanceof MqError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: string }).code;
  const lock = /Conflicting lock is held in (.*?) \(PID (\d+)\)/.exec(message);
  if (lock || /Could not set lock on file/.test(message)) {
    return new ArchiveError(
      `the archive ${path} is in use by another process${lock ? ` (pid ${lock[2]})` : ""}, probably another mq archive sync`,
      "only one mq at a time can use the archive while it syncs: try again when that one has finished",
    );
  }
  if (/No space left on device|ENOSPC|disk is full|Could not write all bytes|out of disk/i.test(message) || code === "ENOSPC") {
    return new ArchiveError(
      `could not ${doing}: the disk holding ${path} is full`,
      "nothing was lost: the events being written were rolled back. Free some space and run mq archive sync again to continue",
    );
  }
  if (
    /not a valid DuckDB database file|Corrupt|checksum|Serialization Error|INTERNAL Error.*(block|checkpoint)|Invalid Input Error: Could not read/i.test(
      message,
    )
  ) {
    return new ArchiveError(
      `the archive ${path} is corrupt or not a DuckDB database (${firstLine(message)})`,
      `move it aside (mv ${path} ${path}.bad) and run mq archive sync again: the service still has the last ${SERVICE_RETENTION_DAYS} days`,
    );
  }
  if (/Trying to read a database file with version number|newer version of DuckDB|incompatible/i.test(message)) {
    return new ArchiveError(`the archive ${path} was written by a newer DuckDB (${firstLine(message)})`, "upgrade mq to read it");
  }
  if (
    /Permission denied|EACCES|EPERM|read-only file system|EROFS/i.test(message) ||
    code === "EACCES" ||
    code === "EPERM" ||
    code === "EROFS"
  ) {
    return new ArchiveError(
      `could not ${doing}: permission denied on ${path}`,
      "check the folder's permissions, or choose another with --data-dir or MQ_DATA_DIR",
    );
  }
  if (
    /Catalog Error|Parser Error|Binder Error|Conversion Error|Invalid Input Error|Constraint Error|Not implemented Error|Out of Range Error/.test(
      message,
    )
  ) {
    return new ArchiveError(`could not ${doing}: ${firstLine(message)}`);
  }
  return new ArchiveError(`could not ${doing} ${path}: ${firstLine(message)}`);
}

function firstLine(message: string): string {
  return message
    .split("\n")[0]!
    .replace(/^Failed to (extract statements|prepare statement|execute prepared statement): /, "")
    .trim();
}
