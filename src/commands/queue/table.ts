// The table of `mq queue` (and of its --watch): a row per pull request in the queue, times as
// durations from the instant shown, server text through src/iostreams.
import type { Context } from "../../context.js";
import { colors } from "../../iostreams/color.js";
import { terminalText } from "../../iostreams/terminal-text.js";
import { fittedTable } from "../../output/fitted-table.js";
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
  return fittedTable({
    head: [...(repo ? ["REPOSITORY"] : []), "BASE", "QUEUE", "PARTITION", "POS", "PR", "IN QUEUE", "ETA", "STATE"],
    rows: rows.map((r) => {
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
    }),
    columns: ctx.io.tableWidth(),
    colors: colors(ctx.io),
    align: [...(repo ? (["left"] as const) : []), "left", "left", "left", "right", "right", "right", "left", "left"],
    breakHeadsAt: / /g,
    // too narrow: when the pull request should merge and where it stands (ETA, STATE) are the
    // answer, so the partition and the base give way first, then the queue, the time in the queue,
    // the position and the repository; the pull request stays, and STATE, last, wraps
    lead: 0,
    freeLast: { min: 24, wrap: true, narrow: false },
    drop: repo ? [3, 1, 2, 6, 4, 0, 7] : [2, 0, 1, 5, 3, 6],
  });
}
