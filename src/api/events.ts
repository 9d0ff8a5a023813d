// One event of the log as the rest of mq handles it: the envelope fields by name, the rest as the
// server sent it (the real service adds fields, and they reach the user untouched). The API's
// shapes (schema/events.ts, with zod) check an event; this loose view is what a checked event is
// handed on as, by the logs command, the archive and the analyses, without loading the schemas.
export interface LogEvent {
  id: number;
  received_at: string;
  type: string;
  pull_request: number | null;
  base_ref: string | null;
  /** owner/name: the real service's events name their repository; the contract's leave it to the request */
  repository?: string;
  /** as sent: an object for a checked event; anything (null) for one read loosely */
  metadata: unknown;
  [key: string]: unknown;
}
