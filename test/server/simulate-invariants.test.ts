// A simulated history is one that could happen (issue 28): the invariants of
// simulate-invariants.ts hold over many seeds and repositories, in both dialects, and the
// statistics endpoints count what the events say (simulate-invariants.e2e.test.ts: a year, and the
// statistics endpoints against the events).
import { describe, expect, it } from "vitest";
import { simulateDay } from "../../src/server/simulate/index.js";
import { NOW } from "./helpers.js";
import { checkDays, HistoryChecker, type Ev } from "./simulate-invariants.js";

const DAY = 86_400_000;
const FIRST = Math.floor(NOW.getTime() / DAY) - 9;

describe("the simulated history could happen", () => {
  const CASES: Array<[seed: number, repo: string]> = [
    [0, "acme/web"],
    [1, "acme/api"],
    [7, "acme/web"],
    [42, "bench/year0"],
    [1234, "octo/cat"],
    [99, "acme/web"],
  ];
  it.each(CASES)("seed %i, %s: four days, the contract's events", (seed, repo) => {
    const c = checkDays(repo, seed, FIRST, 4, false);
    expect(c.problems).toEqual([]);
    // and they are not vacuous: the days had merges, sessions, bisections
    expect(c.counts.merges).toBeGreaterThan(400);
    expect(c.counts.bisections).toBeGreaterThan(3);
  });

  it.each(CASES.slice(0, 2))("seed %i, %s: three days, the real service's events", (seed, repo) => {
    expect(checkDays(repo, seed, FIRST, 3, true).problems).toEqual([]);
  });

  it("finds what cannot happen: a pull request merged twice, into two branches, a check URL of two runs", () => {
    const events = simulateDay({ repo: "acme/web", seed: 0, day: FIRST }) as unknown as Ev[];
    const merged = events.find((e) => e.type === "action.queue.merged")!;
    const c = new HistoryChecker();
    c.day(events);
    // the same pull request merged again a week later, into another branch (what the numbering of before did)
    c.day([{ ...merged, id: merged.id + 7 * DAY * 1024, base_ref: "release/v2" }]);
    expect(c.problems.join("\n")).toMatch(/base release\/v2, was main[\s\S]*merged a second time|merged a second time/);
    const ends = events.filter(
      (e) => e.type === "action.queue.checks_end" && (e.metadata.speculative_check_pull_request as Ev["metadata"]).unsuccessful_checks,
    );
    const failed = ends.filter(
      (e) => (e.metadata.speculative_check_pull_request as { unsuccessful_checks: unknown[] }).unsuccessful_checks.length > 0,
    );
    const [a, b] = [failed[0]!, failed.find((e) => e.metadata.train_car_id !== failed[0]!.metadata.train_car_id)!];
    const sameUrl = JSON.parse(JSON.stringify(b)) as Ev;
    (sameUrl.metadata.speculative_check_pull_request as { unsuccessful_checks: unknown[] }).unsuccessful_checks = (
      a.metadata.speculative_check_pull_request as { unsuccessful_checks: unknown[] }
    ).unsuccessful_checks;
    const d = new HistoryChecker();
    d.day(events.map((e) => (e === b ? sameUrl : e)));
    expect(d.problems.join("\n")).toMatch(/of two runs/);
  });
});

describe("a hold is waited for only until the pull request leaves", () => {
  // seed 842299, day 20481 (found by stay-parts.test.ts on a random seed): #27336 entered at
  // 17:45:15.785, its checks were stopped by a scheduled freeze at 18:00:00 and it left (its base
  // branch changed) at 18:02:06.764, inside the freeze. The leave said 1,011 s waiting for the
  // freeze — the whole stay, checks included — as the freeze was credited whole when it began
  // and an early exit took back only what exceeded the stay.
  it("seed 842299, day 20481, #27336: 127 s waiting for the freeze, from its start to the leave", () => {
    const events = simulateDay({ repo: "acme/web", seed: 842299, day: 20481 }) as unknown as Ev[];
    const mine = events.filter((e) => e.pull_request === 27336);
    const stopped = mine.find((e) => e.type === "action.queue.checks_end")!;
    const leave = mine.find((e) => e.type === "action.queue.leave")!;
    expect([stopped.received_at, stopped.metadata.abort_code, leave.received_at]).toEqual([
      "2026-01-28T18:00:00.000Z",
      "SCHEDULED_FREEZE_STATUS_CHANGED",
      "2026-01-28T18:02:06.764Z",
    ]);
    expect([leave.metadata.seconds_waiting_for_freeze, leave.metadata.seconds_waiting_for_schedule]).toEqual([127, 0]);
  });
});

describe("the invariants hold a stay's parts within the stay", () => {
  // the day above, checked as a whole: a freeze wait counted past the leave made the waits and the
  // checks' running time longer than the stay
  it("seed 842299, day 20481: no stay whose waits and checks exceed it", () => {
    expect(checkDays("acme/web", 842299, 20481, 1, false).problems).toEqual([]);
  });
});
