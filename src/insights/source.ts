// The archive as an event source for the analyses (`mq prs`, `mq pr`, `mq insights`), and the
// choice between it and the API (archive/choose.ts). What the API walk yields, the archive yields
// too (each event's own JSON, newest first, same filters), so nothing downstream knows which one
// answered.
import type { Context } from "../context.js";
import type { Archive } from "../archive/db.js";
import type { ArchiveRequest } from "../archive/choose.js";
import type { LogEvent } from "./stays.js";
import type { EventSource } from "./walk.js";

export function archiveEventSource(ctx: Context, archive: Archive): EventSource {
  return {
    fromArchive: true,
    async *events(q) {
      const [{ readArchivedEvents }, { InterruptedError }] = await Promise.all([import("../archive/reader.js"), import("../errors.js")]);
      // --strict holds the archive's events to the contract as it holds the API's pages
      const check = ctx.globals.strict ? (await import("../api/schema/events.js")).parseEventsPage : undefined;
      let count = 0;
      let batches = 0;
      for await (const batch of readArchivedEvents(archive, {
        repository: `${q.owner}/${q.name}`,
        since: q.since,
        until: q.until,
        types: q.types,
        pullRequest: q.pullRequest,
        baseRef: q.baseRef,
      })) {
        if (ctx.signal.aborted) throw new InterruptedError();
        const events = batch.map((b) => b.event as unknown as LogEvent);
        check?.({ size: events.length, per_page: events.length, events }, { strict: true });
        batches++;
        count += events.length;
        yield* events;
        q.onPage?.(count, batches);
      }
    },
  };
}

/** The archive when --archive asks for it or it covers every window asked for (archive/choose.ts), else the API. */
export async function openEventSource(ctx: Context, req: ArchiveRequest): Promise<EventSource> {
  const [{ chooseArchive }, { apiEventSource }] = await Promise.all([import("../archive/choose.js"), import("./walk.js")]);
  const archive = await chooseArchive(ctx, req);
  return archive ? archiveEventSource(ctx, archive) : apiEventSource(ctx);
}
