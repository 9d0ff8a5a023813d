import { describe, expect, it } from "vitest";
import { STATS_ENDPOINTS as ALL_STATS_ENDPOINTS, findStatsEndpoint } from "../../../src/stats/endpoints.js";

// these tests speak the contract (its fixture server); both dialects: test/commands/stats/dialects.test.ts
const STATS_ENDPOINTS = ALL_STATS_ENDPOINTS.filter((e) => e.dialects.includes("spec"));
import { windowValue } from "../../../src/stats/aggregate.js";
import { flatten } from "../../../src/stats/series.js";
import { FIXTURES, startFixtureServer } from "./fixture-server.js";
import { useFixtureServer } from "./fixture-mq.js";
import { summaryFromSubcommands } from "./summary-figures.js";

const fixture = useFixtureServer();
const { mq } = fixture;

function parseCsv(text: string): string[][] {
  // enough RFC 4180 for these fixtures: quoted cells may hold commas
  return text
    .split("\r\n")
    .filter((l) => l !== "")
    .map((line) => {
      const cells: string[] = [];
      let cur = "";
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!;
        if (quoted) {
          if (ch === '"' && line[i + 1] === '"') (cur += '"'), i++;
          else if (ch === '"') quoted = false;
          else cur += ch;
        } else if (ch === '"') quoted = true;
        else if (ch === ",") cells.push(cur), (cur = "");
        else cur += ch;
      }
      cells.push(cur);
      return cells;
    });
}

describe("mq stats (listing)", () => {
  it("lists every subcommand with one line each", async () => {
    const { code, out, err } = await mq(["stats"]);
    expect(code).toBe(0);
    expect(err).toBe("");
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(ALL_STATS_ENDPOINTS.length + 1);
    expect(lines[0]).toMatch(/^summary\s+headline figures/);
    expect(lines.at(-2)).toMatch(/^time-to-merge\s+mean and median time to merge .*\(deprecated: use /);
  });

  // found by review: `mq stats -o json | jq` got the text listing
  it("-o json / ndjson / csv: the subcommands as records; -o markdown refused (exit 2, nothing out)", async () => {
    const json = await mq(["stats", "-o", "json"]);
    expect(json.code).toBe(0);
    const records = JSON.parse(json.out) as Array<{ name: string; summary: string; dialects: string[] }>;
    expect(records).toHaveLength(ALL_STATS_ENDPOINTS.length + 1);
    expect(records.at(-2)).toEqual({
      name: "time-to-merge",
      summary: expect.stringMatching(/^mean and median time to merge .*\(deprecated: use /),
      dialects: ["spec", "mergify"],
    });
    expect(records.find((r) => r.name === "idle-queue-time")!.dialects).toEqual(["mergify"]);
    const ndjson = await mq(["stats", "-o", "ndjson"]);
    expect(
      ndjson.out
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(records);
    const csv = await mq(["stats", "-o", "csv"]);
    // RFC 4180 line ends
    expect(csv.out.split("\r\n")[0]).toBe("name,summary,dialects");
    expect(csv.out).toMatch(/^idle-queue-time,[^\r\n]*,mergify\r$/m);
    const md = await mq(["stats", "-o", "markdown"]);
    expect(md.code).toBe(2);
    expect(md.out).toBe("");
    expect(md.err).toMatch(/^mq: -o markdown is for statistics .*\n$/);
  });

  it("rejects an unknown subcommand with a suggestion", async () => {
    const { code, err } = await mq(["stats", "failure-rat"]);
    expect(code).toBe(2);
    expect(err).toBe('mq: unknown stats subcommand "failure-rat" (did you mean failure-rate?); run mq stats to list them.\n');
  });
});

describe("every subcommand in every output format", () => {
  for (const endpoint of STATS_ENDPOINTS) {
    const body = FIXTURES[endpoint.name];
    it(`${endpoint.name}: json is the body as sent`, async () => {
      const { code, out } = await mq(["stats", endpoint.name, "-o", "json"]);
      expect(code).toBe(0);
      expect(JSON.parse(out)).toEqual(body);
    });

    it(`${endpoint.name}: ndjson is one flat record per group × interval`, async () => {
      const { code, out } = await mq(["stats", endpoint.name, "-o", "ndjson"]);
      expect(code).toBe(0);
      const records = out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(records).toEqual(flatten(endpoint, body));
      expect(records.length).toBeGreaterThan(0);
      for (const r of records)
        for (const v of Object.values(r)) expect(typeof v === "object" && v !== null && !Array.isArray(v)).toBe(false);
    });

    it(`${endpoint.name}: csv has a header and one row per record`, async () => {
      const { code, out } = await mq(["stats", endpoint.name, "-o", "csv"]);
      expect(code).toBe(0);
      const [header, ...rows] = parseCsv(out);
      const flat = flatten(endpoint, body);
      expect(rows).toHaveLength(flat.length);
      expect(header).toEqual([...new Set(flat.flatMap((r) => Object.keys(r)))]);
      const first = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
      for (const [k, v] of Object.entries(flat[0]!)) {
        expect(first[k]).toBe(v === null ? "" : Array.isArray(v) ? v.join(",") : String(v));
      }
    });

    it(`${endpoint.name}: table on a terminal`, async () => {
      const { code, out } = await mq(["stats", endpoint.name], { tty: true });
      expect(code).toBe(0);
      expect(out.length).toBeGreaterThan(0);
    });
  }
});

describe("-o none, markdown and openmetrics", () => {
  it("-o none prints nothing and exits 0", async () => {
    for (const name of ["failure-rate", "summary", "branches"]) {
      const { code, out, err } = await mq(["stats", name, "-o", "none"]);
      expect([code, out, err]).toEqual([0, "", ""]);
    }
  });

  it("-o markdown: the figures over the window, all groups first", async () => {
    const { code, out } = await mq(["stats", "queues-entered-count", "-o", "markdown"]);
    expect(code).toBe(0);
    expect(out).toBe(
      "| group | entered |\n|---|---:|\n| all groups | 49 |\n" +
        "| base\\_ref main, partition\\_name \\_\\_default\\_\\_, queue\\_name default, priority\\_rule\\_name none | 46 |\n" +
        "| base\\_ref main, partition\\_name \\_\\_default\\_\\_, queue\\_name hotfix, priority\\_rule\\_name urgent | 3 |\n",
    );
    const summary = await mq(["stats", "summary", "-o", "markdown"]);
    expect(summary.out).toContain("| check\\_failure\\_rate | 13.2% |\n");
  });

  it("-o openmetrics: exact text of a subcommand", async () => {
    const { code, out } = await mq(["stats", "queues-entered-count", "-o", "openmetrics"]);
    expect(code).toBe(0);
    expect(out).toBe(
      [
        "# TYPE mq_queue_entered gauge",
        "# HELP mq_queue_entered entered over the window, per group (mq stats queues-entered-count): Pull requests that entered a queue.",
        'mq_queue_entered{repository="acme/web",base_ref="main",partition="__default__",queue="default",priority_rule=""} 46',
        'mq_queue_entered{repository="acme/web",base_ref="main",partition="__default__",queue="hotfix",priority_rule="urgent"} 3',
        "# EOF",
        "",
      ].join("\n"),
    );
  });

  it("mq logs refuses the figure formats before any request", async () => {
    const { code, err } = await mq(["logs", "-o", "openmetrics"]);
    expect(code).toBe(2);
    expect(err).toBe(
      "mq: -o openmetrics is for statistics (mq stats and mq stats summary); mq logs takes table, json, ndjson, csv, none.\n",
    );
  });
});

describe("filters: the exact query sent", () => {
  async function lastUrl(args: string[]): Promise<string> {
    const before = fixture.server.requests.length;
    const { code, err } = await mq(["stats", ...args, "-o", "json"]);
    expect(err.replace(/^mq: warning: .*deprecated.*\n/, "")).toBe("");
    expect(code).toBe(0);
    expect(fixture.server.requests.length).toBe(before + 1);
    return fixture.server.requests.at(-1)!.url;
  }

  it("sends no parameters without flags", async () => {
    expect(await lastUrl(["failure-rate"])).toBe("/v1/repos/acme/web/stats/failure_rate");
  });

  it("sends each filter as repeated keys, in a stable order", async () => {
    expect(await lastUrl(["failure-rate", "--base-ref", "main"])).toBe("/v1/repos/acme/web/stats/failure_rate?base_ref=main");
    expect(await lastUrl(["queue-size", "--partition", "p1,p2"])).toBe(
      "/v1/repos/acme/web/stats/queue_size?partition_name=p1&partition_name=p2",
    );
    expect(await lastUrl(["batch-size", "--queue", "default", "--queue", "hotfix"])).toBe(
      "/v1/repos/acme/web/stats/batch_size?queue_name=default&queue_name=hotfix",
    );
    expect(await lastUrl(["checks-retries", "--priority-rule", "urgent"])).toBe(
      "/v1/repos/acme/web/stats/checks_retries?priority_rule_name=urgent",
    );
    expect(
      await lastUrl([
        "failure-rate",
        "--priority-rule",
        "urgent",
        "--queue",
        "default",
        "--partition",
        "p1",
        "--base-ref",
        "main,release/4.1",
      ]),
    ).toBe(
      "/v1/repos/acme/web/stats/failure_rate?base_ref=main&base_ref=release%2F4.1&partition_name=p1&queue_name=default&priority_rule_name=urgent",
    );
  });

  it("turns --since and --until into start_at and end_at", async () => {
    expect(await lastUrl(["queues-entered-count", "--since", "7d"])).toBe(
      "/v1/repos/acme/web/stats/queues_entered_count?start_at=2026-11-13T12%3A00%3A00Z",
    );
    expect(await lastUrl(["queues-entered-count", "--since", "2026-11-19T09:00:00+02:00", "--until", "1h"])).toBe(
      "/v1/repos/acme/web/stats/queues_entered_count?start_at=2026-11-19T07%3A00%3A00Z&end_at=2026-11-20T11%3A00%3A00Z",
    );
    expect(await lastUrl(["branches", "--since", "1d", "--until", "2026-11-20T12:00:00Z"])).toBe(
      "/v1/repos/acme/web/stats/branches?start_at=2026-11-19T12%3A00%3A00Z&end_at=2026-11-20T12%3A00%3A00Z",
    );
  });

  it("sends --at and --branch for time-to-merge", async () => {
    expect(await lastUrl(["time-to-merge", "--at", "2026-11-20T10:00:00Z", "--branch", "main"])).toBe(
      "/v1/repos/acme/web/stats/time_to_merge?at=2026-11-20T10%3A00%3A00Z&branch=main",
    );
  });

  it("running-speculative-checks takes F without the priority rule", async () => {
    expect(await lastUrl(["running-speculative-checks", "--queue", "default", "--since", "6h"])).toBe(
      "/v1/repos/acme/web/stats/running_speculative_checks?queue_name=default&start_at=2026-11-20T06%3A00%3A00Z",
    );
  });
});

describe("flag errors: exit 2, one line, nothing sent", () => {
  const cases: Array<[string[], string]> = [
    [
      ["running-speculative-checks", "--priority-rule", "urgent"],
      "--priority-rule is not accepted by mq stats running-speculative-checks: its groups have no priority rule; it takes --base-ref, --partition, --queue, --since and --until.",
    ],
    [["branches", "--queue", "default"], "--queue is not accepted by mq stats branches: it takes only --since and --until."],
    [["queues", "--base-ref", "main"], "--base-ref is not accepted by mq stats queues: it takes only --since and --until."],
    [["time-to-merge", "--since", "1d"], "--since is not accepted by mq stats time-to-merge: it takes only --at and --branch."],
    [["time-to-merge", "--queue", "default"], "--queue is not accepted by mq stats time-to-merge: it takes only --at and --branch."],
    [
      ["failure-rate", "--at", "1h"],
      "--at is not accepted by mq stats failure-rate: it takes --base-ref, --partition, --queue, --priority-rule, --since and --until.",
    ],
    [["failure-rate", "--queue", "a,,b"], "--queue has an empty value: give 1 to 255 characters."],
    [
      ["failure-rate", "--since", "yesterday"],
      '--since "yesterday" is not an ISO 8601 date-time with a timezone (2026-11-20T09:00:00Z), a date (2026-11-20: midnight UTC) or a duration ago (30m, 1h30m, 7d, 2w).',
    ],
    [
      ["failure-rate", "--since", "2026-11-19T08:00"],
      '--since "2026-11-19T08:00" has no timezone: add Z or an offset (e.g. 2026-11-19T08:00Z), or give a date (midnight UTC) or a duration such as 7d.',
    ],
    [
      ["failure-rate", "--since", "1h", "--until", "2d"],
      "--since (2026-11-20T11:00:00Z) is after --until (2026-11-18T12:00:00Z): --since must be earlier.",
    ],
    [
      ["time-to-merge", "--at", "noon"],
      '--at "noon" is not an ISO 8601 date-time with a timezone (2026-11-20T09:00:00Z), a date (2026-11-20: midnight UTC) or a duration ago (30m, 1h30m, 7d, 2w).',
    ],
    [
      ["branches", "--chart"],
      "--chart is not available for mq stats branches: it has no figure over time; charts exist for queues-checks-outcome-count, queues-entered-count, queues-merged-count, average-ci-runtime, average-queue-time, idle-queue-time, skip-intermediate-results, total-queue-time, queue-size, running-speculative-checks, batch-size, batch-bisection, checks-retries, failure-rate, queues-pr-exit-reasons.",
    ],
    [["failure-rate", "--chart", "-o", "csv"], "--chart draws on the terminal and cannot be combined with -o csv: drop one of them."],
    [
      ["failure-rate", "--fail-if", "rate > 0.2"],
      '--fail-if "rate > 0.2": unknown field "rate" for mq stats failure-rate. Did you mean failure_rate or check_failure_rate? Fields: total, failures, failure_rate (mq help figures).',
    ],
    [
      ["failure-rate", "--fail-if", "failure_rate >> 0.2"],
      '--fail-if "failure_rate >> 0.2" is not an expression: write FIELD OP VALUE or AGG(FIELD) OP VALUE, with OP one of > >= < <= == != and AGG one of avg, max, min, sum, last; fields of mq stats failure-rate: total, failures, failure_rate.',
    ],
    [
      ["failure-rate", "--fail-if", "failure_rate > high"],
      '--fail-if "failure_rate > high": "high" is not a number, a percentage (20%) or a duration (30m).',
    ],
    [["queues", "--fail-if", "x > 1"], "--fail-if is not available for mq stats queues: it returns names, not figures."],
    [
      ["summary", "--at", "1h"],
      "--at is not accepted by mq stats summary: it takes --base-ref, --partition, --queue, --priority-rule, --since and --until.",
    ],
  ];
  for (const [args, message] of cases) it(`mq stats ${args.join(" ")}`, () => fixture.refuses(["stats", ...args], message));
});

describe("--chart", () => {
  for (const endpoint of STATS_ENDPOINTS.filter((e) => e.mainField)) {
    it(`${endpoint.name}: a sparkline of ${endpoint.mainField} per series`, async () => {
      const { code, out } = await mq(["stats", endpoint.name, "--chart", "--color", "never"], { tty: true, columns: 80 });
      expect(code).toBe(0);
      const lines = out.split("\n");
      const charts = lines.filter((l) => l.startsWith(`  ${endpoint.mainField}  `));
      expect(charts.length).toBeGreaterThan(0);
      for (const line of charts) {
        expect(line).toMatch(new RegExp(`^  ${endpoint.mainField}  [▁▂▃▄▅▆▇█ ]+  min \\S.*  max \\S`));
        expect(line.length).toBeLessThanOrEqual(80);
      }
      expect(lines.filter((l) => / → .* · (\d+ of )?\d+ intervals?( with data)?$/.test(l))).toHaveLength(charts.length);
    });
  }

  it("prints exact charts for failure-rate, durations and rates humanised", async () => {
    const { out } = await mq(["stats", "failure-rate", "--chart", "--color", "never"], { tty: true });
    expect(out).toBe(
      "main · __default__ · default · (none)\n" +
        "  failure_rate  ▅█▁█  min 0.0%  max 16.7%\n" +
        "  2026-11-19 12:00:00Z → 2026-11-20 12:00:00Z · 4 intervals\n",
    );
    const ci = await mq(["stats", "average-ci-runtime", "--chart", "--color", "never"], { tty: true });
    expect(ci.out).toContain("  runtime  ▂▅▁█  min 9m 50s  max 11m 42s\n");
  });

  it("charts even when piped (a chart is for people: values humanised)", async () => {
    const { code, out } = await mq(["stats", "queues-entered-count", "--chart"]);
    expect(code).toBe(0);
    expect(out).toContain("  entered  ▅▁▁█  min 0  max 2\n");
  });
});

describe("mq stats summary", () => {
  it("fetches its seven statistics concurrently, all for one explicit window", async () => {
    const barrier = await startFixtureServer({ barrier: 7 });
    try {
      const { code, err } = await mq(["stats", "summary", "--queue", "default", "-o", "json"], { url: barrier.url });
      expect(err).toBe("");
      expect(code).toBe(0);
      expect(barrier.requests).toHaveLength(7);
      expect(barrier.maxInFlight).toBe(7);
      for (const r of barrier.requests) {
        expect(r.url).toMatch(/\?queue_name=default&start_at=2026-11-19T12%3A00%3A00Z&end_at=2026-11-20T12%3A00%3A00Z$/);
      }
    } finally {
      await barrier.close();
    }
  });

  it("gives the same figures as the individual subcommands", async () => {
    const { code, out } = await mq(["stats", "summary", "--since", "1d", "-o", "json"]);
    expect(code).toBe(0);
    const summary = JSON.parse(out);
    const figure = async (name: string, field: string) => {
      const r = await mq(["stats", name, "--since", "1d", "-o", "ndjson"]);
      return (
        windowValue(
          field,
          r.out
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
        ) ?? null
      );
    };
    expect(summary).toEqual({
      start_at: "2026-11-19T12:00:00Z",
      end_at: "2026-11-20T12:00:00Z",
      ...(await summaryFromSubcommands(figure)),
    });
    // and the known values of the fixtures
    expect(summary.entered).toBe(49);
    expect(summary.check_failure_rate).toBe(9 / 68);
    expect(summary.max_queue_time).toBe(7100.5);
  });

  it("equals --fail-if's value for all groups", async () => {
    const { out } = await mq(["stats", "summary", "-o", "json"]);
    const fr = await mq(["stats", "queues-entered-count", "-o", "json", "--fail-if", "entered > 0"]);
    expect(fr.err).toBe(`FAIL  entered ${JSON.parse(out).entered} > 0 (all groups)\nmq: 1 of 1 --fail-if check failed.\n`);
  });

  it("takes --fail-if over any of its figures", async () => {
    const { code, out, err } = await mq([
      "stats",
      "summary",
      "-o",
      "none",
      "--fail-if",
      "check_failure_rate > 20%",
      "--fail-if",
      "avg_queue_time > 1h",
      "--fail-if",
      "merged < 40",
    ]);
    expect(out).toBe("");
    expect(err).toBe(
      "ok    check_failure_rate 13.2% <= 20% (9/68 checks, all groups)\n" +
        "ok    avg_queue_time 27m 56s <= 1h (all groups)\n" +
        "ok    merged 42 >= 40 (all groups)\n",
    );
    expect(code).toBe(0);
    const tight = await mq(["stats", "summary", "-o", "none", "--fail-if", "check_failure_rate > 10%"]);
    expect(tight.code).toBe(1);
    expect(tight.err).toBe("FAIL  check_failure_rate 13.2% > 10% (9/68 checks, all groups)\nmq: 1 of 1 --fail-if check failed.\n");
    // the former name keeps its meaning here (the check failure rate), with a warning naming the new one
    const former = await mq(["stats", "summary", "-o", "none", "--fail-if", "failure_rate > 10%"]);
    expect([former.code, former.err]).toEqual([
      1,
      'mq: warning: --fail-if "failure_rate > 10%": failure_rate is a former name; it is read as check_failure_rate (mq help figures). Write check_failure_rate.\n' +
        "FAIL  check_failure_rate 13.2% > 10% (9/68 checks, all groups)\nmq: 1 of 1 --fail-if check failed.\n",
    ]);
  });

  it("prints one screen on a terminal", async () => {
    const { code, out } = await mq(["stats", "summary", "--color", "never"], { tty: true });
    expect(code).toBe(0);
    expect(out).toBe(
      [
        "acme/web  2026-11-19 12:00:00Z → 2026-11-20 12:00:00Z",
        "entered             49",
        "merged              42",
        "check failure rate  13.2% (9 of 68 checks)",
        "queue time          avg 27m 56s, max 1h 58m",
        "CI runtime          avg 10m 40s",
        "queue size          avg 3.03, max 11",
        "retries             11, recovery rate 62.5%",
        "",
      ].join("\n"),
    );
  });

  it("gives one record in ndjson and csv", async () => {
    const nd = await mq(["stats", "summary", "-o", "ndjson"]);
    expect(nd.out.split("\n").filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(nd.out).merged).toBe(42);
    const csv = parseCsv((await mq(["stats", "summary", "-o", "csv"])).out);
    expect(csv).toHaveLength(2);
    expect(csv[0]![0]).toBe("start_at");
  });
});

describe("warnings and errors", () => {
  it("warns on stderr that a deprecated endpoint has a replacement", async () => {
    const { code, err } = await mq(["stats", "merge-queue-checks-outcome", "-o", "json"]);
    expect(code).toBe(0);
    expect(err).toBe(
      "mq: warning: the merge-queue-checks-outcome endpoint is deprecated; use mq stats queues-checks-outcome-count instead.\n",
    );
    const ttm = await mq(["stats", "time-to-merge", "-o", "json"]);
    expect(ttm.err).toBe(
      "mq: warning: the time-to-merge endpoint is deprecated; use mq stats average-queue-time or mq stats total-queue-time instead.\n",
    );
  });

  it("maps HTTP errors to the exit-code map", async () => {
    const notFound = await startFixtureServer({ status: 404 });
    const forbidden = await startFixtureServer({ status: 403 });
    try {
      expect((await mq(["stats", "failure-rate", "-o", "json"], { url: notFound.url })).code).toBe(3);
      expect((await mq(["stats", "failure-rate", "-o", "json"], { url: forbidden.url })).code).toBe(4);
      const summary = await mq(["stats", "summary", "-o", "json"], { url: forbidden.url });
      expect(summary.code).toBe(4);
      expect(summary.out).toBe("");
    } finally {
      await notFound.close();
      await forbidden.close();
    }
  });

  it("exits 6 on a response that breaks the contract", async () => {
    const broken = await startFixtureServer({ bodies: { ...FIXTURES, "failure-rate": { groups: [{ base_ref: "main", stats: "nope" }] } } });
    try {
      const { code, out, err } = await mq(["stats", "failure-rate", "-o", "json"], { url: broken.url });
      expect(code).toBe(6);
      expect(out).toBe("");
      expect(err).toMatch(/^mq: response does not match the contract: failure-rate: /);
      broken.verify();
    } finally {
      await broken.close();
    }
  });

  it("accepts the real service's groups without partition keys", async () => {
    const body = {
      groups: [
        {
          base_ref: "main",
          queue_name: "default",
          priority_rule_name: null,
          stats: [{ start: "2026-11-20T00:00:00Z", end: "2026-11-20T12:00:00Z", runtime: 600, sum_runtime: 1800, count_runtime: 3 }],
        },
      ],
    };
    const real = await startFixtureServer({ bodies: { ...FIXTURES, "average-ci-runtime": body } });
    try {
      const { code, out, err } = await mq(["stats", "average-ci-runtime", "-o", "ndjson"], { url: real.url });
      expect(err).toBe("");
      expect(code).toBe(0);
      expect(JSON.parse(out)).toEqual({
        base_ref: "main",
        queue_name: "default",
        priority_rule_name: null,
        start: "2026-11-20T00:00:00Z",
        end: "2026-11-20T12:00:00Z",
        runtime: 600,
        sum_runtime: 1800,
        count_runtime: 3,
      });
      real.verify();
    } finally {
      await real.close();
    }
  });
});

describe("findStatsEndpoint", () => {
  it("knows every subcommand's endpoint", () => {
    for (const e of ALL_STATS_ENDPOINTS) expect(findStatsEndpoint(e.name)).toBe(e);
  });
});
