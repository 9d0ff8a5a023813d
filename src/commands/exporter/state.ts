// --state-dir: the counters, each repository's position and the events of its open queue stays, in
// one JSON file written whole after every round of polls (a new file renamed over the old, so a
// crash leaves one or the other, never half). On start the exporter resumes from it: counters continue from their saved values, and each
// repository is read again from its position, so no event is counted twice or missed, and its queue
// is rebuilt from the open stays' events kept and what follows them.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import type { QueueMemory } from "../../queue/reconstruct.js";
import { emptyMetrics, type MetricsState } from "./metrics.js";

export const STATE_FILE = "exporter-state.json";
// 2: the open stays' events (`queue`) came in with mq_queue_size from mq queue's reconstruction
const FORMAT = 2;

/** Where a repository's log has been read to. */
export interface Position {
  /** received_at (ms) of the newest event counted */
  watermark: number;
  /** ids of the events counted at that instant: the next poll, asking from it, gets them again */
  seen: Array<string | number>;
}

export interface ExporterState {
  positions: Record<string, Position>;
  metrics: MetricsState;
  /** by repository: what following its queue keeps (src/queue/follow.ts), as of its last round */
  queue: Record<string, QueueMemory>;
}

export function loadState(dir: string | undefined, repositories: readonly string[]): ExporterState {
  const fresh: ExporterState = { positions: {}, metrics: emptyMetrics(), queue: {} };
  if (dir === undefined) return fresh;
  const path = join(dir, STATE_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return fresh;
    throw new UsageError(`--state-dir: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
  }
  let parsed: { format?: unknown; positions?: unknown; metrics?: MetricsState; queue?: Record<string, QueueMemory> };
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = {};
  }
  if (
    parsed.format !== FORMAT ||
    typeof parsed.positions !== "object" ||
    typeof parsed.metrics?.counters !== "object" ||
    typeof parsed.queue !== "object"
  ) {
    throw new UsageError(`--state-dir: ${path} is not a state file of this mq exporter: remove it to start counting afresh.`);
  }
  // a repository no longer followed is forgotten: its counters would otherwise stay frozen on /metrics
  const keep = new Set(repositories);
  const m = parsed.metrics;
  const ofKept = <T extends { labels: Record<string, string> }>(family: Record<string, T>) =>
    Object.fromEntries(Object.entries(family).filter(([, x]) => keep.has(x.labels.repository ?? "")));
  return {
    positions: Object.fromEntries(Object.entries(parsed.positions as Record<string, Position>).filter(([r]) => keep.has(r))),
    metrics: {
      counters: Object.fromEntries(Object.entries(m.counters).map(([name, f]) => [name, ofKept(f)])),
      histograms: Object.fromEntries(Object.entries(m.histograms ?? {}).map(([name, f]) => [name, ofKept(f)])),
      lastEvent: Object.fromEntries(Object.entries(m.lastEvent ?? {}).filter(([r]) => keep.has(r))),
      evictions: Object.fromEntries(Object.entries(m.evictions ?? {}).filter(([k]) => keep.has(k.split("\u0000")[0]!))),
      queueSize: ofKept(m.queueSize ?? {}),
    },
    queue: Object.fromEntries(Object.entries(parsed.queue ?? {}).filter(([r]) => keep.has(r))),
  };
}

export function saveState(dir: string, state: ExporterState): void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, STATE_FILE);
  const next = `${path}.${process.pid}.tmp`;
  writeFileSync(next, JSON.stringify({ format: FORMAT, positions: state.positions, metrics: state.metrics, queue: state.queue }));
  renameSync(next, path);
}
