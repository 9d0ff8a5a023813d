// `mq archive`: keep the event log beyond the service's 90 days in a local DuckDB database,
// query it with SQL, export it as Parquet. DuckDB is loaded only when one of these runs.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { type ArchiveSyncOptions, NewCmdArchiveSync } from "./sync.js";
import { type ArchiveStatusOptions, NewCmdArchiveStatus } from "./status.js";
import { type ArchiveQueryOptions, NewCmdArchiveQuery } from "./query.js";
import { type ArchiveExportOptions, NewCmdArchiveExport } from "./export.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

/** What each subcommand runs (run.ts, loaded by cli.ts when one runs; a spy in tests). */
export interface ArchiveRuns {
  sync: (opts: ArchiveSyncOptions) => Promise<void>;
  status: (opts: ArchiveStatusOptions) => Promise<void>;
  query: (opts: ArchiveQueryOptions) => Promise<void>;
  export: (opts: ArchiveExportOptions) => Promise<void>;
}

export function NewCmdArchive(ctx: Context, runs: ArchiveRuns): Command {
  return new Command("archive")
    .description(describeCommand("archive"))
    .addCommand(NewCmdArchiveSync(ctx, runs.sync))
    .addCommand(NewCmdArchiveStatus(ctx, runs.status))
    .addCommand(NewCmdArchiveQuery(ctx, runs.query))
    .addCommand(NewCmdArchiveExport(ctx, runs.export));
}
