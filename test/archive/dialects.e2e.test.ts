// The archive records which side of the API (dialect) each event came from, and reads hold every
// event to its own side's shapes: an archive synced from the real service (here the bundled
// server speaking its dialect) reads back under --strict without a word, one archive can hold a
// repository from each side, and an archive from before the record (schema version 2) is
// migrated with each event's side inferred.
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { testContext } from "../helpers/context.js";
import { toSchemaVersion, withDb } from "../helpers/duckdb.js";
import * as tmp from "../helpers/tmp.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const TOKEN = "mqk_test_token_1234";
let spec: RunningServer;
let mergify: RunningServer;
beforeAll(async () => {
  [spec, mergify] = await Promise.all([
    startServer({ now: NOW, seed: 5, days: 2, recordRequests: false }),
    startServer({ now: NOW, seed: 5, days: 2, recordRequests: false, dialect: "mergify" }),
  ]);
});
afterAll(async () => {
  await Promise.all([spec.close(), mergify.close()]);
});

const tempDir = () => tmp.tempDir("mq-archive-dialect-");

async function mq(args: string[], dataDir: string) {
  const ctx = testContext({ now: () => NOW, env: { MQ_DATA_DIR: dataDir } });
  const code = await main(args, ctx);
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText() };
}

const SINCE = "2026-11-19T12:00:00Z";
const UNTIL = "2026-11-20T11:00:00Z";
const syncFrom = (server: RunningServer, dialect: "spec" | "mergify", repo: string, dataDir: string) =>
  mq(
    ["archive", "sync", "--api-url", server.url, "--dialect", dialect, "--token", TOKEN, "--repo", repo, "--since", SINCE, "--strict"],
    dataDir,
  );

/**
 * A sync takes seconds of CPU, and most tests start from the same one or two: each runs once, in a
 * folder of its own, and a test gets a copy of that folder (what the same syncs write in its own).
 */
const synced = new Map<string, Promise<string>>();
function syncedOnce(syncs: Array<[RunningServer, "spec" | "mergify", string]>): Promise<string> {
  const key = syncs.map(([server, dialect, repo]) => `${server.url} ${dialect} ${repo}`).join("; ");
  let made = synced.get(key);
  if (!made) {
    made = (async () => {
      const dir = tempDir();
      for (const [server, dialect, repo] of syncs) {
        const r = await syncFrom(server, dialect, repo, dir);
        expect(r.code, r.stderr).toBe(0);
      }
      return dir;
    })();
    synced.set(key, made);
  }
  return made;
}
async function copyOf(syncs: Array<[RunningServer, "spec" | "mergify", string]>): Promise<string> {
  const dir = tempDir();
  cpSync(await syncedOnce(syncs), dir, { recursive: true });
  return dir;
}
const mergifyWeb = (): Array<[RunningServer, "spec" | "mergify", string]> => [[mergify, "mergify", "acme/web"]];
const mergifyWebSpecApi = (): Array<[RunningServer, "spec" | "mergify", string]> => [
  [mergify, "mergify", "acme/web"],
  [spec, "spec", "acme/api"],
];

/** every read of the archive, under --strict, whatever dialect the command line names */
async function readsStrict(repo: string, dir: string, dialect: "spec" | "mergify") {
  const window = ["--repo", repo, "--since", SINCE, "--until", UNTIL, "--archive", "--strict", "--dialect", dialect, "--token", TOKEN];
  const logs = await mq(["logs", ...window, "--all", "-o", "ndjson"], dir);
  const insights = await mq(["insights", ...window, "--compare", "none", "-o", "json"], dir);
  const prs = await mq(["prs", ...window, "-o", "json"], dir);
  return { logs, insights, prs };
}

function expectClean(r: { code: number; stdout: string; stderr: string }) {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toMatch(/warning|does not match/);
  expect(r.stdout.length).toBeGreaterThan(0);
}

describe("an archive synced from the real service's dialect", () => {
  it("reads back under --strict (logs, insights, prs) with exit 0 and no warning, whatever --dialect the reader names", async () => {
    const dir = await copyOf(mergifyWeb());
    const file = join(dir, "archive.duckdb");
    expect(await withDb(file, (run) => run("SELECT DISTINCT dialect FROM events"))).toEqual([{ dialect: "mergify" }]);
    expect(await withDb(file, (run) => run("SELECT dialect FROM syncs"))).toEqual([{ dialect: "mergify" }]);
    for (const reader of ["spec", "mergify"] as const) {
      const { logs, insights, prs } = await readsStrict("acme/web", dir, reader);
      expectClean(logs);
      expectClean(insights);
      expectClean(prs);
    }
    // and without --strict, not a warning either (each queue type warned before)
    const plain = await mq(
      ["logs", "--repo", "acme/web", "--since", SINCE, "--until", UNTIL, "--archive", "--dialect", "spec", "--all", "-o", "ndjson"],
      dir,
    );
    expectClean(plain);
  });

  it("an event that matches neither is named against its own side's description under --strict", async () => {
    const dir = await copyOf(mergifyWeb());
    const file = join(dir, "archive.duckdb");
    // a queue event whose metadata the service's OpenAPI does not allow
    await withDb(file, (run) =>
      run(`UPDATE events SET raw = json_merge_patch(raw, '{"metadata":{"queue_name":42}}')
           WHERE id = (SELECT max(id) FROM events WHERE type = 'action.queue.enter' AND received_at < '${UNTIL}'::TIMESTAMPTZ)`),
    );
    const r = await mq(
      ["logs", "--repo", "acme/web", "--since", SINCE, "--until", UNTIL, "--archive", "--strict", "--all", "-o", "ndjson"],
      dir,
    );
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^mq: archived event \d+ does not match the service's OpenAPI: action\.queue\.enter: metadata/);
  });
});

describe("one archive, a repository from each side", () => {
  it("each repository's events keep their own side, and both read under --strict", async () => {
    const dir = await copyOf(mergifyWebSpecApi());
    const file = join(dir, "archive.duckdb");
    expect(
      await withDb(file, (run) => run("SELECT repository, dialect, count(*)::INTEGER AS n FROM events GROUP BY ALL ORDER BY ALL")),
    ).toEqual([
      { repository: "acme/api", dialect: "spec", n: expect.any(Number) },
      { repository: "acme/web", dialect: "mergify", n: expect.any(Number) },
    ]);
    for (const repo of ["acme/web", "acme/api"]) {
      const { logs, insights, prs } = await readsStrict(repo, dir, "spec");
      expectClean(logs);
      expectClean(insights);
      expectClean(prs);
    }
    const status = await mq(["archive", "status", "-o", "json"], dir);
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as Array<Record<string, unknown>>).map((r) => [r.repository, r.dialects])).toEqual([
      ["acme/api", ["spec"]],
      ["acme/web", ["mergify"]],
    ]);
  });
});

describe("one repository synced from both sides", () => {
  it("each event keeps the side of the copy archived first, and --strict reads pass", async () => {
    const dir = tempDir();
    expect(
      (
        await mq(
          [
            "archive",
            "sync",
            "--api-url",
            spec.url,
            "--dialect",
            "spec",
            "--token",
            TOKEN,
            "--repo",
            "acme/web",
            "--since",
            SINCE,
            "--until",
            "2026-11-20T00:00:00Z",
          ],
          dir,
        )
      ).code,
    ).toBe(0);
    expect((await syncFrom(mergify, "mergify", "acme/web", dir)).code).toBe(0);
    const file = join(dir, "archive.duckdb");
    const sides = await withDb(file, (run) =>
      run("SELECT dialect, min(received_at)::VARCHAR AS first, max(received_at)::VARCHAR AS last FROM events GROUP BY ALL ORDER BY ALL"),
    );
    expect(sides.map((r) => r.dialect)).toEqual(["mergify", "spec"]);
    const { logs, insights, prs } = await readsStrict("acme/web", dir, "mergify");
    expectClean(logs);
    expectClean(insights);
    expectClean(prs);
  });
});

describe("schema version 2 to 3", () => {
  it("migrates: a backup first, each event's side inferred from its sync's API and its own shape, and --strict reads pass", async () => {
    const dir = await copyOf(mergifyWebSpecApi());
    const file = join(dir, "archive.duckdb");
    const sides = "SELECT repository, id, dialect FROM events ORDER BY ALL";
    const synced = await withDb(file, (run) => run(sides));
    // back to version 2's layout; the mergify sync's URL is a loopback one, so only the events'
    // shapes can tell their side
    await withDb(file, (run) => toSchemaVersion(run, 2));
    const before = readFileSync(file);
    const { logs, insights, prs } = await readsStrict("acme/web", dir, "spec");
    expectClean(logs);
    expectClean(insights);
    expectClean(prs);
    expect(readFileSync(`${file}.v2.bak`).equals(before)).toBe(true);
    expect(await withDb(file, (run) => run("SELECT max(version) AS v FROM mq_schema"))).toEqual([{ v: 3 }]);
    const migrated = await withDb(file, (run) => run(sides));
    // every event of the mergify repository with evidence is the service's: so is the whole
    // repository, its sync included; nothing changed for the other
    expect(migrated).toEqual(synced);
    expect(await withDb(file, (run) => run("SELECT repository, dialect FROM syncs ORDER BY ALL"))).toEqual([
      { repository: "acme/api", dialect: "spec" },
      { repository: "acme/web", dialect: "mergify" },
    ]);
    expectClean((await readsStrict("acme/api", dir, "mergify")).logs);
  });

  it("a sync from the real service's URL is the service's, and so are its repository's events; offline is the contract", async () => {
    const dir = await copyOf(mergifyWebSpecApi());
    const file = join(dir, "archive.duckdb");
    await withDb(file, async (run) => {
      await run("UPDATE syncs SET api_url = 'https://api.mergify.com/' WHERE repository = 'acme/web'");
      await run("UPDATE syncs SET api_url = 'offline' WHERE repository = 'acme/api'");
      await toSchemaVersion(run, 2);
    });
    const status = await mq(["archive", "status", "-o", "json"], dir);
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as Array<Record<string, unknown>>).map((r) => [r.repository, r.dialects])).toEqual([
      ["acme/api", ["spec"]],
      ["acme/web", ["mergify"]],
    ]);
    expect(await withDb(file, (run) => run("SELECT repository, api_url, dialect FROM syncs ORDER BY ALL"))).toEqual([
      { repository: "acme/api", api_url: "offline", dialect: "spec" },
      { repository: "acme/web", api_url: "https://api.mergify.com/", dialect: "mergify" },
    ]);
  });
});
