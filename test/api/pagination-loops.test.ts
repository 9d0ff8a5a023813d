// Pagination that cannot loop: a server handing out fresh cursors over the same events, pages
// going back in time, or empty pages without end is stopped with exit 6, each event written once.
// Before: `mq logs --all` ran until the server gave up (5,001 requests), printing events again.
import { afterEach, describe, expect, it } from "vitest";
import { eventRange, ndjson, type FaultServer } from "../helpers/fault-server.js";
import { startLoopingServer, type Loop } from "../helpers/looping-server.js";
import { lines, runMq } from "../reliability/harness.js";
import { MAX_EMPTY_PAGES } from "../../src/api/pagination-guard.js";

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function logs(loop: Loop, ...more: string[]) {
  server = await startLoopingServer(loop);
  return runMq(["logs", "--repo", "acme/web", "--all", "-o", "ndjson", "--per-page", "10", ...more], { apiUrl: server.url });
}

describe("a page walk that would not end", () => {
  it("the same events with a fresh cursor: stopped at the second page, written once", async () => {
    const r = await logs("same-events");
    expect(r.code).toBe(6);
    expect(r.stdout).toBe(ndjson(eventRange(100, 10)));
    expect(lines(r.stderr).slice(0, 2)).toEqual([
      "mq: the server's page 2 repeats event 100, already written: its pagination would loop",
      "mq stopped after 10 events (1 page), each written once; report this to the API provider",
    ]);
    // the page after the refused one may have been asked ahead (one request, aborted)
    expect(server!.requests.length).toBeGreaterThanOrEqual(2);
    expect(server!.requests.length).toBeLessThanOrEqual(3);
  });

  it("the same with parallel time slices", async () => {
    const r = await logs("same-events", "--since", "2026-11-19T00:00:00Z", "--until", "2026-11-20T11:00:00Z", "--parallel", "2");
    expect(r.code).toBe(6);
    expect(lines(r.stderr)[0]).toMatch(/^mq: the server's page 2 repeats event \d+, already written: its pagination would loop$/);
    const ids = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(server!.requests.length).toBeLessThan(20);
  });

  it("pages that go back in time: stopped before the newer page is written", async () => {
    const r = await logs("back-in-time");
    expect(r.code).toBe(6);
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(10);
    expect(lines(r.stderr)[0]).toBe(
      "mq: the server's page 2 goes back in time: event 120 at 2026-11-20 10:00:20Z is newer than the pages before it (down to 2026-11-20 10:00:01Z), in a log that is newest first",
    );
    // the page after the refused one may have been asked ahead (one request, aborted)
    expect(server!.requests.length).toBeGreaterThanOrEqual(2);
    expect(server!.requests.length).toBeLessThanOrEqual(3);
  });

  it(`empty pages with a next link: stopped after ${MAX_EMPTY_PAGES}`, async () => {
    const r = await logs("empty-pages");
    expect(r.code).toBe(6);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toEqual([
      `mq: the server sent ${MAX_EMPTY_PAGES} empty pages in a row, each with a next page: its pagination would not end`,
      "mq stopped after 0 events (20 pages), each written once; report this to the API provider",
    ]);
    expect(server!.requests.length).toBeGreaterThanOrEqual(MAX_EMPTY_PAGES);
    expect(server!.requests.length).toBeLessThanOrEqual(MAX_EMPTY_PAGES + 1);
  });
});
