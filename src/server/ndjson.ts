// Record and replay: reads a file written by `mq logs --all -o ndjson` (one event per line) so the
// server can serve exactly those events and compute the statistics from them.
import { createReadStream, fstatSync } from "node:fs";
import type { Readable } from "node:stream";
import { eventIdKey, ID_RANGE_TEXT, keepExactId } from "../api/event-ids.js";
import { validateEvent } from "../api/schema/events.js";
import { checkRepo } from "../validators.js";
import type { StoredEvent } from "./store.js";

export class EventsFileError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(message);
    this.name = "EventsFileError";
  }
}

export interface LoadedEvents {
  byRepo: Map<string, StoredEvent[]>;
  count: number;
  /** epoch ms of the newest event */
  newest: number | undefined;
}

/**
 * What is wrong with a line's envelope, by the client's own contract check (docs/api.md §2.2), plus what
 * the server relies on: a non-empty `type` and a `repository` that is an owner/name of docs/api.md §2.1.
 * Metadata that differs from its type's shape is kept: a log recorded from the real service
 * carries such events, and replaying it must keep its words.
 */
function envelopeProblem(v: unknown): string | undefined {
  const verdict = validateEvent(v);
  if (!verdict.ok && verdict.level === "envelope") return verdict.message;
  const e = v as { type: string; repository: string };
  if (e.type === "") return 'type: expected an event type, got ""';
  if (!checkRepo(e.repository).ok) {
    return `repository: expected "owner/name" (owner: letters, digits and -, up to 40; name: letters, digits, _, - and ., up to 100), got ${JSON.stringify(e.repository)}`;
  }
  return undefined;
}

/**
 * The deepest an event may nest (objects and arrays). JSON.parse takes any depth, but writing the
 * event back out (every page that holds it) overflows the stack at a few thousand levels; a real
 * event nests about five.
 */
export const MAX_EVENT_DEPTH = 64;

/** how deep a parsed value nests, without recursion (so any depth is measured safely) */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_EVENT_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * What one replayed event is taken to weigh in memory, from its line's length: the parsed object
 * (about twice its text) and its JSON once served.
 */
const bytesOfLine = (length: number) => 3 * length + 200;

/**
 * The longest line --events reads, in bytes. A real event is about a kilobyte (the API's whole page
 * of 100 is well under one MB); a longer line is no event, and reading on would hold all of it
 * (one line of 80 MB ran the process out of memory; /dev/zero is one endless line).
 */
export const MAX_EVENT_LINE_BYTES = 4 * 1048576;

/** what lines() yields for a line longer than MAX_EVENT_LINE_BYTES, without reading more of it */
const TOO_LONG = Symbol("too long");

/**
 * The stream's lines (bytes split at each newline, then decoded: a newline byte is never part of
 * a multi-byte character), holding at most `max` bytes of a line and one chunk. A last line
 * without a newline counts.
 */
async function* lines(stream: Readable, max: number): AsyncGenerator<string | typeof TOO_LONG> {
  let pieces: Buffer[] = [];
  let pending = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      if (pending + nl - start > max) return yield TOO_LONG;
      pieces.push(chunk.subarray(start, nl));
      yield Buffer.concat(pieces).toString("utf8");
      pieces = [];
      pending = 0;
      start = nl + 1;
    }
    pending += chunk.length - start;
    if (pending > max) return yield TOO_LONG;
    if (start < chunk.length) pieces.push(chunk.subarray(start));
  }
  if (pending > 0) yield Buffer.concat(pieces).toString("utf8");
}

export async function loadEventsFile(path: string, options: { budgetBytes?: number } = {}): Promise<LoadedEvents> {
  let bytes = 0;
  const byRepo = new Map<string, StoredEvent[]>();
  let newest: number | undefined;
  let count = 0;
  let lineNo = 0;
  const stream = createReadStream(path);
  const cannotRead = (err: NodeJS.ErrnoException) => new EventsFileError(`cannot read ${path}: ${err.code ?? err.message}`, undefined);
  await new Promise<void>((resolve, reject) => {
    stream.once("open", (fd: number) => {
      // a folder opens, and fails only at the first read (EISDIR)
      if (!fstatSync(fd).isDirectory()) return resolve();
      stream.destroy();
      reject(new EventsFileError(`${path} is a folder; give the ndjson file written by mq logs --all -o ndjson.`, undefined));
    });
    stream.once("error", (err: NodeJS.ErrnoException) => reject(cannotRead(err)));
  });
  // ids as numbers when safe, else their exact digits: 9007199254740993 and 9007199254740992 are
  // two events though JSON.parse reads both as one number
  const seen = new Set<number | string>();
  try {
    for await (const raw of lines(stream, MAX_EVENT_LINE_BYTES)) {
      lineNo++;
      if (raw === TOO_LONG) {
        throw new EventsFileError(
          `${path}:${lineNo}: not an event: the line is longer than ${MAX_EVENT_LINE_BYTES / 1048576} MiB (no event of the API comes near; is this an ndjson file of events?)`,
          lineNo,
        );
      }
      const line = raw.trim();
      if (line === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw new EventsFileError(`${path}:${lineNo}: not valid JSON (${err instanceof Error ? err.message : String(err)})`, lineNo);
      }
      const problem = envelopeProblem(value);
      if (problem) throw new EventsFileError(`${path}:${lineNo}: not an event: ${problem}`, lineNo);
      // checked after the envelope: an event is an object, its depth counts from 1
      if (nestingDepth(value) > MAX_EVENT_DEPTH) {
        throw new EventsFileError(`${path}:${lineNo}: not an event: nested more than ${MAX_EVENT_DEPTH} levels deep`, lineNo);
      }
      bytes += bytesOfLine(line.length);
      if (options.budgetBytes !== undefined && bytes > options.budgetBytes) {
        throw new EventsFileError(
          `${path}:${lineNo}: the log does not fit in the memory budget (${Math.round(options.budgetBytes / 1048576)} MB; raise it with --memory-budget, or replay a shorter log)`,
          lineNo,
        );
      }
      const e = value as StoredEvent;
      const outside = keepExactId(e, line);
      if (outside !== undefined) {
        throw new EventsFileError(`${path}:${lineNo}: not an event: id ${outside} is outside the API's range (${ID_RANGE_TEXT})`, lineNo);
      }
      const key = Number.isSafeInteger(e.id) ? e.id : eventIdKey(e);
      if (seen.has(key)) throw new EventsFileError(`${path}:${lineNo}: duplicate event id ${key}`, lineNo);
      seen.add(key);
      let list = byRepo.get(e.repository);
      if (!list) byRepo.set(e.repository, (list = []));
      list.push(e);
      count++;
      const t = Date.parse(e.received_at);
      if (newest === undefined || t > newest) newest = t;
    }
  } catch (err) {
    if (err instanceof EventsFileError) throw err;
    throw cannotRead(err as NodeJS.ErrnoException);
  } finally {
    stream.destroy();
  }
  return { byRepo, count, newest };
}
