// `mq archive export --parquet DIR`: the archive as Hive-partitioned Parquet
// (DIR/repository=<owner%2Fname>/date=<YYYY-MM-DD>/data_0.parquet), which Spark, Trino, BigQuery,
// ClickHouse and DuckDB read as a table with `repository` and `date` as columns.
//
// `--force` replaces only what an export wrote: DIR's every entry must be the export's layout
// (real folders `repository=…/date=YYYY-MM-DD/`, regular files `data_N.parquet`) or its
// manifest, checked without following a symbolic link; anything else refuses the whole run before
// a file is touched. DuckDB's own OVERWRITE is never used: it empties the folder, following links.
import { lstatSync, readdirSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import type { Archive } from "./db.js";
import { repositoryKey } from "./sync.js";

export interface ExportOptions {
  /** an empty or missing folder (a previous export is removed first: removePreviousExport) */
  dir: string;
  /** only these repositories (default: all) */
  repositories?: string[];
}

/** The file an export writes last at DIR's top: which files it wrote (Spark, Hive and Trino skip names starting with `_`). */
export const EXPORT_MANIFEST = "_mq_export.json";
const REPOSITORY_DIR = /^repository=[^/]+$/;
const DATE_DIR = /^date=\d{4}-\d{2}-\d{2}$/;
const DATA_FILE = /^data_\d+\.parquet$/;

/**
 * The files of a previous export in `dir` (relative paths, folders after their files), or a
 * UsageError naming the first entry that an export does not write: a symbolic link anywhere, a
 * file or folder of another name. Nothing is followed, nothing removed.
 */
export function previousExport(dir: string, shown: string): string[] {
  const paths: string[] = [];
  const refuse = (rel: string, why: string) =>
    new UsageError(
      `--parquet ${shown} holds ${rel}, ${why}: --force replaces only what mq archive export wrote.`,
      "choose an empty folder, or move that entry out of it",
    );
  const entries = (rel: string) => readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const top of entries("")) {
    if (top.name === EXPORT_MANIFEST && top.isFile()) continue;
    if (top.isSymbolicLink()) throw refuse(top.name, "a symbolic link");
    if (!top.isDirectory() || !REPOSITORY_DIR.test(top.name)) throw refuse(top.name, "which is not part of an export");
    for (const day of entries(top.name)) {
      const dayRel = `${top.name}/${day.name}`;
      if (day.isSymbolicLink()) throw refuse(dayRel, "a symbolic link");
      if (!day.isDirectory() || !DATE_DIR.test(day.name)) throw refuse(dayRel, "which is not part of an export");
      for (const file of entries(dayRel)) {
        const fileRel = `${dayRel}/${file.name}`;
        if (file.isSymbolicLink()) throw refuse(fileRel, "a symbolic link");
        if (!file.isFile() || !DATA_FILE.test(file.name)) throw refuse(fileRel, "which is not part of an export");
        paths.push(fileRel);
      }
      paths.push(`${dayRel}/`);
    }
    paths.push(`${top.name}/`);
  }
  return paths;
}

/** Removes what previousExport listed, and the manifest: files unlinked, folders removed only when empty. */
export function removePreviousExport(dir: string, paths: string[]): void {
  for (const rel of paths) {
    if (rel.endsWith("/")) rmdirSync(join(dir, rel));
    // lstat again: a file that became a link since the check is left alone
    else if (lstatSync(join(dir, rel)).isFile()) unlinkSync(join(dir, rel));
  }
  try {
    if (lstatSync(join(dir, EXPORT_MANIFEST)).isFile()) unlinkSync(join(dir, EXPORT_MANIFEST));
  } catch {
    // no manifest: an export by an older mq, or one interrupted before its end
  }
}

export interface ExportResult {
  events: number;
  partitions: number;
}

/** The columns written, in order: every column of `events` plus the partition date. */
export const EXPORT_SELECT = `SELECT id, received_at, type, pull_request, base_ref, "trigger", outcome, raw, archived_at, dialect, repository,
  strftime(received_at, '%Y-%m-%d') AS date FROM events`;

export async function exportParquet(archive: Archive, opts: ExportOptions): Promise<ExportResult> {
  // COPY takes no parameters: names (already checked as owner/name) go in as SQL string literals
  let where = "";
  if (opts.repositories && opts.repositories.length > 0) {
    where = ` WHERE repository IN (${opts.repositories.map((r) => sqlString(repositoryKey(r))).join(", ")})`;
  }
  const counted = await archive.all(
    `SELECT count(*) AS n, count(DISTINCT (repository, strftime(received_at, '%Y-%m-%d'))) AS p FROM events${where}`,
  );
  const events = Number(counted[0]?.n ?? 0);
  const partitions = Number(counted[0]?.p ?? 0);
  if (events === 0) return { events, partitions };
  await archive.run(
    `COPY (${EXPORT_SELECT}${where} ORDER BY repository, received_at, id) TO ${sqlString(opts.dir)}
       (FORMAT parquet, PARTITION_BY (repository, date), OVERWRITE_OR_IGNORE, COMPRESSION zstd)`,
  );
  const files = previousExport(opts.dir, opts.dir).filter((p) => !p.endsWith("/"));
  writeFileSync(join(opts.dir, EXPORT_MANIFEST), `${JSON.stringify({ written_by: "mq archive export", events, files }, null, 2)}\n`);
  return { events, partitions };
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
