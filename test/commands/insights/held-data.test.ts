// mq insights compares only with data the source holds (issue 28, item 5): a window reaching
// before the bundled server's history, before the service's 90 days or outside the archive's
// coverage has events missing, which a comparison would show as a change. A line on stderr,
// `previous: null` with the reason in JSON, no change on the table, no change() verdict.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { testContext } from "../../helpers/context.js";
import { tempDir } from "../../helpers/tmp.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const TOKEN = "mqk_test_token_1234";
let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  server = await startServer({ port: 0, now: NOW, days: 3 });
  dataDir = tempDir("mq-held-data-");
});
afterAll(async () => {
  await server?.close();
});

async function mq(args: string[], opts: { tty?: boolean; offline?: boolean } = {}) {
  const ctx = testContext({ tty: opts.tty, columns: 100, now: () => NOW, env: { MQ_DATA_DIR: dataDir } });
  const api = opts.offline ? ["--offline"] : ["--api-url", server.url, "--token", TOKEN];
  const code = await main([...args, ...api, "--repo", "acme/lib", "--color", "never"], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

const figures = (out: string) =>
  JSON.parse(out).figures as Record<string, { value: number; previous: number | null; change: number | null }>;

describe("the bundled server says where its history begins", () => {
  it("00:00 UTC of the day `days` before its present", () => {
    expect(server.historyStart()).toEqual(new Date("2026-11-17T00:00:00Z"));
  });
});

describe("mq --offline insights: windows before the bundled server's 30 days of history", () => {
  it("a comparison window wholly before: said on stderr, previous null with the reason, no change", async () => {
    const r = await mq(["insights", "--since", "2h", "--compare", "2026-10-01..2026-10-08", "-o", "json"], { offline: true });
    expect(r.code, r.err).toBe(0);
    const reason =
      "the comparison window 2026-10-01 00:00:00Z → 2026-10-08 00:00:00Z lies wholly before the bundled server's history (from 2026-10-21 00:00:00Z)";
    expect(r.err).toBe(`mq: warning: ${reason}: no previous figures and no change are given (previous: null in -o json).\n`);
    const doc = JSON.parse(r.out);
    expect(doc.compare).toEqual({ since: "2026-10-01T00:00:00Z", until: "2026-10-08T00:00:00Z" });
    expect(doc.previous_unavailable).toBe(reason);
    expect(figures(r.out).entered).toEqual({ value: expect.any(Number), previous: null, change: null, unit: "count" });
    expect(figures(r.out).entered.value).toBeGreaterThan(0);
    for (const e of doc.exit_reasons) expect([e.previous, e.change]).toEqual([null, null]);
  });

  it("--since 29d: the previous 29 days reach before the history, partly", async () => {
    // the window itself is held; its comparison (58d..29d) is not, in part
    const r = await mq(
      [
        "insights",
        "--since",
        "2026-10-22T12:00:00Z",
        "--until",
        "2026-10-22T13:00:00Z",
        "--compare",
        "2026-10-20..2026-10-22",
        "-o",
        "ndjson",
      ],
      {
        offline: true,
      },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      "mq: warning: the comparison window 2026-10-20 00:00:00Z → 2026-10-22 00:00:00Z lies partly before the bundled server's history (from 2026-10-21 00:00:00Z): no previous figures and no change are given (previous: null in -o json).\n",
    );
    const first = JSON.parse(r.out.split("\n")[0]!);
    // the reason in every record, as previous_unavailable in -o json
    expect(first).toMatchObject({
      figure: "entered",
      previous: null,
      change: null,
      previous_unavailable:
        "the comparison window 2026-10-20 00:00:00Z → 2026-10-22 00:00:00Z lies partly before the bundled server's history (from 2026-10-21 00:00:00Z)",
    });
  });

  it("the window itself partly before, without a comparison: said, the figures given", async () => {
    const r = await mq(
      ["insights", "--since", "2026-10-20T22:00:00Z", "--until", "2026-10-21T02:00:00Z", "--compare", "none", "-o", "json"],
      {
        offline: true,
      },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      "mq: warning: the window 2026-10-20 22:00:00Z → 2026-10-21 02:00:00Z lies partly before the bundled server's history (from 2026-10-21 00:00:00Z): its figures count only the events there are.\n",
    );
    expect(JSON.parse(r.out).previous_unavailable).toBeUndefined();
  });

  it("windows the history holds: no word, and the change is given", async () => {
    const r = await mq(["insights", "--since", "2h", "-o", "json"], { offline: true });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe("");
    expect(JSON.parse(r.out).previous_unavailable).toBeUndefined();
    expect(figures(r.out).entered.previous).toBeGreaterThan(0);
  });
});

describe("mq insights over the API: windows before the 90 days the service keeps", () => {
  const OLD = "2026-08-01..2026-08-08";
  const reason =
    "the comparison window 2026-08-01 00:00:00Z → 2026-08-08 00:00:00Z lies wholly before the 90 days of events the service keeps (from 2026-08-22 12:00:00Z)";

  it("the table: no PREVIOUS or CHANGE column, a line saying why", async () => {
    const r = await mq(["insights", "--since", "2h", "--compare", OLD, "--slowest", "0", "-o", "table"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(`mq: warning: ${reason}: no previous figures and no change are given (previous: null in -o json).\n`);
    const lines = r.out.split("\n");
    expect(lines[1]).toBe(`no comparison: ${reason}`);
    expect(r.out).not.toMatch(/PREVIOUS|CHANGE|[▲▼]/);
    expect(r.out).toMatch(/^ +VALUE$/m);
  });

  it("csv: previous and change empty", async () => {
    const r = await mq(["insights", "--since", "2h", "--compare", OLD, "-o", "csv"]);
    expect(r.code, r.err).toBe(0);
    // and why, in previous_unavailable
    expect(r.out.split("\r\n")[1]!.replace(/^acme\/lib,entered,\d+,/, "")).toBe(`,,count,,${reason},`);
  });

  it("--fail-if change(...): not judged, as no data (passes with --allow-empty)", async () => {
    const r = await mq(["insights", "--since", "2h", "--compare", OLD, "-o", "none", "--fail-if", "change(merged) < -50%"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`not available: ${reason}`);
    const allowed = await mq([
      "insights",
      "--since",
      "2h",
      "--compare",
      OLD,
      "-o",
      "none",
      "--fail-if",
      "change(merged) < -50%",
      "--allow-empty",
    ]);
    expect(allowed.code, allowed.err).toBe(0);
    expect(allowed.err).toContain(`not available: ${reason} (--allow-empty)`);
  });

  it("the previous window within the 90 days: compared (the API is not the bundled server's 3 days: mq cannot know)", async () => {
    const r = await mq(["insights", "--since", "2h", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe("");
    expect(figures(r.out).entered.change).not.toBeNull();
  });
});

describe("mq insights --archive: windows outside what the archive covers", () => {
  it("a comparison window before the first sync: said, previous null", async () => {
    const sync = await mq(["archive", "sync", "--since", "2026-11-20T06:00:00Z"]);
    expect(sync.code, sync.err).toBe(0);
    const covered = await mq(["insights", "--archive", "--since", "2026-11-20T09:00:00Z", "--until", "2026-11-20T11:00:00Z", "-o", "json"]);
    expect(covered.code, covered.err).toBe(0);
    expect(covered.err).toBe("");
    expect(figures(covered.out).entered.change).not.toBeNull();
    const r = await mq([
      "insights",
      "--archive",
      "--since",
      "2026-11-20T09:00:00Z",
      "--until",
      "2026-11-20T11:00:00Z",
      "--compare",
      "2026-11-20T05:00:00Z..2026-11-20T07:00:00Z",
      "-o",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    const reason = "the comparison window 2026-11-20 05:00:00Z → 2026-11-20 07:00:00Z lies partly outside what the archive covers";
    expect(r.err.split("\n")).toEqual([
      `mq: warning: the archive does not cover 2026-11-20 05:00:00Z to 2026-11-20 06:00:00Z for acme/lib: queue stays there are missing below (mq --api-url ${server.url} archive sync acme/lib --since 2026-11-20T05:00:00Z --until 2026-11-20T06:00:00Z fetches them).`,
      `mq: warning: ${reason}: no previous figures and no change are given (previous: null in -o json).`,
      "",
    ]);
    expect(JSON.parse(r.out).previous_unavailable).toBe(reason);
    expect(figures(r.out).merged.previous).toBeNull();
  });
});

describe("mq prs and mq pr: windows outside the data the source holds, said as mq insights says them", () => {
  // before: nothing said; stays that began in the missing part read as begun before the window
  it("mq --offline prs: a window partly before the bundled server's history", async () => {
    const r = await mq(["prs", "--since", "2026-10-20T22:00:00Z", "--until", "2026-10-21T02:00:00Z", "-o", "ndjson"], { offline: true });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      "mq: warning: the window 2026-10-20 22:00:00Z → 2026-10-21 02:00:00Z lies partly before the bundled server's history (from 2026-10-21 00:00:00Z): its stays are rebuilt only from the events there are.\n",
    );
    expect(r.out.length).toBeGreaterThan(0);
  });

  it("mq prs over the API: a window wholly before the 90 days the service keeps", async () => {
    const r = await mq(["prs", "--since", "2026-08-01", "--until", "2026-08-02", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      "mq: warning: the window 2026-08-01 00:00:00Z → 2026-08-02 00:00:00Z lies wholly before the 90 days of events the service keeps (from 2026-08-22 12:00:00Z): its stays are rebuilt only from the events there are.\n",
    );
  });

  it("mq pr: said, and no advice to reach further back than the data held", async () => {
    const r = await mq(["pr", "7", "--since", "2026-08-01", "--until", "2026-08-02"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      "mq: warning: the window 2026-08-01 00:00:00Z → 2026-08-02 00:00:00Z lies wholly before the 90 days of events the service keeps (from 2026-08-22 12:00:00Z): #7's stays are rebuilt only from the events there are.\n" +
        "mq: #7 has no queue stay from 2026-08-01 00:00:00Z to 2026-08-02 00:00:00Z.\n",
    );
  });

  it("windows the source holds: no word", async () => {
    const prs = await mq(["prs", "--since", "2h", "-o", "ndjson"]);
    expect([prs.code, prs.err]).toEqual([0, ""]);
    const pr = await mq(["pr", "7", "--since", "2h"]);
    expect(pr.err).toBe("mq: #7 has no queue stay from 2026-11-20 10:00:00Z to 2026-11-20 12:00:00Z; --since reaches further back.\n");
  });
});
