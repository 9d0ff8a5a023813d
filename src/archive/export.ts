// `mq archive export --parquet DIR`: the archive as Hive-partitioned Parquet
// (DIR/repository=<owner%2Fname>/date=<YYYY-MM-DD>/data_0.parquet), which Spark, Trino, BigQuery,
// ClickHouse and DuckDB read as a table with `repository` and `date` as columns.
import type { Archive } from "./db.js";
import { repositoryKey } from "./sync.js";

export interface ExportOptions {
  dir: string;
  /** only these repositories (default: all) */
  repositories?: string[];
  /** replace files already in DIR */
  overwrite: boolean;
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
       (FORMAT parquet, PARTITION_BY (repository, date), ${opts.overwrite ? "OVERWRITE" : "OVERWRITE_OR_IGNORE"}, COMPRESSION zstd)`,
  );
  return { events, partitions };
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
