// A second implementation as oracle (issue 28, item 6): every figure of `mq insights` and every
// field of `mq prs`, recomputed from the archive's raw events by SQL that shares nothing with
// src/insights (test/oracle/stays.sql), must agree with what mq prints over the API: counts
// exactly, durations within 1 ms, percentiles nearest-rank as the catalogue defines them; and every
// open stay of `mq queue` with its position and merge estimate (test/oracle/eta.sql), to the
// millisecond. Also:
// `mq insights --archive` prints what `mq insights` prints over the API for a closed window, and
// the counts of `mq stats summary` are the sums of the endpoints they come from and the events
// they count. A bundled server in each dialect (the contract's, and the real service's as its
// OpenAPI has it: --dialect mergify), each on its own seed, two repositories (their histories are
// seeded by their names too) synced once: four histories; several windows each.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";
import { withDb, type RunSql } from "../helpers/duckdb.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const TOKEN = "mqk_test_token_1234";
const REPOS = ["acme/lib", "acme/api"];
const SYNC_FROM = "2026-11-18T03:00:00Z";
type Window = readonly [string, string];
/** closed windows whose previous window is synced too: hours, a day at odd milliseconds */
const HOURS: Window = ["2026-11-19T10:00:00Z", "2026-11-19T16:00:00Z"];
const DAY: Window = ["2026-11-19T03:17:31.250Z", "2026-11-20T03:17:31.250Z"];

/** the queries of stays.sql and eta.sql, by their `-- name:` */
const QUERIES: ReadonlyMap<string, string> = new Map(
  ["stays.sql", "eta.sql"].flatMap((file) =>
    readFileSync(join(import.meta.dirname, file), "utf8")
      .split(/^-- name: /m)
      .slice(1)
      .map((part) => {
        const nl = part.indexOf("\n");
        return [part.slice(0, nl).trim(), part.slice(nl + 1)] as const;
      }),
  ),
);
/**
 * instants of `mq queue`, each with a two-day lookback inside the synced span (which ends five
 * minutes before NOW); between them every basis of the estimate occurs in each dialect
 */
const QUEUE_AT: readonly Window[] = [
  ["2026-11-18T11:50:00Z", "2026-11-20T11:50:00Z"],
  ["2026-11-18T07:30:00.500Z", "2026-11-20T07:30:00.500Z"],
];

type DialectName = "spec" | "mergify";
/** a server per dialect, each on its own seed; the 45-minute window is one where both repositories have stays */
const SIDES: ReadonlyArray<{ dialect: DialectName; seed: number; windows: readonly Window[] }> = [
  { dialect: "spec", seed: 7, windows: [HOURS, DAY, ["2026-11-20T06:00:00Z", "2026-11-20T06:45:00Z"]] },
  { dialect: "mergify", seed: 42, windows: [HOURS, DAY, ["2026-11-20T09:00:00Z", "2026-11-20T09:45:00Z"]] },
];
/** each dialect's server and archive */
const sides = new Map<DialectName, { server: RunningServer; dataDir: string }>();

async function mq(dialect: DialectName, args: string[]) {
  const { server, dataDir } = sides.get(dialect)!;
  const ctx = testContext({ now: () => NOW, env: { MQ_DATA_DIR: dataDir } });
  const code = await main([...args, "--api-url", server.url, "--token", TOKEN, "--dialect", dialect], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

beforeAll(async () => {
  for (const { dialect, seed } of SIDES) {
    const server = await startServer({ port: 0, now: NOW, seed, days: 3, recordRequests: false, dialect });
    sides.set(dialect, { server, dataDir: tempDir("mq-oracle-") });
    const r = await mq(dialect, ["archive", "sync", ...REPOS, "--since", SYNC_FROM, "-o", "none"]);
    expect(r.code, r.err).toBe(0);
  }
}, 300_000);
afterAll(async () => {
  for (const { server } of sides.values()) await server.close();
});

const ms = (iso: string) => Date.parse(iso);
const lit = (v: string | number) => (typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`);

/** Runs the named queries over the archive, with the variables set; the rows of the last one. */
async function oracle(run: RunSql, vars: Record<string, string | number>, names: readonly string[]): Promise<Record<string, unknown>[][]> {
  for (const [k, v] of Object.entries(vars)) {
    const value = k === "read_from" || k === "read_to" ? `CAST(${lit(v)} AS TIMESTAMPTZ)` : lit(v);
    await run(`SET VARIABLE ${k} = ${value}`);
  }
  const out: Record<string, unknown>[][] = [];
  for (const name of names) {
    // a query is one or more statements; the rows are the last one's
    const statements = QUERIES.get(name)!
      .split(/;\s*$/m)
      .map((s) => s.trim())
      .filter((s) => s.replace(/^--.*$/gm, "").trim() !== "");
    let rows: Record<string, unknown>[] = [];
    for (const s of statements) rows = await run(s);
    out.push(rows);
  }
  return out;
}

function withArchive<T>(dialect: DialectName, fn: (run: RunSql) => Promise<T>): Promise<T> {
  return withDb(join(sides.get(dialect)!.dataDir, "archive.duckdb"), fn);
}

/**
 * One case of a command against the oracle: `mq COMMAND` over the API for the window, its ndjson
 * records, and the rows of the oracle's QUERY (after `stays`) over the archive for the same window.
 */
async function recordsAndOracle(
  dialect: DialectName,
  command: "prs" | "queue",
  repo: string,
  [since, until]: Window,
  query: "prs" | "eta",
): Promise<{ rows: Record<string, unknown>[]; want: Record<string, unknown>[] }> {
  const r = await mq(dialect, [command, "--repo", repo, "--since", since, "--until", until, "--no-archive", "-o", "ndjson"]);
  expect(r.code, r.err).toBe(0);
  const rows = r.out
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const [, want] = await withArchive(dialect, (run) =>
    oracle(run, { repo, read_from: since, read_to: until, until_ms: ms(until) }, ["stays", query]),
  );
  return { rows, want: want! };
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
/** within 1 ms: mq prints seconds to the millisecond */
const closeMs = (mqSeconds: unknown, oracleMs: unknown) =>
  mqSeconds === null || oracleMs === null ? mqSeconds === oracleMs : Math.abs(Number(mqSeconds) * 1000 - Number(oracleMs)) <= 1;

describe.each(SIDES.flatMap((side) => REPOS.map((repo) => [side.dialect, side.seed, repo, side.windows] as const)))(
  "the oracle agrees with mq (%s dialect, seed %i) for %s",
  (dialect, _seed, repo, windows) => {
    it.each(windows)("mq insights %s → %s, and its previous window", async (since, until) => {
      const r = await mq(dialect, ["insights", "--repo", repo, "--since", since, "--until", until, "--no-archive", "-o", "json"]);
      expect(r.code, r.err).toBe(0);
      const doc = JSON.parse(r.out) as {
        figures: Record<string, { value: number | null; previous: number | null }>;
        exit_reasons: Array<{ reason: string; count: number; previous: number | null }>;
      };
      const length = ms(until) - ms(since);
      // the window and the one before it, both from one read of the log over the two
      const both = [
        ["value", ms(since), ms(until)],
        ["previous", ms(since) - length, ms(since)],
      ] as const;
      const answers = await withArchive(dialect, async (run) => {
        const out: Record<string, unknown>[][][] = [];
        for (const [, from, to] of both) {
          const vars = {
            repo,
            read_from: new Date(ms(since) - length).toISOString(),
            read_to: until,
            until_ms: to,
            from_ms: from,
            to_ms: to,
          };
          out.push(await oracle(run, vars, ["stays", "counts", "distributions", "exit_reasons"]));
        }
        return out;
      });
      for (const [i, [key]] of both.entries()) {
        const [, counts, dists, reasons] = answers[i]!;
        const c = counts![0]!;
        const fig = (name: string) => doc.figures[name]![key];
        const mine = { entered: fig("entered"), merged: fig("merged"), left: fig("left"), failed: fig("failed"), retries: fig("retries") };
        expect(mine, `${key} counts`).toEqual({
          entered: num(c.entered),
          merged: num(c.merged),
          left: num(c.left),
          failed: num(c.failed),
          retries: num(c.retries),
        });
        expect(mine.entered).toBeGreaterThan(0);
        expect(fig("stay_failure_rate")).toBe(mine.left ? Math.round((mine.failed! / mine.left) * 1000) / 1000 : null);
        expect(fig("throughput")).toBe(Math.round((mine.merged! / (length / 86_400_000)) * 1000) / 1000);
        for (const d of ["time_to_merge", "queue_time", "ci_time", "wait_time"]) {
          const o = dists!.find((x) => x.distribution === d);
          expect(fig(`count(${d})`), `${key} count(${d})`).toBe(o ? num(o.count) : 0);
          for (const st of ["avg", "p50", "p90", "p95", "p99", "max"]) {
            const want = o ? num(o[`${st}_ms`]) : null;
            expect(closeMs(fig(`${st}(${d})`), want), `${key} ${st}(${d}): mq ${fig(`${st}(${d})`)} s, oracle ${want} ms`).toBe(true);
          }
        }
        const mineReasons = Object.fromEntries(
          doc.exit_reasons.map((e) => [e.reason, key === "value" ? e.count : e.previous]).filter(([, n]) => n !== 0),
        );
        expect(mineReasons, `${key} exit reasons`).toEqual(Object.fromEntries(reasons!.map((x) => [x.reason, num(x.count)])));
      }
    });

    it.each(windows)("mq prs %s → %s: every stay, every field", async (since, until) => {
      const { rows, want } = await recordsAndOracle(dialect, "prs", repo, [since, until], "prs");
      const key = (pr: unknown, enteredMs: number) => `${pr}@${enteredMs}`;
      const mine = new Map(rows.map((x) => [key(x.pull_request, ms(String(x.entered_at))), x]));
      expect(mine.size).toBe(rows.length);
      expect([...mine.keys()].sort()).toEqual(want.map((o) => key(o.pull_request, Number(o.entered_ms))).sort());
      const iso = (v: unknown) => (v === null ? null : new Date(Number(v)).toISOString().replace(".000Z", "Z"));
      for (const o of want) {
        const x = mine.get(key(o.pull_request, Number(o.entered_ms)))!;
        const where = `${repo} #${o.pull_request} entered ${iso(o.entered_ms)}`;
        expect(
          {
            base_ref: x.base_ref,
            queue_name: x.queue_name,
            partition_name: x.partition_name,
            priority_rule_name: x.priority_rule_name,
            session_id: x.session_id,
            left_at: x.left_at,
            merged_at: x.merged_at,
            outcome: x.outcome,
            reason: x.reason,
            check_runs: x.check_runs,
            retries: x.retries,
            batch_size: x.batch_size,
            bisections: x.bisections,
            began_before_window: x.began_before_window,
          },
          where,
        ).toEqual({
          base_ref: o.base_ref,
          queue_name: o.queue_name,
          partition_name: o.partition_name,
          priority_rule_name: o.priority_rule_name,
          session_id: o.session_id,
          left_at: iso(o.left_ms),
          merged_at: iso(o.merged_ms),
          outcome: o.outcome,
          reason: o.reason,
          check_runs: num(o.check_runs),
          retries: num(o.retries),
          batch_size: num(o.batch_size),
          bisections: num(o.bisections),
          began_before_window: o.began_before_window,
        });
        for (const f of ["queue_time", "time_to_merge", "wait_time", "idle_schedule", "idle_freeze", "ci_time"]) {
          const want = o[f] === null ? null : Number(o[f]) * 1000;
          expect(closeMs(x[f], want), `${where}: ${f} mq ${x[f]}, oracle ${o[f]}`).toBe(true);
        }
        const capacity = Number(o.wait_time) - Number(o.idle_schedule) - Number(o.idle_freeze);
        expect(closeMs(x.idle_capacity, capacity * 1000), `${where}: idle_capacity`).toBe(true);
      }
    });

    it.each(QUEUE_AT)("mq queue %s → %s: every open stay, its position and merge estimate", async (since, until) => {
      const { rows, want } = await recordsAndOracle(dialect, "queue", repo, [since, until], "eta");
      const instant = (v: unknown) => (v === null ? null : ms(String(v)));
      const mine = rows.map((x) => ({
        pull_request: x.pull_request,
        entered_ms: ms(String(x.entered_at)),
        position: x.position,
        eta_basis: x.eta_basis,
        eta_sample: x.eta_sample,
        eta_p50_ms: instant(x.eta_p50),
        eta_p90_ms: instant(x.eta_p90),
      }));
      const theirs = want.map((o) => ({
        pull_request: num(o.pull_request),
        entered_ms: num(o.entered_ms),
        position: num(o.position),
        eta_basis: o.eta_basis,
        eta_sample: num(o.eta_sample),
        eta_p50_ms: num(o.eta_p50_ms),
        eta_p90_ms: num(o.eta_p90_ms),
      }));
      const order = (a: { pull_request: unknown; entered_ms: number | null }, b: { pull_request: unknown; entered_ms: number | null }) =>
        Number(a.pull_request) - Number(b.pull_request) || Number(a.entered_ms) - Number(b.entered_ms);
      expect(mine.sort(order)).toEqual(theirs.sort(order));
      // the queue is busy there, and estimated
      expect(mine.some((x) => x.eta_p50_ms !== null)).toBe(true);
    });

    it("the archive holds the dialect's own events (the service's leaves say dequeue_code, its batches batch_id)", async () => {
      const [row] = await withArchive(dialect, (run) =>
        run(
          `SELECT count(*) FILTER (WHERE json_extract(raw, '$.metadata.dequeue_code') IS NOT NULL) AS coded,
                  count(*) FILTER (WHERE json_extract(raw, '$.metadata.batch_id') IS NOT NULL) AS batched
           FROM events WHERE repository = ${lit(repo)} AND type IN ('action.queue.leave', 'action.queue.checks_start')`,
        ),
      );
      const has = { coded: num(row!.coded)! > 0, batched: num(row!.batched)! > 0 };
      expect(has).toEqual(dialect === "mergify" ? { coded: true, batched: true } : { coded: false, batched: false });
    });

    it("mq insights --archive prints what it prints over the API, for a closed window", async () => {
      const [since, until] = windows[1]!;
      const window = ["insights", "--repo", repo, "--since", since, "--until", until, "-o", "json"];
      const api = await mq(dialect, [...window, "--no-archive"]);
      const archived = await mq(dialect, [...window, "--archive"]);
      expect(api.code, api.err).toBe(0);
      expect(archived).toEqual({ code: 0, out: api.out, err: "" });
    });

    it("mq stats summary: its counts are the sums of their endpoints and the events they count", async () => {
      const [since, until] = windows[1]!;
      const window = ["--repo", repo, "--since", since, "--until", until];
      const summary = await mq(dialect, ["stats", "summary", ...window, "-o", "json"]);
      expect(summary.code, summary.err).toBe(0);
      const s = JSON.parse(summary.out) as Record<string, number>;
      const sum = async (endpoint: string, field: string) => {
        const r = await mq(dialect, ["stats", endpoint, ...window, "-o", "ndjson"]);
        expect(r.code, r.err).toBe(0);
        return r.out
          .split("\n")
          .filter(Boolean)
          .reduce((n, l) => n + Number((JSON.parse(l) as Record<string, unknown>)[field] ?? 0), 0);
      };
      expect({
        entered: s.entered,
        merged: s.merged,
        checks: s.checks,
        check_failures: s.check_failures,
        total_retries: s.total_retries,
      }).toEqual({
        entered: await sum("queues-entered-count", "entered"),
        merged: await sum("queues-merged-count", "merged"),
        checks: await sum("failure-rate", "total"),
        check_failures: await sum("failure-rate", "failures"),
        total_retries: await sum("checks-retries", "total_retries"),
      });
      // and the events themselves, counted in SQL over [since, until)
      const [events] = await withArchive(dialect, (run) =>
        run(
          `SELECT count(*) FILTER (WHERE type = 'action.queue.enter') AS entered, count(*) FILTER (WHERE type = 'action.queue.merged') AS merged
         FROM events WHERE repository = ${lit(repo)} AND received_at >= CAST(${lit(since)} AS TIMESTAMPTZ) AND received_at < CAST(${lit(until)} AS TIMESTAMPTZ)`,
        ),
      );
      expect({ entered: s.entered, merged: s.merged }).toEqual({ entered: num(events!.entered), merged: num(events!.merged) });
    });
  },
);
