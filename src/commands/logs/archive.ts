// `mq logs` from the local archive: the same window, filters, order and output as the API gives.
import type { Context } from "../../context.js";
import { InterruptedError } from "../../errors.js";
import type { LogEvent } from "../../api/events.js";
import type { Archive } from "../../archive/db.js";
import { readArchivedEvents } from "../../archive/reader.js";
import { archivedEventsCheck } from "../../archive/check.js";
import { attachRawJson } from "../../api/raw-json.js";
import type { LogsOptions } from "./options.js";
import { ContractMismatches, openLogsOutput, prose, stdoutClosed } from "./output.js";
import { headerLine } from "./messages.js";

/**
 * `mq logs` from the local archive (--archive, or a window it covers): the same window, filters,
 * order and output as the API gives. archive/choose.ts has warned about any part of the window
 * the archive lacks.
 */
export async function runLogsFromArchive(
  opts: LogsOptions,
  ctx: Context,
  from: { archive: Archive; repoName: string; since: Date; until: Date },
): Promise<void> {
  const { archive, repoName, since, until } = from;
  const mismatches = new ContractMismatches((line) => void ctx.io.stderr.write(line + "\n"));
  // the archive keeps events as sent, each with the side of the API that sent it: each is checked
  // against that side's shapes, as a page from it is (not the dialect this command is in)
  const check = await archivedEventsCheck({
    strict: ctx.globals.strict,
    onMetadataMismatch: (type, id, message, against) => mismatches.record(type, id, message, against),
  });
  const sink = await openLogsOutput(opts, ctx, mismatches);
  let count = 0;
  let truncated = false;
  try {
    // one event more than --limit says whether more are available, as the API's next link does
    const limit = opts.limit !== undefined ? opts.limit + 1 : undefined;
    for await (const batch of readArchivedEvents(archive, {
      repository: repoName,
      since,
      until,
      types: opts.types,
      pullRequest: opts.filters.pull_request?.[0] as number | undefined,
      baseRef: opts.baseRef,
      limit,
    })) {
      if (ctx.signal.aborted) throw new InterruptedError();
      // each event's text as the server sent it, as the API's pages carry theirs: json, ndjson
      // and csv write those bytes (integers past 2^53, 1.0, escapes), not a re-serialisation
      let kept = batch;
      if (opts.limit !== undefined && count + kept.length > opts.limit) {
        kept = kept.slice(0, opts.limit - count);
        truncated = true;
      }
      const events = kept.map((b) => {
        attachRawJson(b.event, b.raw, { start: 0, end: b.raw.length, spaced: true });
        return b.event as LogEvent;
      });
      await check(kept);
      count += events.length;
      await sink.write(events);
      mismatches.written();
      if (truncated) break;
    }
  } catch (err) {
    await sink.end().catch(() => undefined);
    if (ctx.signal.aborted && stdoutClosed(ctx)) return;
    throw ctx.signal.aborted ? new InterruptedError() : err;
  }
  const header = `${headerLine(opts, repoName, count, truncated)} (from the archive)`;
  if (opts.format === "table") {
    ctx.io.stderr.write((await prose(ctx, header)) + "\n");
    await sink.end();
  } else {
    await sink.end();
    if (ctx.io.isStderrTerminal()) ctx.io.stderr.write((await prose(ctx, header)) + "\n");
  }
}
