// What the analyses read of each archived queue event: `queue_facts`, the event cut down to what a
// queue stay is built from (insights/dialects.ts stayEvent: the envelope and the metadata keys the
// stays read), as JSON. `mq insights` and `mq prs` parse that instead of the whole event: less than
// half the text, and they rebuild exactly the same stays (the envelope and every key they read are
// kept as they are). Written by sync for each new event, and by the migration to schema version 2
// for the events already archived.
import { isQueueEventType, stayEvent } from "../insights/dialects.js";
import { ArchiveError } from "../errors.js";

/** queue_facts of an event from its text as archived, or null for an event no stay is built from. */
export function queueFactsOf(type: string, raw: string): string | null {
  if (!isQueueEventType(type)) return null;
  let event: unknown;
  try {
    event = JSON.parse(raw);
  } catch {
    // the archive holds only text the page parsed as: this is a damaged file
    throw new ArchiveError(`an archived ${type} event is not valid JSON`, "move the archive aside and run mq archive sync again");
  }
  if (event === null || typeof event !== "object" || Array.isArray(event))
    throw new ArchiveError(`an archived ${type} event is not a JSON object`, "move the archive aside and run mq archive sync again");
  return JSON.stringify(stayEvent(event as Parameters<typeof stayEvent>[0]));
}
