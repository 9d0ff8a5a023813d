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

export function NewCmdArchiveQuery(ctx: Context, runF?: (opts: ArchiveQueryOptions) => Promise<void>): Command {
  return new Command("query")
    .description(
      "run one read-only SELECT (DuckDB dialect) over the archive, sandboxed (no files, no network, no ATTACH/COPY/SET/PRAGMA): the events are in the table events; see docs/archive.md for the schema",
    )
    .argument("<sql>", 'one SQL statement, e.g. "SELECT type, count(*) FROM events GROUP BY type"')
    .addOption(dataDirOption())
    .action(async (sql: string, flags: { dataDir?: string }) => {
      if (sql.trim() === "") throw new UsageError('the SQL is empty: give a statement such as "SELECT count(*) FROM events".');
      const opts = { sql, dataDir: checkDataDir(flags.dataDir), format: resolveOutputFormat(ctx) };
      await (runF ?? runArchiveQuery)(opts, ctx);
    });
}

export async function runArchiveQuery(opts: ArchiveQueryOptions, ctx: Context): Promise<void> {
  const [{ openArchiveForReading }, { duckValue }, { prepareArchiveQuery, queryFailure }, { openRows }] = await Promise.all([
    import("../../archive/reader.js"),
    import("../../archive/db.js"),
    import("../../archive/sandbox.js"),
    import("./render.js"),
  ]);
  // sandboxed: the engine reaches the archive only, read-only, its configuration locked; the
  // statement is parsed and bound first, and anything but one SELECT is refused before it runs
  const archive = await openArchiveForReading(ctx, opts.dataDir, { sandbox: true });
  const prepared = await prepareArchiveQuery(archive, opts.sql);
  let columns: string[];
  let result;
  try {
    result = await prepared.stream();
    columns = result.deduplicatedColumnNames();
  } catch (err) {
    throw queryFailure(err, archive.path);
  }
  const sink = await openRows(ctx, opts.format, columns);
  try {
    for await (const rows of result.yieldRows()) {
      if (ctx.signal.aborted) break;
      await sink.write(rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, duckValue(row[i])]))));
    }
  } catch (err) {
    await sink.end().catch(() => undefined);
    throw queryFailure(err, archive.path);
  }
  await sink.end();
}
