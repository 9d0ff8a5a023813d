// The stats table as a person reads it: one row per group with the window figures, the figure over
// all groups, idle groups folded, short labels; --intervals with dashes; -o table humanised off a
// terminal; --fields; --priority-rule none refused. Exact output against the fixture server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { testContext } from "../../helpers/context.js";
import { FIXTURES, startFixtureServer, type FixtureServer } from "./fixture-server.js";

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => server.verify());

async function mq(args: string[], init: { tty?: boolean; columns?: number } = {}) {
  const ctx = testContext({ tty: init.tty, columns: init.columns, env: { MQ_TOKEN: "test-token-1234", NO_COLOR: "1" } });
  const code = await main([...args, "--api-url", server.url, "--repo", "acme/web"], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

/** Groups as the API sends them: `keys` over `stats`. */
function groupsBody(groups: Array<[Record<string, unknown>, Array<Record<string, unknown>>]>) {
  return { groups: groups.map(([keys, stats]) => ({ ...keys, stats })) };
}

const H = (h: number) => `2026-11-20T${String(h).padStart(2, "0")}:00:00Z`;
const rate = (h: number, total: number, failures: number) => ({
  start: H(h),
  end: H(h + 1),
  total,
  failures,
  failure_rate: total ? failures / total : 0,
});
const keys = (queue: string, rule: string | null) => ({
  base_ref: "main",
  partition_name: "api",
  queue_name: queue,
  priority_rule_name: rule,
});

/**
 * Rows a table printed twice: an interval's start or the all-groups row met again in the same
 * group's section (a table split into parts printed every row once per part).
 */
function twice(out: string): string[] {
  const seen = new Set<string>();
  const again: string[] = [];
  let section = "";
  // a part of the response over the groups' tables (batch-bisection's started and completed)
  let part = "";
  const lines = out.split("\n");
  lines.forEach((line, i) => {
    const label = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ|all groups)\b/.exec(line)?.[1];
    if (label === undefined) {
      // a group's title: the line over its table's header (a blank line between parts is none)
      if (line !== "" && /^start\b/.test(lines[i + 1] ?? "")) section = `${part} ${line}`;
      else if (/^[a-z]+$/.test(line)) part = line;
      return;
    }
    const key = `${section}\u0000${label}`;
    if (seen.has(key)) again.push(`${section}: ${label}`);
    seen.add(key);
  });
  return again;
}

describe("mq stats on a terminal: the answer first", () => {
  it("one row per group over the window, sorted by volume, all groups, idle groups folded, short labels", async () => {
    const body = groupsBody([
      [keys("default", "urgent"), [rate(8, 2, 1), rate(9, 0, 0)]],
      [keys("default", null), [rate(8, 10, 1), rate(9, 20, 2)]],
      [keys("hotfix", "urgent"), [rate(8, 0, 0), rate(9, 0, 0)]],
      [keys("lowrisk", "deps"), [rate(8, 0, 0), rate(9, 0, 0)]],
    ]);
    const local = await startFixtureServer({ bodies: { ...FIXTURES, "failure-rate": body } });
    try {
      const ctx = testContext({ tty: true, columns: 80, env: { MQ_TOKEN: "t", NO_COLOR: "1" } });
      expect(await main(["stats", "failure-rate", "--api-url", local.url, "--repo", "acme/web"], ctx)).toBe(0);
      expect(ctx.stdoutText()).toBe(
        [
          "queue · rule      total  failures  failure_rate",
          "default · (none)     30         3         10.0%",
          "default · urgent      2         1         50.0%",
          "all groups           32         4         12.5%",
          "+ 2 groups with no activity in the window",
          "",
        ].join("\n"),
      );
      expect(ctx.stderrText()).toMatch(/acme\/web failure-rate, the last 24 hours\n$/);
      // --intervals: each interval; 0 checks is 0 (a count), its rate has no value (0 of 0): a dash
      const detail = testContext({ tty: true, columns: 80, env: { MQ_TOKEN: "t", NO_COLOR: "1" } });
      expect(await main(["stats", "failure-rate", "--intervals", "--api-url", local.url, "--repo", "acme/web"], detail)).toBe(0);
      expect(detail.stdoutText()).toBe(
        [
          "default · urgent",
          "start                 total  failures  failure_rate",
          "2026-11-20 08:00:00Z      2         1         50.0%",
          "2026-11-20 09:00:00Z      0         0             -",
          "",
          "default · (none)",
          "start                 total  failures  failure_rate",
          "2026-11-20 08:00:00Z     10         1         10.0%",
          "2026-11-20 09:00:00Z     20         2         10.0%",
          "",
          "+ 2 groups with no activity in the window",
          "",
        ].join("\n"),
      );
      local.verify();
    } finally {
      await local.close();
    }
  });

  it("time-to-merge: no all-groups mean or median (no counts to combine them): n/a with the reason, never a mean of means", async () => {
    const body = [
      { partition_name: "api", queues: [{ queue_name: "default", time_to_merge: { mean: 600, median: 300 } }] },
      { partition_name: "web", queues: [{ queue_name: "default", time_to_merge: { mean: 1800, median: 900 } }] },
    ];
    const local = await startFixtureServer({ bodies: { ...FIXTURES, "time-to-merge": body } });
    try {
      const ctx = testContext({ tty: true, columns: 300, env: { MQ_TOKEN: "t", NO_COLOR: "1" } });
      expect(await main(["stats", "time-to-merge", "--api-url", local.url, "--repo", "acme/web"], ctx)).toBe(0);
      const lines = ctx.stdoutText().split("\n");
      // before: "all groups  20m  10m", the unweighted mean of the two means and of the two medians
      expect(lines[3]).toMatch(/^all groups +n\/a +n\/a$/);
      expect(lines[4]).toBe(
        "n/a: all groups mean: one mean per partition and queue, without the number of merges behind it: a mean of the means would be a figure nobody measured (mq insights gives p50(time_to_merge) and avg(time_to_merge) over every queue)",
      );
      expect(lines[5]).toMatch(/^n\/a: all groups median: .*the median of each queue does not give the median of all/);
      local.verify();
    } finally {
      await local.close();
    }
  });

  it("outcome endpoints: a column per outcome, the most frequent first, the rest as other when narrow", async () => {
    const wide = await mq(["stats", "merge-queue-checks-outcome"], { tty: true, columns: 120 });
    // every outcome fits at 120, names broken at underscores
    expect(wide.out.split("\n")[0]).toMatch(/^queue · rule +total +SUCCESS +CHECKS +PR +CHECKS +PR +CHECKS +CONFLICT$/);
    expect(wide.out).toContain("\nall groups           62       48       5         3        2         2        1         1\n");
    const narrow = await mq(["stats", "merge-queue-checks-outcome"], { tty: true, columns: 60 });
    const lines = narrow.out.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("all groups           62       48       5         3      6");
    expect(lines[0]).toMatch(/ other$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("-o table off a terminal is still for people: humanised, not fitted, no colour", async () => {
    const { code, out } = await mq(["stats", "total-queue-time", "-o", "table"], { columns: 40 });
    expect(code).toBe(0);
    expect(out).toBe(
      "base · partition · queue · rule        avg_queue_time  max_queue_time  min_queue_time\n" +
        "main · __default__ · default · (none)         27m 56s          1h 58m             10m\n",
    );
    const summary = await mq(["stats", "summary", "-o", "table", "--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z"]);
    expect(summary.out).toContain("failure rate  13.2% (9 of 68 checks)\n");
    expect(summary.out).not.toMatch(/0\.13235/);
  });

  it("no line wider than the terminal and no row printed twice, at 60, 80 and 120 columns, for every endpoint", async () => {
    for (const columns of [60, 80, 120]) {
      for (const name of Object.keys(FIXTURES)) {
        for (const extra of name === "time-to-merge" || name === "merge-queue-checks-outcome" || name === "branches" || name === "queues"
          ? [[]]
          : [[], ["--intervals"]]) {
          const { code, out } = await mq(["stats", name, ...extra], { tty: true, columns });
          expect(code).toBe(0);
          for (const line of out.split("\n"))
            expect(line.length, `${name} ${extra.join(" ")} at ${columns}: ${line}`).toBeLessThanOrEqual(columns);
          expect(twice(out), `${name} ${extra.join(" ")} at ${columns}:\n${out}`).toEqual([]);
        }
      }
    }
  });
});

describe("--fields on stats", () => {
  it("implies ndjson and keeps the fields asked for, in that order", async () => {
    const { code, out } = await mq(["stats", "failure-rate", "--fields", "start,failure_rate"], { tty: true });
    expect(code).toBe(0);
    expect(out.split("\n")[0]).toBe('{"start":"2026-11-19T12:00:00Z","failure_rate":0.1}');
  });

  it("selects from the flat records in csv and json too", async () => {
    const csv = await mq(["stats", "queues-merged-count", "--fields", "partition_names,merged", "-o", "csv"]);
    expect(csv.out.split("\r\n").slice(0, 2)).toEqual(["partition_names,merged", "__default__,11"]);
    const json = await mq(["stats", "queues-merged-count", "--fields", "merged", "-o", "json"]);
    expect(JSON.parse(json.out)[0]).toEqual({ merged: 11 });
  });

  it("an unknown field, or --fields with -o table, exits 2 before any request", async () => {
    const before = server.requests.length;
    const bad = await mq(["stats", "failure-rate", "--fields", "start,rate"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'mq: --fields: unknown field "rate" for mq stats failure-rate; available fields: base_ref, partition_name, queue_name, priority_rule_name, start, end, total, failures, failure_rate.\n',
    );
    const table = await mq(["stats", "failure-rate", "--fields", "start", "-o", "table"]);
    expect(table.err).toBe("mq: --fields applies to -o json, ndjson or csv, not to the table.\n");
    expect(server.requests.length).toBe(before);
  });
});

describe("--priority-rule none", () => {
  it("is refused with the reason and where those groups are", async () => {
    const before = server.requests.length;
    const { code, out, err } = await mq(["stats", "failure-rate", "--priority-rule", "none"]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toBe(
      "mq: --priority-rule selects rules by name, and the API has no filter for groups without one; leave --priority-rule out: those groups are the rows labelled (none).\n",
    );
    expect(server.requests.length).toBe(before);
  });
});

describe("an empty result", () => {
  it("repeats the filters in effect and suggests the next step", async () => {
    const local = await startFixtureServer({ bodies: { ...FIXTURES, "failure-rate": { groups: [] } } });
    try {
      const ctx = testContext({ tty: true, columns: 80, env: { MQ_TOKEN: "t", NO_COLOR: "1" } });
      expect(await main(["stats", "failure-rate", "--queue", "nightly", "--api-url", local.url, "--repo", "acme/web"], ctx)).toBe(0);
      expect(ctx.stdoutText()).toBe("");
      expect(ctx.stderrText()).toMatch(
        /mq: no failure-rate data for acme\/web in the last 24 hours with --queue nightly; try fewer filters, a longer --since \(e\.g\. --since 7d\), or mq stats queues and mq stats branches for the names in use\.\n$/,
      );
      local.verify();
    } finally {
      await local.close();
    }
  });
});
