import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { dayOf, reachOf, simulateDay, simulateRepository } from "../../src/server/simulate/index.js";
import { EVENT_TYPES, TYPED_EVENT_TYPES, UNTYPED_EVENT_TYPES } from "../../src/api/dialects/spec.js";
import { eventSchemas } from "../../src/api/schema/events.js";
import { AUTH, NOW, get, linkOf, qs, walk, type Ev } from "./helpers.js";

const { EventSchema } = eventSchemas();

let server: RunningServer;
let logs: string;
const HOUR = 3_600_000;
const from6h = new Date(NOW.getTime() - 6 * HOUR).toISOString();

const key = (e: Ev) => [Date.parse(e.received_at), e.id] as const;
function isNewestFirst(events: Ev[]): boolean {
  for (let i = 1; i < events.length; i++) {
    const [ta, ia] = key(events[i - 1]!);
    const [tb, ib] = key(events[i]!);
    if (tb > ta || (tb === ta && ib >= ia)) return false;
  }
  return true;
}

/** the index of the first event whose id is not above the one before it (-1: ids increase throughout) */
const firstIdOutOfOrder = (events: ReadonlyArray<{ id: number }>) => events.findIndex((e, i) => i > 0 && !(e.id > events[i - 1]!.id));

// the default 30-day history of acme/web, simulated once for the tests that only read it
let month: ReturnType<typeof simulateRepository> | undefined;
const defaultMonth = () => (month ??= simulateRepository({ repo: "acme/web", seed: 0, now: NOW, days: 30 }));

beforeAll(async () => {
  server = await startServer({ port: 0, seed: 1, days: 3, now: NOW });
  logs = `${server.url}/v1/repos/acme/web/logs`;
});
afterAll(() => server.close());

describe("the simulated history", () => {
  it("has every one of the 38 typed event types, and untyped ones, in a default 30-day history", () => {
    const events = defaultMonth();
    const types = new Set(events.map((e) => e.type));
    expect(TYPED_EVENT_TYPES.filter((t) => !types.has(t))).toEqual([]);
    expect(UNTYPED_EVENT_TYPES.filter((t) => types.has(t)).length).toBeGreaterThanOrEqual(3);
    expect(events.length).toBeGreaterThan(50_000);
    expect([...types].every((t) => (EVENT_TYPES as readonly string[]).includes(t))).toBe(true);
  });

  it("gives unique increasing ids in time order, one session_id per queue session", () => {
    const events = simulateRepository({ repo: "acme/api", seed: 3, now: NOW, days: 5 });
    // one expect over the whole list: one per event costs more than the simulation
    expect(firstIdOutOfOrder(events)).toBe(-1);
    expect(events.findIndex((e, i) => i > 0 && !(e.received_at >= events[i - 1]!.received_at))).toBe(-1);
    const enters = events.filter((e) => e.type === "action.queue.enter");
    const sessions = new Set(enters.map((e) => e.metadata.session_id));
    expect(sessions.size).toBe(enters.length);
    // a session leaves at most once
    const leaves = events.filter((e) => e.type === "action.queue.leave").map((e) => e.metadata.session_id);
    expect(new Set(leaves).size).toBe(leaves.length);
    for (const l of leaves) expect(sessions.has(l)).toBe(true);
  });

  it("matches the contract's zod schema for every typed event", () => {
    const events = defaultMonth();
    const firstOfType = new Map<string, unknown>();
    for (const e of events) if (!firstOfType.has(e.type)) firstOfType.set(e.type, e);
    for (const [type, e] of firstOfType) {
      const r = EventSchema.safeParse(e);
      expect(r.success, `${type}: ${r.success ? "" : r.error.message}`).toBe(true);
    }
  });

  it("is deterministic per seed and repository, and differs across them", () => {
    const a = JSON.stringify(simulateRepository({ repo: "o/r", seed: 5, now: NOW, days: 2 }));
    const b = JSON.stringify(simulateRepository({ repo: "o/r", seed: 5, now: NOW, days: 2 }));
    const c = JSON.stringify(simulateRepository({ repo: "o/r", seed: 6, now: NOW, days: 2 }));
    const d = JSON.stringify(simulateRepository({ repo: "o/s", seed: 5, now: NOW, days: 2 }));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).not.toBe(d);
  });
});

describe("the day-by-day simulation", () => {
  const DAY = 86_400_000;

  it("keeps each day's events from its 00:00 UTC to the end of the days it reaches, ids increasing", () => {
    const last = dayOf(NOW.getTime());
    for (let d = last - 20; d <= last; d++) {
      const events = simulateDay({ repo: "acme/web", seed: 0, day: d });
      expect(events.length).toBeGreaterThan(500);
      expect(Date.parse(events[0]!.received_at)).toBeGreaterThanOrEqual(d * DAY);
      expect(Date.parse(events.at(-1)!.received_at)).toBeLessThan((d + 1 + reachOf(d)) * DAY);
      expect(firstIdOutOfOrder(events), `day ${d}`).toBe(-1);
    }
  });

  it("answers a window the same whatever was asked before (days are simulated on demand)", async () => {
    const window = `${qs({ received_from: new Date(NOW.getTime() - 2 * DAY).toISOString(), received_to: NOW.toISOString(), per_page: 100, event_type: ["action.queue.enter", "action.queue.leave", "scheduled_freeze.create", "ci_issue.resolved"] })}`;
    const fresh = await startServer({ port: 0, seed: 3, days: 5, now: NOW });
    const warmed = await startServer({ port: 0, seed: 3, days: 5, now: NOW });
    try {
      // the second server has simulated other days first, in another order
      await get(
        `${warmed.url}/v1/repos/acme/web/logs?${qs({ received_from: new Date(NOW.getTime() - 4 * DAY).toISOString(), received_to: new Date(NOW.getTime() - 4 * DAY + 3_600_000).toISOString() })}`,
      );
      await get(`${warmed.url}/v1/repos/acme/web/stats/queues_entered_count`);
      const a = await walk(`${fresh.url}/v1/repos/acme/web/logs?${window}`);
      const b = await walk(`${warmed.url}/v1/repos/acme/web/logs?${window}`);
      expect(a.events.length).toBeGreaterThan(500);
      expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
      // and the same as the whole history simulated at once
      const from = NOW.getTime() - 2 * DAY;
      const types = new Set(["action.queue.enter", "action.queue.leave", "scheduled_freeze.create", "ci_issue.resolved"]);
      const whole = simulateRepository({ repo: "acme/web", seed: 3, now: NOW, days: 5 }).filter(
        (e) => types.has(e.type) && Date.parse(e.received_at) >= from,
      );
      expect(a.events.map((e) => e.id)).toEqual(whole.map((e) => e.id).reverse());
    } finally {
      await fresh.close();
      await warmed.close();
    }
  });

  it("starts the history at 00:00 UTC of the first day and ends at now, truncated to the second", async () => {
    const s = await startServer({ port: 0, seed: 1, days: 2, now: new Date(NOW.getTime() + 789) });
    try {
      const url = `${s.url}/v1/repos/acme/web`;
      const newest = await get(`${url}/logs?per_page=1`);
      expect(Date.parse(newest.json.events[0].received_at)).toBeLessThanOrEqual(NOW.getTime());
      const oldest = await get(
        linkOf((await get(`${url}/logs?${qs({ received_from: "2026-11-01T00:00:00Z" })}`)).headers.get("link"), "last")!,
      );
      expect(oldest.json.events.at(-1).received_at >= "2026-11-18T00:00:00.000Z").toBe(true);
      expect(oldest.json.events.at(-1).received_at < "2026-11-18T01:00:00.000Z").toBe(true);
      const stats = await get(`${url}/stats/queues_entered_count`);
      expect(stats.json.groups[0].stats[0].start).toBe("2026-11-19T12:00:00.000Z");
      expect(stats.json.groups[0].stats.at(-1).end).toBe("2026-11-20T12:00:00.000Z");
    } finally {
      await s.close();
    }
  });
});

describe("GET /logs pagination", () => {
  it("defaults to the last day up to now, 10 per page, newest first", async () => {
    const r = await get(logs);
    expect(r.status).toBe(200);
    expect(r.json.size).toBe(10);
    expect(r.json.per_page).toBe(10);
    expect(r.json.events).toHaveLength(10);
    expect(isNewestFirst(r.json.events)).toBe(true);
    expect(Date.parse(r.json.events[0].received_at)).toBeLessThanOrEqual(NOW.getTime());
    const link = r.headers.get("link")!;
    // relative references: resolved against the request's URL (RFC 8288)
    expect(linkOf(link, "next")).toMatch(/^\/v1\/repos\/acme\/web\/logs\?cursor=/);
    expect(linkOf(link, "first")).toBe("/v1/repos/acme/web/logs");
    expect(linkOf(link, "last")).toMatch(/cursor=/);
    expect(linkOf(link, "prev")).toBeUndefined();
  });

  it("walking next yields every event of the window exactly once, newest first, whatever the page size", async () => {
    const big = await walk(`${logs}?${qs({ received_from: from6h, per_page: 100 })}`);
    const small = await walk(`${logs}?${qs({ received_from: from6h, per_page: 37 })}`);
    expect(big.events.length).toBeGreaterThan(300);
    expect(isNewestFirst(big.events)).toBe(true);
    expect(small.events.map((e) => e.id)).toEqual(big.events.map((e) => e.id));
    expect(new Set(big.events.map((e) => e.id)).size).toBe(big.events.length);
    expect(big.pages).toBe(Math.ceil(big.events.length / 100));
    for (const e of big.events) {
      expect(Date.parse(e.received_at)).toBeGreaterThanOrEqual(Date.parse(from6h));
      expect(Date.parse(e.received_at)).toBeLessThanOrEqual(NOW.getTime());
    }
  });

  it("walking prev from the last page yields the same events, oldest page first", async () => {
    const all = await walk(`${logs}?${qs({ received_from: from6h, per_page: 100 })}`);
    const first = await get(`${logs}?${qs({ received_from: from6h, per_page: 50 })}`);
    const last = linkOf(first.headers.get("link"), "last")!;
    const lastPage = await get(last);
    expect(linkOf(lastPage.headers.get("link"), "next")).toBeUndefined();
    const up = await walk(last, "prev");
    const ids = up.events.map((e) => e.id).sort((a, b) => b - a);
    expect(ids).toEqual(all.events.map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps every filter in the Link URLs", async () => {
    const r = await get(
      `${logs}?${qs({ event_type: ["action.queue.enter", "action.queue.leave"], base_ref: "main", per_page: 5, received_from: from6h })}`,
    );
    const next = new URL(linkOf(r.headers.get("link"), "next")!, server.url);
    expect(next.searchParams.getAll("event_type")).toEqual(["action.queue.enter", "action.queue.leave"]);
    expect(next.searchParams.get("base_ref")).toBe("main");
    expect(next.searchParams.get("per_page")).toBe("5");
    expect(next.searchParams.get("received_from")).toBe(from6h);
    const prevPage = await get(next.toString());
    expect(linkOf(prevPage.headers.get("link"), "prev")).toContain("event_type=action.queue.enter&event_type=action.queue.leave");
  });

  it("records the exact query string it received", async () => {
    const path = `/v1/repos/acme/web/logs?event_type=action.queue.enter&event_type=action.queue.merged&per_page=3`;
    await get(`${server.url}${path}`);
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", url: path, headers: { authorization: AUTH.authorization } });
  });
});

describe("GET /logs filters", () => {
  let all: Ev[];
  beforeAll(async () => {
    all = (await walk(`${logs}?${qs({ received_from: from6h, per_page: 100 })}`)).events;
  });

  it("event_type (repeated keys) returns exactly the events of those types", async () => {
    const types = ["action.queue.enter", "action.queue.checks_end", "queue.pause.create"];
    const got = await walk(`${logs}?${qs({ received_from: from6h, per_page: 100, event_type: types })}`);
    expect(got.events.map((e) => e.id)).toEqual(all.filter((e) => types.includes(e.type)).map((e) => e.id));
  });

  it("pull_request returns the events of that pull request only", async () => {
    const pr = all.find((e) => e.type === "action.queue.merged")!.pull_request!;
    const got = await walk(`${logs}?${qs({ received_from: from6h, per_page: 100, pull_request: pr })}`);
    expect(got.events.length).toBeGreaterThan(2);
    expect(got.events.map((e) => e.id)).toEqual(all.filter((e) => e.pull_request === pr).map((e) => e.id));
  });

  it("base_ref returns the events of that base ref only", async () => {
    const got = await walk(`${logs}?${qs({ received_from: from6h, per_page: 100, base_ref: "release/v2" })}`);
    expect(got.events.length).toBeGreaterThan(0);
    expect(got.events.map((e) => e.id)).toEqual(all.filter((e) => e.base_ref === "release/v2").map((e) => e.id));
  });

  it("combines pull_request, event_type and base_ref", async () => {
    const pr = all.find((e) => e.type === "action.queue.merged" && e.base_ref === "main")!.pull_request!;
    const got = await walk(
      `${logs}?${qs({ received_from: from6h, per_page: 100, pull_request: pr, base_ref: "main", event_type: ["action.queue.merged"] })}`,
    );
    expect(got.events.map((e) => e.id)).toEqual(
      all.filter((e) => e.pull_request === pr && e.type === "action.queue.merged").map((e) => e.id),
    );
  });

  it("received_from and received_to bound the window, both inclusive", async () => {
    const inner = all.slice(20, 60);
    const to = inner[0]!.received_at;
    const from = inner[inner.length - 1]!.received_at;
    const got = await walk(`${logs}?${qs({ received_from: from, received_to: to, per_page: 100 })}`);
    expect(got.events.map((e) => e.id)).toEqual(all.filter((e) => e.received_at >= from && e.received_at <= to).map((e) => e.id));
  });

  it("an empty window gives an empty page with first and last links only", async () => {
    const r = await get(`${logs}?${qs({ received_from: "2020-01-01T00:00:00Z", received_to: "2020-01-02T00:00:00Z" })}`);
    expect(r.json).toEqual({ size: 0, per_page: 10, events: [] });
    expect(linkOf(r.headers.get("link"), "next")).toBeUndefined();
    expect(linkOf(r.headers.get("link"), "first")).toBeDefined();
  });

  it("appended events become visible, and move the default window forward", async () => {
    const at = new Date(NOW.getTime() + 60_000).toISOString();
    server.appendEvents("acme/web", [
      {
        id: 999_999_999,
        received_at: at,
        trigger: "test",
        repository: "acme/web",
        pull_request: 1,
        base_ref: "main",
        type: "action.refresh",
        metadata: {},
      },
    ]);
    const r = await get(`${logs}?per_page=1`);
    expect(r.json.events[0].id).toBe(999_999_999);
  });
});
