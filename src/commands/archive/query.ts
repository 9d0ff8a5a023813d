// `mq archive query "SQL"`: one read-only SELECT over the archive (the events are in the table
// `events`), sandboxed (archive/sandbox.ts), its rows in every output format, streamed.
import { Command } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { checkDataDir, dataDirOption } from "./shared.js";

export interface ArchiveQueryOptions {
  sql: string;
  dataDir?: string;
  format: OutputFormat;
}

export function NewCmdArchiveQuery(ctx: Context, runF: (opts: ArchiveQueryOptions) => Promise<void>): Command {
  return new Command("query")
    .description(
      "run one read-only SELECT (DuckDB dialect) over the archive, sandboxed (no files, no network, no ATTACH/COPY/SET/PRAGMA): the events are in the table events; see docs/archive.md for the schema",
    )
    .argument("<sql>", 'one SQL statement, e.g. "SELECT type, count(*) FROM events GROUP BY type"')
    .addOption(dataDirOption())
    .action(async (sql: string, flags: { dataDir?: string }) => {
      if (sql.trim() === "") throw new UsageError('the SQL is empty: give a statement such as "SELECT count(*) FROM events".');
      const opts = { sql, dataDir: checkDataDir(flags.dataDir), format: resolveOutputFormat(ctx) };
      await runF(opts);
    });
}
