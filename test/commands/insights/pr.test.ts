// `mq pr N` against a loopback server holding the hand-made history of #7 (test/insights/fixture.ts):
// the expected timeline below was worked out by hand from the fixture's event list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { testContext } from "../../helpers/context.js";
import { prSevenEvents } from "../../insights/fixture.js";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    port: 0,
    now: new Date("2026-11-20T12:00:00Z"),
    events: { "acme/web": prSevenEvents("contract") as never },
  });
});
afterAll(async () => {
  await server?.close();
});

async function mq(args: string[]) {
  const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
  const before = server.requests.length;
  const code = await main([...args, "--api-url", server.url, "--repo", "acme/web", "--color", "never"], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText(), requests: server.requests.slice(before).map((r) => r.url) };
}

const WINDOW = ["--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T12:00:00Z"];

// By hand. Stay 1: entered 10:00:00, left 10:40:23 (40m 23s); first checks 10:05:00, so 5m waiting,
// all for capacity (no schedule or freeze); runs 10:05:00-10:25:00 (20m, batch #7 #8 #9) and
// 10:25:15-10:40:15 (15m, #7 alone after the bisection): CI 35m in 2 runs. Stay 2: entered 11:00:00,
// left 11:22:16 (22m 16s); first checks 11:02:00 (2m); runs 11:02-11:12 (10m, failed, retried) and
// 11:12:10-11:22:10 (10m, retry 1, success): CI 20m, 1 retry. The WAIT column is the time since the
// step above; the queue and requeue commands come just before the stay they start.
const EXPECTED = `#7 in acme/web: 2 stays in the queue from 2026-11-20 00:00:00Z to 2026-11-20 12:00:00Z

Stay 1 of 2: base main, queue default, entered 2026-11-20 10:00:00Z: failed, CHECKS_FAILED (Checks failed), after 40m 23s
  time in queue 40m 23s: waiting 5m 23s (capacity 5m 23s), CI 35m in 2 runs, 0 retries, largest batch 3, 1 bisection
  TIME                    WAIT  STEP
  2026-11-20 09:59:50Z       -  queue command by @alice
  2026-11-20 10:00:00Z     10s  entered queue default
  2026-11-20 10:05:00Z   5m 0s  checks started (First time checks) in a batch with #8, #9
  2026-11-20 10:25:00Z  20m 0s  checks ended: failure (ci/test), CHECKS_FAILED, re-embarked
  2026-11-20 10:25:05Z      5s  batch bisection started: batch of #7, #8, #9
  2026-11-20 10:25:15Z     10s  checks started (Batch bisection)
  2026-11-20 10:40:15Z  15m 0s  checks ended: failure (ci/test), CHECKS_FAILED
  2026-11-20 10:40:20Z      5s  batch bisection ended: culprit #7
  2026-11-20 10:40:23Z      3s  left the queue: CHECKS_FAILED (Checks failed)
  RUN  STARTED               ENDED                 TIME  BATCH     RESULT
    1  2026-11-20 10:05:00Z  2026-11-20 10:25:00Z   20m  #7 #8 #9  failure (ci/test), CHECKS_FAILED, re-embarked
    2  2026-11-20 10:25:15Z  2026-11-20 10:40:15Z   15m  #7        failure (ci/test), CHECKS_FAILED, started for: Batch bisection

Stay 2 of 2: base main, queue default, entered 2026-11-20 11:00:00Z: merged after 22m 16s
  time in queue 22m 16s: waiting 2m 16s (capacity 2m 16s), CI 20m in 2 runs, 1 retry, largest batch 1, 0 bisections
  TIME                    WAIT  STEP
  2026-11-20 10:59:57Z       -  requeue command by @alice
  2026-11-20 11:00:00Z      3s  entered queue default
  2026-11-20 11:02:00Z   2m 0s  checks started (First time checks)
  2026-11-20 11:12:00Z  10m 0s  checks ended: failure (ci/e2e), CHECKS_RETRIED, re-embarked
  2026-11-20 11:12:04Z      4s  CI job retried by rule Retry flaky jobs (attempt 1)
  2026-11-20 11:12:10Z      6s  checks started (Re-embarked pull requests)
  2026-11-20 11:22:10Z  10m 0s  checks ended: success, retry 1
  2026-11-20 11:22:15Z      5s  merged
  2026-11-20 11:22:16Z      1s  left the queue: merged
  RUN  STARTED               ENDED                 TIME  BATCH  RESULT
    1  2026-11-20 11:02:00Z  2026-11-20 11:12:00Z   10m  #7     failure (ci/e2e), CHECKS_RETRIED, re-embarked
    2  2026-11-20 11:12:10Z  2026-11-20 11:22:10Z   10m  #7     success, retry 1, started for: Re-embarked pull requests
`;

describe("mq pr N", () => {
  it("explains a requeued, batched pull request step by step", async () => {
    const r = await mq(["pr", "7", ...WINDOW, "-o", "table"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toBe(EXPECTED);
    // the pull request's events, then the bisections over the span of its batched stay
    expect(r.requests).toEqual([
      "/v1/repos/acme/web/logs?pull_request=7&received_from=2026-11-20T00%3A00%3A00Z&received_to=2026-11-20T12%3A00%3A00Z&per_page=100",
      "/v1/repos/acme/web/logs?event_type=action.queue.batch_bisection_start&event_type=action.queue.batch_bisection_end&received_from=2026-11-20T10%3A00%3A00Z&received_to=2026-11-20T10%3A40%3A23Z&per_page=100",
    ]);
  });

  it("json: each stay with its figures, steps and runs", async () => {
    const r = await mq(["pr", "#7", ...WINDOW, "-o", "json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(
      doc.stays.map((s: Record<string, unknown>) => [
        s.outcome,
        s.reason,
        s.queue_time,
        s.wait_time,
        s.ci_time,
        s.retries,
        s.batch_size,
        s.bisections,
      ]),
    ).toEqual([
      ["failed", "CHECKS_FAILED", 2423, 323, 2100, 0, 3, 1],
      ["merged", "SUCCESS", 1336, 136, 1200, 1, 1, 0],
    ]);
    expect(doc.stays[0].runs[0]).toMatchObject({
      started_at: "2026-11-20T10:05:00Z",
      ended_at: "2026-11-20T10:25:00Z",
      duration: 1200,
      pull_requests: [7, 8, 9],
      conclusion: "failure",
      failed_checks: ["ci/test"],
    });
    expect(doc.stays[1].steps.map((s: { wait: number | null }) => s.wait)).toEqual([null, 3, 120, 600, 4, 6, 600, 5, 1]);
  });

  it("ndjson: one line per step", async () => {
    const r = await mq(["pr", "7", ...WINDOW, "-o", "ndjson"]);
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(18);
    expect(lines[0]).toEqual({
      repository: "acme/web",
      pull_request: 7,
      stay: 1,
      at: "2026-11-20T09:59:50.000Z",
      wait: null,
      type: "command.queue",
      text: "queue command by @alice",
    });
  });

  it("a pull request without a stay in the window: a note, no rows, exit 0", async () => {
    const r = await mq(["pr", "8", "--since", "2026-11-20T11:00:00Z", "--until", "2026-11-20T12:00:00Z", "-o", "ndjson"]);
    expect(r).toMatchObject({ code: 0, out: "" });
    expect(r.err).toBe("mq: #8 has no queue stay from 2026-11-20 11:00:00Z to 2026-11-20 12:00:00Z; --since reaches further back.\n");
  });

  it("a number that is not one is a usage error, nothing sent", async () => {
    for (const bad of ["0", "abc", "12.5", "2147483647"]) {
      const r = await mq(["pr", bad]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`mq: pull request number must be an integer from 1 to 2147483646, not "${bad}".\n`);
      expect(r.requests).toEqual([]);
    }
  });
});

describe("what a hostile server sends is shown, not obeyed", () => {
  let hostile: RunningServer;
  beforeAll(async () => {
    // the fixture with escape sequences and a line break in the queue name, the reason and a check name
    const events = prSevenEvents("contract").map((e) => {
      const m = e.metadata as Record<string, unknown>;
      const metadata: Record<string, unknown> = { ...m };
      if (typeof m.queue_name === "string") metadata.queue_name = "q\u001b[2J\u001b]0;pwned\u0007";
      if (e.type === "action.queue.leave" && m.merged === false) metadata.reason = "Checks failed\n#99  main  fake row";
      if (e.type === "action.queue.checks_end" && e.id === 1005) {
        const spec = m.speculative_check_pull_request as Record<string, unknown>;
        metadata.speculative_check_pull_request = {
          ...spec,
          unsuccessful_checks: [{ name: "ci/\u001b[31mtest", description: "", url: null, state: "failure", avatar_url: null }],
        };
      }
      return { ...e, metadata };
    });
    hostile = await startServer({ port: 0, now: new Date("2026-11-20T12:00:00Z"), events: { "acme/web": events as never } });
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it("mq pr, mq prs and mq insights print control characters as \\uXXXX", async () => {
    for (const args of [
      ["pr", "7", "-o", "table"],
      ["prs", "-o", "table"],
      ["insights", "--slowest", "3"],
    ]) {
      const ctx = testContext({ tty: args[0] === "insights", env: { MQ_TOKEN: "test-token-1234" } });
      const code = await main([...args, ...WINDOW, "--api-url", hostile.url, "--repo", "acme/web", "--color", "never"], ctx);
      const out = ctx.stdoutText();
      expect(code).toBe(0);
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      if (args[0] !== "insights") expect(out).toContain("q\\u001b[2J\\u001b]0;pwned\\u0007");
      if (args[0] === "pr") {
        expect(out).toContain("failure (ci/\\u001b[31mtest), CHECKS_FAILED, re-embarked");
        expect(out).toContain("dequeued, Checks failed\\u000a#99  main  fake row, after 40m 23s");
      }
    }
  });
});
