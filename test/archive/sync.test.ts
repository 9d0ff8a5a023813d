// `mq archive` against small servers mq did not write, and its input checks: fast, in-process.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFaultServer } from "../helpers/fault-server.js";
import { archivedEvents, ARCHIVE_NOW, archiveApiServer, runMq, tempDataDir } from "../helpers/archive.js";
import { testContext } from "../helpers/context.js";
import { main } from "../../src/main.js";
import { openArchive } from "../../src/archive/db.js";

const NOW = ARCHIVE_NOW;
const SINCE = "2026-11-19T00:00:00Z";
const { api, fromApi } = archiveApiServer();
const tempDir = () => tempDataDir();
const mq = runMq;
const archived = archivedEvents;

describe("mq archive sync against servers mq did not write", () => {
  it("an interrupted sync's hint is the whole command that continues it: server, repository, window", async () => {
    let n = 0;
    const fault = await startFaultServer(() => {
      n += 1;
      if (n > 1) return { status: 503, body: { detail: "maintenance" } };
      const event = `{"id":7,"received_at":"2026-11-18T10:00:00Z","trigger":"t","repository":"acme/web","pull_request":12,"base_ref":"main","type":"action.rebase","metadata":{},"outcome":"success"}`;
      return { headers: { "content-type": "application/json" }, body: `{"size":1,"per_page":100,"events":[${event}]}` };
    });
    try {
      const args = ["archive", "sync", "--no-retry", "--parallel", "1", "--api-url", fault.url, "--token", "mqk_test_token_1234"];
      const r = await mq([...args, "--repo", "acme/web", "--since", "2026-11-18"], { dataDir: tempDir() });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(
        new RegExp(
          `\\n1 new events were archived before this; mq --api-url ${fault.url} archive sync acme/web --since 2026-11-18T00:00:00Z --until 2026-11-20T11:55:00Z continues where it stopped\\.\\n$`,
        ),
      );
    } finally {
      await fault.close();
    }
  });

  it("keeps each event's bytes as the server sent them", async () => {
    const events = [
      `{ "id": 7, "received_at": "2026-11-20T10:00:00.123456+00:00", "trigger": "Rule: x", "repository": "acme/web", "pull_request": null, "base_ref": null, "type": "queue.pause.delete", "metadata": {"deleted_by": {"type": "user", "id": 1.0, "name": "\\u00e9\\"x"}}, "outcome": "success" }`,
      `{"type":"action.rebase","metadata":{},"id":6,"received_at":"2026-11-20T09:00:00Z","trigger":"t","repository":"acme/web","pull_request":12,"base_ref":"main","extra":1e2}`,
    ];
    const fault = await startFaultServer(() => ({
      headers: { "content-type": "application/json" },
      body: `{"size":2,"per_page":100,\n"events":[\n  ${events.join(" ,\n  ")}\n]}`,
    }));
    try {
      const dir = tempDir();
      const r = await mq(
        [
          "archive",
          "sync",
          "--api-url",
          fault.url,
          "--token",
          "mqk_test_token_1234",
          "--repo",
          "acme/web",
          "--since",
          "2026-11-20T00:00:00Z",
        ],
        { dataDir: dir },
      );
      expect(r.code, r.stderr).toBe(0);
      expect((await archived(dir)).map(([, raw]) => raw)).toEqual([events[1], events[0]]);
      // one request per day of the window, each with the window and 100 per page
      expect(fault.requests.map((q) => q.url)).toEqual([
        "/v1/repos/acme/web/logs?received_from=2026-11-20T00%3A00%3A00.000Z&received_to=2026-11-20T11%3A55%3A00.000Z&per_page=100",
      ]);
      // read back, mq logs writes the bytes the API sent (1.0, 1e2, escapes), as it does from the API
      for (const format of ["ndjson", "json"]) {
        const window = ["logs", "--repo", "acme/web", "--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T11:00:00Z", "-o", format];
        const live = await mq([...window, "--api-url", fault.url, "--token", "mqk_test_token_1234", "--no-archive"]);
        const back = await mq([...window, "--archive"], { dataDir: dir });
        expect(back.code, back.stderr).toBe(0);
        expect(back.stdout).toBe(live.stdout);
        expect(back.stdout).toContain('"extra":1e2');
      }
      const q = await mq(
        ["archive", "query", 'SELECT id, pull_request, base_ref, "trigger", outcome, received_at FROM events ORDER BY id', "-o", "json"],
        { dataDir: dir },
      );
      expect(JSON.parse(q.stdout)).toEqual([
        { id: 6, pull_request: 12, base_ref: "main", trigger: "t", outcome: null, received_at: "2026-11-20T09:00:00.000000Z" },
        { id: 7, pull_request: null, base_ref: null, trigger: "Rule: x", outcome: "success", received_at: "2026-11-20T10:00:00.123456Z" },
      ]);
    } finally {
      await fault.close();
    }
  });
});

describe("mq archive sync --dialect mergify", () => {
  // the pages are held to the dialect in effect, as `mq logs` holds them: they were held to the
  // contract's shapes, so the real service's valid queue events warned, and --strict failed
  const queueEvent = (id: number, metadata: Record<string, unknown>) =>
    JSON.stringify({
      id,
      received_at: "2026-11-20T10:00:00Z",
      trigger: "Merge queue",
      repository: "acme/web",
      pull_request: 12,
      base_ref: "main",
      outcome: "neutral",
      type: "action.queue.change",
      metadata,
    });
  const serve = (metadata: Record<string, unknown>) =>
    startFaultServer(() => ({
      headers: { "content-type": "application/json" },
      body: `{"size":1,"per_page":100,"events":[${queueEvent(7, metadata)}]}`,
    }));
  const sync = (url: string, extra: string[] = []) =>
    mq(
      [
        "archive",
        "sync",
        "--dialect",
        "mergify",
        ...extra,
        "--api-url",
        url,
        "--token",
        "mqk_test_token_1234",
        "--repo",
        "acme/web",
        "--since",
        "2026-11-20T00:00:00Z",
      ],
      { dataDir: tempDir() },
    );

  it("the service's valid events: archived without a word, also with --strict", async () => {
    const fault = await serve({ queue_name: "default", priority_rule_name: null, size: 2 });
    try {
      for (const extra of [[], ["--strict"]]) {
        const r = await sync(fault.url, extra);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toMatch(/warning|does not match/);
      }
    } finally {
      await fault.close();
    }
  });

  it("metadata that differs from the OpenAPI: warned in the service's words, archived as sent", async () => {
    const fault = await serve({ queue_name: "default", priority_rule_name: null, size: "2" });
    try {
      const r = await sync(fault.url);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        "mq: warning: action.queue.change event 7 does not match the service's OpenAPI (metadata.size: Invalid input: expected number, received string); archived as sent. --strict makes this an error.\n",
      );
    } finally {
      await fault.close();
    }
  });
});

describe("an archive not synced for longer than the service keeps events", () => {
  it("records the lost window as a known gap, says so, and status lists it", async () => {
    const empty = await startFaultServer(() => ({
      headers: { "content-type": "application/json" },
      body: `{"size":0,"per_page":100,"events":[]}`,
    }));
    try {
      const dir = tempDir();
      const flags = ["--api-url", empty.url, "--token", "mqk_test_token_1234", "--repo", "acme/web"];
      // synced once, 100 days ago, for a day
      const old = new Date(NOW.getTime() - 100 * 86_400_000);
      const first = await mq(["archive", "sync", ...flags, "--since", "1d"], { dataDir: dir, now: old });
      expect(first.code, first.stderr).toBe(0);
      const r = await mq(["archive", "sync", ...flags, "-o", "json"], { dataDir: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        "mq: warning: acme/web: the events from 2026-08-12T11:55:00.000Z to 2026-08-22T12:00:00.000Z are older than the service keeps (90 days) and were not archived in time; recorded as a gap (mq archive status lists it).\n",
      );
      const [summary] = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
      expect(summary!.from).toBe("2026-08-22T12:00:00.000Z");
      const status = await mq(["archive", "status", "-o", "json"], { dataDir: dir });
      expect((JSON.parse(status.stdout) as Array<{ gaps: unknown }>)[0]!.gaps).toEqual([
        {
          from: "2026-08-12T11:55:00.000Z",
          to: "2026-08-22T12:00:00.000Z",
          reason: "older than the service's 90-day retention when synced",
        },
      ]);
    } finally {
      await empty.close();
    }
  }, 30_000);
});

describe("mq archive status on a terminal", () => {
  it("fits 60 and 80 columns: columns give way, named under the table, no row twice (one table ran 110 wide at 60, every cell cut to 7 characters; then it split into parts); piped, one table", async () => {
    const fault = await startFaultServer(() => ({
      headers: { "content-type": "application/json" },
      body: `{"size":1,"per_page":100,"events":[{"id":6,"received_at":"2026-11-20T09:00:00Z","trigger":"t","repository":"acme/web","pull_request":12,"base_ref":"main","type":"action.rebase","metadata":{}}]}`,
    }));
    try {
      const dir = tempDir();
      const sync = await mq(
        [
          "archive",
          "sync",
          "--api-url",
          fault.url,
          "--token",
          "mqk_test_token_1234",
          "--repo",
          "acme/web",
          "--since",
          "2026-11-20T00:00:00Z",
        ],
        { dataDir: dir },
      );
      expect(sync.code, sync.stderr).toBe(0);
      const status = async (columns: number | undefined) => {
        const ctx = testContext({ now: () => NOW, env: { MQ_DATA_DIR: dir, NO_COLOR: "1" }, ...(columns ? { tty: true, columns } : {}) });
        expect(await main(["archive", "status", "-o", "table"], ctx)).toBe(0);
        return ctx.stdoutText();
      };
      for (const columns of [60, 80]) {
        const lines = (await status(columns)).trimEnd().split("\n");
        for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
        expect(lines.filter((l) => l.startsWith("REPOSITORY"))).toHaveLength(1);
        expect(lines.filter((l) => l.startsWith("acme/web"))).toHaveLength(1);
        // what is shown is whole; what is not is named
        const text = lines.join("\n");
        for (const value of ["2026-11-20 11:55:00Z", "none"]) expect(text).toContain(value);
        expect(text).not.toContain("…");
        expect(text).toMatch(columns === 60 ? /not shown at 60 columns: .*DIALECTS/s : /not shown at 80 columns: /);
      }
      const piped = (await status(undefined)).trimEnd().split("\n");
      expect(piped).toHaveLength(2);
      expect(piped[0]!.split(/ {2,}/)).toEqual([
        "REPOSITORY",
        "EVENTS",
        "FIRST_EVENT",
        "LAST_EVENT",
        "COVERED_FROM",
        "COVERED_TO",
        "DIALECTS",
        "LAST_SYNC",
        "LAST_SYNC_COMPLETE",
        "RAW_BYTES",
        "GAPS",
      ]);
    } finally {
      await fault.close();
    }
  });
});

describe("mq archive status with more repositories than a screen", () => {
  it("shows 30 on a terminal and says how many there are and what shows them; a pipe gets every one", async () => {
    const names = Array.from({ length: 35 }, (_, i) => `acme/r${String(i + 1).padStart(2, "0")}`);
    // each repository with one event of its own, covered and synced (what a sync of each writes;
    // the syncs themselves are not what is shown)
    const dir = tempDir();
    const archive = await openArchive(join(dir, "archive.duckdb"), { create: true });
    try {
      await archive.run("BEGIN TRANSACTION");
      for (const [i, repo] of names.entries()) {
        await archive.run(
          `INSERT INTO events (repository, id, received_at, type, raw, archived_at, dialect) VALUES (?, ?, TIMESTAMPTZ '2026-11-20 09:00:00+00', 'action.rebase', ?, TIMESTAMPTZ '2026-11-20 12:00:00+00', 'spec')`,
          [
            repo,
            i + 1,
            `{"id":${i + 1},"received_at":"2026-11-20T09:00:00Z","trigger":"t","repository":"${repo}","pull_request":${i + 1},"base_ref":"main","type":"action.rebase","metadata":{}}`,
          ],
        );
        await archive.run("INSERT INTO coverage VALUES (?, TIMESTAMPTZ '2026-11-20 00:00:00+00', TIMESTAMPTZ '2026-11-20 11:55:00+00')", [
          repo,
        ]);
        await archive.run(
          "INSERT INTO syncs (id, repository, api_url, dialect, started_at, finished_at, added, complete) VALUES (?, ?, 'test', 'spec', TIMESTAMPTZ '2026-11-20 12:00:00+00', TIMESTAMPTZ '2026-11-20 12:00:00+00', 1, true)",
          [i + 1, repo],
        );
      }
      await archive.run("COMMIT");
    } finally {
      archive.close();
    }
    {
      const status = async (tty: boolean) => {
        const ctx = testContext({ now: () => NOW, env: { MQ_DATA_DIR: dir, NO_COLOR: "1" }, ...(tty ? { tty: true, columns: 250 } : {}) });
        expect(await main(["archive", "status", "-o", "table"], ctx)).toBe(0);
        return {
          rows: ctx
            .stdoutText()
            .split("\n")
            .filter((l) => l.startsWith("acme/")),
          err: ctx.stderrText(),
        };
      };
      const screen = await status(true);
      expect(screen.rows.map((l) => l.split(" ")[0])).toEqual(names.slice(0, 30));
      expect(screen.err).toMatch(/^Archive .*: the first 30 of 35 repositories; -o table \| less shows them all$/m);
      const piped = await status(false);
      expect(piped.rows).toHaveLength(35);
      expect(piped.err).not.toMatch(/the first 30/);
    }
  }, 60_000);
});

describe("mq archive: input checked before anything runs", () => {
  it.each([
    [["archive", "sync", "acme"], "mq: repository: 'acme' is not of the form owner/name.\n"],
    [["archive", "sync", "acme/web", "--repo", "acme/api"], "mq: give the repositories either as arguments or with --repo, not both.\n"],
    [["archive", "sync", "acme/web", "--since", "yesterday"], /^mq: --since "yesterday" is not an ISO 8601 date-time/],
    [["archive", "sync", "acme/web", "--data-dir", ""], "mq: --data-dir is empty: give a folder, or leave it out for the default.\n"],
    [["archive", "sync", "acme/web", "--parallel", "0"], 'mq: --parallel must be an integer from 1 to 16, not "0".\n'],
    [["archive", "export"], "mq: --parquet <dir> is required: the folder to write the Parquet files into.\n"],
    [["logs", "--archive", "--follow", "--repo", "acme/web"], /^mq: --archive and --follow cannot be used together/],
    [
      ["logs", "--archive", "--repo", "acme/web,acme/api"],
      "mq: --archive reads the log of one repository: give one --repo (mq insights and mq prs read several from the archive).\n",
    ],
  ])("mq %j", async (argv, stderr) => {
    const dir = tempDir();
    const r = await mq(argv as string[], { dataDir: dir });
    expect(r.code).toBe(2);
    if (typeof stderr === "string") expect(r.stderr).toBe(stderr);
    else expect(r.stderr).toMatch(stderr);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([["logs"], ["prs"], ["pr", "7"], ["insights"]])("a bad MQ_ARCHIVE is a usage error for mq %s, nothing sent", async (...argv) => {
    const dir = tempDir();
    const r = await mq([...argv, "--repo", "acme/web", "--api-url", "http://127.0.0.1:9", "--token", "mqk_test_token_1234"], {
      dataDir: dir,
      env: { MQ_ARCHIVE: "yes" },
    });
    expect(r).toEqual({ code: 2, stdout: "", stderr: 'mq: MQ_ARCHIVE must be one of auto, always, never, not "yes".\n' });
  });

  it("status without an archive says so and exits 0", async () => {
    const dir = tempDir();
    const r = await mq(["archive", "status", "-o", "json"], { dataDir: dir });
    expect(r).toEqual({
      code: 0,
      stdout: "[]\n",
      stderr: `No archive at ${dir}/archive.duckdb yet: create it with mq archive sync --repo owner/name.\n`,
    });
  });

  it("status without an archive, -o table: the message alone, no empty table of ten headers (92 columns wide at 60)", async () => {
    const dir = tempDir();
    const r = await mq(["archive", "status", "-o", "table"], { dataDir: dir });
    expect(r).toEqual({
      code: 0,
      stdout: "",
      stderr: `No archive at ${dir}/archive.duckdb yet: create it with mq archive sync --repo owner/name.\n`,
    });
  });

  it("query without an archive is exit 8 with the way out", async () => {
    const dir = tempDir();
    const r = await mq(["archive", "query", "SELECT 1"], { dataDir: dir });
    expect(r.code).toBe(8);
    expect(r.stderr).toBe(
      `mq: no archive at ${dir}/archive.duckdb\ncreate it with mq archive sync --repo owner/name (or point --data-dir / MQ_DATA_DIR at an existing one)\n`,
    );
  });
});

describe("an archive that cannot be read never breaks a command that works without it", () => {
  it("a corrupt file where the archive should be: a past window is asked of the API, silently", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "archive.duckdb"), "not a database\n".repeat(100));
    const window = [
      "insights",
      ...api(),
      "--repo",
      "acme/web",
      "--since",
      "2026-11-20T00:00:00Z",
      "--until",
      "2026-11-20T06:00:00Z",
      "-o",
      "json",
    ];
    const expected = await mq(window);
    expect(expected.code, expected.stderr).toBe(0);
    expect(await mq(window, { dataDir: dir })).toEqual(expected);
    // asked for, it is the command's error
    const asked = await mq([...window, "--archive"], { dataDir: dir });
    expect(asked.code).toBe(8);
    expect(asked.stderr).toMatch(/^mq: the archive .* is corrupt or not a DuckDB database/);
  });
});
