// mq run in-process with --strict against the bundled server speaking one dialect, and the checks
// that test/commands/{dialects,stats-dialects}.test.ts run on a sample and their *.e2e.test.ts
// companions run on the rest of each sweep.
import { afterAll, beforeAll, expect } from "vitest";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server/index.js";
import type { DialectName } from "../../src/api/dialects/index.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { derivationOf } from "../../src/stats/derived.js";
import { runMq, type RunResult } from "../reliability/harness.js";

export const NOW = new Date("2026-11-20T12:00:00Z");
export const DIALECT_NAMES: DialectName[] = ["spec", "mergify"];

export interface DialectRuns {
  readonly server: RunningServer;
  run(args: string[]): Promise<RunResult>;
  /** the query of the last request the server received */
  lastQuery(): URLSearchParams;
}

/** A server of `dialect` for the enclosing describe block (started before its tests, closed after). */
export function dialectRuns(dialect: DialectName, options: Partial<ServerOptions> = {}): DialectRuns {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({ now: NOW, dialect, ...options });
  });
  afterAll(() => server?.close());
  return {
    get server() {
      return server!;
    },
    run: (args) => runMq(["--dialect", dialect, "--strict", ...args], { apiUrl: server!.url, now: () => NOW }),
    lastQuery: () => new URL(server!.requests[server!.requests.length - 1]!.url, "http://x").searchParams,
  };
}

/** What dialects.test.ts checks of its sweeps (dialects.e2e.test.ts checks the rest): the formats of
 * the two-day run per dialect, and how many of a dialect's event types. */
export const LOGS_SAMPLE = {
  formats: { spec: ["json", "csv"], mergify: ["table", "ndjson"] },
  types: 6,
  /** the window of the sampled event types: the contract's sample has a rare type, and its month is
   * cheap to simulate; the service's month (translated event by event) is not, and its sample's
   * types all occur within a week */
  since: { spec: "29d", mergify: "7d" },
} as const;

/** `mq logs --type <type> --since <since>`: served, and the table gives each row a sentence, never key=value.
 * The whole sweep asks for the month (rare types). */
export async function expectTypeServedAsSentences(runs: DialectRuns, type: string, since: "7d" | "29d"): Promise<void> {
  // the contract lists types whose metadata it leaves open (ci_issue.*, the requeues): no sentence for them
  const untyped = /^ci_issue\.|requeue$/;
  const r = await runs.run(["logs", "--type", type, "--since", since, "--limit", "3", "-o", "table"]);
  expect(r.code, type).toBe(0);
  expect(r.stderr, type).not.toMatch(/warning/);
  const rows = r.stdout.split("\n").slice(1).filter(Boolean);
  expect(rows.length, type).toBeGreaterThan(0);
  // a workflow's inputs are key=value in its own sentence ("ran workflow deploy with env=prod")
  if (!untyped.test(type)) for (const row of rows) expect(row.replace(/ran workflow .*/, ""), type).not.toMatch(/\w+=\S+ \w+=\S+/);
}

/** `mq logs --since 2d --all -o <format>`: exit 0, no warning, a real amount of output. */
export async function expectTwoDaysOfLogs(runs: DialectRuns, format: string): Promise<void> {
  const r = await runs.run(["logs", "--since", "2d", "--all", "-o", format]);
  expect(r.stderr).not.toMatch(/warning|error/i);
  expect(r.code).toBe(0);
  expect(r.stdout.length).toBeGreaterThan(1000);
}

export type StatsEndpoint = (typeof STATS_ENDPOINTS)[number];

/** The stats subcommands `mq stats` offers with `dialect` (the service's own and those derived from them). */
export function statsAvailable(dialect: DialectName): StatsEndpoint[] {
  return STATS_ENDPOINTS.filter((e) => e.dialects.includes(dialect) || derivationOf(e.name, dialect));
}

const FORMATS = ["table", "json", "ndjson", "csv"] as const;

/** What stats-dialects.test.ts checks of its sweeps; stats-dialects.e2e.test.ts checks the rest. */
export const STATS_SAMPLE = {
  /** every subcommand in one format, the formats taken in turn (so each is checked on some) */
  formats: (dialect: DialectName): Array<[StatsEndpoint, string]> =>
    statsAvailable(dialect).map((e, i) => [e, FORMATS[i % FORMATS.length]!]),
  /** the other three formats of every subcommand */
  otherFormats: (dialect: DialectName): Array<[StatsEndpoint, string]> =>
    statsAvailable(dialect).flatMap((e, i) =>
      FORMATS.filter((_, j) => j !== i % FORMATS.length).map((f): [StatsEndpoint, string] => [e, f]),
    ),
  /** how many of the subcommands with a main field get --chart and --fail-if */
  charts: 4,
  charted: (dialect: DialectName): StatsEndpoint[] => statsAvailable(dialect).filter((e) => e.mainField),
};

const statsWindow = (e: StatsEndpoint) => (e.params === "time-to-merge" ? [] : ["--since", "7d"]);

// the table and the chart have a line on stderr naming the repository and the window (issue 17)
const allowedStderr = (e: StatsEndpoint, human = false) =>
  new RegExp(
    `^${e.deprecatedUse ? "mq: warning: the \\S+ endpoint is deprecated; use .*\\n" : ""}${human ? `(acme/web ${e.name}.*\\n)?` : ""}$`,
  );

/** `mq stats <e> -o <format>`: exit 0, no warning but a deprecation notice, some output. */
export async function expectStatsFormat(runs: DialectRuns, e: StatsEndpoint, format: string): Promise<void> {
  const r = await runs.run(["stats", e.name, ...statsWindow(e), "-o", format]);
  expect(r.stderr, `${e.name} -o ${format}`).toMatch(allowedStderr(e, format === "table"));
  expect(r.code, `${e.name} -o ${format}: ${r.stderr}`).toBe(0);
  expect(r.stdout.length, `${e.name} -o ${format}`).toBeGreaterThan(0);
  if (format === "table") expect(r.stdout, e.name).not.toMatch(/partition_name none/);
}

/** `mq stats <e> --chart`, and --fail-if on its main field both ways: exit 0, then 1. */
export async function expectChartAndFailIf(runs: DialectRuns, e: StatsEndpoint): Promise<void> {
  const chart = await runs.run(["stats", e.name, ...statsWindow(e), "--chart"]);
  expect(chart.stderr, e.name).toMatch(allowedStderr(e, true));
  expect(chart.code, e.name).toBe(0);
  const field = e.mainField!;
  // each group: an average the contract sends without its count has no all-groups value (n/a,
  // test/stats/groups-rule.test.ts), and the check is about the gate on the field, not that rule
  const each = ["--fail-if-scope", "each"];
  const ok = await runs.run(["stats", e.name, ...statsWindow(e), "-o", "ndjson", ...each, "--fail-if", `max(${field}) < 0`]);
  expect(ok.code, `${e.name}: ${ok.stderr}`).toBe(0);
  const breach = await runs.run(["stats", e.name, ...statsWindow(e), "-o", "ndjson", ...each, "--fail-if", `max(${field}) >= 0`]);
  expect(breach.code, `${e.name}: ${breach.stderr}`).toBe(1);
}
