// The work of `mq insights`: read the queue events of the windows once (the API or the archive),
// rebuild the stays as they stream, sum up each window, render the report and judge --fail-if.
// Loaded only when the command runs (cli.ts); its flags were checked before (index.ts).
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { WindowAccumulator } from "../../insights/figures.js";
import { walkStays, type EventSource } from "../../insights/walk.js";
import { openEventSource } from "../../archive/event-source.js";
import { buildReport } from "../../insights/report.js";
import { outsideData } from "../../insights/held.js";
import { judgeInsights } from "../../insights/gate.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { messageText } from "../../iostreams/terminal-text.js";
import { formatCount } from "../../output/format.js";
import { resolveRepos, eachRepo, someReposFailed } from "../../cmdutil/repos.js";
import { reportGate } from "../../cmdutil/gate-report.js";
import { insightsHeadline, writeInsights } from "./render.js";
import type { InsightsOptions } from "./index.js";
import { watchInsights } from "./watch.js";

/**
 * Whether the window or the comparison window reaches outside the data the source holds (the
 * bundled server's history, the service's retention, the archive's coverage): one line on stderr
 * saying which and what follows, and, with a comparison, why no previous figure and no change is
 * given (a count over missing events would read as a change).
 */
async function windowsOutsideData(
  source: EventSource,
  repositories: readonly string[],
  opts: InsightsOptions,
): Promise<{ warning?: string; previousUnavailable?: string }> {
  const outside: string[] = [];
  const main = await outsideData(source, repositories, "the window", { since: opts.since, until: opts.until });
  if (main) outside.push(main);
  const compared = opts.compare && (await outsideData(source, repositories, "the comparison window", opts.compare));
  if (compared) outside.push(compared);
  if (outside.length === 0) return {};
  const reason = outside.join("; ");
  const then = opts.compare
    ? "no previous figures and no change are given (previous: null in -o json)"
    : "its figures count only the events there are";
  return { warning: `warning: ${reason}: ${then}.`, ...(opts.compare ? { previousUnavailable: reason } : {}) };
}

export async function runInsights(opts: InsightsOptions, ctx: Context): Promise<void> {
  if (opts.watch) return watchInsights(opts, ctx, runInsights);
  const repos = await resolveRepos(ctx);
  if (repos.length === 1 && opts.gate.scope !== "all") {
    // one repository has no parts to judge one by one (mq stats judges its groups; insights has none):
    // refused rather than quietly judged as `all`, which a reader of the workflow would not expect
    const repository = `${repos[0]!.owner}/${repos[0]!.name}`;
    throw new UsageError(
      `--fail-if-scope ${opts.gate.scope} judges each of several repositories, and --repo names one (${repository}): give several --repo, or drop --fail-if-scope.`,
    );
  }
  const spans = [{ since: opts.since, until: opts.until }, ...(opts.compare ? [opts.compare] : [])];
  const source =
    opts.source ??
    (await openEventSource(ctx, {
      mode: opts.archive,
      repositories: repos.map((r) => `${r.owner}/${r.name}`),
      spans,
      what: "queue stays",
    }));
  const held = await windowsOutsideData(
    source,
    repos.map((r) => `${r.owner}/${r.name}`),
    opts,
  );
  if (held.warning) ctx.io.stderr.write(`mq: ${held.warning}\n`);
  const label = repos.length === 1 ? `${repos[0]!.owner}/${repos[0]!.name}` : `${repos.length} repositories`;
  const spinner = await startSpinner(ctx, `reading the queue events of ${label}`);
  const queues = opts.queues ? new Set(opts.queues) : undefined;
  let events = 0;
  const { results, failed, error } = await eachRepo(
    ctx,
    repos,
    async (repo, repository) => {
      const current = new WindowAccumulator({ since: opts.since, until: opts.until }, opts.slowest);
      const previous = opts.compare ? new WindowAccumulator(opts.compare, opts.slowest) : undefined;
      let seen = 0;
      await walkStays(source, {
        owner: repo.owner,
        name: repo.name,
        baseRef: opts.baseRef,
        parallel: opts.parallel,
        spans,
        onPage: (n) => {
          events += n - seen;
          seen = n;
          if (spinner.active) spinner.update(`${formatCount(events)} queue events of ${label}`);
        },
        onStay: (s) => {
          if (queues && (s.queue === null || !queues.has(s.queue))) return;
          current.add(s);
          previous?.add(s);
        },
      });
      return { repository, current, previous };
    },
    (line) => spinner.log(line),
  ).finally(() => spinner.stop());

  const done = results.map((r) => r.value);
  const reports = done.map((r) => buildReport(r.repository, r.current.result(), r.previous?.result(), held.previousUnavailable));
  let total = reports[0];
  if (repos.length > 1) {
    // the total pools the stays of every repository read: counts summed, percentiles over all of them
    const cur = new WindowAccumulator({ since: opts.since, until: opts.until }, opts.slowest);
    const prev = opts.compare ? new WindowAccumulator(opts.compare, opts.slowest) : undefined;
    for (const r of done) {
      cur.merge(r.current);
      if (prev && r.previous) prev.merge(r.previous);
    }
    total = buildReport("total", cur.result(), prev?.result(), held.previousUnavailable);
  }
  await writeInsights(ctx, repos.length > 1 ? { reports, total: total!, failed } : total!, opts.format);

  const verdicts = opts.gate.failIf.length
    ? judgeInsights(
        opts.gate.failIf,
        {
          total: total!,
          repositories: repos.length > 1 ? reports : undefined,
          failed: failed.map((f) => messageText(f.repository)),
        },
        opts.gate.scope,
        {
          minCount: opts.gate.minCount,
          allowEmpty: opts.gate.allowEmpty,
          emptyReason: "no stays in the window",
        },
      )
    : [];
  const gate = reportGate(ctx, opts.gate, verdicts, {
    command: "mq insights",
    repository: repos.map((r) => `${r.owner}/${r.name}`).join(","),
    start_at: total!.since,
    end_at: total!.until,
    summary: () => ({ headline: insightsHeadline(total!) }),
  });
  // a repository that could not be read says more than a gate over the others: its exit code wins
  if (!error) return gate;
  await gate.catch(() => undefined);
  throw someReposFailed(failed, repos.length, error);
}
