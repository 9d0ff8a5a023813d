// What keeps a walk through a server's pages from looping or printing an event twice, whatever the
// server sends: the log is newest first in both dialects (received_at, then id, descending), so a
// page may hold nothing newer than the pages before it, nor an event they held. A server that
// hands out a fresh cursor with the same events on every page, or pages that go back in time, or
// empty pages without end, is stopped with a contract error (exit 6) before the page is written.
import { ContractError } from "../errors.js";
import { messageText } from "../iostreams/terminal-text.js";
import { eventIdKey } from "./event-ids.js";
import { formatTime } from "../iostreams/human.js";

/** How the guard reads an item: its received_at in ms since the epoch, and its id. */
export interface PageOrder<T> {
  timeOf: (item: T) => number;
  idOf: (item: T) => unknown;
}

/** An event of the log as the guard reads it: its envelope's received_at and its exact id. */
export const LOG_ORDER: PageOrder<{ received_at: string; id: unknown }> = {
  timeOf: (e) => Date.parse(e.received_at),
  idOf: eventIdKey,
};

/** Empty pages in a row, each with a next link, before a walk is stopped: a real log's empty page ends it. */
export const MAX_EMPTY_PAGES = 20;

export class PageGuard<T> {
  /** the oldest instant of the pages so far, and the ids seen at it */
  #edge = Number.POSITIVE_INFINITY;
  #edgeIds = new Set<string>();
  /** the ids of the last non-empty page (a page sent again, whatever its times) */
  #lastIds = new Set<string>();
  #emptyRun = 0;
  readonly #order: PageOrder<T> | undefined;

  constructor(order?: PageOrder<T>) {
    this.#order = order;
  }

  /**
   * Checks a page before it is written; `written` and `pages` describe what came before it. Throws
   * a ContractError when the page repeats an event or goes back in time.
   */
  check(events: readonly T[], hasNext: boolean, written: number, pages: number): void {
    const stopped = (n: number) =>
      `mq stopped after ${written} event${written === 1 ? "" : "s"} (${n} page${n === 1 ? "" : "s"}), each written once`;
    if (events.length === 0) {
      if (hasNext && ++this.#emptyRun >= MAX_EMPTY_PAGES)
        throw new ContractError(
          `the server sent ${MAX_EMPTY_PAGES} empty pages in a row, each with a next page: its pagination would not end`,
          `${stopped(pages + 1)}; report this to the API provider`,
        );
      return;
    }
    this.#emptyRun = 0;
    const order = this.#order;
    if (order === undefined) return;
    let oldest = Number.POSITIVE_INFINITY;
    // each event's time and id read once: Date.parse of the service's microsecond times is not cheap
    const times = new Array<number>(events.length);
    const ids = new Array<string>(events.length);
    for (let i = 0; i < events.length; i++) {
      const t = (times[i] = order.timeOf(events[i]!));
      const id = (ids[i] = String(order.idOf(events[i]!)));
      if (this.#lastIds.has(id) || (t === this.#edge && this.#edgeIds.has(id)))
        throw new ContractError(
          `the server's page ${pages + 1} repeats event ${messageText(id)}, already written: its pagination would loop`,
          `${stopped(pages)}; report this to the API provider`,
        );
      if (t > this.#edge)
        throw new ContractError(
          `the server's page ${pages + 1} goes back in time: event ${messageText(id)} at ${formatTime(t)} is newer than the pages before it (down to ${formatTime(this.#edge)}), in a log that is newest first`,
          `${stopped(pages)}; report this to the API provider`,
        );
      if (t < oldest) oldest = t;
    }
    const atEdge = new Set<string>();
    if (oldest === this.#edge) for (const id of this.#edgeIds) atEdge.add(id);
    for (let i = 0; i < events.length; i++) if (times[i] === oldest) atEdge.add(ids[i]!);
    this.#edge = oldest;
    this.#edgeIds = atEdge;
    this.#lastIds = new Set(ids);
  }
}
