// `mq archive status`: what the archive holds, per repository: events, first and last event, the
// covered window, the sides of the API its events came from, the last sync and whether it
// finished, and the known gaps.
import { Command } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { checkDataDir, dataDirOption } from "./shared.js";

export interface ArchiveStatusOptions {
  dataDir?: string;
  format: OutputFormat;
}

export const STATUS_COLUMNS = [
  "repository",
  "events",
  "first_event",
  "last_event",
  "covered_from",
  "covered_to",
  "dialects",
  "last_sync",
  "last_sync_complete",
  "raw_bytes",
  "gaps",
];

export function NewCmdArchiveStatus(ctx: Context, runF: (opts: ArchiveStatusOptions) => Promise<void>): Command {
  return new Command("status")
    .description("show the archive's repositories: events, first and last event, covered window, dialects, last sync, size, known gaps")
    .addOption(dataDirOption())
    .action(async (flags: { dataDir?: string }) => {
      const opts = { dataDir: checkDataDir(flags.dataDir), format: resolveOutputFormat(ctx) };
      await runF(opts);
    });
}
