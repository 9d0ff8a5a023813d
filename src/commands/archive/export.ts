// `mq archive export --parquet DIR`: the archive as Hive-partitioned Parquet for other engines.
import { Command, Option } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { checkDataDir, checkRepositories, dataDirOption } from "./shared.js";

export interface ArchiveExportOptions {
  parquet: string;
  repositories: string[];
  force: boolean;
  dataDir?: string;
}

export function NewCmdArchiveExport(_ctx: Context, runF: (opts: ArchiveExportOptions) => Promise<void>): Command {
  return new Command("export")
    .description(
      "write the archive as Hive-partitioned Parquet (DIR/repository=owner%2Fname/date=YYYY-MM-DD/) for Spark, Trino, BigQuery, ClickHouse or DuckDB",
    )
    .argument("[repos...]", "only these repositories (default: all)")
    .addOption(new Option("--parquet <dir>", "the folder to write (required)"))
    .addOption(new Option("--force", "replace a previous export in the folder (refused when it holds anything else, or a symbolic link)"))
    .addOption(dataDirOption())
    .action(async (repos: string[], flags: { parquet?: string; force?: boolean; dataDir?: string }) => {
      if (flags.parquet === undefined || flags.parquet.trim() === "")
        throw new UsageError("--parquet <dir> is required: the folder to write the Parquet files into.");
      const opts: ArchiveExportOptions = {
        parquet: flags.parquet,
        repositories: await checkRepositories(repos, "repository"),
        force: flags.force === true,
        dataDir: checkDataDir(flags.dataDir),
      };
      await runF(opts);
    });
}
