// `mq serve --dialect mergify` answers as the real service's OpenAPI says: every endpoint and every
// filter of the file, each body checked by a JSON Schema validator against the file's own schemas.
// The sweeps (every event type, every filter of every statistics endpoint) run here on a sample;
// mergify-openapi.e2e.test.ts runs the rest of them.
import { beforeAll, describe, expect, test } from "vitest";
import { MERGIFY_DIALECT } from "../../src/api/dialects/index.js";
import { AUTH, get, linkOf, NOW } from "./helpers.js";
import { schemaErrors } from "../helpers/openapi.js";
import { spread } from "../helpers/sweep.js";
import {
  expectTypeServed,
  mergifyServer,
  MONTH_AGO,
  OPENAPI_SAMPLE,
  sampledStatsQueries,
  STATS_PATHS,
  WEEK_AGO,
} from "./mergify-openapi-checks.js";

const served = mergifyServer();
const valid = served.valid;

describe("the event log", () => {
  test(`event types of the OpenAPI (${OPENAPI_SAMPLE.types} spread over the list) are served over a week, and every event validates`, async () => {
    for (const type of spread(MERGIFY_DIALECT.eventTypes, OPENAPI_SAMPLE.types)) await expectTypeServed(served, type, WEEK_AGO);
  });

  test("pages followed through next links all validate; Link has first and last (the OpenAPI's example) too; per_page defaults to 10", async () => {
    const first = await valid("logs", `received_from=${WEEK_AGO}`);
    expect(first.json.per_page).toBe(10);
    expect(first.json.events).toHaveLength(10);
    let link = first.headers.get("link");
    expect(link).toMatch(/rel="next"/);
    expect(link).toMatch(/rel="first"/);
    expect(link).toMatch(/rel="last"/);
    let url = linkOf(link, "next");
    for (let i = 0; i < 3 && url; i++) {
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(schemaErrors("logs", r.json)).toEqual([]);
      link = r.headers.get("link");
      expect(link).toMatch(/rel="prev"/);
      expect(link).toMatch(/rel="first"/);
      expect(link).toMatch(/rel="last"/);
      url = linkOf(link, "next");
    }
  });

  test("the contract's own types are not the service's: 422 as FastAPI words it", async () => {
    const r = await get(`${served.base}/logs?event_type=ci_issue.created`);
    expect(r.status).toBe(422);
    expect(r.json.detail[0]).toMatchObject({ loc: ["query", "event_type", 0], type: "enum" });
  });

  describe("every filter", () => {
    let sample: any[];
    beforeAll(async () => {
      sample = (await get(`${served.base}/logs?received_from=${WEEK_AGO}&per_page=100`)).json.events;
    });
    const some = <T>(xs: T[], n: number) => [...new Set(xs)].slice(0, n);

    test("pull_request (repeated) and not_pull_request", async () => {
      const prs = some(
        sample.map((e) => e.pull_request).filter((p) => p !== null),
        2,
      );
      const r = await valid("logs", `${prs.map((p) => `pull_request=${p}`).join("&")}&received_from=${WEEK_AGO}&per_page=100`);
      expect(r.json.events.length).toBeGreaterThan(0);
      for (const e of r.json.events) expect(prs).toContain(e.pull_request);
      const n = await valid("logs", `not_pull_request=${prs[0]}&received_from=${WEEK_AGO}&per_page=100`);
      for (const e of n.json.events) expect(e.pull_request).not.toBe(prs[0]);
    });

    test("event_type and not_event_type", async () => {
      const r = await valid("logs", `not_event_type=action.queue.change&not_event_type=action.queue.checks.change&per_page=100`);
      for (const e of r.json.events) expect(["action.queue.change", "action.queue.checks.change"]).not.toContain(e.type);
    });

    test("outcome and not_outcome", async () => {
      for (const o of ["success", "failure", "pending", "neutral"]) {
        const r = await valid("logs", `outcome=${o}&per_page=50`);
        expect(r.json.events.length, o).toBeGreaterThan(0);
        for (const e of r.json.events) expect(e.outcome).toBe(o);
      }
      const r = await valid("logs", `not_outcome=neutral&not_outcome=pending&per_page=100`);
      for (const e of r.json.events) expect(["success", "failure"]).toContain(e.outcome);
    });

    test("trigger and not_trigger", async () => {
      const trig = sample[0].trigger;
      const r = await valid("logs", `trigger=${encodeURIComponent(trig)}&per_page=100`);
      for (const e of r.json.events) expect(e.trigger).toBe(trig);
      const n = await valid("logs", `not_trigger=${encodeURIComponent(trig)}&per_page=100`);
      for (const e of n.json.events) expect(e.trigger).not.toBe(trig);
    });

    test("batch_pull and not_batch_pull", async () => {
      const checks = (await get(`${served.base}/logs?event_type=action.queue.checks_end&per_page=20`)).json.events;
      const batch = checks[0].metadata.speculative_check_pull_request.number;
      const r = await valid("logs", `batch_pull=${batch}&received_from=${WEEK_AGO}&per_page=100`);
      expect(r.json.events.length).toBeGreaterThan(0);
      for (const e of r.json.events) expect(e.metadata.speculative_check_pull_request?.number ?? batch).toBe(batch);
      const n = await valid("logs", `not_batch_pull=${batch}&event_type=action.queue.checks_end&per_page=100`);
      for (const e of n.json.events) expect(e.metadata.speculative_check_pull_request.number).not.toBe(batch);
    });

    test("base_ref and a window", async () => {
      const r = await valid("logs", `base_ref=main&received_from=${WEEK_AGO}&received_to=${NOW.toISOString()}&per_page=100`);
      for (const e of r.json.events) expect(e.base_ref).toBe("main");
    });

    test("pairs the OpenAPI calls mutually exclusive are a 422", async () => {
      for (const q of [
        "pull_request=1&not_pull_request=2",
        "outcome=success&not_outcome=failure",
        "trigger=a&not_trigger=b",
        "batch_pull=1&not_batch_pull=2",
        "event_type=action.merge&not_event_type=action.label",
      ]) {
        const r = await get(`${served.base}/logs?${q}`);
        expect(r.status, q).toBe(422);
        expect(r.json.detail[0]).toMatchObject({ type: "value_error" });
      }
    });

    test("a window longer than 93 days is a 422, on the log, the aggregate and the statistics", async () => {
      const from = new Date(NOW.getTime() - 94 * 86_400_000).toISOString();
      for (const url of [`logs?received_from=${from}`, `logs/aggregate?received_from=${from}`, `stats/queue_size?start_at=${from}`]) {
        const r = await get(`${served.base}/${url}`);
        expect(r.status, url).toBe(422);
        expect(r.json.detail[0].loc[0]).toBe("query");
      }
      await valid("logs", `received_from=${new Date(NOW.getTime() - 92 * 86_400_000).toISOString()}`);
    });
  });
});

describe("/logs/aggregate", () => {
  test("facet counts validate, with and without each filter", async () => {
    const whole = await valid("logs/aggregate", `received_from=${WEEK_AGO}`);
    expect(whole.json.total).toBeGreaterThan(0);
    expect(whole.json.histogram.reduce((n: number, b: any) => n + b.count, 0)).toBe(whole.json.total);
    expect(whole.json.by_event_type.reduce((n: number, b: any) => n + b.count, 0)).toBe(whole.json.total);
    const pr = whole.json.by_pull_request[0].value;
    const batch = whole.json.by_batch_pull_request[0].value;
    for (const q of [
      `pull_request=${pr}`,
      `not_pull_request=${pr}`,
      `batch_pull=${batch}`,
      `not_batch_pull=${batch}`,
      "event_type=action.queue.leave",
      "not_event_type=action.queue.change",
      "outcome=failure",
      "not_outcome=neutral",
      "trigger=CI%20Insights",
      "not_trigger=CI%20Insights",
      "base_ref=main",
    ]) {
      const r = await valid("logs/aggregate", `${q}&received_from=${WEEK_AGO}`);
      expect(r.json.total, q).toBeLessThanOrEqual(whole.json.total);
    }
  });
});

describe("statistics", () => {
  test(`every statistics endpoint of the OpenAPI validates, and ${OPENAPI_SAMPLE.filteredStats} of their filters`, async () => {
    expect(STATS_PATHS).toHaveLength(18);
    for (const path of STATS_PATHS) await valid(path);
    for (const { path, query } of sampledStatsQueries()) await valid(path, query);
  });

  test("figures the service adds are there: p95 and a summary per group, sums and counts", async () => {
    const idle = await valid("stats/idle_queue_time", `start_at=${WEEK_AGO}`);
    expect(idle.json.groups.length).toBeGreaterThan(0);
    expect(idle.json.groups[0].summary.p95_idle_capacity).toBeGreaterThanOrEqual(idle.json.groups[0].summary.avg_idle_capacity * 0);
    expect(idle.json.groups[0]).not.toHaveProperty("partition_name");
    const total = await valid("stats/total_queue_time", `start_at=${WEEK_AGO}`);
    const s = total.json.groups[0].stats[0];
    expect(s.sum_queue_time / s.count_queue_time).toBeCloseTo(s.avg_queue_time, 1);
  });

  test("average_queue_time does not exist on the service: 404, FastAPI's body", async () => {
    const r = await get(`${served.base}/stats/average_queue_time`, AUTH);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ detail: "Not Found" });
  });
});
