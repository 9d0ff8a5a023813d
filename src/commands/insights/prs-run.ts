// The work of `mq prs`: a row per queue stay, streamed as stays complete (one repository,
// unsorted) or sorted at the end. Loaded only when the command runs (cli.ts); its flags were
// checked before (prs.ts).
import type { Context } from "../../context.js";
import type { MqError } from "../../errors.js";
import { walkStays } from "../../insights/walk.js";
import type { Stay } from "../../insights/stays.js";
import { outsideData } from "../../insights/held.js";
import { openEventSource } from "../../archive/event-source.js";
import { stayRecord, sortValue, type StayRecord } from "../../insights/records.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { formatCount, formatTime } from "../../output/format.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { screenLimit, shownOf } from "../../iostreams/long-list.js";
import { resolveRepos, eachRepo, someReposFailed, type RepoFailure } from "../../cmdutil/repos.js";
import { openStayRows } from "./stays-render.js";
import type { PrsOptions } from "./prs.js";
import { pushAll } from "../../arrays.js";

export async function runPrs(opts: PrsOptions, ctx: Context): Promise<void> {
  type Row = StayRecord;
  const repos = await resolveRepos(ctx);
  const source = await openEventSource(ctx, {
    mode: opts.archive,
    repositories: repos.map((r) => `${r.owner}/${r.name}`),
    spans: [{ since: opts.since, until: opts.until }],
    what: "queue stays",
  });
  // the archive said already what it does not cover (choose.ts); the API's history or retention is said here
  const outside = source.fromArchive
    ? undefined
    : await outsideData(
        source,
        repos.map((r) => `${r.owner}/${r.name}`),
        "the window",
        { since: opts.since, until: opts.until },
      );
  if (outside) ctx.io.stderr.write(`mq: warning: ${outside}: its stays are rebuilt only from the events there are.\n`);
  const multi = repos.length > 1;
  const label = multi ? `${repos.length} repositories` : `${repos[0]!.owner}/${repos[0]!.name}`;
  const untilMs = opts.until.getTime();
  const keep = (r: Row) =>
    (!opts.queues || opts.queues.includes(String(r.queue_name))) &&
    (!opts.outcomes || opts.outcomes.includes(String(r.outcome))) &&
    (!opts.reasons || opts.reasons.includes(String(r.reason)));

  const sink = await openStayRows(ctx, opts.format, opts.fields, { repository: multi });
  // sorted output, and several repositories merged newest first, need every row; one repository
  // unsorted streams its rows as the stays complete (newest entry first)
  const buffered: Row[] = [];
  const late: Row[] = [];
  let written = 0;
  let matched = 0;
  let events = 0;
  // a screen of the newest stays on a terminal (iostreams/long-list.ts); a pipe gets them all
  const limit = screenLimit(ctx.io, opts.limit, opts.format === "table");
  // the queues the window holds (on --base-ref): what an empty answer to --queue names instead
  const seenQueues = new Set<string>();
  // rows stream to stdout while it spins (one repository, unsorted)
  const spinner = await startSpinner(ctx, `reading the queue events of ${label}`, { stdoutStreams: opts.format !== "table" });
  let failed: RepoFailure[] = [];
  let error: MqError | undefined;
  try {
    ({ failed, error } = await eachRepo(
      ctx,
      repos,
      async (repo) => {
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
            seenQueues.add(String(r.queue_name));
            if (!keep(r)) return;
            matched++;
            if (multi) rows.push(r);
            else if (opts.sort) buffered.push(r);
            // stays begun before the window come out last, in no particular order: sorted at the end
            else if (r.began_before_window) late.push(r);
            else if (limit === undefined || written < limit) {
              written++;
              await sink.write([r]);
            }
          },
        });
        // a repository's rows join the others only once all of them are read
        pushAll(buffered, rows);
      },
      (line) => spinner.log(line),
    ));
  } catch (err) {
    spinner.stop();
    await sink.end().catch(() => undefined);
    throw err;
  } finally {
    spinner.stop();
  }
  const field = opts.sort ?? "entered_at";
  const rest = [...buffered, ...late];
  rest.sort(
    (a, b) =>
      sortValue(b, field) - sortValue(a, field) ||
      String(a.repository).localeCompare(String(b.repository)) ||
      Number(b.pull_request) - Number(a.pull_request),
  );
  for (const r of rest) {
    if (limit !== undefined && written >= limit) break;
    written++;
    await sink.write([r]);
  }
  await sink.end();
  if (ctx.io.isStderrTerminal() || opts.format === "table") {
    const stays = shownOf(
      written,
      matched,
      `queue stay${matched === 1 ? "" : "s"}`,
      opts.sort === "queue_time" ? "slowest" : opts.sort ? "top" : "newest",
    );
    const more = written < matched && opts.limit === undefined ? `; more with --limit ${matched}` : "";
    const summary = `${label}: ${stays} from ${formatTime(opts.since)} to ${formatTime(opts.until)}${source.fromArchive ? " (from the archive)" : ""}${more}`;
    // broken between words, as wide as the table above it at most
    ctx.io.stderr.write(wrapLine(summary, ctx.io.messageWidth()) + "\n");
  }
  if (written === 0 && !error) {
    const note = await noSuchNames(opts, seenQueues, async (onStay) => {
      for (const repo of repos) {
        const spans = [{ since: opts.since, until: opts.until }];
        await walkStays(source, { owner: repo.owner, name: repo.name, parallel: opts.parallel, spans, onStay });
      }
    });
    if (note) ctx.io.stderr.write(wrapLine(`mq: ${note}`, ctx.io.messageWidth()) + "\n");
  }
  if (error) throw someReposFailed(failed, repos.length, error);
}

/**
 * Why an empty answer is empty when a --base-ref or --queue named nothing the window holds, with
 * the names it does hold; undefined when the names exist (the other filters left nothing).
 * WALKALL walks the window again on every base ref, only when --base-ref matched no stay at all.
 */
async function noSuchNames(
  opts: PrsOptions,
  seenQueues: ReadonlySet<string>,
  walkAll: (onStay: (s: Stay) => Promise<void>) => Promise<void>,
): Promise<string | undefined> {
  const list = (names: Iterable<string>) => [...names].sort().join(", ");
  if (opts.baseRef !== undefined && seenQueues.size === 0) {
    const refs = new Set<string>();
    await walkAll(async (s) => void refs.add(String(s.base)));
    return refs.size === 0
      ? "no queue stays at all in this window."
      : `no queue stays on base ref ${opts.baseRef} in this window; base refs with stays in it: ${list(refs)}.`;
  }
  if (opts.queues && !opts.queues.some((q) => seenQueues.has(q))) {
    const on = opts.baseRef !== undefined ? ` on ${opts.baseRef}` : "";
    const named = opts.queues.length === 1 ? `no queue named ${opts.queues[0]}` : `none of the queues ${opts.queues.join(", ")}`;
    return seenQueues.size === 0
      ? "no queue stays at all in this window."
      : `${named} has stays in this window${on}; queues that do: ${list(seenQueues)}.`;
  }
  return undefined;
}
