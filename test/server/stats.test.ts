import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { ABORT_CODE_TEXT } from "../../src/server/texts.js";
import { bucketsFor, intervalFor, MAX_INTERVALS } from "../../src/server/stats/index.js";
import { NOW, get, qs, walk, type Ev } from "./helpers.js";

const DAY = 86_400_000;
let server: RunningServer;
let base: string;
const end_at = NOW.toISOString();
const start_at = new Date(NOW.getTime() - DAY).toISOString();

beforeAll(async () => {
  server = await startServer({ port: 0, seed: 2, days: 4, now: NOW });
  base = `${server.url}/v1/repos/acme/web`;
});
afterAll(() => server.close());

/** every event of `types` in [start_at, end_at), from the log */
async function eventsOf(types: string[], from = start_at, to = end_at): Promise<Ev[]> {
  const { events } = await walk(`${base}/logs?${qs({ event_type: types, received_from: from, received_to: to, per_page: 100 })}`);
  // stats windows are half-open: an event exactly at end_at belongs to the next window
  return events.filter((e) => Date.parse(e.received_at) < Date.parse(to));
}

const groupKey = (g: Record<string, unknown>) => `${g.base_ref}|${g.partition_name}|${g.queue_name}|${g.priority_rule_name}`;
function evKey(e: Ev): string {
  const m = e.metadata;
  return `${e.base_ref}|${m.partition_name ?? "__default__"}|${m.queue_name}|${m.priority_rule_name ?? null}`;
}
function tally<T>(items: T[], key: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}

async function stats(path: string, params: Record<string, string | readonly string[]> = {}) {
  const r = await get(`${base}/stats/${path}?${qs({ start_at, end_at, ...params })}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

describe("statistics against figures recomputed from /logs", () => {
  it("queues_entered_count matches action.queue.enter per group and per interval", async () => {
    const body = await stats("queues_entered_count");
    const enters = await eventsOf(["action.queue.enter"]);
    expect(enters.length).toBeGreaterThan(50);
    const fromStats = new Map<string, number>();
    for (const g of body.groups) {
      for (const s of g.stats) {
        const n = enters.filter((e) => evKey(e) === groupKey(g) && e.received_at >= s.start && e.received_at < s.end).length;
        expect(s.entered, `${groupKey(g)} ${s.start}`).toBe(n);
        fromStats.set(groupKey(g), (fromStats.get(groupKey(g)) ?? 0) + s.entered);
      }
    }
    expect(fromStats).toEqual(tally(enters, evKey));
  });

  it("queues_merged_count matches action.queue.merged, keyed by partition_names", async () => {
    const body = await stats("queues_merged_count");
    const merged = await eventsOf(["action.queue.merged"]);
    const fromStats = new Map<string, number>();
    for (const g of body.groups) {
      expect(g.partition_name).toBeUndefined();
      const k = `${g.base_ref}|${g.partition_names.join(",")}|${g.queue_name}|${g.priority_rule_name}`;
      fromStats.set(
        k,
        g.stats.reduce((s: number, x: { merged: number }) => s + x.merged, 0),
      );
    }
    expect(fromStats).toEqual(
      tally(
        merged,
        (e) => `${e.base_ref}|${e.metadata.partition_names.join(",")}|${e.metadata.queue_name}|${e.metadata.priority_rule_name}`,
      ),
    );
  });

  it("failure_rate is failed / total action.queue.checks_end", async () => {
    const body = await stats("failure_rate");
    const ends = await eventsOf(["action.queue.checks_end"]);
    const failed = (e: Ev) => ["failure", "timed_out", "error"].includes(e.metadata.speculative_check_pull_request.checks_conclusion);
    let total = 0;
    let failures = 0;
    for (const g of body.groups) {
      for (const s of g.stats) {
        const inBucket = ends.filter((e) => evKey(e) === groupKey(g) && e.received_at >= s.start && e.received_at < s.end);
        expect(s.total).toBe(inBucket.length);
        expect(s.failures).toBe(inBucket.filter(failed).length);
        expect(s.failure_rate).toBeCloseTo(s.total === 0 ? 0 : s.failures / s.total, 3);
        total += s.total;
        failures += s.failures;
      }
    }
    expect(total).toBe(ends.length);
    expect(failures).toBe(ends.filter(failed).length);
    expect(failures).toBeGreaterThan(0);
  });

  it("queues_pr_exit_reasons counts each session's action.queue.leave once, by reason", async () => {
    const body = await stats("queues_pr_exit_reasons");
    const leaves = await eventsOf(["action.queue.leave"]);
    const codeByText = new Map(Object.entries(ABORT_CODE_TEXT).map(([c, t]) => [t, c]));
    const seen = new Set<string>();
    const expected = new Map<string, number>();
    for (const e of leaves.slice().reverse()) {
      if (seen.has(e.metadata.session_id)) continue;
      seen.add(e.metadata.session_id);
      const reason = e.metadata.merged ? "SUCCESS" : codeByText.get(e.metadata.reason)!;
      const k = `${evKey(e)}|${reason}`;
      expected.set(k, (expected.get(k) ?? 0) + 1);
    }
    const got = new Map<string, number>();
    for (const g of body.groups) {
      for (const s of g.stats) {
        const k = `${groupKey(g)}|${s.exit_reason}`;
        got.set(k, (got.get(k) ?? 0) + s.count);
      }
    }
    expect(got).toEqual(expected);
    expect([...got.keys()].some((k) => k.endsWith("|SUCCESS"))).toBe(true);
    expect([...got.keys()].some((k) => !k.endsWith("|SUCCESS"))).toBe(true);
  });

  it("queues_checks_outcome_count and merge_queue_checks_outcome agree with each other and with checks_end", async () => {
    const byInterval = await stats("queues_checks_outcome_count");
    const totals = await stats("merge_queue_checks_outcome");
    const ends = await eventsOf(["action.queue.checks_end"]);
    const a = new Map<string, number>();
    for (const g of byInterval.groups)
      for (const s of g.stats) a.set(`${groupKey(g)}|${s.check_outcome}`, (a.get(`${groupKey(g)}|${s.check_outcome}`) ?? 0) + s.count);
    const b = new Map<string, number>();
    for (const g of totals.groups) for (const [k, n] of Object.entries(g.stats)) b.set(`${groupKey(g)}|${k}`, n as number);
    expect(a).toEqual(b);
    expect([...a.values()].reduce((s, n) => s + n, 0)).toBe(ends.length);
  });

  it("branches and queues list what had queue activity", async () => {
    const b = await stats("branches");
    const q = await stats("queues");
    const evs = await eventsOf(["action.queue.enter", "action.queue.leave"]);
    for (const ref of new Set(evs.map((e) => e.base_ref))) expect(b.base_refs).toContain(ref);
    for (const name of new Set(evs.map((e) => e.metadata.queue_name))) expect(q.queue_names).toContain(name);
    expect(b.base_refs).toEqual([...b.base_refs].sort());
  });
});

describe("statistics invariants over 3 days", () => {
  const wide = { start_at: new Date(NOW.getTime() - 3 * DAY).toISOString(), end_at };

  it("merged <= entered, 0 <= failure_rate <= 1, min <= avg <= max", async () => {
    const entered = await stats("queues_entered_count", wide);
    const merged = await stats("queues_merged_count", wide);
    const sum = (body: { groups: { stats: Record<string, number>[] }[] }, f: string) =>
      body.groups.reduce((s, g) => s + g.stats.reduce((t, x) => t + x[f]!, 0), 0);
    expect(sum(merged, "merged")).toBeLessThanOrEqual(sum(entered, "entered"));
    expect(sum(merged, "merged")).toBeGreaterThan(0);

    const fr = await stats("failure_rate", wide);
    for (const g of fr.groups) for (const s of g.stats) expect(s.failure_rate >= 0 && s.failure_rate <= 1).toBe(true);

    const triples: Array<[string, string, string, string]> = [
      ["total_queue_time", "min_queue_time", "avg_queue_time", "max_queue_time"],
      ["queue_size", "min_size", "avg_size", "max_size"],
      ["running_speculative_checks", "min_running_checks", "avg_running_checks", "max_running_checks"],
      ["batch_size", "min_batch_size", "avg_batch_size", "max_batch_size"],
    ];
    for (const [path, min, avg, max] of triples) {
      const body = await stats(path, wide);
      expect(body.groups.length, path).toBeGreaterThan(0);
      for (const g of body.groups) {
        for (const s of g.stats) {
          expect(s[min] <= s[avg] + 1e-9 && s[avg] <= s[max] + 1e-9, `${path} ${JSON.stringify(s)}`).toBe(true);
        }
      }
    }
    const rs = await stats("running_speculative_checks", wide);
    for (const g of rs.groups) expect("priority_rule_name" in g).toBe(false);

    const retries = await stats("checks_retries", wide);
    for (const g of retries.groups) {
      for (const s of g.stats) {
        expect(s.recovered + s.not_recovered).toBe(s.sessions_with_retries);
        expect(s.recovery_rate >= 0 && s.recovery_rate <= 1).toBe(true);
        expect(s.total_retries).toBeGreaterThanOrEqual(s.sessions_with_retries);
      }
    }
    const bis = await stats("batch_bisection", wide);
    expect(bis.started.length + bis.completed.length).toBeGreaterThan(0);
    for (const g of bis.completed)
      for (const s of g.stats) expect(s.culprit_found_count + s.max_failure_reached_count).toBeLessThanOrEqual(s.bisection_completed_count);

    const aqt = await stats("average_queue_time", wide);
    for (const g of aqt.groups) {
      for (const s of g.stats) {
        for (const f of ["idle_capacity", "idle_schedule", "idle_freeze"]) expect(s[f]).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("every endpoint answers 200; the two deprecated ones send a Deprecation header; the real service's own are a 404 here", async () => {
    for (const ep of STATS_ENDPOINTS) {
      const r = await get(`${base}/stats/${ep.path}`);
      if (!ep.dialects.includes("spec")) {
        expect(r.status, ep.path).toBe(404);
        continue;
      }
      expect(r.status, ep.path).toBe(200);
      expect(r.headers.get("deprecation"), ep.path).toBe(ep.deprecatedUse ? "true" : null);
    }
  });

  it("time_to_merge gives mean and median per partition and queue, in seconds", async () => {
    const r = await get(`${base}/stats/time_to_merge?${qs({ at: end_at })}`);
    expect(r.json.length).toBeGreaterThan(0);
    for (const p of r.json) {
      for (const q of p.queues) {
        if (q.time_to_merge.mean === null) continue;
        expect(q.time_to_merge.mean).toBeGreaterThan(0);
        expect(q.time_to_merge.median).toBeGreaterThan(0);
      }
    }
    const main = await get(`${base}/stats/time_to_merge?${qs({ at: end_at, branch: "release/v2" })}`);
    expect(main.json.map((p: { partition_name: string }) => p.partition_name)).toEqual(["__default__"]);
  });

  it("filters restrict groups to the given names", async () => {
    const body = await stats("queues_entered_count", {
      ...wide,
      base_ref: ["main"],
      queue_name: ["default", "hotfix"],
      partition_name: ["api"],
    });
    expect(body.groups.length).toBeGreaterThan(0);
    for (const g of body.groups) {
      expect(g.base_ref).toBe("main");
      expect(["default", "hotfix"]).toContain(g.queue_name);
      expect(g.partition_name).toBe("api");
    }
    const prio = await stats("queues_entered_count", { ...wide, priority_rule_name: ["urgent"] });
    for (const g of prio.groups) expect(g.priority_rule_name).toBe("urgent");
  });
});

describe("the interval ladder", () => {
  it("picks a bucket length from the range and clips the edges", () => {
    expect(intervalFor(DAY)).toBe(3_600_000);
    expect(intervalFor(7 * DAY)).toBe(6 * 3_600_000);
    expect(intervalFor(30 * DAY)).toBe(DAY);
    const b = bucketsFor(Date.parse("2026-11-19T12:30:00Z"), Date.parse("2026-11-20T12:30:00Z"));
    expect(b).toHaveLength(25);
    expect(new Date(b[0]!.end).toISOString()).toBe("2026-11-19T13:00:00.000Z");
    expect(new Date(b[24]!.start).toISOString()).toBe("2026-11-20T12:00:00.000Z");
  });

  it("has six rungs, each up to and including its bound", () => {
    const HOUR = 3_600_000;
    const rungs: Array<[number, number]> = [
      [1, 5 * 60_000],
      [2 * HOUR, 5 * 60_000],
      [2 * HOUR + 1, HOUR],
      [2 * DAY, HOUR],
      [2 * DAY + 1, 6 * HOUR],
      [14 * DAY, 6 * HOUR],
      [14 * DAY + 1, DAY],
      [62 * DAY, DAY],
      [62 * DAY + 1, 7 * DAY],
      [366 * DAY, 7 * DAY],
      [366 * DAY + 1, 30 * DAY],
      [999 * 30 * DAY, 30 * DAY],
    ];
    for (const [range, step] of rungs) expect(intervalFor(range), `range ${range}`).toBe(step);
    // weeks start on Mondays, 5 minutes on multiples of 5 minutes
    const w = bucketsFor(Date.parse("2026-08-01T00:00:00Z"), Date.parse("2026-11-20T00:00:00Z"));
    expect(new Date(w[0]!.end).toISOString()).toBe("2026-08-03T00:00:00.000Z");
    expect(new Date(w[1]!.end).toISOString()).toBe("2026-08-10T00:00:00.000Z");
    const m = bucketsFor(Date.parse("2026-11-20T10:02:00Z"), Date.parse("2026-11-20T11:00:00Z"));
    expect(m.map((x) => new Date(x.start).toISOString().slice(11, 16))).toEqual([
      "10:02",
      "10:05",
      "10:10",
      "10:15",
      "10:20",
      "10:25",
      "10:30",
      "10:35",
      "10:40",
      "10:45",
      "10:50",
      "10:55",
    ]);
  });

  it("cuts any range into at most MAX_INTERVALS contiguous intervals (a multiple of 30 days beyond the ladder)", () => {
    expect(MAX_INTERVALS).toBe(1000);
    const ranges: Array<[string, string]> = [
      ["0001-01-01T00:00:00Z", "9999-12-31T00:00:00Z"],
      ["1970-01-01T00:00:00Z", "2052-01-01T00:00:00Z"],
      ["2000-01-01T00:00:00Z", "2026-11-20T12:00:00Z"],
      ["2025-11-19T11:59:59Z", "2026-11-20T12:00:00Z"],
    ];
    for (const [a, z] of ranges) {
      const from = Date.parse(a);
      const to = Date.parse(z);
      const step = intervalFor(to - from);
      expect(step % (30 * DAY)).toBe(0);
      const b = bucketsFor(from, to);
      expect(b.length, `${a}..${z}`).toBeLessThanOrEqual(MAX_INTERVALS);
      expect(b[0]!.start).toBe(from);
      expect(b[b.length - 1]!.end).toBe(to);
      for (let i = 1; i < b.length; i++) expect(b[i]!.start).toBe(b[i - 1]!.end);
      for (const x of b) expect(x.end - x.start).toBeLessThanOrEqual(step);
    }
    expect(intervalFor(Date.parse("9999-12-31T00:00:00Z") - Date.parse("0001-01-01T00:00:00Z"))).toBe(122 * 30 * DAY);
  });

  it("answers a window of 0001..9999 with at most MAX_INTERVALS intervals per group", async () => {
    const r = await get(`${base}/stats/queues_entered_count?${qs({ start_at: "0001-01-01T00:00:00Z", end_at: "9999-12-31T00:00:00Z" })}`);
    expect(r.status).toBe(200);
    expect(r.json.groups.length).toBeGreaterThan(0);
    for (const g of r.json.groups) {
      expect(g.stats.length).toBeLessThanOrEqual(MAX_INTERVALS);
      expect(g.stats[0].start).toBe("0001-01-01T00:00:00.000Z");
      expect(g.stats[g.stats.length - 1].end).toBe("9999-12-31T00:00:00.000Z");
    }
    // every event of the history is counted once
    const total = r.json.groups.reduce(
      (s: number, g: { stats: { entered: number }[] }) => s + g.stats.reduce((t, x) => t + x.entered, 0),
      0,
    );
    const { events } = await walk(
      `${base}/logs?${qs({ event_type: "action.queue.enter", received_from: "0001-01-01T00:00:00Z", received_to: "9999-12-31T00:00:00Z", per_page: 100 })}`,
    );
    expect(total).toBe(events.length);
  });
});

// Each figure recomputed from the events /logs serves for the same window, by the derivations of
// docs/server.md, without the server's code. The window is one day, so its intervals are the UTC
// hours (the ladder's own rungs are tested above).
describe("every statistics endpoint against a figure recomputed from /logs", () => {
  const HOUR = 3_600_000;
  const TYPES = [
    "action.queue.enter",
    "action.queue.leave",
    "action.queue.merged",
    "action.queue.checks_start",
    "action.queue.checks_end",
    "action.queue.change",
    "action.queue.checks.change",
    "action.queue.batch_bisection_start",
    "action.queue.batch_bisection_end",
  ];
  /** the whole history (oldest first): sessions and time_to_merge reach back before the window */
  let history: Ev[];
  /** the events of [start_at, end_at), oldest first */
  let win: Ev[];
  const of = (type: string, evs = win) => evs.filter((e) => e.type === type);
  const t = (e: Ev) => Date.parse(e.received_at);
  const hourOf = (e: Ev) => new Date(Math.floor(t(e) / HOUR) * HOUR).toISOString();
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const noPrioKey = (e: Ev) => `${e.base_ref}|${e.metadata.partition_name ?? "__default__"}|${e.metadata.queue_name}`;

  beforeAll(async () => {
    // the server keeps 4 days: everything it has, oldest first ((received_at, id) ascending)
    const { events } = await walk(
      `${base}/logs?${qs({ event_type: TYPES, received_from: "2026-11-10T00:00:00Z", received_to: end_at, per_page: 100 })}`,
    );
    history = events.slice().reverse();
    win = history.filter((e) => t(e) >= Date.parse(start_at) && t(e) < Date.parse(end_at));
    expect(history.length).toBeGreaterThan(win.length);
  });

  /** the served records keyed by group and interval start, without start/end (checked here) */
  function served(
    body: { groups: Record<string, unknown>[] },
    key: (g: Record<string, unknown>) => string = groupKey,
  ): Map<string, Record<string, number>> {
    const out = new Map<string, Record<string, number>>();
    for (const g of body.groups) {
      for (const { start, end, ...rest } of g.stats as Array<{ start: string; end: string } & Record<string, number>>) {
        expect(Date.parse(end) - Date.parse(start)).toBe(HOUR);
        out.set(`${key(g)}|${start}`, rest);
      }
    }
    return out;
  }

  /** the same intervals, and every figure equal (averages to the 3 decimals the server rounds to) */
  function expectSame(got: Map<string, Record<string, number>>, want: Map<string, Record<string, number>>): void {
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [k, w] of want) {
      const g = got.get(k)!;
      expect(Object.keys(g).sort(), k).toEqual(Object.keys(w).sort());
      for (const f of Object.keys(w)) expect(Math.abs(g[f]! - w[f]!), `${k} ${f}: ${g[f]} vs ${w[f]}`).toBeLessThanOrEqual(0.0005 + 1e-9);
    }
    expect(want.size).toBeGreaterThan(0);
  }

  /** values per group and hour */
  function byBucket<T>(evs: Ev[], value: (e: Ev) => T | undefined, key = evKey): Map<string, T[]> {
    const out = new Map<string, T[]>();
    for (const e of evs) {
      const v = value(e);
      if (v === undefined) continue;
      const k = `${key(e)}|${hourOf(e)}`;
      out.set(k, [...(out.get(k) ?? []), v]);
    }
    return out;
  }
  const spread = (xs: Map<string, number[]>, [avg, max, min]: [string, string, string]) =>
    new Map([...xs].map(([k, v]) => [k, { [avg]: mean(v), [max]: Math.max(...v), [min]: Math.min(...v) }]));

  /** a checks_end's outcome: its abort code, else SUCCESS / CHECKS_TIMEOUT / CHECKS_FAILED by conclusion */
  const outcome = (e: Ev): string => {
    if (typeof e.metadata.abort_code === "string") return e.metadata.abort_code;
    const c = e.metadata.speculative_check_pull_request.checks_conclusion;
    return c === "success" ? "SUCCESS" : c === "timed_out" ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
  };
  /** the first event of each train car, in time order */
  const firstPerCar = (evs: Ev[]) => {
    const seen = new Set<string>();
    return evs.filter((e) => !seen.has(e.metadata.train_car_id) && Boolean(seen.add(e.metadata.train_car_id)));
  };
  const queueSeconds = (e: Ev) => (typeof e.metadata.queued_at === "string" ? (t(e) - Date.parse(e.metadata.queued_at)) / 1000 : undefined);

  it("queues_checks_outcome_count and merge_queue_checks_outcome count each outcome of action.queue.checks_end", async () => {
    const ends = of("action.queue.checks_end");
    const want = new Map<string, Record<string, number>>();
    for (const e of ends) {
      const k = `${evKey(e)}|${hourOf(e)}|${outcome(e)}`;
      want.set(k, { count: (want.get(k)?.count ?? 0) + 1 });
    }
    const body = await stats("queues_checks_outcome_count");
    const got = new Map<string, Record<string, number>>();
    for (const g of body.groups) {
      for (const s of g.stats) {
        expect(Date.parse(s.end) - Date.parse(s.start)).toBe(HOUR);
        got.set(`${groupKey(g)}|${s.start}|${s.check_outcome}`, { count: s.count });
      }
    }
    expectSame(got, want);
    expect(new Set(ends.map(outcome)).size).toBeGreaterThan(2);

    const total = await stats("merge_queue_checks_outcome");
    const wantTotal = new Map<string, Record<string, number>>();
    for (const e of ends) {
      const w = wantTotal.get(evKey(e)) ?? {};
      w[outcome(e)] = (w[outcome(e)] ?? 0) + 1;
      wantTotal.set(evKey(e), w);
    }
    expect(new Map(total.groups.map((g: Record<string, unknown>) => [groupKey(g), g.stats]))).toEqual(wantTotal);
  });

  it("average_ci_runtime is the mean checks_ended_at - checks_started_at, once per train car", async () => {
    const runs = firstPerCar(
      of("action.queue.checks_end").filter(
        (e) => e.metadata.speculative_check_pull_request.checks_started_at && e.metadata.speculative_check_pull_request.checks_ended_at,
      ),
    );
    const runtime = (e: Ev) => {
      const s = e.metadata.speculative_check_pull_request;
      return (Date.parse(s.checks_ended_at) - Date.parse(s.checks_started_at)) / 1000;
    };
    const want = new Map([...byBucket(runs, runtime)].map(([k, v]) => [k, { runtime: mean(v) }]));
    expectSame(served(await stats("average_ci_runtime")), want);
  });

  it("average_queue_time: leave - queued_at, the idle parts from seconds_waiting_for_* and the first checks_start", async () => {
    const firstStart = new Map<string, number>();
    for (const e of of("action.queue.checks_start", history))
      if (!firstStart.has(e.metadata.session_id)) firstStart.set(e.metadata.session_id, t(e));
    const parts = byBucket(of("action.queue.leave"), (e) => {
      const total = queueSeconds(e);
      if (total === undefined) return undefined;
      const sched = e.metadata.seconds_waiting_for_schedule ?? 0;
      const freeze = e.metadata.seconds_waiting_for_freeze ?? 0;
      const start = firstStart.get(e.metadata.session_id);
      const queuedAt = Date.parse(e.metadata.queued_at);
      const waited = start !== undefined && start >= queuedAt ? (start - queuedAt) / 1000 : total;
      return { total, sched, freeze, capacity: Math.max(0, waited - sched - freeze) };
    });
    const want = new Map(
      [...parts].map(([k, v]) => [
        k,
        {
          queue_time: mean(v.map((x) => x.total)),
          idle_capacity: mean(v.map((x) => x.capacity)),
          idle_schedule: mean(v.map((x) => x.sched)),
          idle_freeze: mean(v.map((x) => x.freeze)),
        },
      ]),
    );
    expectSame(served(await stats("average_queue_time")), want);
    // the idle parts are not all zero: the history has schedule waits and freezes
    const all = [...parts.values()].flat();
    expect(all.some((x) => x.sched > 0) || all.some((x) => x.freeze > 0)).toBe(true);
    expect(all.some((x) => x.capacity > 0)).toBe(true);
  });

  it("total_queue_time: avg / max / min of leave - queued_at", async () => {
    const want = spread(byBucket(of("action.queue.leave"), queueSeconds), ["avg_queue_time", "max_queue_time", "min_queue_time"]);
    expectSame(served(await stats("total_queue_time")), want);
  });

  it("queue_size: avg / max / min of action.queue.change size", async () => {
    const want = spread(
      byBucket(of("action.queue.change"), (e) => e.metadata.size),
      ["avg_size", "max_size", "min_size"],
    );
    expectSame(served(await stats("queue_size")), want);
  });

  it("running_speculative_checks: avg / max / min of action.queue.checks.change running_checks, without priority", async () => {
    const want = spread(
      byBucket(of("action.queue.checks.change"), (e) => e.metadata.running_checks, noPrioKey),
      ["avg_running_checks", "max_running_checks", "min_running_checks"],
    );
    expectSame(
      served(await stats("running_speculative_checks"), (g) => `${g.base_ref}|${g.partition_name}|${g.queue_name}`),
      want,
    );
  });

  it("batch_size: avg / max / min of pull_request_numbers per train car at checks_start", async () => {
    const want = spread(
      byBucket(firstPerCar(of("action.queue.checks_start")), (e) => e.metadata.pull_request_numbers.length),
      ["avg_batch_size", "max_batch_size", "min_batch_size"],
    );
    expectSame(served(await stats("batch_size")), want);
    expect([...want.values()].some((s) => s.max_batch_size! > 1)).toBe(true);
  });

  it("batch_bisection: started and completed from batch_bisection_start / _end", async () => {
    const body = await stats("batch_bisection");
    const started = byBucket(of("action.queue.batch_bisection_start"), (e) => e);
    expectSame(
      served({ groups: body.started }),
      new Map(
        [...started].map(([k, v]) => [
          k,
          {
            bisection_count: v.length,
            avg_depth: mean(v.map((e) => e.metadata.bisection_depth)),
            max_depth: Math.max(...v.map((e) => e.metadata.bisection_depth)),
            avg_batch_size_before_split: mean(v.map((e) => e.metadata.batch_size_before_split)),
          },
        ]),
      ),
    );
    const completed = byBucket(of("action.queue.batch_bisection_end"), (e) => e);
    expectSame(
      served({ groups: body.completed }),
      new Map(
        [...completed].map(([k, v]) => [
          k,
          {
            bisection_completed_count: v.length,
            culprit_found_count: v.filter((e) => e.metadata.culprit_found === true).length,
            max_failure_reached_count: v.filter((e) => e.metadata.max_failure_resolution_reached === true).length,
          },
        ]),
      ),
    );
  });

  it("checks_retries: per session, its retried runs, counted in the hour of its last one", async () => {
    const sessions = new Map<string, { first: Ev; last: Ev; runs: Ev[] }>();
    for (const e of of("action.queue.checks_end").filter(
      (x) => typeof x.metadata.retry_attempt === "number" && x.metadata.retry_attempt >= 1,
    )) {
      const s = sessions.get(e.metadata.session_id);
      if (s) {
        s.last = e;
        s.runs.push(e);
      } else sessions.set(e.metadata.session_id, { first: e, last: e, runs: [e] });
    }
    const buckets = new Map<string, Array<{ runs: Ev[]; last: Ev }>>();
    for (const s of sessions.values()) {
      const k = `${evKey(s.first)}|${hourOf(s.last)}`;
      buckets.set(k, [...(buckets.get(k) ?? []), s]);
    }
    const depth = (s: { runs: Ev[] }) => Math.max(...s.runs.map((e) => e.metadata.retry_attempt));
    const want = new Map(
      [...buckets].map(([k, ss]) => {
        const recovered = ss.filter((s) => outcome(s.last) === "SUCCESS").length;
        return [
          k,
          {
            total_retries: ss.reduce((n, s) => n + s.runs.length, 0),
            sessions_with_retries: ss.length,
            recovered,
            not_recovered: ss.length - recovered,
            recovery_rate: recovered / ss.length,
            avg_retry_depth: mean(ss.map(depth)),
            max_retry_depth: Math.max(...ss.map(depth)),
          },
        ];
      }),
    );
    expectSame(served(await stats("checks_retries")), want);
  });

  it("branches and queues: exactly the base refs and queue names of the window's queue events", async () => {
    const queueEvents = win.filter((e) => TYPES.slice(0, 6).includes(e.type));
    expect((await stats("branches")).base_refs).toEqual([...new Set(queueEvents.map((e) => e.base_ref))].sort());
    expect((await stats("queues")).queue_names).toEqual([...new Set(queueEvents.map((e) => e.metadata.queue_name))].sort());
  });

  it("time_to_merge: mean and median of merged - queued_at over the 7 days before `at`, per partition and queue", async () => {
    for (const branch of [undefined, "main", "release/v2"]) {
      const from = Date.parse(end_at) - 7 * DAY;
      const inRange = history.filter((e) => t(e) >= from && t(e) <= Date.parse(end_at) && (branch === undefined || e.base_ref === branch));
      const slots = new Map<string, number[]>();
      for (const e of of("action.queue.enter", inRange)) {
        const k = `${e.metadata.partition_name ?? "__default__"}|${e.metadata.queue_name}`;
        if (!slots.has(k)) slots.set(k, []);
      }
      for (const e of of("action.queue.merged", inRange)) {
        for (const p of e.metadata.partition_names.length > 0 ? e.metadata.partition_names : ["__default__"]) {
          const k = `${p}|${e.metadata.queue_name}`;
          slots.set(k, [...(slots.get(k) ?? []), queueSeconds(e)!]);
        }
      }
      const median = (xs: number[]) => {
        const v = xs.slice().sort((a, b) => a - b);
        return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
      };
      const r = await get(`${base}/stats/time_to_merge?${qs(branch ? { at: end_at, branch } : { at: end_at })}`);
      const got = new Map<string, { mean: number | null; median: number | null }>();
      const partitions: string[] = r.json.map((p: { partition_name: string }) => p.partition_name);
      expect(partitions).toEqual([...partitions].sort());
      for (const p of r.json) for (const q of p.queues) got.set(`${p.partition_name}|${q.queue_name}`, q.time_to_merge);
      expect([...got.keys()].sort(), String(branch)).toEqual([...slots.keys()].sort());
      for (const [k, v] of slots) {
        const g = got.get(k)!;
        if (v.length === 0) {
          expect(g, k).toEqual({ mean: null, median: null });
          continue;
        }
        expect(Math.abs(g.mean! - mean(v)), k).toBeLessThanOrEqual(0.0005 + 1e-9);
        expect(Math.abs(g.median! - median(v)), k).toBeLessThanOrEqual(0.0005 + 1e-9);
      }
    }
  });
});
