// Whether a window reaches outside the data an event source holds (the bundled server's history,
// the service's retention, the archive's coverage): events missing there are not events that did
// not happen, so mq insights, mq prs and mq pr say so, in one wording.
import type { EventSource } from "./walk.js";
import { formatTime } from "../iostreams/human.js";

const minute = formatTime;

/**
 * "the window 2026-10-20 22:00:00Z → 2026-10-21 02:00:00Z lies partly before the bundled server's
 * history (from 2026-10-21 00:00:00Z)" when some repository's events are missing from the span
 * (wholly: missing for all of them, over all of it); undefined when the source holds all of it.
 */
export async function outsideData(
  source: EventSource,
  repositories: readonly string[],
  name: string,
  span: { since: Date; until: Date },
): Promise<string | undefined> {
  const found = await Promise.all(repositories.map((r) => source.missing(r, span.since, span.until)));
  const lacking = found.filter((m) => m.parts.length > 0);
  if (lacking.length === 0) return undefined;
  const length = span.until.getTime() - span.since.getTime();
  const whole = lacking.length === found.length && lacking.every((m) => m.parts.reduce((n, p) => n + p.to - p.from, 0) >= length);
  const where = [...new Set(lacking.map((m) => m.where))].join(", ");
  return `${name} ${minute(span.since.getTime())} → ${minute(span.until.getTime())} lies ${whole ? "wholly" : "partly"} ${where}`;
}
