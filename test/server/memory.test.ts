import { describe, expect, it } from "vitest";
import { BudgetError, Repositories, simulateRepository, startServer } from "../../src/server/index.js";
import { dataBytesFor } from "../../src/server/budget.js";
import type { StoredEvent } from "../../src/server/store.js";
import { NOW } from "./helpers.js";

const HOUR = 3_600_000;
const to = NOW.getTime();
const from = to - HOUR;

/** the newest page of the last hour, as served */
async function page(repos: Repositories, repo: string): Promise<string[]> {
  return (await repos.page(repo, { from, to, perPage: 20 })).json;
}

const HUGE = { from: Date.parse("0001-01-01T00:00:00Z"), to: Date.parse("9999-12-31T00:00:00Z") };

describe("simulated repositories kept within a memory budget", () => {
  const BUDGET = 40 * 1048576;

  it("holds at most the budget, dropping the least recently used; a dropped one comes back identical", async () => {
    const repos = new Repositories({ seed: 3, days: 1, now: NOW, budgetBytes: BUDGET });
    const first = await page(repos, "acme/r0");
    expect(first.length).toBe(20);
    for (let i = 1; i < 12; i++) {
      await page(repos, `acme/r${i}`);
      expect(repos.heldBytes).toBeLessThanOrEqual(BUDGET);
    }
    // r11 used again: it is the most recently used
    await page(repos, "acme/r4");
    const cached = repos.cachedRepositories();
    expect(cached.length).toBeLessThan(12);
    expect(cached[cached.length - 1]).toBe("acme/r4");
    expect(cached).not.toContain("acme/r0");
    expect(await page(repos, "acme/r0")).toEqual(first);
    expect(repos.heldBytes).toBeLessThanOrEqual(BUDGET);
  });

  it("never drops a repository holding appended events", async () => {
    const repos = new Repositories({ seed: 3, days: 1, now: NOW, budgetBytes: BUDGET });
    const ev = {
      id: to * 1024 + 1023,
      received_at: NOW.toISOString(),
      trigger: "t",
      repository: "acme/kept",
      pull_request: null,
      base_ref: null,
      type: "action.refresh",
      metadata: {},
    };
    repos.append("acme/kept", [ev as unknown as StoredEvent]);
    for (let i = 0; i < 12; i++) await page(repos, `acme/r${i}`);
    expect(repos.cachedRepositories()).toContain("acme/kept");
    expect(JSON.parse((await page(repos, "acme/kept"))[0]!)).toEqual(ev);
  });

  it("refuses a window whose events alone cannot fit, with a clear error, and keeps serving", async () => {
    const repos = new Repositories({ seed: 3, days: 365, now: NOW, budgetBytes: BUDGET });
    // a filter nothing matches walks the whole year
    await expect(repos.page("acme/web", { ...HUGE, perPage: 10, pullRequest: 1 })).rejects.toThrow(BudgetError);
    await expect(repos.page("acme/web", { ...HUGE, perPage: 10, pullRequest: 1 })).rejects.toThrow(
      /more than the server's memory budget \(40 MB, mq serve --memory-budget\)/,
    );
    expect(repos.heldBytes).toBeLessThanOrEqual(BUDGET);
    expect((await page(repos, "acme/web")).length).toBe(20);
  });
});

describe("statistics over long windows within a small budget", () => {
  // each repository's 19 whole days of partials (about 1.1 MB) fit the data share of a 5 MB
  // budget (1.5 MB) alone, not two together: asking r1 drops r0's partials, kept day by day as its
  // cold window is read, and r0 asked again is simulated again. Whole days (daily buckets, no
  // partial day at either edge): only per-day partials are read, never a day's events.
  const DAYS = 20;
  const since = Date.parse("2026-11-01T00:00:00Z");
  const until = Date.parse("2026-11-20T00:00:00Z");
  const names = ["failure-rate", "queues-pr-exit-reasons", "average-queue-time"];
  const ask = async (repos: Repositories, repo: string) => {
    const out: unknown[] = [];
    for (const name of names) out.push(await repos.stats(repo, name, since, until, {}));
    return out;
  };

  it("evicts and simulates again deterministically: the same figures as a server that kept everything", async () => {
    const small = new Repositories({ seed: 3, days: DAYS, now: NOW, budgetBytes: 5 * 1048576 });
    const r0 = await ask(small, "acme/r0");
    const r1 = await ask(small, "acme/r1");
    expect(small.cachedRepositories()).toEqual(["acme/r1"]);
    expect(small.heldBytes).toBeLessThanOrEqual(dataBytesFor(5 * 1048576));
    expect(await ask(small, "acme/r0")).toEqual(r0);
    const big = new Repositories({ seed: 3, days: DAYS, now: NOW, budgetBytes: 1024 * 1048576 });
    expect(await ask(big, "acme/r0")).toEqual(r0);
    expect(r1).not.toEqual(r0);
  }, 30_000);

  it("holds data within 30% of the worker's old-generation cap, not only of the budget", () => {
    // a 256 MB budget: young generation 64 MB, old generation capped at 128 MB
    expect(dataBytesFor(256 * 1048576)).toBe(Math.floor(128 * 1048576 * 0.3));
    // from 512 MB, the statistics helper thread's share too (80 MB: its caps and its isolate)
    expect(dataBytesFor(512 * 1048576)).toBe(Math.floor(240 * 1048576 * 0.3));
    // tiny budgets (tests) below the cap's floor: a share of the budget itself
    expect(dataBytesFor(40 * 1048576)).toBe(Math.floor(40 * 1048576 * 0.3));
  });
});

describe("a page of /logs over a huge window", () => {
  it("simulates only the days the page reaches, not the whole history", async () => {
    const repos = new Repositories({ seed: 3, days: 365, now: NOW });
    const p = await repos.page("acme/web", { ...HUGE, perPage: 100 });
    expect(p.events).toHaveLength(100);
    expect(p.hasNext).toBe(true);
    expect(Date.parse(p.events[0]!.received_at)).toBeLessThanOrEqual(NOW.getTime());
    expect(repos.simulatedDays("acme/web")).toBeLessThanOrEqual(6);
    // the next page, from its cursor, is as cheap
    const last = p.events[p.events.length - 1]!;
    await repos.page("acme/web", { ...HUGE, perPage: 100, cursor: { dir: "next", t: Date.parse(last.received_at), id: String(last.id) } });
    expect(repos.simulatedDays("acme/web")).toBeLessThanOrEqual(6);
  });

  it("simulates the page's day and the one before it for a page of the last hours (mq logs, mq --offline)", async () => {
    // NOW is a Friday noon: the day before reaches into it, no earlier day does
    const repos = new Repositories({ seed: 3, days: 30, now: NOW });
    const p = await repos.page("acme/web", { from: to - 7 * 24 * HOUR, to, perPage: 100 });
    expect(p.events).toHaveLength(100);
    expect(repos.simulatedDays("acme/web")).toBe(2);
    // the oldest page: the history's first day alone
    const oldest = new Repositories({ seed: 3, days: 30, now: NOW });
    expect((await oldest.page("acme/web", { ...HUGE, perPage: 100, cursor: { dir: "last" } })).events).toHaveLength(100);
    expect(oldest.simulatedDays("acme/web")).toBe(1);
  });

  it("gives the same pages as the whole history", async () => {
    const seed = 5;
    const days = 12;
    const all = simulateRepository({ repo: "acme/web", seed, now: NOW, days }).slice().reverse(); // newest first
    const repos = new Repositories({ seed, days, now: NOW });
    const oldestPr = all[all.length - 1]!.pull_request ?? all.find((e) => e.pull_request !== null)!.pull_request!;
    const queries: Array<[string, (e: (typeof all)[number]) => boolean, { types?: string[]; pullRequest?: number; baseRef?: string }]> = [
      ["no filter", () => true, {}],
      ["a rare type", (e) => e.type === "queue.pause.create", { types: ["queue.pause.create"] }],
      ["the oldest pull request", (e) => e.pull_request === oldestPr, { pullRequest: oldestPr }],
      ["a base ref", (e) => e.base_ref === "release/v2", { baseRef: "release/v2" }],
    ];
    for (const [name, keep, filter] of queries) {
      const want = all.filter(keep).map((e) => e.id);
      expect(want.length, name).toBeGreaterThan(0);
      const perPage = Math.max(1, Math.min(100, Math.ceil(want.length / 3)));
      const got: number[] = [];
      let cursor: { dir: "next"; t: number; id: string } | undefined;
      for (let pages = 0; pages < 4; pages++) {
        const p = await repos.page("acme/web", { ...HUGE, ...filter, perPage, cursor });
        got.push(...p.events.map((e) => e.id));
        expect(p.hasPrev, name).toBe(pages > 0);
        if (!p.hasNext) break;
        const last = p.events[p.events.length - 1]!;
        cursor = { dir: "next", t: Date.parse(last.received_at), id: String(last.id) };
      }
      expect(got, name).toEqual(want.slice(0, got.length));
      if (want.length <= 3 * perPage) expect(got.length, name).toBe(want.length);
    }
  });
});

describe("the default budget", () => {
  // a 512 MB default refused the default 30-day history of a single repository (about 166 MB of
  // events against a 154 MB data share): `mq --offline pr N` and every filtered 30-day query got a 422
  it("serves a filtered query over the whole default 30-day history of one repository", async () => {
    const server = await startServer({ port: 0, seed: 0, days: 30, now: NOW });
    try {
      const since = new Date(to - 30 * 24 * HOUR).toISOString();
      const res = await fetch(`${server.url}/v1/repos/acme/web/logs?pull_request=4821&received_from=${since}&per_page=100`, {
        headers: { authorization: "Bearer t" },
      });
      expect(res.status, await res.clone().text()).toBe(200);
    } finally {
      await server.close();
    }
  }, 120_000);
});
