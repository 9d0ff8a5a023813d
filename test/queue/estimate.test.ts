// The merge estimate of an open stay (src/queue/estimate.ts, the catalogue's eta_p50, eta_p90,
// eta_sample, eta_basis) on hand-made histories whose answers are worked out here by hand: the
// batch basis of a stay whose checks run, the position basis and where it counts from, the edges
// where each gives way to the next (queue, then none), and the stays that give no sample.
import { describe, expect, it } from "vitest";
import type { CheckRun, Stay } from "../../src/insights/stays.js";
import { endedStay, type EndedStay } from "../../src/queue/estimate.js";
import { positionsOf } from "../../src/queue/reconstruct.js";

const M = 60_000;
const T = Date.parse("2026-11-20T00:00:00Z");
/** the instant of the queue */
const U = T + 1000 * M;

/** a check run of SIZE pull requests started at STARTED, ended at ENDED (running when null) */
function run(started: number, size: number, ended: number | null = null): CheckRun {
  return {
    id: `run@${started}`,
    startedAt: started,
    endedAt: ended,
    pullRequests: Array.from({ length: size }, (_, i) => 9000 + i),
    startReason: null,
    conclusion: ended === null ? null : "success",
    abortCode: null,
    abortStatus: null,
    retryAttempt: null,
    failedChecks: [],
  };
}

function stay(pr: number, enteredAt: number, partition = "api", end?: { at: number; merged: boolean }, runs: CheckRun[] = []): Stay {
  return {
    repository: "acme/web",
    pullRequest: pr,
    base: "main",
    queue: "default",
    partition,
    priorityRule: null,
    sessionId: null,
    enteredAt,
    enterEventAt: enteredAt,
    mergedAt: end?.merged ? end.at : null,
    leftAt: end ? end.at : null,
    outcome: end ? (end.merged ? "merged" : "dequeued") : "open",
    reason: end ? (end.merged ? "SUCCESS" : "PR_DEQUEUED") : null,
    reasonText: null,
    scheduleWait: 0,
    freezeWait: 0,
    runs,
    bisections: 0,
    steps: [],
    lastEventId: 0,
  };
}
const ended = (pr: number, enteredAt: number, at: number, merged = true, partition = "api"): EndedStay =>
  endedStay(stay(pr, enteredAt, partition, { at, merged }), "acme/web", `${pr}\u0000${enteredAt}`);

/**
 * Five pairs, 100 minutes apart: a leader enters alone and merges 10 minutes later; a follower
 * enters a minute after it (position 2), reaches position 1 when the leader merges and merges d =
 * 1…5 minutes later. At position 1: the leaders' 10 min ×5 and the followers' 1…5 min. At position
 * 2: the followers' 9 + d = 10…14 min. Times to merge in the queue: 10 ×6, 11, 12, 13, 14 min.
 */
const HISTORY: EndedStay[] = [0, 1, 2, 3, 4].flatMap((i) => [
  ended(200 + i, T + i * 100 * M, T + i * 100 * M + 10 * M),
  ended(300 + i, T + i * 100 * M + M, T + i * 100 * M + (10 + i + 1) * M),
]);

const eta = (open: Stay[], history: readonly EndedStay[] = HISTORY) =>
  positionsOf(open, history, U).map((e) => ({
    pr: e.stay.pullRequest,
    position: e.position,
    p50: e.etaP50 === null ? null : (e.etaP50 - U) / M,
    p90: e.etaP90 === null ? null : (e.etaP90 - U) / M,
    sample: e.etaSample,
    basis: e.etaBasis,
  }));

describe("the merge estimate", () => {
  it("by position: the stays that stood there, from when they reached it, those that waited there as long", () => {
    // #400 at 1 for 3 min: kept 3, 4, 5, 10 ×5 (8): median (rank 4) 10, p90 (rank 8) 10 → now + 7, + 7
    // #401 at 2 for 2 min: kept 10…14 (5): median (rank 3) 12, p90 (rank 5) 14 → now + 10, + 12
    expect(eta([stay(400, U - 3 * M), stay(401, U - 2 * M)])).toEqual([
      { pr: 400, position: 1, p50: 7, p90: 7, sample: 8, basis: "position" },
      { pr: 401, position: 2, p50: 10, p90: 12, sample: 5, basis: "position" },
    ]);
  });

  it("counts the time at the position from the last end of a stay ahead, not from the entry", () => {
    // #500 entered 8 min ago behind #499, dequeued 2 min ago: at 1 for 2 min, kept 2…5, 10 ×5 (9):
    // median (rank 5) 10, p90 (rank 9) 10 → now − 2 + 10 = now + 8 (from the entry it would be now + 2)
    const history = [...HISTORY, ended(499, U - 9 * M, U - 2 * M, false)];
    expect(eta([stay(500, U - 8 * M)], history)).toEqual([{ pr: 500, position: 1, p50: 8, p90: 8, sample: 9, basis: "position" }]);
  });

  it("5 samples at the position is enough, 4 is not: then the queue's times to merge, then none", () => {
    // at 2 for exactly 10 min: the followers' 10…14 all kept (a sample equal to the wait counts)
    expect(eta([stay(400, U - 20 * M), stay(401, U - 10 * M)])[1]).toEqual({
      pr: 401,
      position: 2,
      p50: 2,
      p90: 4,
      sample: 5,
      basis: "position",
    });
    // 1 ms longer: 11…14 at the position (4); in the queue 11…14 of at least its time in queue (4): none
    expect(eta([stay(400, U - 20 * M), stay(401, U - 10 * M - 1)])[1]).toEqual({
      pr: 401,
      position: 2,
      p50: null,
      p90: null,
      sample: 4,
      basis: "none",
    });
  });

  it("a line with no history at the position takes its queue's times to merge, across partitions", () => {
    // partition web has no merged stay; queue default of main: 10 ×6, 11…14 (10) of at least 1 min:
    // median (rank 5) 10, p90 (rank 9) 13 → entered + 10, + 13
    expect(eta([stay(700, U - M, "web")])).toEqual([{ pr: 700, position: 1, p50: 9, p90: 12, sample: 10, basis: "queue" }]);
    // and with no history at all, none
    expect(eta([stay(700, U - M, "web")], [])).toEqual([{ pr: 700, position: 1, p50: null, p90: null, sample: 0, basis: "none" }]);
  });

  it("a stay that merged before reaching a position gives no sample there; one that left unmerged gives none at all", () => {
    // #601 entered behind #600 and merged 9 min later while #600 was still queued: a sample at
    // position 2 only. #602 entered alone and was dequeued: no sample.
    const history = [
      ...[0, 1, 2, 3].map((i) => ended(800 + i, T + i * 10 * M, T + i * 10 * M + 5 * M)),
      ended(600, T + 500 * M, T + 600 * M, false),
      ended(601, T + 501 * M, T + 510 * M),
      ended(602, T + 700 * M, T + 720 * M, false),
    ];
    // position 1: the four 5-min stays only (4): the queue instead, 5 ×4 and 9 (5) → median 5, p90 9
    expect(eta([stay(900, U)], history)).toEqual([{ pr: 900, position: 1, p50: 5, p90: 9, sample: 5, basis: "queue" }]);
    // one more stay at position 1 and the position basis holds (5): 5 ×5
    const more = [...history, ended(804, T + 40 * M, T + 45 * M)];
    expect(eta([stay(900, U)], more)).toEqual([{ pr: 900, position: 1, p50: 5, p90: 5, sample: 5, basis: "position" }]);
  });

  it("a stay that reached a position at the instant it merged stood there: a sample of 0", () => {
    // five batches of two merged at one instant: each second one entered at 2 and reached 1 as it merged
    const history = [0, 1, 2, 3, 4].flatMap((i) => [
      ended(1000 + i, T + i * 10 * M, T + i * 10 * M + 4 * M),
      ended(1100 + i, T + i * 10 * M + M, T + i * 10 * M + 4 * M),
    ]);
    // position 1: 4 ×5 (the first ones) and 0 ×5 (the second ones) → median (rank 5) 0, p90 (rank 9) 4
    expect(eta([stay(900, U)], history)).toEqual([{ pr: 900, position: 1, p50: 0, p90: 4, sample: 10, basis: "position" }]);
  });

  it("while its checks run: the merged stays' runs of the same batch size, from their start; with fewer than 5, the position", () => {
    // five stays merged 3…7 min after the start of a run of 2 (a run started after its merge, and
    // runs of 1, give none to a run of 2), each 30 min after entering alone; and five 10-minute stays
    const history = [0, 1, 2, 3, 4].map((i) => {
      const start = T + i * 100 * M;
      const merged = start + (3 + i) * M;
      const runs = [run(start - 20 * M, 1, start - 10 * M), run(start, 2, merged), run(merged + M, 2, merged + 2 * M)];
      return endedStay(stay(1200 + i, start - 30 * M, "api", { at: merged, merged: true }, runs), "acme/web", `${1200 + i}`);
    });
    const history1 = [...history, ...[0, 1, 2, 3, 4].map((i) => ended(1300 + i, T + 600 * M + i * 20 * M, T + 610 * M + i * 20 * M))];
    // in a run of 2 for 3 min: 3…7 kept (5): median (rank 3) 5, p90 (rank 5) 7 → start + 5, + 7
    const open = (since: number, size = 2) => [stay(950, U - 10 * M, "api", undefined, [run(U - since * M, size)])];
    expect(eta(open(3), history1)).toEqual([{ pr: 950, position: 1, p50: 2, p90: 4, sample: 5, basis: "batch" }]);
    // for 4 min: 4…7 (4): the position instead, from the entry 10 min ago: the 10 ×5 and the run
    // stays' 33…37 (10): median (rank 5) 10, p90 (rank 9) 36 → now + 0, now + 26
    expect(eta(open(4), history1)).toEqual([{ pr: 950, position: 1, p50: 0, p90: 26, sample: 10, basis: "position" }]);
    // a run of 3: no run of 3 merged anything
    expect(eta(open(3, 3), history1)[0]!.basis).toBe("position");
  });
});
