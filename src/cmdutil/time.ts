// --since/--until/--at values: an ISO 8601 date-time with a timezone, a calendar date (midnight
// UTC, as every time mq prints is UTC), or a duration back from now (`30m`, `1h30m`, `7d`, `2w`).
// A date-time without a timezone is an error, not a local time: guessing the zone of a time of day
// would silently shift the window by hours.
import { UsageError } from "../errors.js";
import { parseDurationSeconds, parseIsoDateTime, parsePlainDate } from "../validators.js";

export const TIME_VALUE_HELP =
  "an ISO 8601 date-time with a timezone (2026-11-20T09:00:00Z), a date (2026-11-20: midnight UTC) or a duration ago (30m, 1h30m, 7d, 2w)";

// the form the API receives; it lives with the other formatters because tables print it too
import { formatInstant } from "../output/format.js";
export { formatInstant };

/**
 * Resolves a time flag value to an instant. `flag` names the flag in the error, e.g. "--since".
 * Durations count back from `now`.
 */
export function parseTimeFlag(flag: string, value: string, now: Date): Date {
  const trimmed = value.trim();
  const seconds = parseDurationSeconds(trimmed);
  if (seconds !== undefined) {
    const at = now.getTime() - seconds * 1000;
    // no merge queue event is older than the Unix epoch; a larger duration is a typo
    if (!(at >= 0)) throw new UsageError(`${flag} "${value}" reaches back before 1970: give a shorter duration or a date-time.`);
    return new Date(at);
  }
  const at = parseIsoDateTime(trimmed) ?? parsePlainDate(trimmed);
  if (at !== undefined) return at;
  if (/^\d{4}-\d{2}-\d{2}[T ][\d:.]+$/.test(trimmed) && !Number.isNaN(Date.parse(trimmed.replace(" ", "T")))) {
    throw new UsageError(
      `${flag} "${value}" has no timezone: add Z or an offset (e.g. ${trimmed.replace(" ", "T")}Z), or give a date (midnight UTC) or a duration such as 7d.`,
    );
  }
  throw new UsageError(`${flag} "${value}" is not ${TIME_VALUE_HELP}.`);
}

/** Parses both ends of a window and checks their order. */
export function parseTimeWindow(
  flags: { since?: string; until?: string },
  now: Date,
  names: { since: string; until: string } = { since: "--since", until: "--until" },
): { since?: Date; until?: Date } {
  const since = flags.since !== undefined ? parseTimeFlag(names.since, flags.since, now) : undefined;
  const until = flags.until !== undefined ? parseTimeFlag(names.until, flags.until, now) : undefined;
  // without --until the window ends now, so a --since in the future is just as empty
  if (since) checkWindowOrder(since, until ?? now, until ? names : { since: names.since, until: "now" });
  return { since, until };
}

/** Throws unless `since` is strictly before `until`; `names` are the flags to blame. */
export function checkWindowOrder(
  since: Date,
  until: Date,
  names: { since: string; until: string } = { since: "--since", until: "--until" },
): void {
  // An empty window is refused too: the API answers 422 to start == end, and it is never meant.
  if (since.getTime() < until.getTime()) return;
  const relation = since.getTime() === until.getTime() ? "is the same instant as" : "is after";
  throw new UsageError(
    `${names.since} (${formatInstant(since)}) ${relation} ${names.until} (${formatInstant(until)}): ${names.since} must be earlier.`,
  );
}
