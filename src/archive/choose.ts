// Whether a command that reads the event log (`mq logs`, `mq prs`, `mq pr`, `mq insights`) reads
// the archive or the API. `--archive` (or MQ_ARCHIVE=always) reads the archive whatever it covers,
// warning about the parts it lacks; `--no-archive` (or MQ_ARCHIVE=never) reads the API. Otherwise
// ("auto") the archive is read when it holds every event of the windows asked for, as synced from
// the API the command would ask, and says so in one line on stderr; in every other case the
// command asks the API as if there were no archive (a missing engine, a locked or unreadable
// file included: the archive must never break a command that works without it).
import { existsSync } from "node:fs";
import type { Context } from "../context.js";
import { resolveApiUrl } from "../config/resolve.js";
import { apiBaseUrl } from "../api/urls.js";
import { type Archive, openArchive } from "./db.js";
import { archivePath } from "./paths.js";
import { openArchiveForReading, windowCoverage } from "./reader.js";
import { mergeRanges, repositoryKey, SETTLE_MS } from "./sync.js";
import { maxOf, minOf, pushAll } from "../arrays.js";
import { shellWord } from "../iostreams/terminal-text.js";
import { formatInstant, formatTime } from "../iostreams/human.js";

/** Chosen by --archive, --no-archive and MQ_ARCHIVE (cmdutil/archive.ts). */
export type ArchiveMode = "auto" | "always" | "never";

export interface Span {
  since: Date;
  until: Date;
}

export interface ArchiveRequest {
  mode: ArchiveMode;
  /** owner/name of each repository read */
  repositories: readonly string[];
  /** the windows read (for insights: the window and its comparison) */
  spans: readonly Span[];
  /** what goes missing where the archive has a hole, for the warning: "events", "queue stays" */
  what: string;
}

/**
 * The archive to read, or undefined for the API. "always": opened (its errors are the command's),
 * with a warning per repository for the parts of the windows it does not cover.
 */
export async function chooseArchive(ctx: Context, req: ArchiveRequest): Promise<Archive | undefined> {
  if (req.mode === "never") return undefined;
  if (req.mode === "always") {
    const archive = await openArchiveForReading(ctx);
    for (const repository of req.repositories) {
      const missing = await missingParts(archive, repository, req.spans);
      if (missing.length > 0) {
        const parts = missing.map((r) => `${formatTime(r.from)} to ${formatTime(r.to)}`).join(", ");
        ctx.io.stderr.write(
          `mq: warning: the archive does not cover ${parts} for ${repository}: ${req.what} there are missing below (${syncCommand(ctx, repository, missing)} fetches them).\n`,
        );
      }
    }
    return archive;
  }
  return autoArchive(ctx, req);
}

/**
 * The sync that covers the missing parts, as the user would type it: a sync reads and covers
 * exactly its window (--since to --until; the parts already covered are skipped), so the hint
 * names both ends, the last minutes of a window ending now included.
 */
function syncCommand(ctx: Context, repository: string, missing: ReadonlyArray<{ from: number; to: number }>): string {
  const from = missing[0]!.from;
  const to = Math.min(missing[missing.length - 1]!.to, ctx.now().getTime());
  return syncCommandLine(ctx, repository, from, to);
}

/**
 * `mq archive sync` of REPOSITORY from FROM to TO as the user types it to run now: the server
 * in effect (--offline, --api-url, --dialect) and the archive's folder when one was named.
 */
export function syncCommandLine(ctx: Context, repository: string, from: number, to: number, dataDir?: string): string {
  const g = ctx.globals;
  const api = g.offline ? " --offline" : g.apiUrl !== undefined ? ` --api-url ${shellWord(g.apiUrl)}` : "";
  const dialect = g.dialect !== undefined ? ` --dialect ${g.dialect}` : "";
  const dir = dataDir !== undefined ? ` --data-dir ${shellWord(dataDir)}` : "";
  return `mq${api}${dialect} archive sync ${repository} --since ${iso(from)} --until ${iso(to)}${dir}`;
}

async function autoArchive(ctx: Context, req: ArchiveRequest): Promise<Archive | undefined> {
  if (req.spans.length === 0 || req.repositories.length === 0) return undefined;
  // a sync without --until stops short of the last minutes: a window that ends in them is asked of
  // the API without loading the engine (a second or so on a busy machine)
  const settled = ctx.now().getTime() - SETTLE_MS;
  if (req.spans.some((s) => s.until.getTime() > settled)) return undefined;
  const path = archivePath(ctx.env);
  if (!existsSync(path)) return undefined;
  const source = await apiSourceName(ctx);
  const { dialect } = await ctx.dialect();
  let archive: Archive | undefined;
  try {
    archive = await openArchive(path, { readOnly: true });
    for (const repository of req.repositories) {
      if (!(await syncedOnlyFrom(archive, repository, source, dialect.name))) return close(archive);
      if ((await missingParts(archive, repository, req.spans)).length > 0) return close(archive);
    }
  } catch (err) {
    // no engine, a file locked by a running sync, corrupt, from a newer mq: the API answers
    if (ctx.globals.debug)
      ctx.io.stderr.write(`mq: not reading the archive ${path}: ${err instanceof Error ? err.message : String(err)}\n`);
    return archive ? close(archive) : undefined;
  }
  const opened = archive;
  ctx.onCleanup(() => opened.close());
  const from = minOf(req.spans.map((s) => s.since.getTime()));
  const to = maxOf(req.spans.map((s) => s.until.getTime()));
  const who = req.repositories.length === 1 ? req.repositories[0]! : `all ${req.repositories.length} repositories`;
  ctx.io.stderr.write(
    `mq: the archive covers ${formatTime(from)} to ${formatTime(to)} for ${who}: reading it, not the API (--no-archive asks the API).\n`,
  );
  return opened;
}

function close(archive: Archive): undefined {
  archive.close();
  return undefined;
}

/** The parts of the spans the archive does not cover for the repository, oldest first. */
async function missingParts(archive: Archive, repository: string, spans: readonly Span[]): Promise<Array<{ from: number; to: number }>> {
  const missing: Array<{ from: number; to: number }> = [];
  for (const s of spans) pushAll(missing, (await windowCoverage(archive, repository, s.since, s.until)).missing);
  return mergeRanges(missing);
}

/**
 * Every sync of the repository came from this API in this dialect: an archive of the real service
 * is not what `--offline` or another --api-url would answer, nor one of the bundled server in one
 * dialect what it answers in the other, and is not read in their place unasked.
 */
async function syncedOnlyFrom(archive: Archive, repository: string, source: string, dialect: string): Promise<boolean> {
  const rows = await archive.all("SELECT DISTINCT api_url, dialect FROM syncs WHERE repository = ?", [repositoryKey(repository)]);
  return rows.length > 0 && rows.every((r) => r.api_url === source && r.dialect === dialect);
}

/**
 * Where events come from, as a sync records it (`syncs.api_url`): "offline" for the bundled
 * server, else the API's base URL. Read from the flags, environment and config, without building
 * a client (which would need a token, or start the bundled server).
 */
export async function apiSourceName(ctx: Context): Promise<string> {
  if (ctx.globals.offline) return "offline";
  return new URL(apiBaseUrl((await resolveApiUrl(ctx)).url)).href;
}

const iso = (ms: number) => formatInstant(ms);
