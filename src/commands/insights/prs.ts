// `mq prs`: one row per queue stay (a pull request's time in a queue, from entering to leaving) in
// the window: where its time went (waiting, CI), how many runs and retries, how it ended. Filters,
// --sort by any duration, --slowest N, --failed. Unsorted output streams as stays complete.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { closestMatches, collectList, parseIntFlag, requireNonEmptyItems } from "../../cmdutil/lists.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { addArchiveFlags, addStayFilterFlags, addWindowFlags, parseStaysFlags, type StaysRawFlags } from "../../cmdutil/stays-flags.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { OUTCOMES, SORT_FIELDS, STAY_FIELDS, type SortField } from "../../insights/records.js";
import { MAX_PULL_REQUEST } from "../../cmdutil/logs-filters.js";

export const DEFAULT_PRS_WINDOW_MS = 7 * 86_400_000;

export interface PrsOptions {
  since: Date;
  until: Date;
  baseRef?: string;
  pullRequest?: number;
  queues?: string[];
  outcomes?: string[];
  reasons?: string[];
  sort?: SortField;
  limit?: number;
  fields?: string[];
  format: OutputFormat;
  /** read the archive instead of the API: always, never, or when it covers the window */
  archive: ArchiveMode;
  /** requests in flight over the API (--parallel) */
  parallel: number;
}

interface RawFlags extends StaysRawFlags {
  pr?: string;
  outcome?: string[];
  reason?: string[];
  failed?: boolean;
  sort?: string;
  slowest?: string;
  limit?: string;
  fields?: string[];
}

export function NewCmdPrs(ctx: Context, runF?: (opts: PrsOptions) => Promise<void>): Command {
  const cmd = new Command("prs").description("one row per queue stay in the window: pull request, queue, time in queue, waiting, CI, retries, outcome");
  addWindowFlags(cmd, "7 days");
  addStayFilterFlags(cmd);
  return addArchiveFlags(
    cmd
      .addOption(new Option("--pr <number>", "only this pull request's stays"))
      .addOption(new Option("--outcome <outcome>", `only stays that ended so: ${OUTCOMES.join(", ")} (repeatable, comma-separated)`).argParser(collectList))
      .addOption(new Option("--reason <code>", "only stays that left for this exit reason, e.g. CHECKS_FAILED (repeatable, comma-separated)").argParser(collectList))
      .addOption(new Option("--failed", "only stays that failed (same as --outcome failed)"))
      .addOption(new Option("--sort <field>", `sort by this field, largest (or newest) first: ${SORT_FIELDS.join(", ")}`))
      .addOption(new Option("--slowest <n>", "the n stays with the longest time in queue (--sort queue_time --limit n)"))
      .addOption(new Option("--limit <n>", "at most n rows"))
      .addOption(new Option("--fields <fields>", `fields for json, ndjson and csv: ${STAY_FIELDS.join(", ")}`).argParser(collectList)),
  )
    .action(async (flags: RawFlags) => {
      const opts = parsePrsFlags(flags, ctx);
      await (runF ?? ((o) => runPrs(o, ctx)))(opts);
    });
}

function oneOf(flag: string, items: readonly string[], allowed: readonly string[]): string[] {
  const values = requireNonEmptyItems(flag, items);
  for (const v of values) {
    if (!allowed.includes(v)) {
      const near = closestMatches(v, allowed);
      throw new UsageError(`${flag}: unknown value "${v}"${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}; allowed: ${allowed.join(", ")}.`);
    }
  }
  return values;
}

export function parsePrsFlags(flags: RawFlags, ctx: Context): PrsOptions {
  const format = resolveOutputFormat(ctx);
  const { since, until, baseRef, queues, archive, parallel } = parseStaysFlags(flags, ctx, DEFAULT_PRS_WINDOW_MS);
  const pullRequest = flags.pr !== undefined ? parseIntFlag("--pr", flags.pr, 1, MAX_PULL_REQUEST) : undefined;
  let outcomes = flags.outcome !== undefined ? oneOf("--outcome", flags.outcome, OUTCOMES) : undefined;
  if (flags.failed) {
    if (outcomes && !outcomes.includes("failed")) throw new UsageError("--failed and --outcome cannot be combined: --failed is --outcome failed.");
    outcomes = ["failed"];
  }
  const reasons = flags.reason !== undefined ? requireNonEmptyItems("--reason", flags.reason).map((r) => r.toUpperCase()) : undefined;
  let sort = flags.sort !== undefined ? (oneOf("--sort", [flags.sort], SORT_FIELDS)[0] as SortField) : undefined;
  let limit = flags.limit !== undefined ? parseIntFlag("--limit", flags.limit, 1, 1_000_000_000) : undefined;
  if (flags.slowest !== undefined) {
    if (sort !== undefined && sort !== "queue_time") throw new UsageError(`--slowest sorts by queue_time: it cannot be combined with --sort ${sort}.`);
    if (limit !== undefined) throw new UsageError("--slowest n already limits the rows to n: drop --limit.");
    limit = parseIntFlag("--slowest", flags.slowest, 1, 1_000_000);
    sort = "queue_time";
  }
  let fields: string[] | undefined;
  if (flags.fields !== undefined) {
    if (format === "table") throw new UsageError("--fields applies to -o json, ndjson or csv, not to the table.");
    fields = oneOf("--fields", flags.fields, STAY_FIELDS);
  }
  return { since, until, baseRef, pullRequest, queues, outcomes, reasons, sort, limit, fields, format, archive, parallel };
}

export async function runPrs(opts: PrsOptions, ctx: Context): Promise<void> {
  const [{ walkStays }, { openEventSource }, { stayRecord, sortValue }, { startSpinner }, { formatCount }, { resolveRepos, eachRepo, someReposFailed }, { MqError }, { wrapLine }] = await Promise.all([
    import("../../insights/walk.js"),
    import("../../archive/event-source.js"),
    import("../../insights/records.js"),
    import("../../iostreams/spinner.js"),
    import("../../output/format.js"),
    import("../../cmdutil/repos.js"),
    import("../../errors.js"),
    import("../../iostreams/terminal-width.js"),
  ]);
  type Row = import("../../insights/records.js").StayRecord;
  const repos = await resolveRepos(ctx);
  const source = await openEventSource(ctx, {
    mode: opts.archive,
    repositories: repos.map((r) => `${r.owner}/${r.name}`),
    spans: [{ since: opts.since, until: opts.until }],
    what: "queue stays",
  });
  const multi = repos.length > 1;
  const label = multi ? `${repos.length} repositories` : `${repos[0]!.owner}/${repos[0]!.name}`;
  const untilMs = opts.until.getTime();
  const keep = (r: Row) =>
    (!opts.queues || opts.queues.includes(String(r.queue_name))) &&
    (!opts.outcomes || opts.outcomes.includes(String(r.outcome))) &&
    (!opts.reasons || opts.reasons.includes(String(r.reason)));

  const { openStayRows } = await import("./stays-render.js");
  const sink = await openStayRows(ctx, opts.format, opts.fields, { repository: multi });
  // sorted output, and several repositories merged newest first, need every row; one repository
  // unsorted streams its rows as the stays complete (newest entry first)
  const buffered: Row[] = [];
  const late: Row[] = [];
  let written = 0;
  let events = 0;
  // rows stream to stdout while it spins (one repository, unsorted)
  const spinner = await startSpinner(ctx, `reading the queue events of ${label}`, { stdoutStreams: opts.format !== "table" });
  let failed: import("../../cmdutil/repos.js").RepoFailure[] = [];
  let error: InstanceType<typeof MqError> | undefined;
  try {
    ({ failed, error } = await eachRepo(ctx, repos, async (repo) => {
      const rows: Row[] = [];
      let seen = 0;
      await walkStays(source, {
        owner: repo.owner,
        name: repo.name,
        baseRef: opts.baseRef,
        pullRequest: opts.pullRequest,
        parallel: opts.parallel,
        spans: [{ since: opts.since, until: opts.until }],
        onPage: (n) => {
          events += n - seen;
          seen = n;
          if (spinner.active) spinner.update(`${formatCount(events)} queue events of ${label}`);
        },
        onStay: async (s) => {
          const r = stayRecord(s, untilMs);
          if (!keep(r)) return;
          if (multi) rows.push(r);
          else if (opts.sort) buffered.push(r);
          // stays begun before the window come out last, in no particular order: sorted at the end
          else if (r.began_before_window) late.push(r);
          else if (opts.limit === undefined || written < opts.limit) {
            written++;
            await sink.write([r]);
          }
        },
      });
      // a repository's rows join the others only once all of them are read
      buffered.push(...rows);
    }, (line) => spinner.log(line)));
  } catch (err) {
    spinner.stop();
    await sink.end().catch(() => undefined);
    throw err;
  } finally {
    spinner.stop();
  }
  const field = opts.sort ?? "entered_at";
  const rest = [...buffered, ...late];
  rest.sort((a, b) => sortValue(b, field) - sortValue(a, field) || String(a.repository).localeCompare(String(b.repository)) || Number(b.pull_request) - Number(a.pull_request));
  for (const r of rest) {
    if (opts.limit !== undefined && written >= opts.limit) break;
    written++;
    await sink.write([r]);
  }
  await sink.end();
  if (ctx.io.isStderrTerminal() || opts.format === "table") {
    const summary = `${label}: ${formatCount(written)} queue stay${written === 1 ? "" : "s"} from ${iso(opts.since)} to ${iso(opts.until)}${source.fromArchive ? " (from the archive)" : ""}`;
    // broken between words, as wide as the table above it at most
    ctx.io.stderr.write(wrapLine(summary, ctx.io.messageWidth()) + "\n");
  }
  if (error) throw someReposFailed(failed, repos.length, error);
}

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
