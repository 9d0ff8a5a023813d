// `mq logs --follow`: the backlog oldest first, then a poll every --interval seconds.
import { setTimeout as sleep } from "node:timers/promises";
import { InterruptedError } from "../../errors.js";
import type { QueryInput } from "../../api/client.js";
import type { LogEvent } from "../../api/events.js";
import { LOG_ORDER } from "../../api/pagination-guard.js";
import { compareEventTimes, eventIdKey } from "../../api/event-ids.js";
import { formatInstant } from "../../cmdutil/time.js";
import { MAX_PER_PAGE } from "./options.js";
import { prose, stdoutClosed } from "./output.js";
import type { LogsRun } from "./pages.js";
import { followBanner } from "./messages.js";

/**
 * Prints the newest events (the backlog) oldest first, then polls every --interval seconds for
 * events received since the newest one seen, de-duplicated by id, until ctx.signal aborts.
 */
export async function follow(run: LogsRun): Promise<void> {
  const { opts, ctx } = run;
  // The next poll asks from the watermark: the newest instant seen, but never past now. An event
  // stamped in the future (a server's clock, or a hostile server) would otherwise move it there,
  // and every later poll would ask for events received after that instant: --follow gone blind.
  let watermarkMs = -Infinity;
  // ids printed at or after the watermark (exact: beyond 2^53 too): a poll from that instant returns them again
  const printed = new Map<string, number>();

  const emit = async (events: LogEvent[]) => {
    events.sort(compareEventTimes);
    const fresh: LogEvent[] = [];
    let newestMs = watermarkMs;
    for (const ev of events) {
      const ms = Date.parse(ev.received_at);
      const id = eventIdKey(ev);
      if (ms < watermarkMs || printed.has(id)) continue;
      printed.set(id, ms);
      if (Number.isFinite(ms)) newestMs = Math.max(newestMs, ms);
      fresh.push(ev);
    }
    const next = Math.min(newestMs, ctx.now().getTime());
    if (next > watermarkMs) {
      watermarkMs = next;
      for (const [id, ms] of printed) if (ms < watermarkMs) printed.delete(id);
    }
    await run.sink.write(fresh);
    run.mismatches.written();
  };

  // every page of a poll, so the batch is printed in time order
  const fetchAll = async (query: QueryInput, limit?: number): Promise<LogEvent[]> => {
    const out: LogEvent[] = [];
    for await (const page of run.paginate(run.client, run.path, query, { limit, signal: ctx.signal, parse: run.parse, order: LOG_ORDER }))
      for (const e of page.events) out.push(e);
    return out;
  };

  try {
    run.spinner.stop();
    // like the header line: for a person at a terminal; a script's stderr stays for errors
    if (ctx.io.isStderrTerminal()) ctx.io.stderr.write((await prose(ctx, followBanner(opts, run.repoName))) + "\n");
    await emit(await fetchAll(run.query, opts.limit));
    for (;;) {
      run.waiting.show(watermarkMs);
      await sleep(opts.interval * 1000, undefined, { signal: ctx.signal });
      // The API has no "after id": ask from the newest instant seen and drop what was printed.
      // Before any event, the first query is repeated (the server's clock decides "now", not ours).
      const query: QueryInput =
        watermarkMs === -Infinity
          ? run.query
          : { ...run.query, received_from: formatInstant(new Date(watermarkMs)), per_page: opts.perPage ?? MAX_PER_PAGE };
      await emit(await fetchAll(query));
    }
  } catch (err) {
    run.waiting.clear();
    if (ctx.signal.aborted) {
      if (stdoutClosed(ctx)) return;
      await run.sink.end();
      throw new InterruptedError();
    }
    throw err;
  }
}
