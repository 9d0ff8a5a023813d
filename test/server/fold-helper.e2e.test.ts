// The statistics of a long window folded on two threads (src/server/stats/fold-helper.ts): the answers
// are those of one thread, byte for byte, in both dialects and for every endpoint; a helper that
// fails (it exits, it runs out of memory) costs time, not answers, and is reported; closing the
// server stops its thread. The helper is a worker, which cannot load these TypeScript sources:
// it is bundled from them first (esbuild), as `npm run build` bundles it for `mq serve`.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { Repositories, startServer } from "../../src/server/index.js";
import { FoldHelper } from "../../src/server/stats/fold-helper.js";
import { DayFolder, foldAll } from "../../src/server/stats/day-fold.js";
import { dayOf, historyStart } from "../../src/server/simulate/index.js";
import { CONTRACT_VIEW } from "../../src/server/stats/index.js";
import { STATS_SPECS, type Partials } from "../../src/server/stats/index.js";
import { MERGIFY_FACT_VIEW, toMergifyEvent } from "../../src/server/dialects/mergify-events.js";
import { startMq } from "../helpers/spawn.js";
import { AUTH, get, NOW } from "./helpers.js";
import { tempDir } from "../helpers/tmp.js";

const DAY = 86_400_000;
const DAYS = 40;
const LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 16 };
let helperUrl: URL;

beforeAll(async () => {
  const dir = tempDir("mq-fold-helper-");
  const outfile = join(dir, "fold-helper.mjs");
  await build({
    entryPoints: ["src/server/stats/fold-helper.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "warning",
  });
  helperUrl = pathToFileURL(outfile);
}, 60_000);

const DIALECTS = [
  { name: "the contract", translate: undefined, factView: undefined },
  { name: "the real service's shape", translate: toMergifyEvent, factView: MERGIFY_FACT_VIEW },
] as const;

const now = NOW.getTime();
const windows: Array<[from: number, to: number]> = [
  [now - DAYS * DAY, now],
  // starts mid-day, ends before today: edges from events, the days between from partials
  [now - 25 * DAY - 5 * 3_600_000, now - 3 * DAY],
];

/** every endpoint's answer over each window, as JSON text */
async function answers(repos: Repositories): Promise<string[]> {
  const out: string[] = [];
  for (const [from, to] of windows) {
    for (const name of Object.keys(STATS_SPECS))
      out.push(JSON.stringify(await repos.stats("acme/web", name, from, to, {}, { sums: true })));
    out.push(JSON.stringify(await repos.stats("acme/web", "average-queue-time", from, to, { base_ref: ["main"] })));
  }
  return out;
}

/** one thread's answers in a dialect, computed once: the reference of the tests below */
const alone = new Map<string, Promise<string[]>>();
function answersAlone({ name, translate, factView }: (typeof DIALECTS)[number]): Promise<string[]> {
  let run = alone.get(name);
  if (!run) {
    run = answers(new Repositories({ seed: 3, days: DAYS, now: NOW, translate, factView }));
    alone.set(name, run);
  }
  return run;
}

describe("the statistics of a long window on two threads", () => {
  it.each(DIALECTS)(
    "$name: every endpoint's answers are those of one thread",
    async (dialect) => {
      const { translate, factView } = dialect;
      const both = new Repositories({
        seed: 3,
        days: DAYS,
        now: NOW,
        translate,
        factView,
        foldHelper: { url: helperUrl, resourceLimits: LIMITS },
      });
      try {
        const expected = await answersAlone(dialect);
        expect(await answers(both)).toEqual(expected);
        // the window's days were folded once each, some of them by the helper (which starts while
        // this thread folds: it takes fewer than half)
        expect(both.helperDays).toBeGreaterThan(0);
        expect(both.helperDays).toBeLessThan(DAYS);
      } finally {
        await both.close();
      }
    },
    120_000,
  );

  it("the helper alone folds a whole window, each day as this thread would, in either view", async () => {
    for (const view of [CONTRACT_VIEW, MERGIFY_FACT_VIEW]) {
      const helper = new FoldHelper({ url: helperUrl, resourceLimits: LIMITS });
      const historyDay = dayOf(historyStart(now, DAYS));
      const job = { repo: "acme/api", seed: 9, view, historyDay, days: [20380, 20381, 20383, 20390, 20391, 20392] };
      const got = new Map<number, Partials>();
      // the caller claims no day: the helper takes them all, from the last
      const run = helper.run(job, (d, p) => got.set(d, p));
      expect(await run.finished).toEqual({ folded: job.days.length });
      // in blocks from the back, each block from its first day
      expect([...got.keys()].sort()).toEqual(job.days);
      const folder = new DayFolder(job, job.days);
      for (const d of job.days) expect(got.get(d), `day ${d}`).toEqual(foldAll(folder.fold(d)));
      await helper.close();
      expect(helper.available).toBe(false);
    }
  }, 60_000);

  it("a helper that exits or runs out of memory: the days are folded here, the answers unchanged, the failure reported", async () => {
    const dir = tempDir("mq-fold-helper-");
    const exits = join(dir, "exits.mjs");
    writeFileSync(exits, "process.exit(3);\n");
    const expected = await answersAlone(DIALECTS[0]);
    // The V8 of Node 22 (22.23) and 24 cannot start a worker in a 2 MB heap at all: it aborts the
    // whole process ("GC during deserialization") instead of ending the worker, so the
    // out-of-memory case runs on Node 20 only (mq's own helper never gets less than 64 MB)
    const oldV8 = Number(process.versions.node.split(".")[0]) < 22;
    for (const [foldHelper, reason] of [
      [{ url: pathToFileURL(exits) }, /the fold helper exited \(code 3\)/],
      ...(oldV8
        ? ([
            [
              { url: helperUrl, resourceLimits: { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 } },
              /ran out of its share of the memory budget/,
            ],
          ] as const)
        : []),
    ] as const) {
      const notices: string[] = [];
      const repos = new Repositories({ seed: 3, days: DAYS, now: NOW, foldHelper: { ...foldHelper, onFailure: (m) => notices.push(m) } });
      try {
        expect(await answers(repos)).toEqual(expected);
        expect(repos.helperDays).toBe(0);
        expect(notices.length).toBeGreaterThanOrEqual(1);
        expect(notices[0]).toMatch(reason);
        expect(notices[0]).toMatch(/its days were folded on the server's thread/);
      } finally {
        await repos.close();
      }
    }
  }, 120_000);

  it("after two failures the server folds alone and says so", async () => {
    const dir = tempDir("mq-fold-helper-");
    const exits = join(dir, "exits.mjs");
    writeFileSync(exits, "process.exit(3);\n");
    const notices: string[] = [];
    const repos = new Repositories({
      seed: 3,
      days: DAYS,
      now: NOW,
      foldHelper: { url: pathToFileURL(exits), onFailure: (m) => notices.push(m) },
    });
    for (const repo of ["acme/a", "acme/b", "acme/c"]) await repos.stats(repo, "failure-rate", now - DAYS * DAY, now, {});
    expect(notices).toHaveLength(2);
    expect(notices[1]).toMatch(/which now folds every window alone/);
    await repos.close();
  }, 120_000);

  it("closing the server stops the helper thread", async () => {
    const threads = () => readdirSync("/proc/self/task").length;
    const before = threads();
    // the server starts its helper as it starts listening, idle
    const server = await startServer({ port: 0, seed: 3, days: DAYS, now: NOW, foldHelper: helperUrl.href });
    const r = await get(`${server.url}/v1/repos/acme/web/stats/failure_rate?start_at=${new Date(now - DAYS * DAY).toISOString()}`, AUTH);
    expect(r.status).toBe(200);
    // the helper's thread (and its own platform threads, if any) while it lives
    expect(threads()).toBeGreaterThan(before);
    await server.close();
    expect(threads()).toBe(before);
  }, 60_000);
});

describe("mq serve with its helper thread", () => {
  it("answers a window back to 2000 over its whole history, then stops on Ctrl-C with nothing left running", async () => {
    const serve = startMq(["serve", "--port", "0", "--now", NOW.toISOString(), "--days", "40", "--memory-budget", "512"], {
      killAfterMs: 60_000,
    });
    await serve.waitForStdout(/^http:\/\/.*\n/, 30_000);
    const url = serve.stdout().trim();
    const r = await get(`${url}/v1/repos/acme/web/stats/failure_rate?start_at=2000-01-01T00:00:00Z`, AUTH);
    expect(r.status).toBe(200);
    // the helper lives in the server's worker: threads beyond the main thread's few
    serve.child.kill("SIGINT");
    const done = await serve.done;
    expect(done.killed).toBe(false);
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/mq serve: stopped\n$/);
    expect(done.stderr).not.toMatch(/helper/);
  }, 90_000);
});
