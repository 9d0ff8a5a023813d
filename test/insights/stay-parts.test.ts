// A stay's figures are computed over the whole stay (issue 28 item 4): time in queue is CI time
// plus waiting, and waiting is split by cause into schedule, freeze and capacity, so no part is
// larger than its whole. `mq pr` showed "waiting 13m 42s (capacity 0s, schedule 12h, freeze 4h)":
// waiting stopped at the first checks while the schedule and freeze waits ran over the whole
// stay. Checked on made-up stays (any runs, overlapping or past the stay, any waits) and on the
// stays of simulated days of many seeds, in both dialects; and a stay begun before a window is
// left out of the window's waiting, CI time and retries, so they never depend on the window.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LogEvent } from "../../src/api/events.js";
import { WindowAccumulator } from "../../src/insights/figures.js";
import { staysOf, stayTimes, type CheckRun, type Stay, type StayTimes } from "../../src/insights/stays.js";
import { toMergifyEvent } from "../../src/server/dialects/mergify-events.js";
import { simulateDay } from "../../src/server/simulate/index.js";
import type { StoredEvent } from "../../src/server/store.js";

const DAY = 86_400_000;
const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/** what must hold of any stay's figures; returns what does not */
function partsProblems(t: StayTimes): string[] {
  const out: string[] = [];
  const parts = { idleCapacity: t.idleCapacity, idleSchedule: t.idleSchedule, idleFreeze: t.idleFreeze, ciTime: t.ciTime };
  for (const [name, v] of Object.entries(parts)) if (v < 0) out.push(`${name} ${v} < 0`);
  for (const name of ["idleCapacity", "idleSchedule", "idleFreeze"] as const)
    if (t[name] > t.waitTime + 1e-9) out.push(`${name} ${t[name]} > waiting ${t.waitTime}`);
  if (!close(t.idleCapacity + t.idleSchedule + t.idleFreeze, t.waitTime)) out.push(`parts of waiting do not add up to ${t.waitTime}`);
  if (!close(t.waitTime + t.ciTime, t.queueTime)) out.push(`waiting ${t.waitTime} + CI ${t.ciTime} != time in queue ${t.queueTime}`);
  if (t.waitTime > t.queueTime + 1e-9 || t.ciTime > t.queueTime + 1e-9) out.push("a part longer than the time in queue");
  return out;
}

const run = (startedAt: number | null, endedAt: number | null, retryAttempt: number | null): CheckRun => ({
  id: `${startedAt}-${endedAt}`,
  startedAt,
  endedAt,
  pullRequests: [1],
  startReason: null,
  conclusion: endedAt === null ? null : "success",
  abortCode: null,
  abortStatus: null,
  retryAttempt,
  failedChecks: [],
});

const stay = (enteredAt: number, leftAt: number | null, runs: CheckRun[], scheduleWait: number, freezeWait: number): Stay => ({
  repository: "a/b",
  pullRequest: 1,
  base: "main",
  queue: "default",
  partition: null,
  priorityRule: null,
  sessionId: null,
  enteredAt,
  enterEventAt: enteredAt,
  mergedAt: null,
  leftAt,
  outcome: leftAt === null ? "open" : "dequeued",
  reason: leftAt === null ? null : "PR_DEQUEUED",
  reasonText: null,
  scheduleWait,
  freezeWait,
  runs,
  bisections: 0,
  steps: [],
  lastEventId: 1,
});

describe("a stay's parts never exceed their whole", () => {
  it("the stay of the issue: waiting until the first checks was 13m 42s, the schedule 12h and the freeze 4h", () => {
    const enter = Date.parse("2026-11-25T15:45:05Z");
    const start = enter + (13 * 60 + 42) * 1000;
    // checks run 20 min, then it waits 16 h for the schedule and a freeze, runs again and merges
    const runs = [run(start, start + 20 * 60_000, 0), run(start + 16.5 * 3_600_000, start + 16.5 * 3_600_000 + 10 * 60_000, 0)];
    const t = stayTimes(stay(enter, start + 17 * 3_600_000, runs, 12 * 3600, 4 * 3600), 0);
    expect(partsProblems(t)).toEqual([]);
    expect(t.ciTime).toBe(30 * 60);
    expect(t.idleSchedule).toBe(12 * 3600);
    expect(t.idleFreeze).toBe(4 * 3600);
    expect(t.waitTime).toBe(t.queueTime - 30 * 60);
  });

  it("made-up stays: any runs (overlapping, begun before the stay, running past it, never ended), any waits", () => {
    const runArb = fc.tuple(
      fc.integer({ min: -3_600_000, max: 20_000_000 }),
      fc.option(fc.integer({ min: 0, max: 10_000_000 })),
      fc.option(fc.integer({ min: 0, max: 3 })),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.option(fc.integer({ min: 0, max: 30_000_000 })),
        fc.array(runArb, { maxLength: 6 }),
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 0, max: 40_000_000 }),
        (enter, length, runs, schedule, freeze, until) => {
          const s = stay(
            enter,
            length === null ? null : enter + length,
            runs.map(([a, len, retry]) => run(enter + a, len === null ? null : enter + a + len, retry)),
            schedule,
            freeze,
          );
          expect(partsProblems(stayTimes(s, enter + until))).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("the stays of simulated days, many seeds, both dialects: parts add up, and the schedule and freeze waits are the leave's", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 20_400, max: 20_800 }), fc.boolean(), (seed, day, mergify) => {
        let events = simulateDay({ repo: "acme/web", seed, day }) as StoredEvent[];
        if (mergify) events = events.map(toMergifyEvent);
        const stays = staysOf([...events].reverse() as unknown as LogEvent[]);
        expect(stays.length).toBeGreaterThan(50);
        for (const s of stays) {
          const t = stayTimes(s, (day + 5) * DAY);
          expect(partsProblems(t), `#${s.pullRequest}`).toEqual([]);
          // the simulation's waits are waiting: the split keeps them whole (the leave rounds them to the second)
          expect(Math.abs(t.idleSchedule - s.scheduleWait), `#${s.pullRequest}`).toBeLessThanOrEqual(0.5);
          expect(Math.abs(t.idleFreeze - s.freezeWait), `#${s.pullRequest}`).toBeLessThanOrEqual(0.5);
        }
      }),
      { numRuns: 12 },
    );
  });
});

describe("a stay begun before the window", () => {
  it("counts in left and time in queue, not in waiting, CI time or retries, which the window cannot hold whole", () => {
    const since = Date.parse("2026-11-20T00:00:00Z");
    const window = { since: new Date(since), until: new Date(since + DAY) };
    const inside = stay(since + 60_000, since + 3_600_000, [run(since + 120_000, since + 600_000, 1)], 0, 0);
    const before = { ...stay(since - 3_600_000, since + 3_600_000, [run(since + 120_000, since + 600_000, 1)], 0, 0), enterEventAt: null };
    const acc = new WindowAccumulator(window);
    acc.add(inside);
    acc.add(before);
    const r = acc.result();
    expect(r.values.left).toBe(2);
    expect(r.distributions.queue_time.count).toBe(2);
    expect(r.distributions.wait_time.count).toBe(1);
    expect(r.distributions.ci_time.count).toBe(1);
    expect(r.values.retries).toBe(1);
  });
});
