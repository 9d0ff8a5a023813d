// What `mq logs` says on stderr: the header line, the --follow banner, and the command that resumes
// an interrupted run.
import type { GlobalOptions } from "../../context.js";
import { filterArgs, LOGS_FILTERS } from "../../cmdutil/logs-filters.js";
import { messageText, shellWord } from "../../iostreams/terminal-text.js";
import { formatInstant } from "../../cmdutil/time.js";
import { DEFAULT_TERMINAL_LIMIT, DEFAULT_WINDOW_MS, type LogsOptions } from "./options.js";
import { formatCount, formatTime } from "../../output/format.js";

/**
 * The command that picks up where a failed run stopped: the same server (never the token), the
 * same filters, the cursor, and the window made absolute. A run without --since/--until asked for
 * the last 24 hours as of when it started; left relative, a later resume would ask for a later
 * window and silently skip the oldest events.
 */
export function resumeCommand(
  opts: LogsOptions,
  repo: string,
  cursor: string | undefined,
  remaining?: number,
  globals: Pick<GlobalOptions, "apiUrl" | "offline" | "dialect"> = { offline: false },
  startedAt?: Date,
  fromArchive = false,
): string {
  const args = ["mq", "logs", "--repo", repo];
  // the archive's window: the same events again, from where they are kept
  if (fromArchive) args.push("--archive");
  if (globals.apiUrl !== undefined) args.push("--api-url", globals.apiUrl);
  if (globals.offline) args.push("--offline");
  if (globals.dialect !== undefined) args.push("--dialect", globals.dialect);
  args.push(...filterArgs(opts.filters));
  if (opts.baseRef !== undefined) args.push("--base-ref", opts.baseRef);
  const until = opts.until ?? startedAt;
  const since = opts.since ?? (until ? new Date(until.getTime() - DEFAULT_WINDOW_MS) : undefined);
  if (since) args.push("--since", formatInstant(since));
  if (until) args.push("--until", formatInstant(until));
  if (opts.perPage !== undefined) args.push("--per-page", String(opts.perPage));
  if (remaining !== undefined) args.push("--limit", String(remaining));
  else args.push("--all");
  args.push("-o", opts.format);
  if (opts.fields) args.push("--fields", opts.fields.join(","));
  if (cursor !== undefined) args.push("--cursor", cursor);
  // a cursor is the server's text, percent-decoded: `%1B` is a real ESC by now. shellWord shows it
  // escaped, in quotes a shell reads back to the same bytes
  return args.map(shellWord).join(" ");
}

/** The window in words: "in the last 24 hours", "from 2026-11-20 09:00:00Z to now". */
export function windowWords(opts: LogsOptions): string {
  const at = formatTime;
  return opts.since
    ? `from ${at(opts.since)} to ${opts.until ? at(opts.until) : "now"}`
    : opts.until
      ? `in the 24 hours before ${at(opts.until)}`
      : "in the last 24 hours";
}

/** The filters in effect as typed: what an empty result repeats. */
export function filterWords(opts: LogsOptions): string[] {
  const out: string[] = [];
  if (opts.typedFilters !== undefined) out.push(...opts.typedFilters);
  else
    for (const f of LOGS_FILTERS) {
      const v = opts.filters[f.param];
      if (v === undefined || v.length === 0) continue;
      // a family glob expands to many types: the first few and how many
      const words = v.map(String);
      out.push(
        `${f.flag} ${words.length > 3 ? `${words.slice(0, 3).join(",")},… (${words.length} ${f.value === "event-type" ? "types" : "values"})` : words.join(",")}`,
      );
    }
  if (opts.baseRef !== undefined) out.push(`--base-ref ${opts.baseRef}`);
  return out;
}

/**
 * The stderr line above the table, one sentence that is true in every case: the repository, how
 * many events, the window, and when more exist what brings them ("showing the newest 30; more
 * with --all"). An empty result repeats the filters and says what to try next.
 */
export function headerLine(opts: LogsOptions, repo: string, count: number, truncated: boolean): string {
  const window = windowWords(opts);
  const from = opts.cursor ? ` from cursor ${messageText(opts.cursor)}` : "";
  if (count === 0) {
    const filters = filterWords(opts);
    const next = [
      ...(opts.since === undefined ? ["a longer window (--since 7d)"] : []),
      // named one by one: what to drop is what was typed
      ...(filters.length === 1 ? [`without ${filters[0]}`] : filters.length > 1 ? [`without one of ${filters.join(", ")}`] : []),
    ];
    return `${repo}: no events ${window}${from}${filters.length ? ` matching ${filters.join(" ")}` : ""}${next.length ? `; try ${next.join(" or ")}` : ""}.`;
  }
  const n = `${formatCount(count)} event${count === 1 ? "" : "s"}`;
  if (!truncated) return `${repo}: ${n} ${window}${from}`;
  return `${repo}: the newest ${n} ${window}${from}; more with --all`;
}

/** "following acme/web (--type action.queue.*), newest 30 first; Ctrl-C to stop" */
export function followBanner(opts: LogsOptions, repo: string): string {
  const filters = filterWords(opts);
  const backlog = opts.since ? `events ${windowWords(opts)}` : `the newest ${opts.limit ?? DEFAULT_TERMINAL_LIMIT} events`;
  return `following ${repo}${filters.length ? ` (${filters.join(" ")})` : ""}: ${backlog}, then new ones every ${opts.interval}s; Ctrl-C to stop`;
}
