// The archive as an event source for the analyses (`mq prs`, `mq pr`, `mq insights`), and the
// choice between it and the API (choose.ts). What the API walk yields, the archive yields
// too (each event's own JSON, newest first, same filters), so nothing downstream knows which one
// answered.
import type { Context } from "../context.js";
import type { Archive } from "./db.js";
import { chooseArchive, type ArchiveRequest } from "./choose.js";
import type { LogEvent } from "../api/events.js";
import { apiEventSource, type EventSource, type WalkOptions } from "../insights/walk.js";
import { readArchivedEvents, readQueueFacts, windowCoverage, type ArchivedEventsQuery } from "./reader.js";
import { archivedEventsCheck } from "./check.js";
import { InterruptedError } from "../errors.js";

export function archiveEventSource(ctx: Context, archive: Archive): EventSource {
  const source: EventSource = {
    fromArchive: true,
    missing: async (repository, since, until) => ({
      parts: (await windowCoverage(archive, repository, since, until)).missing,
      where: "outside what the archive covers",
    }),
    async *events(q) {
      // --strict holds each archived event to the shapes of the side of the API that sent it, as
      // it holds the API's pages to the dialect in effect
      const check = ctx.globals.strict ? await archivedEventsCheck({ strict: true }) : undefined;
      let count = 0;
      let batches = 0;
      for await (const batch of readArchivedEvents(archive, archiveQuery(q))) {
        if (ctx.signal.aborted) throw new InterruptedError();
        const events = batch.map((b) => b.event as unknown as LogEvent);
        await check?.(batch);
        batches++;
        count += events.length;
        yield* events;
        q.onPage?.(count, batches);
      }
    },
  };
  // the stays read queue_facts, not the whole events; --strict checks whole events
  if (!ctx.globals.strict) {
    source.stayEvents = async function* (q) {
      let count = 0;
      let batches = 0;
      for await (const batch of readQueueFacts(archive, { ...archiveQuery(q), types: q.types })) {
        if (ctx.signal.aborted) throw new InterruptedError();
        yield batch;
        batches++;
        count += batch.length;
        q.onPage?.(count, batches);
      }
    };
  }
  return source;
}

function archiveQuery(q: WalkOptions): ArchivedEventsQuery {
  return {
    repository: `${q.owner}/${q.name}`,
    since: q.since,
    until: q.until,
    types: q.types,
    pullRequest: q.pullRequest,
    baseRef: q.baseRef,
  };
}

/** The archive when --archive asks for it or it covers every window asked for (choose.ts), else the API. */
export async function openEventSource(ctx: Context, req: ArchiveRequest): Promise<EventSource> {
  const archive = await chooseArchive(ctx, req);
  return archive ? archiveEventSource(ctx, archive) : apiEventSource(ctx);
}
