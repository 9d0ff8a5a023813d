// --archive and --no-archive, shared by the commands that read the event log (logs, prs, pr,
// insights), and MQ_ARCHIVE for when neither is given. Light: parsing only; the choice itself
// (archive/choose.ts) is loaded when the command runs.
import { Option } from "commander";
import { UsageError } from "../errors.js";
import type { ArchiveMode } from "../archive/choose.js";

export const ARCHIVE_MODES: readonly ArchiveMode[] = ["auto", "always", "never"];
export const ARCHIVE_ENV = "MQ_ARCHIVE";

export function archiveOption(): Option {
  return new Option(
    "--archive",
    "read the local archive (mq archive sync) instead of the API, whatever it covers: no network, windows older than the service keeps",
  );
}

export function noArchiveOption(): Option {
  return new Option(
    "--no-archive",
    `ask the API even when the archive covers the window (default: the archive when it covers the whole window; $${ARCHIVE_ENV}=auto|always|never)`,
  );
}

/** --archive (true), --no-archive (false), else $MQ_ARCHIVE, else auto. */
export function resolveArchiveMode(flag: boolean | undefined, env: Record<string, string | undefined>): ArchiveMode {
  if (flag === true) return "always";
  if (flag === false) return "never";
  const raw = env[ARCHIVE_ENV];
  if (raw === undefined || raw.trim() === "") return "auto";
  const value = raw.trim().toLowerCase();
  if (!(ARCHIVE_MODES as readonly string[]).includes(value)) {
    throw new UsageError(`${ARCHIVE_ENV} must be one of ${ARCHIVE_MODES.join(", ")}, not "${raw}".`);
  }
  return value as ArchiveMode;
}
