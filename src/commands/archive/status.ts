// `mq archive status`: what the archive holds, per repository: events, first and last event, the
// covered window, the sides of the API its events came from, the last sync and whether it
// finished, and the known gaps.
import { Command } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { checkDataDir, dataDirOption } from "./shared.js";

export interface ArchiveStatusOptions {
  dataDir?: string;
  format: OutputFormat;
}

export const STATUS_COLUMNS = [
  "repository",
  "events",
  "first_event",
  "last_event",
  "covered_from",
  "covered_to",
  "dialects",
  "last_sync",
  "last_sync_complete",
  "raw_bytes",
  "gaps",
];

export function NewCmdArchiveStatus(ctx: Context, runF?: (opts: ArchiveStatusOptions) => Promise<void>): Command {
  return new Command("status")
    .description("show the archive's repositories: events, first and last event, covered window, dialects, last sync, size, known gaps")
    .addOption(dataDirOption())
    .action(async (flags: { dataDir?: string }) => {
      const opts = { dataDir: checkDataDir(flags.dataDir), format: resolveOutputFormat(ctx) };
      await (runF ?? runArchiveStatus)(opts, ctx);
    });
}

export interface Gap {
  from: string;
  to: string;
  reason: string;
}

export async function runArchiveStatus(opts: ArchiveStatusOptions, ctx: Context): Promise<void> {
  const [{ archivePath }, { existsSync }, { writeRows, cellText }] = await Promise.all([
    import("../../archive/paths.js"),
    import("node:fs"),
    import("./render.js"),
  ]);
  const path = archivePath(ctx.env, opts.dataDir);
  if (!existsSync(path)) {
    ctx.io.stderr.write(`No archive at ${path} yet: create it with mq archive sync --repo owner/name.\n`);
    // json's [] and csv's header line stay valid empty documents; a table of headers says nothing
    if (opts.format !== "table") await writeRows(ctx, opts.format, STATUS_COLUMNS, []);
    return;
  }
  const [{ openArchive, archiveSize, SCHEMA_VERSION }, { readCoverage, subtract, mergeRanges }, { formatCount }] = await Promise.all([
    import("../../archive/db.js"),
    import("../../archive/sync.js"),
    import("../../output/format.js"),
  ]);
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
      gaps: opts.format === "table" ? (gaps.length === 0 ? "none" : gaps.map((g) => `${g.from}..${g.to} (${g.reason})`).join("; ")) : gaps,
    });
  }
  const size = await archiveSize(path);
  ctx.io.stderr.write(
    `Archive ${path}: ${formatBytes(size)}, schema version ${SCHEMA_VERSION}, ${formatCount(records.length)} repositor${records.length === 1 ? "y" : "ies"}.\n`,
  );
  if (opts.format === "table") {
    // a row per repository, a dozen columns of timestamps: one streaming table ran 110 columns wide
    // at 60 with every cell cut to 7 characters; fitted, it splits into parts, each with the
    // repository, and the gaps, free text, wrap
    const [{ fittedTable }, { colors }] = await Promise.all([import("../../output/fitted-table.js"), import("../../iostreams/color.js")]);
    const head = STATUS_COLUMNS.map((c) => c.toUpperCase());
    const rows = records.map((r) => STATUS_COLUMNS.map((c) => cellText(r[c])));
    const align = STATUS_COLUMNS.map((c) => (c === "events" || c === "raw_bytes" ? "right" : "left"));
    ctx.io.stdout.write(
      fittedTable({
        head,
        rows,
        columns: ctx.io.tableWidth(),
        colors: colors(ctx.io, "stdout"),
        align,
        lead: 1,
        freeLast: { min: 30, wrap: true },
      }) + "\n",
    );
    return;
  }
  await writeRows(ctx, opts.format, STATUS_COLUMNS, records);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}
