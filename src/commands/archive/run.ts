// `mq archive`'s run: sync, status, query and export over the local archive (DuckDB, src/archive/).
// Loaded when an archive command runs (cli.ts).
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { archiveSize, duckValue, openArchive, SCHEMA_VERSION } from "../../archive/db.js";
import { archivePath } from "../../archive/paths.js";
import { mergeRanges, readCoverage, subtract, syncRepository } from "../../archive/sync.js";
import { apiSourceName, syncCommandLine } from "../../archive/choose.js";
import { openArchiveForReading } from "../../archive/reader.js";
import { exportParquet, previousExport, removePreviousExport } from "../../archive/export.js";
import { prepareArchiveQuery, queryFailure } from "../../archive/sandbox.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { colors } from "../../iostreams/color.js";
import { screenOf } from "../../iostreams/long-list.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { formatBytes, formatCount, formatInstantMs, formatTime } from "../../output/format.js";
import { cellText, openRows, writeRows } from "./render.js";
import { SYNC_COLUMNS, type ArchiveSyncOptions } from "./sync.js";
import { STATUS_COLUMNS, type ArchiveStatusOptions } from "./status.js";
import type { ArchiveQueryOptions } from "./query.js";
import type { ArchiveExportOptions } from "./export.js";

export async function runArchiveSync(opts: ArchiveSyncOptions, ctx: Context): Promise<void> {
  const repositories = opts.repositories.length > 0 ? opts.repositories : [await resolvedRepository(ctx)];
  const client = await ctx.apiClient();
  const archive = await openArchive(archivePath(ctx.env, opts.dataDir), { create: true });
  ctx.onCleanup(() => archive.close());
  // what `mq logs`, `mq insights` and the others compare before reading the archive in the API's place
  const apiUrl = await apiSourceName(ctx);
  const { dialect } = await ctx.dialect();
  const records: Record<string, unknown>[] = [];
  for (const repository of repositories) {
    // counts and rate on a terminal only: a log file gets the summary line, not frames
    const spinner = await startSpinner(ctx, `${repository}: starting`);
    const started = performance.now();
    try {
      const result = await syncRepository(archive, {
        repository,
        client,
        apiUrl,
        clock: () => ctx.now(),
        since: opts.since,
        until: opts.until,
        strict: ctx.globals.strict,
        dialect: dialect.name,
        parallel: opts.parallel,
        signal: ctx.signal,
        warn: (line) => spinner.log(line),
        again: (from, to) => syncCommandLine(ctx, repository, from, to, opts.dataDir),
        onProgress(p) {
          const seconds = (performance.now() - started) / 1000;
          const rate = seconds > 0.5 ? `, ${formatCount(Math.round(p.fetched / seconds))} events/s` : "";
          spinner.update(
            `${repository}: ${p.chunksDone} of ${p.chunks} day${p.chunks === 1 ? "" : "s"} done, ${formatCount(p.fetched)} events read, ${formatCount(p.added)} new${rate}`,
          );
        },
      });
      spinner.stop();
      const window = result.from ? ` from ${result.from} to ${result.to}` : "";
      ctx.io.stderr.write(
        `${repository}: ${formatCount(result.added)} new event${result.added === 1 ? "" : "s"} archived${window} (${formatCount(result.duplicates)} already there); ${formatCount(result.total)} in the archive.\n`,
      );
      records.push({
        repository,
        added: result.added,
        already_archived: result.duplicates,
        pages: result.pages,
        from: result.from,
        to: result.to,
        total: result.total,
      });
    } finally {
      spinner.stop();
    }
  }
  await writeRows(ctx, opts.format, SYNC_COLUMNS, records);
}

async function resolvedRepository(ctx: Context): Promise<string> {
  const ref = await ctx.resolveRepo();
  return `${ref.owner}/${ref.name}`;
}

export interface Gap {
  from: string;
  to: string;
  reason: string;
}

export async function runArchiveStatus(opts: ArchiveStatusOptions, ctx: Context): Promise<void> {
  const path = archivePath(ctx.env, opts.dataDir);
  if (!existsSync(path)) {
    ctx.io.stderr.write(`No archive at ${path} yet: create it with mq archive sync --repo owner/name.\n`);
    // json's [] and csv's header line stay valid empty documents; a table of headers says nothing
    if (opts.format !== "table") await writeRows(ctx, opts.format, STATUS_COLUMNS, []);
    return;
  }
  const archive = await openArchive(path, { readOnly: true });
  ctx.onCleanup(() => archive.close());
  const repos = await archive.all(`
    WITH repos AS (SELECT repository FROM events UNION SELECT repository FROM coverage UNION SELECT repository FROM syncs),
    counts AS (SELECT repository, count(*) AS events, min(received_at) AS first_event, max(received_at) AS last_event, sum(strlen(raw)) AS raw_bytes, list(DISTINCT dialect ORDER BY dialect) AS dialects FROM events GROUP BY repository),
    last AS (SELECT repository, arg_max(coalesce(finished_at, started_at), id) AS last_sync, arg_max(complete, id) AS complete FROM syncs GROUP BY repository)
    SELECT r.repository, coalesce(c.events, 0) AS events, c.first_event, c.last_event, coalesce(c.raw_bytes, 0) AS raw_bytes, c.dialects, l.last_sync, l.complete
    FROM repos r LEFT JOIN counts c USING (repository) LEFT JOIN last l USING (repository)
    ORDER BY r.repository`);
  const records: Record<string, unknown>[] = [];
  for (const row of repos) {
    const repo = String(row.repository);
    const coverage = await readCoverage(archive, repo);
    const gaps: Gap[] = [];
    const rows = await archive.all(
      "SELECT epoch_us(gap_from) AS f, epoch_us(gap_to) AS t, reason FROM gaps WHERE repository = ? ORDER BY gap_from",
      [repo],
    );
    const recorded = rows.map((g) => ({ from: Number(g.f) / 1000, to: Number(g.t) / 1000, reason: String(g.reason) }));
    // a recorded gap that a later --since filled is no longer one
    for (const g of recorded)
      for (const part of subtract(g, coverage)) gaps.push({ from: iso(part.from), to: iso(part.to), reason: g.reason });
    // other holes between covered ranges: an old --since, or a window asked for and not finished
    const known = mergeRanges(recorded);
    for (let i = 1; i < coverage.length; i++) {
      for (const part of subtract({ from: coverage[i - 1]!.to, to: coverage[i]!.from }, known)) {
        gaps.push({ from: iso(part.from), to: iso(part.to), reason: "not synced" });
      }
    }
    gaps.sort((a, b) => a.from.localeCompare(b.from));
    records.push({
      repository: repo,
      events: row.events,
      first_event: row.first_event ?? null,
      last_event: row.last_event ?? null,
      covered_from: coverage.length > 0 ? iso(coverage[0]!.from) : null,
      covered_to: coverage.length > 0 ? iso(coverage[coverage.length - 1]!.to) : null,
      // the sides of the API its events came from (each event's own, db.ts): spec, mergify or both
      dialects: opts.format === "table" ? ((row.dialects as string[] | null) ?? []).join(", ") || "none" : (row.dialects ?? []),
      last_sync: row.last_sync ?? null,
      last_sync_complete: row.complete ?? null,
      raw_bytes: row.raw_bytes,
      gaps:
        opts.format === "table"
          ? gaps.length === 0
            ? "none"
            : gaps.map((g) => `${statusTime(g.from)} to ${statusTime(g.to)} (${g.reason})`).join("; ")
          : gaps,
    });
  }
  const size = await archiveSize(path);
  // broken between words to the terminal: the path stays whole on its line
  ctx.io.stderr.write(
    `${wrapLine(`Archive ${path}: ${formatBytes(size)}, schema version ${SCHEMA_VERSION}, ${formatCount(records.length)} repositor${records.length === 1 ? "y" : "ies"}.`, ctx.io.messageWidth())}\n`,
  );
  if (opts.format === "table") {
    // a row per repository, a dozen columns of timestamps: one streaming table ran 110 columns wide
    // at 60 with every cell cut to 7 characters; fitted, the columns a reader needs least give way
    // (named under it), and the gaps, free text, wrap
    // the table code only for a table on a terminal (output/table.ts)
    const { fittedTable } = await import("../../output/fitted-table.js");
    const head = STATUS_COLUMNS.map((c) => c.toUpperCase());
    // a screen of repositories on a terminal (iostreams/long-list.ts), the count on stderr
    const shown = screenOf(ctx.io, records, "repositories");
    const rows = shown.rows.map((r) => STATUS_COLUMNS.map((c) => statusCell(c, r[c])));
    const align = STATUS_COLUMNS.map((c) => (c === "events" || c === "raw_bytes" ? "right" : "left"));
    await ctx.io.writeData(
      fittedTable({
        head,
        rows,
        columns: ctx.io.tableWidth(),
        colors: colors(ctx.io, "stdout"),
        align,
        lead: 1,
        freeLast: { min: 30, wrap: true },
        // dialects, complete, first event, bytes, covered from, last sync, last event, covered to
        drop: [6, 8, 2, 9, 4, 7, 3, 5],
      }) + "\n",
    );
    if (shown.more !== undefined) ctx.io.stderr.write(`${wrapLine(`Archive ${path}: ${shown.more}`, ctx.io.messageWidth())}\n`);
    return;
  }
  await writeRows(ctx, opts.format, STATUS_COLUMNS, records);
}

function iso(ms: number): string {
  return formatInstantMs(ms);
}

/** A time of the archive's records (to the microsecond) in the one form of a time on a table. */
function statusTime(v: string): string {
  const t = Date.parse(v);
  return Number.isNaN(t) ? cellText(v) : formatTime(t);
}

/** archive status's cell on a table: counts grouped, sizes humanised, times in the one form. */
function statusCell(column: string, v: unknown): string {
  const n = typeof v === "number" || typeof v === "bigint" ? Number(v) : undefined;
  if (column === "events" && n !== undefined) return formatCount(n);
  if (column === "raw_bytes" && n !== undefined) return formatBytes(n);
  if (TIME_COLUMNS.has(column) && typeof v === "string") return statusTime(v);
  return cellText(v);
}

const TIME_COLUMNS = new Set(["first_event", "last_event", "covered_from", "covered_to", "last_sync"]);

export async function runArchiveQuery(opts: ArchiveQueryOptions, ctx: Context): Promise<void> {
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

export async function runArchiveExport(opts: ArchiveExportOptions, ctx: Context): Promise<void> {
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
  const archive = await openArchiveForReading(ctx, opts.dataDir);
  // removed once the archive is open: a missing or locked archive leaves the old export in place
  removePreviousExport(dir, replace);
  const result = await exportParquet(archive, { dir, repositories: opts.repositories });
  ctx.io.stderr.write(
    `Exported ${formatCount(result.events)} event${result.events === 1 ? "" : "s"} into ${formatCount(result.partitions)} partition${result.partitions === 1 ? "" : "s"} under ${dir}.\n`,
  );
}
