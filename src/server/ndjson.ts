// Record and replay: reads a file written by `mq logs --all -o ndjson` (one event per line) so the
// server can serve exactly those events and compute the statistics from them.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
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

function envelopeProblem(v: unknown): string | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
  const e = v as Record<string, unknown>;
  if (!Number.isSafeInteger(e.id)) return "`id` is not an integer";
  if (typeof e.received_at !== "string" || !Number.isFinite(Date.parse(e.received_at))) return "`received_at` is not a date-time";
  if (typeof e.type !== "string" || e.type === "") return "`type` is not a string";
  if (typeof e.repository !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(e.repository)) return "`repository` is not \"owner/name\"";
  if (e.metadata === null || typeof e.metadata !== "object" || Array.isArray(e.metadata)) return "`metadata` is not an object";
  if (!("pull_request" in e) || (e.pull_request !== null && !Number.isSafeInteger(e.pull_request))) return "`pull_request` is not an integer or null";
  if (!("base_ref" in e) || (e.base_ref !== null && typeof e.base_ref !== "string")) return "`base_ref` is not a string or null";
  if (typeof e.trigger !== "string") return "`trigger` is not a string";
  return undefined;
}

export async function loadEventsFile(path: string): Promise<LoadedEvents> {
  const byRepo = new Map<string, StoredEvent[]>();
  let newest: number | undefined;
  let count = 0;
  let lineNo = 0;
  const stream = createReadStream(path, { encoding: "utf8" });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", (err: NodeJS.ErrnoException) => reject(new EventsFileError(`cannot read ${path}: ${err.code ?? err.message}`, undefined)));
  });
  await opened;
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const seen = new Set<number>();
  for await (const raw of lines) {
    lineNo++;
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
    const e = value as StoredEvent;
    if (seen.has(e.id)) throw new EventsFileError(`${path}:${lineNo}: duplicate event id ${e.id}`, lineNo);
    seen.add(e.id);
    let list = byRepo.get(e.repository);
    if (!list) byRepo.set(e.repository, (list = []));
    list.push(e);
    count++;
    const t = Date.parse(e.received_at);
    if (newest === undefined || t > newest) newest = t;
  }
  return { byRepo, count, newest };
}
