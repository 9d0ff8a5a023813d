// When an open stay should merge, from the stays of the same lookback (the figure catalogue's
// eta_p50, eta_p90, eta_sample and eta_basis, which define it): while its checks run, from the
// stays of its queue line (base ref, queue, partition) that merged after a check run of the same
// batch size, counted from that run's start; else (or with too few of those) from those that
// merged after standing at its position, counted from the moment they reached it; with too few of
// those, from the time to merge of the stays of its base ref and queue; with too few of those,
// none. Each conditioned on the time it has already spent (in its run, at its position, in the
// queue). Positions over time come from the entries and ends of every
// stay of the line: a stay's position is 1 + the stays of its line entered before it (ties by pull
// request number) and not yet merged or left, so it only falls, at the end of a stay ahead.
import type { Stay } from "../insights/stays.js";
import { nearestRank } from "../insights/figures.js";

/** Fewer samples than this behind a basis and the next one is tried: a median of three says little. */
export const MIN_ETA_SAMPLE = 5;

/** What an estimate is conditioned on, in the order they are tried. */
export const ETA_BASES = ["batch", "position", "queue", "none"] as const;
export type EtaBasis = (typeof ETA_BASES)[number];

/** A stay of the lookback that is no longer in the queue: what positions over time and the samples need of it. */
export interface EndedStay {
  /** the stay's key (stayKeyOf) */
  key: string;
  /** repository, base ref, queue and partition (queueKey) */
  line: string;
  /** repository, base ref and queue */
  queue: string;
  pullRequest: number;
  enteredAt: number;
  /** when it stopped counting in the queue: merged, else left (ms) */
  endedAt: number;
  mergedAt: number | null;
  /** its newest event (ms): it leaves the lookback when that does */
  at: number;
  /** a merged stay's check runs with a start: [started (ms), pull requests tested together] */
  runs: Array<[number, number]>;
}

export interface Estimate {
  /** instants (ms since the epoch), null with basis none */
  p50: number | null;
  p90: number | null;
  /** the samples behind the basis (with none: those of the queue, fewer than MIN_ETA_SAMPLE) */
  sample: number;
  basis: EtaBasis;
}

type Line = Pick<Stay, "repository" | "base" | "queue" | "partition">;

/** A queue line's identity: stays of one key share one sequence of positions. */
export function queueKey(s: Line): string {
  return [s.repository ?? "", s.base ?? "", s.queue ?? "", s.partition ?? ""].join("\u0000");
}
const queueOf = (s: Line) => [s.repository ?? "", s.base ?? "", s.queue ?? ""].join("\u0000");

/** One stay on its line: when it entered, and ended (Infinity while open). */
interface Placed {
  pullRequest: number;
  enteredAt: number;
  endedAt: number;
  mergedAt: number | null;
  runs: ReadonlyArray<[number, number]>;
}

const byEntry = (a: Pick<Placed, "enteredAt" | "pullRequest">, b: Pick<Placed, "enteredAt" | "pullRequest">) =>
  a.enteredAt - b.enteredAt || a.pullRequest - b.pullRequest;
const ascending = (a: number, b: number) => a - b;

/**
 * Remaining times (ms) of the merged stays of one line, by position: for each merged stay and each
 * position p it stood at, its merge minus the instant it reached p. It entered at 1 + k (k stays
 * ahead still in the queue); it reached p < 1 + k at the (1 + k - p)-th of their ends, and stood at p
 * only when that was no later than its merge.
 */
function remainingByPosition(line: readonly Placed[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const add = (p: number, ms: number) => {
    const list = out.get(p);
    if (list) list.push(ms);
    else out.set(p, [ms]);
  };
  for (let i = 0; i < line.length; i++) {
    const m = line[i]!;
    if (m.mergedAt === null) continue;
    const ends: number[] = [];
    for (let j = 0; j < i; j++) if (line[j]!.endedAt > m.enteredAt) ends.push(line[j]!.endedAt);
    ends.sort(ascending);
    const entry = ends.length + 1;
    for (let p = entry; p >= 1; p--) {
      const reached = p === entry ? m.enteredAt : ends[entry - p - 1]!;
      if (reached > m.mergedAt) break;
      add(p, m.mergedAt - reached);
    }
  }
  for (const list of out.values()) list.sort(ascending);
  return out;
}

/**
 * Remaining times (ms) of the merged stays of one line, by batch size: merge minus the start of
 * each check run of them started in the lookback (from SINCE: one begun before may be seen in
 * part or not at all) and no later than the merge.
 */
function remainingByBatch(line: readonly Placed[], sinceMs: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const m of line) {
    if (m.mergedAt === null) continue;
    for (const [startedAt, size] of m.runs) {
      if (startedAt < sinceMs || startedAt > m.mergedAt) continue;
      const list = out.get(size);
      if (list) list.push(m.mergedAt - startedAt);
      else out.set(size, [m.mergedAt - startedAt]);
    }
  }
  for (const list of out.values()) list.sort(ascending);
  return out;
}

/** The samples of SORTED of at least `waited`, and their nearest-rank 50th and 90th percentiles. */
function survivors(sorted: readonly number[], waited: number): { p50: number | null; p90: number | null; n: number } {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < waited) lo = mid + 1;
    else hi = mid;
  }
  const kept = sorted.slice(lo);
  return { p50: nearestRank(kept, 50), p90: nearestRank(kept, 90), n: kept.length };
}

/**
 * The estimates of the open stays of a lookback (from SINCE), from every stay of it: OPEN (all
 * those of their lines) and ENDED. Lines are worked out the first time a stay of them is estimated.
 */
export class EtaModel {
  private readonly lines = new Map<string, Placed[]>();
  private readonly remaining = new Map<string, Map<number, number[]>>();
  private readonly batches = new Map<string, Map<number, number[]>>();
  /** repository, base ref and queue -> sorted times to merge (ms) */
  private readonly toMerge = new Map<string, number[]>();

  constructor(
    open: readonly Stay[],
    ended: readonly EndedStay[],
    private readonly sinceMs = -Infinity,
  ) {
    const place = (key: string, p: Placed) => {
      const list = this.lines.get(key);
      if (list) list.push(p);
      else this.lines.set(key, [p]);
    };
    for (const s of open)
      place(queueKey(s), { pullRequest: s.pullRequest, enteredAt: s.enteredAt, endedAt: Infinity, mergedAt: null, runs: [] });
    for (const e of ended) {
      place(e.line, e);
      if (e.mergedAt === null) continue;
      const list = this.toMerge.get(e.queue);
      const ms = Math.max(0, e.mergedAt - e.enteredAt);
      if (list) list.push(ms);
      else this.toMerge.set(e.queue, [ms]);
    }
    for (const list of this.lines.values()) list.sort(byEntry);
    for (const list of this.toMerge.values()) list.sort(ascending);
  }

  /** The estimate of open stay S, at POSITION in its line, at UNTIL (ms); RUN: its check run running then. */
  estimate(s: Stay, position: number, untilMs: number, run?: { startedAt: number; size: number }): Estimate {
    const key = queueKey(s);
    const line = this.lines.get(key) ?? [];
    if (run) {
      let bySize = this.batches.get(key);
      if (!bySize) {
        bySize = remainingByBatch(line, this.sinceMs);
        this.batches.set(key, bySize);
      }
      const inRun = survivors(bySize.get(run.size) ?? [], untilMs - run.startedAt);
      if (inRun.n >= MIN_ETA_SAMPLE) {
        return { p50: run.startedAt + inRun.p50!, p90: run.startedAt + inRun.p90!, sample: inRun.n, basis: "batch" };
      }
    }
    let byPosition = this.remaining.get(key);
    if (!byPosition) {
      byPosition = remainingByPosition(line);
      this.remaining.set(key, byPosition);
    }
    // it reached its position at the last end of a stay entered before it (or when it entered)
    let reached = s.enteredAt;
    for (const x of line) {
      if (byEntry(x, s) >= 0) break;
      if (x.endedAt !== Infinity && x.endedAt > reached) reached = x.endedAt;
    }
    const atPosition = survivors(byPosition.get(position) ?? [], untilMs - reached);
    if (atPosition.n >= MIN_ETA_SAMPLE) {
      return { p50: reached + atPosition.p50!, p90: reached + atPosition.p90!, sample: atPosition.n, basis: "position" };
    }
    const inQueue = survivors(this.toMerge.get(queueOf(s)) ?? [], untilMs - s.enteredAt);
    if (inQueue.n >= MIN_ETA_SAMPLE) {
      return { p50: s.enteredAt + inQueue.p50!, p90: s.enteredAt + inQueue.p90!, sample: inQueue.n, basis: "queue" };
    }
    return { p50: null, p90: null, sample: inQueue.n, basis: "none" };
  }
}

/** What the estimates keep of a stay that is no longer in the queue (`at`: its newest event). */
export function endedStay(s: Stay, repository: string, key: string): EndedStay {
  const endedAt = s.mergedAt ?? s.leftAt ?? s.enteredAt;
  const line = { ...s, repository };
  return {
    key,
    line: queueKey(line),
    queue: queueOf(line),
    pullRequest: s.pullRequest,
    enteredAt: s.enteredAt,
    endedAt,
    mergedAt: s.outcome === "merged" ? s.mergedAt : null,
    at: Math.max(endedAt, s.leftAt ?? 0),
    runs: s.outcome === "merged" ? s.runs.filter((r) => r.startedAt !== null).map((r) => [r.startedAt!, r.pullRequests.length]) : [],
  };
}
