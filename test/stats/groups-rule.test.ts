// No figure nobody measured (issue 28, items 3 and 8): several groups combine only by the
// catalogue's rule. The contract sends averages without the count behind them: their all-groups
// value is n/a with the reason (it was the mean of the groups' means), in the table, the summary
// and --fail-if; a mean weighted by a count that is 0 everywhere is no figure. And mq insights
// says why a figure over a window that was read is null.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { windowValue } from "../../src/stats/aggregate.js";
import { testContext } from "../helpers/context.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, now: NOW, days: 2 });
});
afterAll(async () => {
  await server?.close();
});

async function mq(args: string[]) {
  const ctx = testContext({ now: () => NOW, columns: 200 });
  const code = await main(
    [...args, "--api-url", server.url, "--token", "mqk_test_token_1234", "--repo", "acme/web", "--color", "never"],
    ctx,
  );
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

const WHY_QUEUE =
  "the API sends avg_queue_time without the count behind it (no sum_queue_time and count_queue_time), and an average of averages would be wrong";

describe("averages the contract sends without their count, over several groups", () => {
  it("mq stats summary: null, with the reason", async () => {
    const r = await mq(["stats", "summary", "--since", "1d", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.avg_queue_time).toBeNull();
    expect(doc.avg_ci_runtime).toBeNull();
    expect(doc.unavailable.avg_queue_time).toBe(WHY_QUEUE);
    // what has a rule keeps its value
    expect(doc.max_queue_time).toBeGreaterThan(0);
    expect(doc.check_failure_rate).toBeGreaterThan(0);
  });

  it("the all-groups row: n/a, and a line saying why", async () => {
    const r = await mq(["stats", "total-queue-time", "--since", "1d", "-o", "table"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^all groups +n\/a +[\d.hms ]+ +[\d.hms ]+$/m);
    expect(r.out).toContain(`n/a: all groups avg_queue_time: ${WHY_QUEUE}`);
  });

  it("--fail-if on it: not judged on a guess", async () => {
    const r = await mq(["stats", "summary", "--since", "1d", "-o", "none", "--fail-if", "avg_queue_time > 1h"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`not available: ${WHY_QUEUE}`);
  });
});

describe("a mean weighted by a count", () => {
  it("with every weight 0 is no figure (it was the plain mean of the values)", () => {
    const records = [
      { start: "2026-11-20T00:00:00Z", end: "2026-11-20T01:00:00Z", avg_retry_depth: 2, sessions_with_retries: 0 },
      { start: "2026-11-20T01:00:00Z", end: "2026-11-20T02:00:00Z", avg_retry_depth: 4, sessions_with_retries: 0 },
    ];
    expect(windowValue("avg_retry_depth", records)).toBeUndefined();
    expect(
      windowValue("avg_retry_depth", [
        { ...records[0]!, sessions_with_retries: 1 },
        { ...records[1]!, sessions_with_retries: 3 },
      ]),
    ).toBe(3.5);
  });
});

describe("mq insights: a null figure over a window that was read says why", () => {
  const empty = ["insights", "--since", "2026-11-20T03:00:00Z", "--until", "2026-11-20T03:00:01Z", "--compare", "none"];

  it("-o json: unavailable, by figure", async () => {
    const r = await mq([...empty, "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.figures.stay_failure_rate.value).toBeNull();
    expect(doc.unavailable).toMatchObject({
      stay_failure_rate: "failed ÷ left is 0 ÷ 0 in the window",
      "p95(time_to_merge)": "none of the stays merged in the window",
      "avg(wait_time)": "none of the stays that entered and left in the window",
    });
  });

  it("-o ndjson and -o csv: the same reasons, in the record of the figure (they were null without a word)", async () => {
    const nd = await mq([...empty, "-o", "ndjson"]);
    expect(nd.code, nd.err).toBe(0);
    const recs = nd.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const rate = recs.find((x) => x.figure === "stay_failure_rate");
    expect(rate).toEqual({
      repository: "acme/web",
      figure: "stay_failure_rate",
      value: null,
      previous: null,
      change: null,
      unit: "ratio",
      unavailable: "failed ÷ left is 0 ÷ 0 in the window",
      previous_unavailable: null,
      change_unavailable: null,
    });
    expect(recs.find((x) => x.figure === "entered")).toMatchObject({ value: 0, unavailable: null });
    const csv = await mq([...empty, "-o", "csv"]);
    const rows = csv.out.split("\r\n");
    expect(rows[0]).toBe("repository,figure,value,previous,change,unit,unavailable,previous_unavailable,change_unavailable");
    expect(rows).toContain("acme/web,p95(time_to_merge),,,,seconds,none of the stays merged in the window,,");
  });

  it("a change from 0 says so, in -o json and in the records (an exit reason's too)", async () => {
    // a quarter of an hour against the one before: failures and an exit reason that were 0 before
    const window = ["insights", "--since", "2026-11-20T11:00:00Z", "--until", "2026-11-20T11:15:00Z"];
    const doc = JSON.parse((await mq([...window, "-o", "json"])).out);
    const fromZero = Object.entries(doc.unavailable as Record<string, string>).filter(([k]) => k.startsWith("change("));
    expect(fromZero.map(([k]) => k)).toEqual(expect.arrayContaining(["change(failed)", "change(exit_reason(CONFLICT_WITH_BASE_BRANCH))"]));
    const recs = (await mq([...window, "-o", "ndjson"])).out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const [key, why] of fromZero) {
      const name = /^change\((.+)\)$/.exec(key)![1]!;
      const rec = recs.find((x) => x.figure === name);
      expect(rec, key).toMatchObject({ previous: 0, change: null, change_unavailable: why });
      expect(why).toBe(`the previous value is 0: ${rec.value} against 0 is no percentage`);
    }
  });

  it("the table: a line per figure under the distributions", async () => {
    const r = await mq([...empty, "-o", "table"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("-: stay failure rate: failed ÷ left is 0 ÷ 0 in the window\n");
    expect(r.out).toContain("-: time in queue: none of the stays that left in the window\n");
  });
});
