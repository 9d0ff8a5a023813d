// The work of `mq why N`: read the pull request's events (and the bisections naming it), explain
// its stays (src/queue/why.ts) and write them as text or one JSON document. Loaded only when the
// command runs (cli.ts); its flags were checked before (index.ts).
import type { Context } from "../../context.js";
import { openEventSource } from "../../archive/event-source.js";
import { readPullRequestEvents } from "../../queue/pull-request.js";
import { explain, type StayWhy, type WhyReport } from "../../queue/why.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { terminalText } from "../../iostreams/terminal-text.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { exportAll } from "../../output/exporter.js";
import { formatDuration, formatInstant, formatTime } from "../../output/format.js";
import { presentOrFail } from "../../watch/present.js";
import type { WhyOptions } from "./index.js";

const iso = (t: number | null) => (t === null ? null : formatInstant(t));
/** a time in the text, in the one form of a time on a terminal */
const at = (t: number | null) => (t === null ? "-" : formatTime(t));

export async function runWhy(given: WhyOptions, ctx: Context): Promise<void> {
  const repo = await ctx.resolveRepo();
  const opts = given.atPresent ? { ...given, ...given.atPresent(await presentOrFail(ctx, repo)) } : given;
  const repository = `${repo.owner}/${repo.name}`;
  const source = await openEventSource(ctx, {
    mode: opts.archive,
    repositories: [repository],
    spans: [{ since: opts.since, until: opts.until }],
    what: `events of #${opts.pullRequest}`,
  });
  const spinner = await startSpinner(ctx, `reading the events of #${opts.pullRequest}`);
  let report: WhyReport;
  try {
    const events = await readPullRequestEvents(source, {
      owner: repo.owner,
      name: repo.name,
      pullRequest: opts.pullRequest,
      since: opts.since,
      until: opts.until,
      parallel: opts.parallel,
    });
    report = explain(opts.pullRequest, events, opts.until.getTime());
  } finally {
    spinner.stop();
  }
  const shown = opts.all ? report.stays : report.stays.slice(-1);
  await exportAll(
    opts.format,
    ctx.io,
    {
      document: () => whyDocument(repository, opts, report, shown),
      table: () => ({
        async write() {},
        end: () => ctx.io.writeData(fitText(whyText(repository, opts, report, shown), ctx.io.tableWidth())),
      }),
      toRecord: () => whyDocument(repository, opts, report, shown),
    },
    () => [report],
  );
}

/** The stays as JSON: times RFC 3339, durations seconds. */
export function whyDocument(repository: string, opts: WhyOptions, report: WhyReport, shown: readonly StayWhy[]): Record<string, unknown> {
  return {
    repository,
    pull_request: report.pullRequest,
    since: iso(opts.since.getTime()),
    until: iso(opts.until.getTime()),
    stays_in_window: report.stays.length,
    requeues: Math.max(0, report.stays.length - 1),
    stays: shown.map((w) => ({
      stay: w.index,
      base_ref: w.stay.base,
      queue_name: w.stay.queue,
      partition_name: w.stay.partition,
      entered_at: iso(w.stay.enteredAt),
      left_at: iso(w.stay.leftAt),
      merged_at: iso(w.stay.mergedAt),
      outcome: w.stay.outcome,
      reason: w.stay.reason,
      reason_text: w.stay.reasonText,
      state: w.state,
      state_since: iso(w.stateSince),
      failing_checks: w.failingChecks,
      evictions: w.evictions.map((e) => ({ at: iso(e.at), batch: e.batch, code: e.code, role: e.role, caused_by: e.causedBy })),
      removed_by: w.removedBy,
      next: w.next,
    })),
    ...(report.stays.length === 0
      ? {
          seen: {
            events: report.seen.events,
            by_type: report.seen.byType,
            last_command: report.seen.lastCommand,
            last_command_at: iso(report.seen.lastCommandAt),
          },
        }
      : {}),
  };
}

const STATE_TEXT: Readonly<Record<string, string>> = {
  checks_running: "checks running",
  bisecting: "its batch is being bisected",
  waiting_for_capacity: "waiting for capacity",
  waiting_for_schedule: "waiting for the queue's schedule",
  waiting_for_freeze: "waiting for a freeze to end",
  paused: "the queue is paused",
};

const list = (ns: readonly number[]) => ns.map((n) => `#${n}`).join(", ");

/** The outcome of a stay in words: the line `mq wait` prints when a pull request leaves. */
export function outcomeLine(w: StayWhy): string {
  const s = w.stay;
  const after = (t: number) => formatDuration((t - s.enteredAt) / 1000);
  if (s.outcome === "merged") return `merged at ${at(s.mergedAt)} after ${after(s.mergedAt!)}`;
  if (s.outcome === "open") return `still in the queue: ${STATE_TEXT[w.state ?? ""] ?? w.state} since ${at(w.stateSince)}`;
  // the reason is the server's too: a sentence the contract does not know is its own code
  const words =
    s.reasonText && s.reasonText !== s.reason
      ? `${terminalText(s.reasonText)} (${terminalText(String(s.reason))})`
      : terminalText(String(s.reason));
  return `${s.outcome === "failed" ? "failed" : "dequeued"} at ${at(s.leftAt)} after ${after(s.leftAt!)}: ${words}`;
}

/** On a terminal, each line broken at spaces to its width, under its own indent (a link stays whole). */
function fitText(text: string, columns: number | undefined): string {
  if (columns === undefined) return text;
  return text
    .split("\n")
    .map((line) => wrapLine(line, columns, `${/^ */.exec(line)![0]}    `))
    .join("\n");
}

export function whyText(repository: string, opts: WhyOptions, report: WhyReport, shown: readonly StayWhy[]): string {
  const pr = report.pullRequest;
  const window = `from ${at(opts.since.getTime())} to ${at(opts.until.getTime())}`;
  if (report.stays.length === 0) {
    const seen = report.seen;
    const lines = [`#${pr} in ${repository} did not enter a queue ${window}`];
    if (seen.events === 0) lines.push(`  the log holds no event of #${pr} in that window; --since reaches further back`);
    else {
      const types = Object.entries(seen.byType)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([t, n]) => `${t} ×${n}`)
        .join(", ");
      lines.push(`  the log shows ${seen.events} event${seen.events === 1 ? "" : "s"} of #${pr}: ${types}`);
      if (seen.lastCommand) lines.push(`  last command: ${seen.lastCommand} at ${at(seen.lastCommandAt)}`);
    }
    return `${lines.join("\n")}\n`;
  }
  const out: string[] = [];
  for (const w of shown) {
    const s = w.stay;
    out.push(
      `#${pr} in ${repository}: stay ${w.index} of ${report.stays.length}, queue ${terminalText(s.queue ?? "?")} (base ${terminalText(s.base ?? "?")}), entered ${at(s.enteredAt)}`,
    );
    out.push(`  ${outcomeLine(w)}`);
    for (const c of w.failingChecks)
      out.push(`  failing check: ${terminalText(c.name)} ${terminalText(c.state)}${c.url ? ` ${terminalText(c.url)}` : ""}`);
    if (w.removedBy) out.push(`  removed by: ${terminalText(w.removedBy)}`);
    const bystander = w.evictions.filter((e) => e.role === "bystander");
    for (const e of w.evictions) {
      if (e.role === "culprit")
        out.push(`  culprit: its batch of ${list(e.batch)} was bisected and #${pr}'s own checks failed (${at(e.at)})`);
      else if (e.code === "BISECTION")
        out.push(`  bystander: its batch of ${list(e.batch)} failed because of ${list(e.causedBy)}, found by bisection (${at(e.at)})`);
      else out.push(`  bystander: its checks stopped, ${e.code}, caused by ${list(e.causedBy)} ahead of it (${at(e.at)})`);
    }
    if (bystander.length > 1) out.push(`  evicted ${bystander.length} times as a bystander`);
    out.push(`  next: ${w.next}`);
  }
  const requeues = report.stays.length - 1;
  out.push(
    `#${pr} entered a queue ${report.stays.length} time${report.stays.length === 1 ? "" : "s"} ${window} (${requeues} requeue${requeues === 1 ? "" : "s"})`,
  );
  return `${out.join("\n")}\n`;
}
