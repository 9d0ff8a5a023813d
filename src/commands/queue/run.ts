// The work of `mq queue`: read each repository's lookback once, rebuild its queue at the end
// (src/queue/reconstruct.ts) and write a row per open stay; with --watch, follow it (watch.ts).
// Loaded only when the command runs (cli.ts); its flags were checked before (index.ts).
import type { Context } from "../../context.js";
import type { MqError } from "../../errors.js";
import { openEventSource } from "../../archive/event-source.js";
import { eachRepo, resolveRepos, someReposFailed, type RepoFailure } from "../../cmdutil/repos.js";
import { readQueue } from "../../queue/reconstruct.js";
import { QUEUE_FIELDS, queueRecord, type QueueRecord } from "../../queue/records.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { openExport } from "../../output/exporter.js";
import { formatCount, formatTime } from "../../output/format.js";
import type { QueueOptions } from "./index.js";
import { renderQueueTable } from "./table.js";
import { watchQueue } from "./watch.js";
import { presentOrFail } from "../../watch/present.js";

export async function runQueue(given: QueueOptions, ctx: Context): Promise<void> {
  const repos = await resolveRepos(ctx);
  if (given.watchSeconds !== undefined) return watchQueue(given, ctx, repos, given.watchSeconds);
  // the repositories share one API URL, so one server: its present asked once, of the first
  const opts = given.atPresent ? { ...given, ...given.atPresent(await presentOrFail(ctx, repos[0]!)) } : given;
  const labels = repos.map((r) => `${r.owner}/${r.name}`);
  const label = repos.length === 1 ? labels[0]! : `${repos.length} repositories`;
  const source = await openEventSource(ctx, {
    mode: opts.archive,
    repositories: labels,
    spans: [{ since: opts.since, until: opts.until }],
    what: "queue events",
  });
  const spinner = await startSpinner(ctx, `reading the queue events of ${label}`);
  const untilMs = opts.until.getTime();
  let failed: RepoFailure[] = [];
  let error: MqError | undefined;
  let results: Array<{ repository: string; value: QueueRecord[] }> = [];
  let events = 0;
  try {
    ({ results, failed, error } = await eachRepo(
      ctx,
      repos,
      async (repo) => {
        let seen = 0;
        const snapshot = await readQueue(
          source,
          {
            owner: repo.owner,
            name: repo.name,
            since: opts.since,
            until: opts.until,
            baseRef: opts.baseRef,
            parallel: opts.parallel,
            onPage: (n) => {
              events += n - seen;
              seen = n;
              if (spinner.active) spinner.update(`${formatCount(events)} queue events of ${label}`);
            },
          },
          { queues: opts.queues, partitions: opts.partitions },
        );
        return snapshot.entries.map((e) => queueRecord(e, untilMs));
      },
      (line) => spinner.log(line),
    ));
  } finally {
    spinner.stop();
  }
  // in the order of --repo, each repository's queue lines in order
  const records = results.flatMap((r) => r.value);
  const sink = await openExport<QueueRecord>(opts.format, ctx.io, {
    fields: opts.fields,
    csvColumns: () => opts.fields ?? [...QUEUE_FIELDS],
    csvJoinArrays: true,
    table: () => ({
      async write() {},
      async end() {
        if (records.length === 0) return;
        let more: string | undefined;
        await ctx.io.writeData(renderQueueTable(records, untilMs, ctx, { repository: repos.length > 1, more: (line) => (more = line) }));
        if (more !== undefined) ctx.io.stderr.write(wrapLine(`${label}: ${more}`, ctx.io.messageWidth()) + "\n");
      },
    }),
  });
  await sink.write(records);
  await sink.end();
  if (ctx.io.isStderrTerminal() || opts.format === "table") {
    const older = records.filter((r) => r.entered_before_lookback).length;
    const n = records.length;
    const line =
      `${repos.length === 1 ? label : `${formatCount(results.length)} of ${label}`}: ${formatCount(n)} pull request${n === 1 ? "" : "s"} in the queue at ${formatTime(untilMs)}` +
      `${source.fromArchive ? " (from the archive)" : ""}, rebuilt from the queue events since ${formatTime(opts.since)}` +
      `; a stay entered before then with no event since is not seen${older ? `; ${older} entered before it (*)` : ""}`;
    ctx.io.stderr.write(wrapLine(line, ctx.io.messageWidth()) + "\n");
  }
  if (error) throw someReposFailed(failed, repos.length, error);
}
