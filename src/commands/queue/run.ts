// The work of `mq queue`: read the lookback's queue events once, rebuild the queue at its end
// (src/queue/reconstruct.ts) and write a row per open stay. Loaded only when the command runs
// (cli.ts); its flags were checked before (index.ts).
import type { Context } from "../../context.js";
import { openEventSource } from "../../archive/event-source.js";
import { readQueue, type QueueEntry } from "../../queue/reconstruct.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { terminalText } from "../../iostreams/terminal-text.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { colors } from "../../iostreams/color.js";
import { openExport } from "../../output/exporter.js";
import { fittedTable } from "../../output/fitted-table.js";
import { formatCount, formatDuration } from "../../output/format.js";
import { writeChunk } from "../../output/records.js";
import { QUEUE_FIELDS, type QueueOptions } from "./index.js";

export type QueueRecord = Record<(typeof QUEUE_FIELDS)[number], string | number | boolean | number[] | null>;

// as mq prs writes its times (milliseconds when the log has them), so rows of the two compare equal
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString().replace(".000Z", "Z"));

export function queueRecord(e: QueueEntry, untilMs: number): QueueRecord {
  const s = e.stay;
  return {
    repository: s.repository,
    pull_request: s.pullRequest,
    base_ref: s.base,
    queue_name: s.queue,
    partition_name: s.partition,
    priority_rule_name: s.priorityRule,
    position: e.position,
    entered_at: iso(s.enteredAt),
    time_in_queue: Math.max(0, Math.round((untilMs - s.enteredAt) / 1000)),
    state: e.state,
    state_since: iso(e.stateSince),
    batch_with: e.batchWith,
    eta_p50: iso(e.etaP50),
    eta_p90: iso(e.etaP90),
    eta_sample: e.etaSample,
    entered_before_lookback: e.enteredBeforeWindow,
  };
}

export async function runQueue(opts: QueueOptions, ctx: Context): Promise<void> {
  const repo = await ctx.resolveRepo();
  const label = `${repo.owner}/${repo.name}`;
  const source = await openEventSource(ctx, {
    mode: opts.archive,
    repositories: [label],
    spans: [{ since: opts.since, until: opts.until }],
    what: "queue events",
  });
  const spinner = await startSpinner(ctx, `reading the queue events of ${label}`);
  let snapshot: Awaited<ReturnType<typeof readQueue>>;
  try {
    snapshot = await readQueue(
      source,
      {
        owner: repo.owner,
        name: repo.name,
        since: opts.since,
        until: opts.until,
        baseRef: opts.baseRef,
        parallel: opts.parallel,
        onPage: (n) => spinner.active && spinner.update(`${formatCount(n)} queue events of ${label}`),
      },
      { queues: opts.queues, partitions: opts.partitions },
    );
  } finally {
    spinner.stop();
  }
  const untilMs = opts.until.getTime();
  const records = snapshot.entries.map((e) => queueRecord(e, untilMs));
  const sink = await openExport<QueueRecord>(opts.format, ctx.io, {
    fields: opts.fields,
    csvColumns: () => opts.fields ?? [...QUEUE_FIELDS],
    csvJoinArrays: true,
    table: () => ({
      async write() {},
      async end() {
        if (records.length === 0) return;
        await writeChunk(ctx.io.stdout, renderQueueTable(records, untilMs, ctx));
      },
    }),
  });
  await sink.write(records);
  await sink.end();
  if (ctx.io.isStderrTerminal() || opts.format === "table") {
    const older = records.filter((r) => r.entered_before_lookback).length;
    const n = records.length;
    const line =
      `${label}: ${formatCount(n)} pull request${n === 1 ? "" : "s"} in the queue at ${iso(untilMs)}` +
      `${source.fromArchive ? " (from the archive)" : ""}, rebuilt from the queue events since ${iso(opts.since.getTime())}` +
      `; a stay entered before then with no event since is not seen${older ? `; ${older} entered before it (*)` : ""}`;
    ctx.io.stderr.write(wrapLine(line, ctx.io.messageWidth()) + "\n");
  }
}

const STATE_TEXT: Readonly<Record<string, string>> = {
  checks_running: "checks running",
  bisecting: "bisecting",
  waiting_for_capacity: "waiting for capacity",
  waiting_for_schedule: "waiting for the schedule",
  waiting_for_freeze: "waiting for a freeze",
  paused: "queue paused",
};

function renderQueueTable(rows: readonly QueueRecord[], untilMs: number, ctx: Context): string {
  const since = (v: unknown) => (typeof v === "string" ? formatDuration((untilMs - Date.parse(v)) / 1000) : "-");
  const ahead = (v: unknown) => (typeof v === "string" ? formatDuration(Math.max(0, (Date.parse(v) - untilMs) / 1000)) : null);
  return fittedTable({
    head: ["BASE", "QUEUE", "PARTITION", "POS", "PR", "IN QUEUE", "STATE", "ETA"],
    rows: rows.map((r) => {
      const batch = Array.isArray(r.batch_with) && r.batch_with.length ? `, with ${r.batch_with.map((n) => `#${n}`).join(" ")}` : "";
      const p50 = ahead(r.eta_p50);
      const p90 = ahead(r.eta_p90);
      return [
        terminalText(String(r.base_ref ?? "-")),
        terminalText(String(r.queue_name ?? "-")),
        terminalText(String(r.partition_name ?? "-")),
        String(r.position),
        `#${r.pull_request}`,
        `${formatDuration(Number(r.time_in_queue))}${r.entered_before_lookback ? "*" : ""}`,
        `${STATE_TEXT[String(r.state)] ?? String(r.state)} ${since(r.state_since)}${batch}`,
        p50 !== null && p90 !== null ? `${p50}–${p90}` : "-",
      ];
    }),
    columns: ctx.io.tableWidth(),
    colors: colors(ctx.io),
    align: ["left", "left", "left", "right", "right", "right", "left", "left"],
    breakHeadsAt: / /g,
  });
}
