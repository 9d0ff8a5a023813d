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

export function NewCmdArchiveExport(ctx: Context, runF?: (opts: ArchiveExportOptions) => Promise<void>): Command {
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
      await (runF ?? runArchiveExport)(opts, ctx);
    });
}

export async function runArchiveExport(opts: ArchiveExportOptions, ctx: Context): Promise<void> {
  const { lstatSync, readdirSync } = await import("node:fs");
  const { resolve } = await import("node:path");
  const { exportParquet, previousExport, removePreviousExport } = await import("../../archive/export.js");
  const dir = resolve(ctx.cwd, opts.parquet);
  // lstat: DIR itself a link is refused, as is any link inside it (previousExport)
  const stat = (() => {
    try {
      return lstatSync(dir);
    } catch {
      return undefined;
    }
  })();
  let replace: string[] = [];
  if (stat) {
    if (stat.isSymbolicLink())
      throw new UsageError(
        `--parquet ${opts.parquet} is a symbolic link: mq archive export writes into a real folder, never through a link.`,
        "give the folder itself, or another one",
      );
    if (!stat.isDirectory()) throw new UsageError(`--parquet ${opts.parquet} is a file, not a folder.`);
    if (readdirSync(dir).length > 0) {
      if (!opts.force)
        throw new UsageError(`--parquet ${opts.parquet} is not empty: choose an empty folder, or add --force to replace its contents.`);
      replace = previousExport(dir, opts.parquet);
    }
  }
  const [{ openArchiveForReading }, { formatCount }] = await Promise.all([
    import("../../archive/reader.js"),
    import("../../output/format.js"),
  ]);
  const archive = await openArchiveForReading(ctx, opts.dataDir);
  // removed once the archive is open: a missing or locked archive leaves the old export in place
  removePreviousExport(dir, replace);
  const result = await exportParquet(archive, { dir, repositories: opts.repositories });
  ctx.io.stderr.write(
    `Exported ${formatCount(result.events)} event${result.events === 1 ? "" : "s"} into ${formatCount(result.partitions)} partition${result.partitions === 1 ? "" : "s"} under ${dir}.\n`,
  );
}
