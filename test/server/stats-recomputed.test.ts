// Each statistics endpoint of the bundled server against its figure recomputed from the events
// /logs serves (the other statistics tests: stats.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { get, qs, walk, type Ev } from "./helpers.js";
import { DAY, end_at, evKey, groupKey, start_at, useStatsServer } from "./stats-server.js";

const srv = useStatsServer();
const { stats } = srv;

// Each figure recomputed from the events /logs serves for the same window, by the derivations of
// docs/server.md, without the server's code. The window is one day, so its intervals are the UTC
// hours (the ladder's own rungs: stats.test.ts).
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
      `${srv.base}/logs?${qs({ event_type: TYPES, received_from: "2026-11-10T00:00:00Z", received_to: end_at, per_page: 100 })}`,
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
      const r = await get(`${srv.base}/stats/time_to_merge?${qs(branch ? { at: end_at, branch } : { at: end_at })}`);
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
