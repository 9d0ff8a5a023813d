// `mq archive`: keep the event log beyond the service's 90 days in a local DuckDB database,
// query it with SQL, export it as Parquet. DuckDB is loaded only when one of these runs.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { NewCmdArchiveSync } from "./sync.js";
import { NewCmdArchiveStatus } from "./status.js";
import { NewCmdArchiveQuery } from "./query.js";
import { NewCmdArchiveExport } from "./export.js";

export function NewCmdArchive(ctx: Context): Command {
  return new Command("archive")
    .description("keep the event log in a local database: sync it, see what it holds, query it with SQL, export it as Parquet")
    .addCommand(NewCmdArchiveSync(ctx))
    .addCommand(NewCmdArchiveStatus(ctx))
    .addCommand(NewCmdArchiveQuery(ctx))
    .addCommand(NewCmdArchiveExport(ctx));
}
