// `mq archive sync` killed with SIGKILL at random moments and run again until it finishes holds
// exactly the events of one uninterrupted sync: the same ids, the same bytes; and after each kill,
// every event of a range it says it covers (a batch's rows and the days they complete are
// committed together: src/archive/sync-batch.ts; every statement: sync-batches.e2e.test.ts). A second sync
// of the same archive, or Ctrl-C, gets a clear message and its exit code. Real processes: the
// built binary (npm run build:bundle) against `mq serve` with a fixed clock and seed.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openArchive } from "../../src/archive/db.js";
import { startMq, spawnMq, type Running } from "../helpers/spawn.js";
import * as tmp from "../helpers/tmp.js";

const TOKEN = "mqk_test_token_1234";
let serve: Running;
let url: string;
// the same log, each answer 200 ms late: a sync that lasts (a page at a time, a minute for the
// window) whatever the machine's speed, to be interrupted while it runs
let slow: Running;
let slowUrl: string;

beforeAll(async () => {
  const serveArgs = ["serve", "--port", "0", "--now", "2026-11-20T12:00:00Z", "--seed", "11", "--days", "10"];
  serve = startMq(serveArgs, { killAfterMs: 300_000 });
  slow = startMq([...serveArgs, "--latency", "200"], { killAfterMs: 300_000 });
  await Promise.all([serve.waitForStdout("\n", 30_000), slow.waitForStdout("\n", 30_000)]);
  url = serve.stdout().split("\n")[0]!.trim();
  slowUrl = slow.stdout().split("\n")[0]!.trim();
}, 60_000);
afterAll(() => {
  serve.child.kill("SIGINT");
  slow.child.kill("SIGINT");
});

const tempDir = () => tmp.tempDir("mq-archive-kill-");
const syncArgs = (since: string, parallel = 6, api = url) => [
  "archive",
  "sync",
  "--api-url",
  api,
  "--token",
  TOKEN,
  "--repo",
  "acme/web",
  "--since",
  since,
  "--parallel",
  String(parallel),
];

async function contents(dir: string): Promise<string[]> {
  const archive = await openArchive(join(dir, "archive.duckdb"), { readOnly: true });
  try {
    return (await archive.all("SELECT repository, id, raw FROM events ORDER BY id")).map((r) => `${r.repository} ${r.id} ${r.raw}`);
  } finally {
    archive.close();
  }
}

/**
 * The ids of `expected` (id, received_at in µs) that fall in a range the archive in `dir` covers and
 * that it does not hold; none when the kill came before the archive was made.
 */
async function coveredButMissing(dir: string, expected: ReadonlyArray<{ id: string; at: bigint }>): Promise<string[]> {
  if (!existsSync(join(dir, "archive.duckdb"))) return [];
  const archive = await openArchive(join(dir, "archive.duckdb"), { readOnly: true });
  try {
    const held = new Set((await archive.all("SELECT id FROM events")).map((r) => String(r.id)));
    const ranges = (await archive.all("SELECT epoch_us(range_from) AS f, epoch_us(range_to) AS t FROM coverage")).map((r) => ({
      from: BigInt(r.f as number),
      to: BigInt(r.t as number),
    }));
    return expected.filter((e) => !held.has(e.id) && ranges.some((r) => e.at >= r.from && e.at <= r.to)).map((e) => e.id);
  } finally {
    archive.close();
  }
}

async function timesOf(dir: string): Promise<Array<{ id: string; at: bigint }>> {
  const archive = await openArchive(join(dir, "archive.duckdb"), { readOnly: true });
  try {
    return (await archive.all("SELECT id, epoch_us(received_at) AS at FROM events")).map((r) => ({
      id: String(r.id),
      at: BigInt(r.at as number),
    }));
  } finally {
    archive.close();
  }
}

/** A small seeded generator: the kill moments differ between kills but not between runs of the test. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("mq archive sync under SIGKILL", () => {
  it("killed at random moments and rerun until done, holds exactly one uninterrupted sync's events", async () => {
    const since = "2026-11-18T22:00:00Z";
    const reference = tempDir();
    // the reference reads page after page; the killed runs read several days and slices at once
    const whole = await spawnMq(syncArgs(since, 1), { env: { MQ_DATA_DIR: reference }, killAfterMs: 120_000 });
    expect(whole.code, whole.stderr).toBe(0);
    const expected = await contents(reference);
    expect(expected.length).toBeGreaterThan(5000);
    const times = await timesOf(reference);

    // how long one uninterrupted parallel sync takes on this machine now: the kills fall within
    // its first part, so that at least four land before a rerun completes the work (with fixed
    // moments of up to 2.7 s, a quiet machine finished the sync before the fourth kill)
    const probeDir = tempDir();
    const probeStart = performance.now();
    const probe = await spawnMq(syncArgs(since, 6), { env: { MQ_DATA_DIR: probeDir }, killAfterMs: 120_000 });
    const probeMs = performance.now() - probeStart;
    expect(probe.code, probe.stderr).toBe(0);
    expect(await contents(probeDir)).toEqual(expected);

    const dir = tempDir();
    const random = prng(20);
    let kills = 0;
    let finished = false;
    for (let attempt = 0; attempt < 12 && !finished; attempt++) {
      const run = startMq(syncArgs(since, [6, 16, 2, 1][attempt % 4]), { env: { MQ_DATA_DIR: dir }, killAfterMs: 120_000 });
      if (attempt < 8) {
        // from before the archive is opened to well into the pages
        await sleep(100 + Math.floor(random() * 0.4 * probeMs));
        if (run.child.exitCode === null) {
          run.child.kill("SIGKILL");
          kills++;
        }
      }
      const r = await run.done;
      if (r.code === 0) finished = true;
      else {
        expect(r.signal, r.stderr).toBe("SIGKILL");
        expect(await coveredButMissing(dir, times), `after kill ${kills}`).toEqual([]);
      }
    }
    expect(finished).toBe(true);
    expect(kills).toBeGreaterThanOrEqual(4);
    expect(await contents(dir)).toEqual(expected);
  }, 240_000);
});

describe("two syncs at once, and Ctrl-C", () => {
  it("the second sync is refused with the first one's pid; Ctrl-C ends the first with 130 and how to resume", async () => {
    const dir = tempDir();
    const first = startMq(syncArgs("2026-11-12T12:00:00Z", 1, slowUrl), { env: { MQ_DATA_DIR: dir }, killAfterMs: 120_000 });
    // the archive exists once the first one has opened it; give it a page or two
    for (let i = 0; i < 100 && !existsSync(join(dir, "archive.duckdb")); i++) await sleep(100);
    await sleep(1500);
    expect(first.child.exitCode).toBeNull();
    const second = await spawnMq(syncArgs("2026-11-12T12:00:00Z", 1, slowUrl), { env: { MQ_DATA_DIR: dir }, killAfterMs: 60_000 });
    expect(second.code).toBe(8);
    expect(second.stderr).toBe(
      `mq: the archive ${join(dir, "archive.duckdb")} is in use by another process (pid ${first.child.pid}), probably another mq archive sync\n` +
        "only one mq at a time can use the archive while it syncs: try again when that one has finished\n",
    );
    const status = await spawnMq(["archive", "status"], { env: { MQ_DATA_DIR: dir } });
    expect(status.code).toBe(8);
    // a reader sees nothing of a sync in progress, not even its committed part: DuckDB's lock
    const reader = await spawnMq(
      ["logs", "--archive", "--repo", "acme/web", "--since", "2026-11-12T12:00:00Z", "--until", "2026-11-13T12:00:00Z"],
      {
        env: { MQ_DATA_DIR: dir },
      },
    );
    expect({ code: reader.code, stdout: reader.stdout, stderr: reader.stderr }).toEqual({ code: 8, stdout: "", stderr: second.stderr });

    first.child.kill("SIGINT");
    const r = await first.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(
      new RegExp(
        `^mq: interrupted\\n[\\d,]+ new events were archived before this; mq --api-url ${slowUrl} archive sync acme/web --since 2026-11-12T12:00:00Z --until \\S+Z continues where it stopped\\.\\n$`,
      ),
    );
    const after = await spawnMq(["archive", "status", "-o", "json"], { env: { MQ_DATA_DIR: dir } });
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)[0]).toMatchObject({ repository: "acme/web", last_sync_complete: false });
  }, 120_000);
});
