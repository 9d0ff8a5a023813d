import { describe, expect, it } from "vitest";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { ABORT_CODE_TEXT } from "../../src/server/texts.js";
import { bucketsFor, intervalFor, MAX_INTERVALS } from "../../src/server/stats/index.js";
import { NOW, get, qs, walk, type Ev } from "./helpers.js";
import { DAY, end_at, evKey, groupKey, tally, useStatsServer } from "./stats-server.js";

const srv = useStatsServer();
const { eventsOf, stats } = srv;

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
      const r = await get(`${srv.base}/stats/${ep.path}`);
      if (!ep.dialects.includes("spec")) {
        expect(r.status, ep.path).toBe(404);
        continue;
      }
      expect(r.status, ep.path).toBe(200);
      expect(r.headers.get("deprecation"), ep.path).toBe(ep.deprecatedUse ? "true" : null);
    }
  });

  it("time_to_merge gives mean and median per partition and queue, in seconds", async () => {
    const r = await get(`${srv.base}/stats/time_to_merge?${qs({ at: end_at })}`);
    expect(r.json.length).toBeGreaterThan(0);
    for (const p of r.json) {
      for (const q of p.queues) {
        if (q.time_to_merge.mean === null) continue;
        expect(q.time_to_merge.mean).toBeGreaterThan(0);
        expect(q.time_to_merge.median).toBeGreaterThan(0);
      }
    }
    const main = await get(`${srv.base}/stats/time_to_merge?${qs({ at: end_at, branch: "release/v2" })}`);
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
    const r = await get(
      `${srv.base}/stats/queues_entered_count?${qs({ start_at: "0001-01-01T00:00:00Z", end_at: "9999-12-31T00:00:00Z" })}`,
    );
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
      `${srv.base}/logs?${qs({ event_type: "action.queue.enter", received_from: "0001-01-01T00:00:00Z", received_to: "9999-12-31T00:00:00Z", per_page: 100 })}`,
    );
    expect(total).toBe(events.length);
  });
});
