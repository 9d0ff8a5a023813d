// Ctrl-C during `mq logs --archive` on a terminal gives the API path's resume: the count is the
// rows the table showed, and the resume command (an --until from the archive) reads the rest. Rows
// the table held back to size its columns were never shown, so they are neither counted nor skipped.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { openArchive } from "../../src/archive/db.js";
import { testContext } from "../helpers/context.js";
import { tempDataDir, runMq } from "../helpers/archive.js";
import { FIXTURE_EVENTS } from "../commands/logs-fixture.js";

/** `count` action.rebase events of REPO, ids 1..count, id i at 10:00:00 + at(i) seconds */
function insertEvents(repo: string, count: number, at: string): string {
  const time = `TIMESTAMPTZ '2026-11-20 10:00:00+00' + to_seconds(${at})`;
  return `INSERT INTO events (repository, id, received_at, type, raw, archived_at, dialect)
    SELECT '${repo}', i, ${time}, 'action.rebase',
      '{"id":' || i || ',"received_at":"' || strftime(${time}, '%Y-%m-%dT%H:%M:%SZ') || '","trigger":"t","repository":"${repo}","pull_request":null,"base_ref":null,"type":"action.rebase","metadata":{}}',
      now(), 'spec'
    FROM range(1, ${count + 1}) t(i)`;
}

let dataDir: string;
beforeAll(async () => {
  dataDir = tempDataDir("mq-archive-interrupt-");
  const archive = await openArchive(join(dataDir, "archive.duckdb"), { create: true });
  try {
    // acme/api: 5,000 events a second apart; the reader's first batch (2,048) fills the table's sizing rows
    await archive.run(insertEvents("acme/api", 5000, "i"));
    // acme/web: 10 events a second apart after 4,490 at one instant (10:00:00), one of which does
    // not match the contract: the first batch writes only the 10 (the rest of it ends at no clean
    // cut), and the table holds them
    await archive.run(insertEvents("acme/web", 4500, "CASE WHEN i > 4490 THEN i - 4490 ELSE 0 END"));
    const leave = FIXTURE_EVENTS.find((e) => e.type === "action.queue.leave")!;
    const odd = {
      ...leave,
      id: 9999,
      repository: "acme/web",
      received_at: "2026-11-20T10:00:00Z",
      metadata: { ...leave.metadata, merged: "yes" },
    };
    await archive.run(
      "INSERT INTO events (repository, id, received_at, type, raw, archived_at, dialect) VALUES ('acme/web', 9999, TIMESTAMPTZ '2026-11-20 10:00:00+00', 'action.queue.leave', ?, now(), 'spec')",
      [JSON.stringify(odd)],
    );
    for (const repo of ["acme/api", "acme/web"])
      await archive.run(
        `INSERT INTO coverage VALUES ('${repo}', TIMESTAMPTZ '2026-11-20 00:00:00+00', TIMESTAMPTZ '2026-11-20 12:00:00+00')`,
      );
  } finally {
    archive.close();
  }
}, 60_000);

const WINDOW = ["--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T12:00:00Z"];

/** `mq logs --archive --all` on a terminal, Ctrl-C when `when` says so of what stdout and stderr hold */
async function interrupted(repo: string, when: (out: string, err: string) => boolean) {
  const ac = new AbortController();
  const ctx = testContext({ signal: ac.signal, tty: true, env: { NO_COLOR: "1", MQ_DATA_DIR: dataDir } });
  let out = "";
  let err = "";
  ctx.io.stdout.on("data", (c: Buffer) => {
    out += c.toString();
    if (when(out, err)) ac.abort();
  });
  ctx.io.stderr.on("data", (c: Buffer) => {
    err += c.toString();
    if (when(out, err)) ac.abort();
  });
  const code = await main(["logs", "--archive", "--repo", repo, ...WINDOW, "--all"], ctx);
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText() };
}

describe("mq logs --archive, Ctrl-C on a terminal", () => {
  it("after rows were shown: the count is the rows shown, and the resume command reads exactly the rest", async () => {
    const r = await interrupted("acme/api", (out) => out.split("\n").length > 2100);
    expect(r.code).toBe(130);
    // the table's head, the first batch's 2,047 rows (ids 5000 to 2954), then the rows of the next
    // batch written before the key came: Ctrl-C came with the 2,100th line, and nothing follows it
    const lines = r.stdout.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(2100);
    expect(lines[0]).toBe("AGE  TYPE    PR  BASE  OUTCOME  SUMMARY");
    for (const row of lines.slice(1)) expect(row).toMatch(/^(\d+m|1h) +rebase {2}- {3}- {5}- {8}rebased$/);
    expect(r.stderr).toBe(
      "mq: interrupted\n2,047 events were written before this. To resume:\n  mq logs --repo acme/api --archive --since 2026-11-20T00:00:00Z --until 2026-11-20T10:49:13.999Z --all -o table\n",
    );
    const rest = await runMq(
      [
        "logs",
        "--repo",
        "acme/api",
        "--archive",
        "--since",
        "2026-11-20T00:00:00Z",
        "--until",
        "2026-11-20T10:49:13.999Z",
        "--all",
        "-o",
        "ndjson",
      ],
      {
        dataDir,
      },
    );
    expect(rest.code, rest.stderr).toBe(0);
    const ids = rest.stdout
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids).toEqual(Array.from({ length: 2953 }, (_, i) => 2953 - i));
  });

  it("before the table sized its columns: nothing shown, nothing counted, no resume that would skip the rows held", async () => {
    const r = await interrupted("acme/web", (_out, err) => err.includes("does not match"));
    expect(r.code).toBe(130);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "mq: warning: action.queue.leave event 9999 does not match the contract (metadata.merged: Invalid input: expected boolean, received string); shown as sent. --strict makes this an error.\nmq: interrupted\n",
    );
  });
});
