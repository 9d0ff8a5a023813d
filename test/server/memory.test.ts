import { describe, expect, it } from "vitest";
import { MAX_SIMULATED_REPOS, Repositories, simulateRepository } from "../../src/server/index.js";
import type { StoredEvent } from "../../src/server/store.js";
import { NOW } from "./helpers.js";

const HOUR = 3_600_000;
const to = NOW.getTime();
const from = to - HOUR;

/** the newest page of the last hour, as served */
function page(repos: Repositories, repo: string): string[] {
  return repos.store(repo, from, to).page({ from, to, perPage: 20 }).json;
}

describe("simulated repositories kept in memory", () => {
  it(`keeps at most ${MAX_SIMULATED_REPOS}, dropping the least recently used; a dropped one comes back identical`, () => {
    const repos = new Repositories({ seed: 3, days: 1, now: NOW });
    const first = page(repos, "acme/r0");
    expect(first.length).toBe(20);
    for (let i = 1; i < 12; i++) page(repos, `acme/r${i}`);
    // r4 used again: it is no longer the least recently used
    page(repos, "acme/r4");
    const cached = repos.cachedRepositories();
    expect(cached).toHaveLength(MAX_SIMULATED_REPOS);
    expect(cached).toEqual(["acme/r5", "acme/r6", "acme/r7", "acme/r8", "acme/r9", "acme/r10", "acme/r11", "acme/r4"]);
    expect(page(repos, "acme/r0")).toEqual(first);
    expect(repos.cachedRepositories()).toHaveLength(MAX_SIMULATED_REPOS);
  });

  it("never drops a repository holding appended events", () => {
    const repos = new Repositories({ seed: 3, days: 1, now: NOW });
    const ev = { id: to * 1024 + 1023, received_at: NOW.toISOString(), trigger: "t", repository: "acme/kept", pull_request: null, base_ref: null, type: "action.refresh", metadata: {} };
    repos.append("acme/kept", [ev as unknown as StoredEvent]);
    for (let i = 0; i < 2 * MAX_SIMULATED_REPOS; i++) page(repos, `acme/r${i}`);
    expect(repos.cachedRepositories()).toContain("acme/kept");
    expect(repos.cachedRepositories()).toHaveLength(MAX_SIMULATED_REPOS);
    expect(JSON.parse(page(repos, "acme/kept")[0]!)).toEqual(ev);
  });
});

describe("a page of /logs over a huge window", () => {
  const HUGE = { from: Date.parse("0001-01-01T00:00:00Z"), to: Date.parse("9999-12-31T00:00:00Z") };

  it("simulates only the days the page reaches, not the whole history", () => {
    const repos = new Repositories({ seed: 3, days: 365, now: NOW });
    const p = repos.page("acme/web", { ...HUGE, perPage: 100 });
    expect(p.events).toHaveLength(100);
    expect(p.hasNext).toBe(true);
    expect(Date.parse(p.events[0]!.received_at)).toBeLessThanOrEqual(NOW.getTime());
    expect(repos.simulatedDays("acme/web")).toBeLessThanOrEqual(6);
    // the next page, from its cursor, is as cheap
    const last = p.events[p.events.length - 1]!;
    repos.page("acme/web", { ...HUGE, perPage: 100, cursor: { dir: "next", t: Date.parse(last.received_at), id: last.id } });
    expect(repos.simulatedDays("acme/web")).toBeLessThanOrEqual(6);
  });

  it("gives the same pages as the whole history", () => {
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
      let cursor: { dir: "next"; t: number; id: number } | undefined;
      for (let pages = 0; pages < 4; pages++) {
        const p = repos.page("acme/web", { ...HUGE, ...filter, perPage, cursor });
        got.push(...p.events.map((e) => e.id));
        expect(p.hasPrev, name).toBe(pages > 0);
        if (!p.hasNext) break;
        const last = p.events[p.events.length - 1]!;
        cursor = { dir: "next", t: Date.parse(last.received_at), id: last.id };
      }
      expect(got, name).toEqual(want.slice(0, got.length));
      if (want.length <= 3 * perPage) expect(got.length, name).toBe(want.length);
    }
  });
});
