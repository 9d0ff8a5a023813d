// Servers whose pagination never ends: each page has a fresh cursor, so no cursor repeats, but the
// events do (the same page again), go back in time, or never come (empty pages). Before the page
// guard (src/api/pagination-guard.ts), `mq logs --all` followed them until the server gave up.
import { eventRange, pageReply, queueChangeEvent, startFaultServer, type FaultServer } from "./fault-server.js";

export type Loop =
  /** the same 10 events on every page */
  | "same-events"
  /** every page newer than the one before */
  | "back-in-time"
  /** no events, a next link every time */
  | "empty-pages";

/** A loopback server that answers every logs request (a slice's first page too) with `loop`'s next page. */
export function startLoopingServer(loop: Loop): Promise<FaultServer> {
  return startFaultServer((n, url) => {
    const next = `/v1/repos/acme/web/logs?per_page=10&cursor=fresh${n}`;
    if (n > 5000) return { status: 503, body: { detail: "enough" } };
    if (loop === "empty-pages") return pageReply([], next);
    if (loop === "back-in-time") {
      // page n holds ids 100+10n down to 91+10n: each newer than the last
      const events = Array.from({ length: 10 }, (_, i) =>
        queueChangeEvent(100 + 10 * n - i, new Date(Date.parse("2026-11-20T10:00:00Z") + (10 * n - i) * 1000).toISOString()),
      );
      return pageReply(events, next);
    }
    // a slice asks with received_to: the same events, inside its window, whatever the window
    const to = url.searchParams.get("received_to");
    const events = eventRange(100, 10).map((e) => (to ? { ...e, received_at: new Date(Date.parse(to) - 1000).toISOString() } : e));
    return pageReply(events, next);
  });
}
