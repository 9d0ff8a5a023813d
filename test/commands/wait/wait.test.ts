// `mq wait N` against a loopback server whose present moves: the hand-made history of #7
// (test/insights/fixture.ts) is served up to an instant, the test moves the server's present (the
// Date of its answers, the log's "now" for mq wait) on and appends the events that follow, as they
// would arrive; --max-wait counts on mq's clock. Exit 0 on a merge, 1 on a failure with the why line,
// 124 when --max-wait runs out, 130 on Ctrl-C, at once when it left before the call.
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { prSevenEvents } from "../../insights/fixture.js";
import { runMq } from "../../reliability/harness.js";

type Ev = { received_at: string };
const HISTORY = prSevenEvents("contract") as unknown as Ev[];
const upTo = (iso: string) => HISTORY.filter((e) => e.received_at <= iso);
const arrivingAfter = (iso: string, until = "9999") => HISTORY.filter((e) => e.received_at > iso && e.received_at <= until);

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** the history up to CUT, the server's present NOW() (whole seconds) */
async function serve(cut: string, now: () => Date = () => new Date(cut)) {
  const clock = () => Math.floor(now().getTime() / 1000) * 1000;
  server = await startServer({ now: new Date(cut), clock, events: { "acme/web": upTo(cut) as never } });
  return server;
}

/** resolves once the server has received `n` requests (mq is then between two polls or in one) */
async function requestsReach(s: RunningServer, n: number) {
  while (s.requests.length < n) await new Promise((r) => setTimeout(r, 10));
}

const SINCE = ["--since", "2026-11-20T00:00:00Z"];
const POLL = /^\/v1\/repos\/acme\/web\/logs\?pull_request=7&received_from=[^&]+&received_to=[^&]+&per_page=100$/;
/** the present asked: one event at most, from the present known before */
const PRESENT = /^\/v1\/repos\/acme\/web\/logs\?per_page=1(&received_from=[^&]+)?$/;

describe("mq wait N", () => {
  it("exit 1 when it leaves without merging: a record per change, the why line on stderr", async () => {
    let clock = new Date("2026-11-20T10:30:00Z");
    const s = await serve("2026-11-20T10:30:00Z", () => clock);
    // mq's clock a week ahead: only --max-wait counts on it
    const run = runMq(["wait", "7", ...SINCE, "--interval", "0.1", "-o", "ndjson"], {
      apiUrl: s.url,
      now: () => new Date(clock.getTime() + 7 * 86_400_000),
    });
    // the present, its own events and the bisections of its batched stay, then a first poll's present
    await requestsReach(s, 4);
    s.appendEvents("acme/web", arrivingAfter("2026-11-20T10:30:00Z", "2026-11-20T10:45:00Z") as never);
    clock = new Date("2026-11-20T10:45:00Z");
    const r = await run;
    expect(r.code, r.stderr).toBe(1);
    const why =
      '#7 left the queue at 2026-11-20 10:40:23Z without merging: Checks failed (CHECKS_FAILED); failing: ci/test failure https://ci.example.com/ci/test; next: fix the failing checks, then comment "@mergifyio requeue" on #7';
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        at: "2026-11-20T10:30:00Z",
        pull_request: 7,
        status: "queued",
        queue_name: "default",
        entered_at: "2026-11-20T10:00:00Z",
        state: "bisecting",
        state_since: "2026-11-20T10:25:15Z",
        left_at: null,
        reason: null,
        why: null,
      },
      {
        at: "2026-11-20T10:45:00Z",
        pull_request: 7,
        status: "failed",
        queue_name: "default",
        entered_at: "2026-11-20T10:00:00Z",
        state: null,
        state_since: null,
        left_at: "2026-11-20T10:40:23Z",
        reason: "CHECKS_FAILED",
        why,
      },
    ]);
    expect(r.stderr).toBe(`mq: ${why}\n`);
    const urls = s.requests.map((q) => q.url);
    expect(urls.slice(0, 3)).toEqual([
      "/v1/repos/acme/web/logs?per_page=1",
      "/v1/repos/acme/web/logs?pull_request=7&received_from=2026-11-20T00%3A00%3A00Z&received_to=2026-11-20T10%3A30%3A00Z&per_page=100",
      "/v1/repos/acme/web/logs?event_type=action.queue.batch_bisection_start&event_type=action.queue.batch_bisection_end&received_from=2026-11-20T10%3A00%3A00Z&received_to=2026-11-20T10%3A30%3A00Z&per_page=100",
    ]);
    // each poll asks only from the newest event seen; the last two read its stay again for the culprit
    const polls = urls.slice(3, -2).filter((u) => !PRESENT.test(u));
    expect(polls.length).toBeGreaterThan(0);
    for (const u of polls) expect(u).toMatch(POLL);
    // each poll after the present, asked from the one before
    expect(urls.slice(3, -2).filter((u) => PRESENT.test(u)).length).toBe(polls.length);
    expect(polls[0]).toContain("received_from=2026-11-20T10%3A25%3A15Z");
  });

  it("exit 0 when it merges; under GitHub Actions no annotation", async () => {
    let clock = new Date("2026-11-20T11:05:00Z");
    const s = await serve("2026-11-20T11:05:00Z", () => clock);
    const run = runMq(["wait", "7", ...SINCE, "--interval", "0.1", "-o", "table"], {
      apiUrl: s.url,
      now: () => clock,
      stdoutIsTTY: true,
      env: { GITHUB_ACTIONS: "true" },
    });
    await requestsReach(s, 4);
    s.appendEvents("acme/web", arrivingAfter("2026-11-20T11:05:00Z") as never);
    clock = new Date("2026-11-20T11:30:00Z");
    const r = await run;
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "#7 merged at 2026-11-20 11:22:15Z\n", ""]);
  });

  it("gone before the call: exits at once saying when, with an annotation under GitHub Actions", async () => {
    const s = await serve("2026-11-20T10:50:00Z");
    const r = await runMq(["wait", "7", ...SINCE, "--interval", "0.1", "-o", "table"], {
      apiUrl: s.url,
      now: () => new Date("2026-11-20T10:50:00Z"),
      stdoutIsTTY: true,
      env: { GITHUB_ACTIONS: "true" },
    });
    const why =
      '#7 left the queue at 2026-11-20 10:40:23Z without merging: Checks failed (CHECKS_FAILED); failing: ci/test failure https://ci.example.com/ci/test; next: fix the failing checks, then comment "@mergifyio requeue" on #7 (before the call)';
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`::error title=mq wait #7::${why}\n`);
    expect(r.stderr).toBe(`mq: ${why}\n`);
    expect(s.requests.map((q) => q.url)[0]).toBe("/v1/repos/acme/web/logs?per_page=1");
    expect(s.requests).toHaveLength(3);
  });

  it("not queued yet: waits for it within --max-wait, then exit 124", async () => {
    const s = await serve("2026-11-20T10:50:00Z");
    const t0 = Date.now();
    const base = Date.parse("2026-11-20T10:50:00Z");
    const r = await runMq(["wait", "9", ...SINCE, "--interval", "0.1", "--max-wait", "1s", "-o", "ndjson"], {
      apiUrl: s.url,
      now: () => new Date(base + (Date.now() - t0)),
    });
    expect(r.code).toBe(124);
    expect(JSON.parse(r.stdout.split("\n")[0]!)).toMatchObject({ pull_request: 9, status: "not_queued" });
    expect(r.stderr).toBe("mq: #9 has not entered a queue after --max-wait 1s.\n");
  });

  it("Ctrl-C: exit 130, the records written so far complete", async () => {
    const s = await serve("2026-11-20T10:30:00Z");
    const abort = new AbortController();
    const run = runMq(["wait", "7", ...SINCE, "--interval", "0.1", "-o", "json"], {
      apiUrl: s.url,
      now: () => new Date("2026-11-20T10:30:00Z"),
      signal: abort.signal,
    });
    await requestsReach(s, 4);
    abort.abort();
    const r = await run;
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });

  for (const [args, message] of [
    [["wait", "7", "--interval", "0"], 'mq: --interval must be a number of seconds from 0.1 to 3600, not "0".\n'],
    [["wait", "7", "--max-wait", "8d"], 'mq: --max-wait must be a duration from 1s to 7d (30s, 20m, 2h), not "8d".\n'],
    [["wait", "0"], 'mq: pull request number must be an integer from 1 to 2147483646, not "0".\n'],
  ] as const) {
    it(`${args.join(" ")}: exit 2 before any request`, async () => {
      const s = await serve("2026-11-20T10:30:00Z");
      const r = await runMq([...args], { apiUrl: s.url, now: () => new Date("2026-11-20T10:30:00Z") });
      expect([r.code, r.stdout, r.stderr, s.requests]).toEqual([2, "", message, []]);
    });
  }
});
