// The work of `mq wait N`: find the pull request's stay in the lookback, then poll every
// --interval seconds for its events received since the newest one seen (de-duplicated by id, as
// `mq logs --follow` does) until its latest stay leaves the queue, --max-wait runs out or Ctrl-C.
// A change of state is one NDJSON record in a pipe; on a terminal one status line on stderr,
// rewritten in place and cut to its width, with the pull request's position and estimated merge
// time from its repository's queue, followed as `mq queue --watch` follows it (one more small
// request a poll). Loaded only when the command runs (cli.ts); its flags were checked before.
import type { Context } from "../../context.js";
import type { LogEvent } from "../../api/events.js";
import { InterruptedError, NotMergedError, WaitTimeoutError } from "../../errors.js";
import { apiEventSource } from "../../insights/walk.js";
import { readPullRequestEvents } from "../../queue/pull-request.js";
import { explain, type StayWhy } from "../../queue/why.js";
import { formatDuration, formatInstant, formatTime } from "../../output/format.js";
import { createRecordWriter } from "../../output/records.js";
import { inActions, workflowCommand } from "../../output/github.js";
import { terminalText } from "../../iostreams/terminal-text.js";
import { truncateToWidth } from "../../iostreams/terminal-width.js";
import { QueueFollower } from "../../queue/follower.js";
import { sleepOf } from "../../watch/loop.js";
import type { QueueEntry } from "../../queue/reconstruct.js";
import { ServerPresent } from "../../watch/present.js";
import type { WaitOptions } from "./index.js";

const iso = (t: number | null) => (t === null ? null : formatInstant(t));

/** A change of the pull request's place in the queue, as one record. */
export interface WaitRecord {
  at: string;
  pull_request: number;
  /** not_queued, queued, merged, failed, dequeued */
  status: string;
  queue_name: string | null;
  entered_at: string | null;
  state: string | null;
  state_since: string | null;
  left_at: string | null;
  reason: string | null;
  /** the outcome in words (the line of mq why) once it left */
  why: string | null;
}

export async function runWait(opts: WaitOptions, ctx: Context): Promise<void> {
  const repo = await ctx.resolveRepo();
  const pr = opts.pullRequest;
  // new events come from the API: the archive holds the past only
  const source = apiEventSource(ctx);
  const q = { owner: repo.owner, name: repo.name, pullRequest: pr, parallel: 1 };
  // --max-wait is real time, on mq's clock; the log's "now" is the server's present (the Date of
  // its answers), asked again at each poll
  const deadline = ctx.now().getTime() + opts.maxWaitSeconds * 1000;
  const present = new ServerPresent(ctx, repo);
  const startMs = (await present.next()).getTime();
  const since = opts.sinceAt(new Date(startMs));
  const records =
    ctx.io.isStdoutTerminal() && opts.format === "table"
      ? undefined
      : createRecordWriter(opts.format === "json" ? "json" : "ndjson", ctx.io.stdout);
  const status = ctx.io.isStderrTerminal() && records === undefined;
  // the queue around it, for the status line's position and estimate
  const queue = status ? new QueueFollower(source, repo, { since, parallel: 1 }) : undefined;
  const place = (entries: readonly QueueEntry[] | undefined) => entries?.find((e) => e.stay.pullRequest === pr);
  let entries: readonly QueueEntry[] | undefined;
  const cut = (line: string) => {
    const width = ctx.io.messageWidth();
    return width ? truncateToWidth(line, Math.max(10, width - 1)) : line;
  };

  const events = await readPullRequestEvents(source, { ...q, since, until: new Date(startMs) });
  const seen = new Set(events.map((e) => e.id));
  let presentMs = startMs;
  let watermark = Math.max(since.getTime(), ...events.map((e) => Date.parse(e.received_at)).filter(Number.isFinite));
  const initial = latest(pr, events, startMs);
  // gone before the call: say when, at once
  const first = initial && initial.stay.outcome !== "open" ? initial : undefined;
  let last = "";
  const report = async (w: StayWhy | undefined, nowMs: number) => {
    if (status) {
      // the line moves with the clock (times, estimate): rewritten at every poll
      ctx.io.stderr.write(`\r\x1b[K${cut(statusLine(pr, w, nowMs, place(entries), entries))}`);
      return;
    }
    const r = record(pr, w, nowMs);
    const key = JSON.stringify({ ...r, at: null });
    if (key === last) return;
    last = key;
    if (records) await records.writeMany([r as unknown as Record<string, unknown>]);
  };
  try {
    if (first) return await finish(ctx, opts, pr, first, records, status, true, startMs);
    entries = await queue?.start(new Date(startMs));
    await report(initial, startMs);
    for (;;) {
      const now = ctx.now().getTime();
      if (now >= deadline) {
        const w = latest(pr, events, presentMs);
        throw new WaitTimeoutError(
          `#${pr} ${w ? `is still in the queue (${w.state ?? "queued"})` : "has not entered a queue"} after --max-wait ${formatDuration(opts.maxWaitSeconds)}.`,
        );
      }
      await sleepOf(ctx)(Math.min(opts.intervalSeconds * 1000, Math.max(1, deadline - now)), ctx.signal);
      const until = (await present.next()).getTime();
      presentMs = until;
      // only what arrived since the newest event seen (the API has no "after id": ask from that
      // instant and drop the ids already read); never past now, whatever a server stamps
      for await (const e of source.events({ ...q, since: new Date(Math.min(watermark, until)), until: new Date(until) })) {
        if (seen.has(e.id)) continue;
        seen.add(e.id);
        events.push(e);
        const t = Date.parse(e.received_at);
        if (Number.isFinite(t)) watermark = Math.max(watermark, Math.min(t, until));
      }
      const w = latest(pr, events, until);
      if (queue && (!w || w.stay.outcome === "open")) entries = await queue.poll(new Date(until));
      if (w && w.stay.outcome !== "open") {
        // the bisections naming it, for the culprit of its batch: one read over its last stay
        const full = await readPullRequestEvents(source, { ...q, since: new Date(w.stay.enteredAt), until: new Date(until) });
        return await finish(ctx, opts, pr, latest(pr, full, until) ?? w, records, status, false, until);
      }
      await report(w, until);
    }
  } catch (err) {
    if (status) ctx.io.stderr.write("\r\x1b[K");
    if (records) await records.end().catch(() => undefined);
    if (ctx.signal.aborted) throw new InterruptedError();
    throw err;
  }
}

/** The pull request's latest stay, explained. */
function latest(pr: number, events: readonly LogEvent[], untilMs: number): StayWhy | undefined {
  return explain(pr, events, untilMs).stays.at(-1);
}

function record(pr: number, w: StayWhy | undefined, nowMs: number): WaitRecord {
  const s = w?.stay;
  return {
    at: iso(nowMs)!,
    pull_request: pr,
    status: s === undefined ? "not_queued" : s.outcome === "open" ? "queued" : s.outcome,
    queue_name: s?.queue ?? null,
    entered_at: iso(s?.enteredAt ?? null),
    state: w?.state ?? null,
    state_since: iso(w?.stateSince ?? null),
    left_at: iso(s?.leftAt ?? s?.mergedAt ?? null),
    reason: s?.reason ?? null,
    why: w && s && s.outcome !== "open" ? whyLine(pr, w) : null,
  };
}

/**
 * The status line: queue, position among the pull requests of its queue and partition, state and
 * since when, time in the queue, and the estimated merge time as a range from now (mq queue's).
 */
export function statusLine(pr: number, w: StayWhy | undefined, nowMs: number, at?: QueueEntry, entries?: readonly QueueEntry[]): string {
  if (!w) return `#${pr}: not in a queue yet, waiting for it to enter one`;
  const s = w.stay;
  const of =
    at && entries
      ? entries.filter((e) => e.stay.base === at.stay.base && e.stay.queue === at.stay.queue && e.stay.partition === at.stay.partition)
          .length
      : 0;
  const position = at ? `, position ${at.position} of ${of}` : "";
  const span = (t: number) => formatDuration(Math.max(0, (t - nowMs) / 1000));
  const eta = !at
    ? ""
    : at.etaP50 === null || at.etaP90 === null
      ? "; no estimate yet"
      : `; merge expected in ${span(at.etaP50)}–${span(at.etaP90)}`;
  return (
    `#${pr} in ${terminalText(s.queue ?? "?")}${position}: ${(w.state ?? "queued").replaceAll("_", " ")} for ${formatDuration((nowMs - (w.stateSince ?? s.enteredAt)) / 1000)}` +
    `, in the queue for ${formatDuration((nowMs - s.enteredAt) / 1000)}${eta}`
  );
}

/** The outcome in one line, as mq why says it. */
export function whyLine(pr: number, w: StayWhy): string {
  const s = w.stay;
  if (s.outcome === "merged") return `#${pr} merged at ${formatTime(s.mergedAt ?? s.leftAt ?? Number.NaN)}`;
  const words = s.reasonText && s.reasonText !== s.reason ? `${s.reasonText} (${s.reason})` : String(s.reason);
  const checks = w.failingChecks.map((c) => `${c.name} ${c.state}${c.url ? ` ${c.url}` : ""}`);
  const culprit = w.evictions.filter((e) => e.role === "bystander").flatMap((e) => e.causedBy);
  return (
    `#${pr} left the queue at ${formatTime(s.leftAt ?? Number.NaN)} without merging: ${words}` +
    (checks.length ? `; failing: ${checks.join(", ")}` : "") +
    (culprit.length ? `; caused by ${[...new Set(culprit)].map((n) => `#${n}`).join(", ")}` : "") +
    `; next: ${w.next}`
  );
}

async function finish(
  ctx: Context,
  opts: WaitOptions,
  pr: number,
  w: StayWhy,
  records: ReturnType<typeof createRecordWriter> | undefined,
  status: boolean,
  before: boolean,
  nowMs: number,
): Promise<void> {
  const line = whyLine(pr, w) + (before ? " (before the call)" : "");
  if (status) ctx.io.stderr.write("\r\x1b[K");
  const merged = w.stay.outcome === "merged";
  if (records) {
    await records.writeMany([{ ...record(pr, w, nowMs), why: line } as unknown as Record<string, unknown>]);
    await records.end();
  } else if (merged) ctx.io.stdout.write(`${terminalText(line)}\n`);
  if (merged) return;
  // under GitHub Actions the failure is an annotation on the run too
  if (inActions(ctx.env)) ctx.io.stdout.write(workflowCommand("error", { title: `mq wait #${pr}` }, line));
  throw new NotMergedError(terminalText(line));
}
