// `mq insights`, `mq prs` and `mq pr` read from the archive print exactly what they print from the
// API for the same window, and every log reader uses the archive by itself when it covers the
// window (synced from the same API), saying so; otherwise it asks the API. In-process against the
// bundled server (what `mq serve --now` serves), 6.5 days of one repository synced once (the
// length does not matter to what is compared; the sync is the slow part).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

const NOW = new Date("2026-11-20T12:00:00Z");
// a quieter simulated repository than acme/web (about half its events): the sync is the slow part
const REPO = "acme/lib";
// the archive covers up to five minutes before the sync: a window ending an hour ago is covered
const UNTIL = "2026-11-20T11:00:00Z";
const SINCE_5D = "2026-11-15T11:00:00Z";
const TOKEN = "mqk_test_token_1234";

let server: RunningServer;
let other: RunningServer;
let dir: string;

async function mq(args: string[], opts: { env?: Record<string, string>; via?: RunningServer } = {}) {
  const via = opts.via ?? server;
  const ctx = testContext({ now: () => NOW, env: { MQ_DATA_DIR: dir, ...opts.env } });
  const before = via.requests.length;
  const code = await main([...args, "--api-url", via.url, "--token", TOKEN, "--repo", REPO], ctx);
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText(), requests: via.requests.length - before };
}

beforeAll(async () => {
  server = await startServer({ now: NOW, days: 14 });
  // the same history at another address: an archive synced from `server` is not its answer
  other = await startServer({ now: NOW, days: 14 });
  dir = tempDir("mq-archive-analyses-");
  const r = await mq(["archive", "sync", "--since", "2026-11-14T00:00:00Z", "-o", "json"]);
  expect(r.code, r.stderr).toBe(0);
}, 600_000);

afterAll(async () => {
  await server?.close();
  await other?.close();
});

/** an instant as a terminal's messages show it (docs/formats.md): UTC to the second */
const shown = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
const notice = (since: string, until: string) =>
  `mq: the archive covers ${shown(since)} to ${shown(until)} for ${REPO}: reading it, not the API (--no-archive asks the API).\n`;

describe("read from the archive, the analyses print what they print from the API", () => {
  it("insights over 5 days: the same JSON, exactly, with no request; by itself it says so", async () => {
    const window = ["insights", "--since", SINCE_5D, "--until", UNTIL, "--compare", "none", "-o", "json"];
    const api = await mq([...window, "--no-archive"]);
    expect(api.code, api.stderr).toBe(0);
    expect(api.requests).toBeGreaterThan(50);
    expect(JSON.parse(api.stdout).figures.entered.value).toBeGreaterThan(500);
    const archived = await mq([...window, "--archive"]);
    expect(archived).toEqual({ code: 0, stdout: api.stdout, stderr: "", requests: 0 });
    const auto = await mq(window);
    expect(auto).toEqual({ code: 0, stdout: api.stdout, stderr: notice(SINCE_5D, UNTIL), requests: 0 });
  });

  it("insights against the previous 2 days, and the table", async () => {
    for (const format of ["json", "table"]) {
      const window = ["insights", "--since", "2026-11-18T11:00:00Z", "--until", UNTIL, "--slowest", "10", "-o", format];
      const api = await mq([...window, "--no-archive"]);
      expect(api.code, api.stderr).toBe(0);
      const archived = await mq([...window, "--archive"]);
      expect(archived).toEqual({ ...api, requests: 0 });
    }
  });

  it("prs over 5 days: the same rows, in every format and with filters", async () => {
    for (const flags of [
      ["-o", "json"],
      ["--failed", "-o", "csv"],
      ["--sort", "ci_time", "--limit", "20", "-o", "table"],
      ["--queue", "default", "--base-ref", "main", "-o", "ndjson"],
    ]) {
      const window = ["prs", "--since", SINCE_5D, "--until", UNTIL, ...flags];
      const api = await mq([...window, "--no-archive"]);
      expect(api.code, api.stderr).toBe(0);
      expect(api.stdout.length).toBeGreaterThan(100);
      const archived = await mq([...window, "--archive"]);
      expect(archived.code, archived.stderr).toBe(0);
      expect(archived.stdout).toBe(api.stdout);
      expect(archived.requests).toBe(0);
      // the table's count line says where the rows came from
      expect(archived.stderr).toBe(api.stderr.replace(/\n$/, api.stderr ? " (from the archive)\n" : ""));
    }
  }, 180_000);

  it("pr N: the same stays, steps and runs, batch bisections included", async () => {
    const rows = JSON.parse(
      (await mq(["prs", "--since", SINCE_5D, "--until", UNTIL, "--sort", "retries", "--limit", "5", "-o", "json", "--archive"])).stdout,
    ) as Array<{ pull_request: number }>;
    expect(rows.length).toBe(5);
    for (const { pull_request } of rows.slice(0, 2)) {
      for (const format of ["json", "table"]) {
        const args = ["pr", String(pull_request), "--since", SINCE_5D, "--until", UNTIL, "-o", format];
        const api = await mq([...args, "--no-archive"]);
        expect(api.code, api.stderr).toBe(0);
        const archived = await mq([...args, "--archive"]);
        expect(archived).toEqual({ ...api, requests: 0 });
        const auto = await mq(args);
        expect(auto).toEqual({ ...api, stderr: notice(SINCE_5D, UNTIL) + api.stderr, requests: 0 });
      }
    }
  });

  it("logs: a window the archive covers is read from it, saying so", async () => {
    const window = ["logs", "--since", "2026-11-19T00:00:00Z", "--until", "2026-11-20T00:00:00Z", "--all", "-o", "ndjson"];
    const api = await mq([...window, "--no-archive"]);
    expect(api.code, api.stderr).toBe(0);
    expect(api.requests).toBeGreaterThan(10);
    const auto = await mq(window);
    expect(auto).toEqual({ code: 0, stdout: api.stdout, stderr: notice("2026-11-19T00:00:00Z", "2026-11-20T00:00:00Z"), requests: 0 });
  });
});

describe("by itself, the archive is read only when it covers the window, synced from the same API", () => {
  const window = ["insights", "--since", "2026-11-18T11:00:00Z", "--until", UNTIL, "-o", "json"];

  it("a window reaching now (the last minutes are never covered) or before the archive: the API", async () => {
    const recent = await mq(["insights", "--since", "1d", "-o", "json"]);
    expect(recent.code, recent.stderr).toBe(0);
    expect(recent.stderr).toBe("");
    expect(recent.requests).toBeGreaterThan(0);
    // the comparison window starts before the archive
    const older = await mq(["insights", "--since", "2026-11-16T00:00:00Z", "--until", UNTIL, "-o", "json"]);
    expect(older.stderr).toBe("");
    expect(older.requests).toBeGreaterThan(0);
  });

  it("another API, --no-archive and MQ_ARCHIVE=never ask the API; MQ_ARCHIVE=always reads the archive", async () => {
    const elsewhere = await mq(window, { via: other });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stderr).toBe("");
    expect(elsewhere.requests).toBeGreaterThan(0);
    const never = await mq(window, { env: { MQ_ARCHIVE: "never" } });
    expect(never).toEqual({ ...elsewhere, requests: never.requests });
    expect(never.requests).toBeGreaterThan(0);
    const always = await mq(window, { env: { MQ_ARCHIVE: "always" }, via: other });
    expect(always).toEqual({ ...elsewhere, requests: 0 });
    // the flag wins over the environment
    const flag = await mq([...window, "--no-archive"], { env: { MQ_ARCHIVE: "always" } });
    expect(flag.requests).toBeGreaterThan(0);
    expect(flag.stdout).toBe(elsewhere.stdout);
  });

  it("--archive over a window partly outside the archive: what it has, and a warning naming the rest", async () => {
    const r = await mq(["prs", "--since", "2026-11-12T00:00:00Z", "--until", "2026-11-16T00:00:00Z", "-o", "ndjson", "--archive"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests).toBe(0);
    expect(r.stderr).toBe(
      `mq: warning: the archive does not cover 2026-11-12 00:00:00Z to 2026-11-14 00:00:00Z for ${REPO}: queue stays there are missing below (mq --api-url ${server.url} archive sync ${REPO} --since 2026-11-12T00:00:00Z --until 2026-11-14T00:00:00Z fetches them).\n`,
    );
    expect(r.stdout.split("\n").length).toBeGreaterThan(10);
  });

  it("a bad MQ_ARCHIVE is a usage error before any request", async () => {
    const r = await mq(window, { env: { MQ_ARCHIVE: "sometimes" } });
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: 'mq: MQ_ARCHIVE must be one of auto, always, never, not "sometimes".\n',
      requests: 0,
    });
  });
});
