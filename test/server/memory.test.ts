import { describe, expect, it } from "vitest";
import { MAX_SIMULATED_REPOS, Repositories } from "../../src/server/index.js";
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
