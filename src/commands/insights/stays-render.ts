// Queue stays on screen and in files: the rows of `mq prs` and the timeline of `mq pr N`.
import type { ChalkInstance } from "chalk";
import type { Context, OutputFormat } from "../../context.js";
import { STAY_FIELDS, stayRecord, type StayRecord } from "../../insights/records.js";
import { formatAge, formatDuration, formatFigure, formatInstant, formatInstantMs, formatTime } from "../../output/format.js";
import { fittedTable } from "../../output/fitted-table.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { colors } from "../../iostreams/color.js";
import { exportAll, openExport, type Sink } from "../../output/exporter.js";
import * as STAY_TIMES from "../../insights/stays.js";
import type { CheckRun } from "../../insights/stays.js";
import type { TimelineStay } from "../../insights/timeline.js";
import { pushAll } from "../../arrays.js";

/**
 * Text a server sent, made safe for a terminal: control characters (an escape sequence that would
 * recolour, move the cursor or retitle the window, a line break that would forge a row) are shown
 * as \uXXXX instead of being sent to the terminal.
 */
export function printable(text: unknown): string {
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The rows of `mq prs` through the exporter; the table is sized from all its rows, so it keeps them (a few strings per stay). */
export async function openStayRows(
  ctx: Context,
  format: OutputFormat,
  fields?: string[],
  o: { repository?: boolean } = {},
): Promise<Sink<StayRecord>> {
  return openExport<StayRecord>(format, ctx.io, {
    fields,
    csvColumns: () => fields ?? [...STAY_FIELDS],
    table: () => {
      const rows: StayRecord[] = [];
      return {
        async write(items) {
          pushAll(rows, items);
        },
        async end() {
          if (rows.length === 0) return;
          // ages ("12m ago") on a terminal only: in a file they would be wrong tomorrow
          const now = ctx.io.isStdoutTerminal() ? ctx.now() : undefined;
          await ctx.io.writeData(
            renderStayTable(rows, { columns: ctx.io.tableWidth(), color: colors(ctx.io), now, repository: o.repository }),
          );
        },
      };
    },
  });
}

export function renderStayTable(
  rows: readonly StayRecord[],
  o: { columns: number | undefined; color: ChalkInstance; now?: Date; repository?: boolean },
): string {
  // the table rules of mq stats (formatFigure), in a pipe as on a terminal; -o json/ndjson/csv keep seconds
  const d = (v: unknown) => (typeof v === "number" ? formatFigure(v, "duration") : "-");
  const n = (v: unknown) => (typeof v === "number" ? formatFigure(v, "count") : "-");
  const c = o.color;
  const paint = (outcome: unknown, text: string) =>
    outcome === "merged" ? c.green(text) : outcome === "failed" ? c.red(text) : outcome === "open" ? c.yellow(text) : text;
  // as wide as the terminal at most: the outcome cut first, then headers broken into words, then
  // columns left out (named under the table)
  return fittedTable({
    head: ["PR", "BASE", "QUEUE", "ENTERED", "IN QUEUE", "WAITING", "CI", "RUNS", "RETRIES", "OUTCOME"],
    durations: [4, 5, 6],
    rows: rows.map((r) => [
      o.repository ? `${printable(r.repository)}#${r.pull_request}` : `#${r.pull_request}`,
      printable(r.base_ref ?? "-"),
      printable(r.queue_name ?? "-"),
      `${o.now ? relative(r.entered_at, o.now) : seconds(r.entered_at)}${r.began_before_window ? "*" : ""}`,
      d(r.queue_time),
      d(r.wait_time),
      d(r.ci_time),
      n(r.check_runs),
      n(r.retries),
      // merged and open say it all; otherwise the reason says more than failed or dequeued
      paint(r.outcome, r.outcome === "merged" || r.outcome === "open" ? String(r.outcome) : printable(r.reason ?? r.outcome)),
    ]),
    columns: o.columns,
    colors: c,
    align: ["right", "left", "left", "left", "right", "right", "right", "right", "right", "left"],
    breakHeadsAt: / /g,
    freeLast: { min: 10 },
    // too narrow even so: the counts, CI, the base, waiting and the age give way, the outcome last
    drop: [7, 8, 6, 1, 5, 3],
  });
}

function relative(v: unknown, now: Date): string {
  const t = typeof v === "string" ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? formatAge(t, now) : "-";
}

/** a record's time in the one form of a time on a table */
function seconds(v: unknown): string {
  if (typeof v !== "string") return "-";
  const t = Date.parse(v);
  return Number.isFinite(t) ? formatTime(t) : v;
}

// ---------------------------------------------------------------------------------------------
// mq pr N

/** a time in the records (json, ndjson, csv): RFC 3339 UTC to the second */
const iso = (t: number | null) => (t === null ? null : formatInstant(Math.floor(t / 1000) * 1000));

export async function writeTimeline(
  ctx: Context,
  repository: string,
  opts: { pullRequest: number; since: Date; until: Date; format: OutputFormat },
  timeline: readonly TimelineStay[],
): Promise<void> {
  const untilMs = opts.until.getTime();
  const steps = timeline.flatMap((t, i) =>
    t.steps.map((st) => ({
      repository,
      pull_request: opts.pullRequest,
      stay: i + 1,
      at: formatInstantMs(st.at),
      wait: st.wait,
      type: st.type,
      text: st.text,
    })),
  );
  await exportAll<Record<string, unknown>>(
    opts.format,
    ctx.io,
    {
      // json: the stays with their figures, steps and runs; ndjson and csv: one record per step
      document: () => ({
        repository,
        pull_request: opts.pullRequest,
        since: iso(opts.since.getTime()),
        until: iso(untilMs),
        stays: timeline.map((t) => ({
          ...stayRecord(t.stay, untilMs),
          steps: t.steps.map((st) => ({ at: formatInstantMs(st.at), wait: st.wait, type: st.type, text: st.text })),
          runs: t.stay.runs.map(runRecord),
        })),
      }),
      csvColumns: () => ["repository", "pull_request", "stay", "at", "wait", "type", "text"],
      table: () => ({
        async write() {},
        end: () => ctx.io.writeData(renderTimeline(repository, opts, timeline, colors(ctx.io), ctx.io.tableWidth())),
      }),
    },
    () => steps,
  );
}

function runRecord(r: CheckRun): Record<string, unknown> {
  return {
    id: r.id,
    started_at: iso(r.startedAt),
    ended_at: iso(r.endedAt),
    duration: r.startedAt !== null && r.endedAt !== null ? (r.endedAt - r.startedAt) / 1000 : null,
    pull_requests: r.pullRequests,
    start_reason: r.startReason,
    conclusion: r.conclusion,
    abort_code: r.abortCode,
    abort_status: r.abortStatus,
    retry_attempt: r.retryAttempt,
    failed_checks: r.failedChecks,
  };
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((l) => (l ? `  ${l}` : l))
    .join("\n");

export function renderTimeline(
  repository: string,
  opts: { pullRequest: number; since: Date; until: Date },
  timeline: readonly TimelineStay[],
  c: ChalkInstance,
  /** the terminal's width (the tables are indented by two); none in a pipe */
  columns?: number,
): string {
  // a timeline is read by a person whatever the stream: durations in words, times to the second
  const inner = columns === undefined ? undefined : Math.max(columns - 2, 20);
  const { stayTimes } = STAY_TIMES;
  const untilMs = opts.until.getTime();
  const out: string[] = [];
  const n = timeline.length;
  // its prose too: broken at spaces to the terminal's width
  const prose = (text: string) => wrapLine(text, columns, "    ");
  out.push(
    prose(
      c.bold(
        `#${opts.pullRequest} in ${repository}: ${n} stay${n === 1 ? "" : "s"} in the queue from ${formatTime(opts.since)} to ${formatTime(untilMs)}`,
      ),
    ),
  );
  timeline.forEach((t, i) => {
    const s = t.stay;
    const times = stayTimes(s, untilMs);
    const ended =
      s.outcome === "open"
        ? c.yellow(`still in the queue after ${formatDuration(times.queueTime)}`)
        : s.outcome === "merged"
          ? c.green(`merged after ${formatDuration(times.queueTime)}`)
          : c.red(
              printable(
                `${s.outcome}, ${s.reason}${s.reasonText && s.reasonText !== s.reason ? ` (${s.reasonText})` : ""}, after ${formatDuration(times.queueTime)}`,
              ),
            );
    out.push("");
    out.push(
      prose(
        c.bold(
          `Stay ${i + 1} of ${n}: base ${printable(s.base ?? "?")}, queue ${printable(s.queue ?? "?")}, entered ${formatTime(s.enteredAt)}${s.enterEventAt === null ? " (before the window)" : ""}: `,
        ) + ended,
      ),
    );
    const idle = [
      `capacity ${formatDuration(times.idleCapacity)}`,
      ...(times.idleSchedule ? [`schedule ${formatDuration(times.idleSchedule)}`] : []),
      ...(times.idleFreeze ? [`freeze ${formatDuration(times.idleFreeze)}`] : []),
    ].join(", ");
    const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : word.endsWith("y") ? "" : "s"}`;
    out.push(
      prose(
        `  time in queue ${formatDuration(times.queueTime)}: waiting ${formatDuration(times.waitTime)} (${idle}), CI ${formatDuration(times.ciTime)} in ${plural(times.checkRuns, "run")}, ${times.retries === 1 ? "1 retry" : `${times.retries} retries`}, largest batch ${times.batchSize || 1}, ${plural(s.bisections, "bisection")}`,
      ),
    );
    out.push(
      indent(
        // a step's text wraps rather than being cut: it is what the step says
        fittedTable({
          head: ["TIME", "WAIT", "STEP"],
          rows: t.steps.map((st) => [formatTime(st.at), st.wait === null ? "-" : formatDuration(st.wait), printable(st.text)]),
          columns: inner,
          colors: c,
          align: ["left", "right", "left"],
          freeLast: { min: 16, wrap: true },
          durations: [1],
        }),
      ).trimEnd(),
    );
    if (s.runs.length) {
      out.push(
        indent(
          fittedTable({
            head: ["RUN", "STARTED", "ENDED", "TIME", "BATCH", "RESULT"],
            rows: s.runs.map((r, k) => [
              String(k + 1),
              r.startedAt === null ? "-" : formatTime(r.startedAt),
              r.endedAt === null ? "running" : formatTime(r.endedAt),
              r.startedAt !== null && r.endedAt !== null ? formatDuration((r.endedAt - r.startedAt) / 1000) : "-",
              r.pullRequests.map((p) => `#${p}`).join(" "),
              printable(runResult(r)),
            ]),
            columns: inner,
            colors: c,
            align: ["right", "left", "left", "right", "left", "left"],
            freeLast: { min: 16, wrap: true },
            durations: [3],
          }),
        ).trimEnd(),
      );
    }
  });
  return out.join("\n") + "\n";
}

function runResult(r: CheckRun): string {
  if (r.conclusion === null) return "running";
  const parts = [r.conclusion + (r.failedChecks.length ? ` (${r.failedChecks.join(", ")})` : "")];
  if (r.abortCode) parts.push(r.abortCode);
  if (r.abortStatus === "REEMBARKED") parts.push("re-embarked");
  if (r.retryAttempt) parts.push(`retry ${r.retryAttempt}`);
  if (r.startReason && r.startReason !== "First time checks") parts.push(`started for: ${r.startReason}`);
  return parts.join(", ");
}
