// The table of `mq queue` (and of its --watch): a row per pull request in the queue, times as
// durations from the instant shown, server text through src/iostreams.
import type { Context } from "../../context.js";
import { colors } from "../../iostreams/color.js";
import { terminalText } from "../../iostreams/terminal-text.js";
import { fittedTable, naturalWidth } from "../../output/fitted-table.js";
import { screenOf } from "../../iostreams/long-list.js";
import { formatDuration } from "../../output/format.js";
import type { QueueRecord } from "../../queue/records.js";

const STATE_TEXT: Readonly<Record<string, string>> = {
  checks_running: "checks running",
  bisecting: "bisecting",
  waiting_for_capacity: "waiting for capacity",
  waiting_for_schedule: "waiting for the schedule",
  waiting_for_freeze: "waiting for a freeze",
  paused: "queue paused",
};

/**
 * The table of the queue; on a terminal a screen of its first rows (iostreams/long-list.ts), the
 * line saying how many there are handed to `more` (stderr, or under the table of a redrawn screen).
 */
export function renderQueueTable(
  all: readonly QueueRecord[],
  untilMs: number,
  ctx: Context,
  opts: { repository?: boolean; more?: (line: string) => void; how?: string } = {},
): string {
  const { rows, more } = screenOf(ctx.io, all, "pull requests in the queue", opts.how);
  if (more !== undefined) opts.more?.(more);
  const since = (v: unknown) => (typeof v === "string" ? formatDuration((untilMs - Date.parse(v)) / 1000) : "-");
  const ahead = (v: unknown) => (typeof v === "string" ? formatDuration(Math.max(0, (Date.parse(v) - untilMs) / 1000)) : null);
  // several repositories: which one is the first column
  const repo = opts.repository === true;
  const r0 = repo ? 1 : 0;
  const cells = rows.map((r) => {
    const batch = Array.isArray(r.batch_with) && r.batch_with.length ? `, with ${r.batch_with.map((n) => `#${n}`).join(" ")}` : "";
    const p50 = ahead(r.eta_p50);
    const p90 = ahead(r.eta_p90);
    return [
      ...(repo ? [terminalText(String(r.repository ?? "-"))] : []),
      terminalText(String(r.base_ref ?? "-")),
      terminalText(String(r.queue_name ?? "-")),
      terminalText(String(r.partition_name ?? "-")),
      String(r.position),
      `#${r.pull_request}`,
      `${formatDuration(Number(r.time_in_queue))}${r.entered_before_lookback ? "*" : ""}`,
      p50 !== null && p90 !== null ? `${p50}–${p90}` : "-",
      `${STATE_TEXT[String(r.state)] ?? String(r.state)} ${since(r.state_since)}${batch}`,
    ];
  });
  const head = [...(repo ? ["REPOSITORY"] : []), "BASE", "QUEUE", "PARTITION", "POS", "PR", "IN QUEUE", "ETA", "STATE"];
  const columns = ctx.io.tableWidth();
  const table = (head: string[], rows: string[][], drop: number[]) =>
    fittedTable({
      head,
      rows,
      columns,
      colors: colors(ctx.io),
      align: head.map((h) => (h === "POS" || h === "PR" || h === "IN QUEUE" ? "right" : "left")),
      breakHeadsAt: / /g,
      durations: [head.indexOf("IN QUEUE")],
      lead: 0,
      freeLast: { min: STATE_MIN, wrap: true, narrow: false },
      drop,
    });
  // a position is within a lane (base, queue, partition): where BASE, QUEUE and PARTITION all fit,
  // they are three columns; where they do not, one QUEUE column names each row's lane by what tells
  // the rows apart ("main default/api"), and POS goes before it, never showing without its lane
  const wide =
    naturalWidth(
      head.slice(0, -1),
      cells.map((c) => c.slice(0, -1)),
    ) +
    2 +
    STATE_MIN;
  if (columns === undefined || wide <= columns) return table(head, cells, repo ? [6, 7, 0] : [5, 6]);
  const lane = laneNames(cells.map((c) => c.slice(r0, r0 + 3) as [string, string, string]));
  const merged = cells.map((c, i) => [...c.slice(0, r0), lane[i]!, ...c.slice(r0 + 3)]);
  const mergedHead = [...(repo ? ["REPOSITORY"] : []), "QUEUE", "POS", "PR", "IN QUEUE", "ETA", "STATE"];
  // too narrow: when the pull request should merge and where it stands (ETA, STATE) are the answer,
  // so the time in the queue gives way first, then the position, the lane, the ETA and the
  // repository; the pull request stays, and STATE, last, wraps
  return table(mergedHead, merged, repo ? [4, 2, 1, 5, 0] : [3, 1, 0, 4]);
}

/** The API's name for the partition of a queue that has none. */
const DEFAULT_PARTITION = "__default__";

/** STATE's least width before the other columns give way. */
const STATE_MIN = 24;

/**
 * Each row's lane in one cell: the base where the rows' bases differ, the queue, and the partition
 * where the rows' partitions differ (none for the default partition): "main default/api".
 */
function laneNames(lanes: ReadonlyArray<readonly [string, string, string]>): string[] {
  const varies = (k: number) => new Set(lanes.map((l) => l[k])).size > 1;
  const bases = varies(0);
  const partitions = varies(2);
  return lanes.map(([base, queue, partition]) => {
    const named = partitions && partition !== "-" && partition !== DEFAULT_PARTITION;
    return `${bases ? `${base} ` : ""}${queue}${named ? `/${partition}` : ""}`;
  });
}
