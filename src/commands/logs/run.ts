// `mq logs`'s run: from the archive when it covers the window, from several repositories merged by
// time, or page after page from the API (--follow: and then polling), writing each page out before
// asking for the next, so memory stays flat however many events there are.
import type { Context } from "../../context.js";
import { DEFAULT_WINDOW_MS, MAX_PER_PAGE, type LogsOptions } from "./options.js";
import { openLogsOutput } from "./output.js";
import { failure, fetchPages, finish, logsQuery, prepareRun, type Progress } from "./pages.js";
import { runLogsFromArchive } from "./archive.js";
import { follow } from "./follow.js";

export async function runLogs(opts: LogsOptions, ctx: Context): Promise<void> {
  // the server's default window ends at its "now": a resume command pins this instant instead
  const startedAt = ctx.now();
  const many = ctx.globals.repo !== undefined && /[,@]/.test(ctx.globals.repo);
  // several repositories are read from the API (with --archive they were refused with the flags)
  if (opts.archive === "always" || (opts.archive === "auto" && !many)) {
    const repo = await ctx.resolveRepo();
    const repoName = `${repo.owner}/${repo.name}`;
    const until = opts.until ?? startedAt;
    const since = opts.since ?? new Date(until.getTime() - DEFAULT_WINDOW_MS);
    const { chooseArchive } = await import("../../archive/choose.js");
    const archive = await chooseArchive(ctx, { mode: opts.archive, repositories: [repoName], spans: [{ since, until }], what: "events" });
    if (archive) return runLogsFromArchive(opts, ctx, { archive, repoName, since, until });
  }
  // several repositories (--repo a/b,c/d): merged by time in many.ts
  if (many) {
    const { runLogsMany } = await import("./many.js");
    return runLogsMany(
      {
        opts,
        query: { ...logsQuery(opts), per_page: opts.perPage ?? MAX_PER_PAGE },
        openOutput: () => openLogsOutput(opts, ctx, { trusted: () => true }, { repository: true }),
      },
      ctx,
    );
  }
  const run = await prepareRun(opts, ctx);
  if (opts.types !== undefined && opts.types.length === 0) {
    // --type named only families this dialect has no type of: no event can match, nothing is asked
    run.spinner.stop();
    await finish(run, { count: 0, pages: 0, truncated: false, pendingCursor: undefined, pendingUntil: undefined });
    return;
  }
  const progress: Progress = { count: 0, pages: 0, truncated: false, pendingCursor: opts.cursor, pendingUntil: undefined };
  // a regular file's size before the first byte: a failed write cuts it back to a whole page
  if (run.sink.bytes !== undefined) {
    try {
      progress.fileStart = ctx.io.stdoutFile?.size();
    } catch {
      // no size, no rewind: the message says what a cut line would be
    }
  }
  try {
    if (opts.follow) {
      await follow(run);
      return;
    }
    await fetchPages(run, progress);
  } catch (err) {
    run.spinner.stop();
    const error = await failure(run, err, progress, startedAt);
    if (error === undefined) return;
    throw error;
  } finally {
    run.spinner.stop();
  }
  await finish(run, progress);
}
