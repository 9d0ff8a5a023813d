// `mq archive query "SQL"`: any read-only SQL over the archive (the events are in the table
// `events`), its rows in every output format, streamed.
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

export function NewCmdArchiveQuery(ctx: Context, runF?: (opts: ArchiveQueryOptions) => Promise<void>): Command {
  return new Command("query")
    .description("run read-only SQL (DuckDB dialect) over the archive: the events are in the table events; see the README for the schema")
    .argument("<sql>", 'one SQL statement, e.g. "SELECT type, count(*) FROM events GROUP BY type"')
    .addOption(dataDirOption())
    .action(async (sql: string, flags: { dataDir?: string }) => {
      if (sql.trim() === "") throw new UsageError('the SQL is empty: give a statement such as "SELECT count(*) FROM events".');
      const opts = { sql, dataDir: checkDataDir(flags.dataDir), format: resolveOutputFormat(ctx) };
      await (runF ?? runArchiveQuery)(opts, ctx);
    });
}

export async function runArchiveQuery(opts: ArchiveQueryOptions, ctx: Context): Promise<void> {
  const [{ openArchiveForReading }, { archiveFailure, duckValue }, { openRows }] = await Promise.all([
    import("../../archive/reader.js"),
    import("../../archive/db.js"),
    import("./render.js"),
  ]);
  // read-only: a query cannot change the archive, whatever it says
  const archive = await openArchiveForReading(ctx, opts.dataDir);
  let columns: string[];
  let result;
  try {
    result = await archive.conn.stream(opts.sql);
    columns = result.deduplicatedColumnNames();
  } catch (err) {
    throw archiveFailure(err, archive.path, "run the query");
  }
  const sink = await openRows(ctx, opts.format, columns);
  try {
    for await (const rows of result.yieldRows()) {
      if (ctx.signal.aborted) break;
      await sink.write(rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, duckValue(row[i])]))));
    }
  } catch (err) {
    await sink.end().catch(() => undefined);
    throw archiveFailure(err, archive.path, "run the query");
  }
  await sink.end();
}
