// `mq logs` from the local archive: the same window, filters, order and output as the API gives.
import type { Context } from "../../context.js";
import { InterruptedError, MqError, OutputError } from "../../errors.js";
import type { LogEvent } from "../../api/events.js";
import type { Archive } from "../../archive/db.js";
import { readArchivedEvents } from "../../archive/reader.js";
import { archivedEventsCheck } from "../../archive/check.js";
import { attachRawJson } from "../../api/raw-json.js";
import type { LogsOptions } from "./options.js";
import { ContractMismatches, openLogsOutput, prose, ShownPoint, stdoutClosed } from "./output.js";
import { headerLine, resumeCommand } from "./messages.js";
import { rewindOutput } from "./pages.js";
import { formatCount } from "../../output/format.js";

/** the most events held back while looking for a place a resume command can start from */
const HELD_MAX = 10_000;

/** Where whole events ended in the output, and the --until that reads the rest of the window. */
interface Checkpoint {
  count: number;
  /** what the output had accepted (0 for a table, which counts no bytes) */
  bytes: number;
  /** the resume command's --until: every event written is newer, every one not yet written is not */
  until: Date | undefined;
}

/**
 * Where `events` (newest first) can be cut so that a window ending 1 ms before the older side's
 * instant holds everything after the cut and nothing before it: the index after the last event
 * whose next one is at least 2 ms older (received_at may carry microseconds, --until milliseconds).
 */
function lastCleanCut(events: readonly LogEvent[]): number {
  for (let i = events.length - 1; i > 0; i--)
    if (Date.parse(events[i]!.received_at) <= Date.parse(events[i - 1]!.received_at) - 2) return i;
  return 0;
}

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
  // what a failed write resumes from: the ends of whole batches, each cut where the rest of the
  // window is an --until away (events at one instant are written together)
  const first: Checkpoint = { count: 0, bytes: 0, until: opts.until };
  let lastWhole = first;
  // a table on a terminal shows nothing of its first rows until it has sized its columns
  const shown = new ShownPoint(sink, first);
  // where whole batches ended in a file or a stream, for rewindOutput after a failed write
  const checkpoints: Checkpoint[] = [];
  let fileStart: number | undefined;
  if (sink.bytes !== undefined) {
    try {
      fileStart = ctx.io.stdoutFile?.size();
    } catch {
      // no size, no rewind: the message says what a cut line would be
    }
  }
  let held: LogEvent[] = [];
  const write = async (events: LogEvent[], last: boolean) => {
    held = held.length === 0 ? events : [...held, ...events];
    // a run of events at one instant longer than HELD_MAX is written without a resume point of its
    // own (a failure in it resumes from the one before, a file cut back to it)
    const forced = !last && held.length > HELD_MAX;
    const cut = last || forced ? held.length : lastCleanCut(held);
    if (cut === 0) return;
    const out = held.slice(0, cut);
    held = held.slice(cut);
    await sink.write(out);
    count += out.length;
    mismatches.written();
    if (forced) return;
    const oldest = Date.parse(out[out.length - 1]!.received_at);
    lastWhole = { count, bytes: sink.bytes ?? 0, until: new Date(oldest - 1) };
    shown.note(lastWhole);
    if (sink.bytes === undefined) return;
    checkpoints.push(lastWhole);
    if (checkpoints.length > 16) checkpoints.shift();
  };
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
      if (opts.limit !== undefined && count + held.length + kept.length > opts.limit) {
        kept = kept.slice(0, opts.limit - count - held.length);
        truncated = true;
      }
      const events = kept.map((b) => {
        attachRawJson(b.event, b.raw, { start: 0, end: b.raw.length, spaced: true });
        return b.event as LogEvent;
      });
      await check(kept);
      await write(events, false);
      if (truncated) break;
    }
    await write([], true);
  } catch (err) {
    // the output failed (a full disk): count only what it holds whole, before json's `]` is tried
    const { whole, note } =
      err instanceof OutputError || ctx.signal.reason instanceof OutputError
        ? rewindOutput(ctx, sink, fileStart, first, checkpoints)
        : { whole: undefined, note: "" };
    await sink.end().catch(() => undefined);
    if (ctx.signal.aborted && stdoutClosed(ctx)) return;
    const error = ctx.signal.aborted ? new InterruptedError() : err;
    // rows the table held to size its columns and could not show (Ctrl-C on a terminal) are not
    // counted, and the resume reads them
    const at = shown.resumePoint(whole ?? lastWhole);
    if (error instanceof MqError && at.count > 0) {
      const remaining = opts.limit !== undefined ? opts.limit - at.count : undefined;
      const resume = resumeCommand({ ...opts, since, until: at.until }, repoName, undefined, remaining, ctx.globals, undefined, true);
      error.addHint(
        `${formatCount(at.count)} ${at.count === 1 ? "event was" : "events were"} written before this.${note ? ` ${note}` : ""} To resume:\n  ${resume}`,
      );
    }
    throw error;
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
