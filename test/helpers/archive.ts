// What the archive tests share: a fresh data folder, mq run in-process with it and a fixed clock,
// the API flags of a server, and the two sides every sync test compares (what the archive holds,
// what the API serves for the same window).
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { main } from "../../src/main.js";
import { openArchive } from "../../src/archive/db.js";
import { type ApiClient, createTransport } from "../../src/api/client.js";
import { testContext } from "./context.js";
import { tempDir } from "./tmp.js";
import { testWire } from "./wires.js";

/** the clock of the archive tests (the bundled server is started with the same `now`) */
export const ARCHIVE_NOW = new Date("2026-11-20T12:00:00Z");
export const TEST_TOKEN = "mqk_test_token_1234";

/**
 * A sync's client of the server at `url` (its `/v1`): no retries, the clock at ARCHIVE_NOW, the
 * token of the tests; `close()` ends its connections.
 */
export function testTransport(url: string): { client: ApiClient; close: () => Promise<void> } {
  const wire = testWire("node:http");
  const client = createTransport({
    baseUrl: `${url}/v1`,
    token: TEST_TOKEN,
    wire,
    timeoutMs: 10_000,
    retry: false,
    insecure: false,
    signal: new AbortController().signal,
    now: () => ARCHIVE_NOW,
  });
  return { client, close: () => wire.close() };
}

export function tempDataDir(prefix = "mq-archive-"): string {
  return tempDir(prefix);
}

export interface MqRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** mq in-process, with the archive in `dataDir` (when given) and the clock at `now` (default ARCHIVE_NOW). */
export async function runMq(args: string[], opts: { dataDir?: string; now?: Date; env?: Record<string, string> } = {}): Promise<MqRun> {
  const ctx = testContext({
    now: () => opts.now ?? ARCHIVE_NOW,
    env: { ...(opts.dataDir ? { MQ_DATA_DIR: opts.dataDir } : {}), ...opts.env },
  });
  const code = await main(args, ctx);
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText() };
}

/** --api-url and --token of a server */
export function apiFlags(url: string): string[] {
  return ["--api-url", url, "--token", TEST_TOKEN];
}

/** Every event of the repository in the archive in `dir`, oldest first: [id, raw]. */
export async function archivedEvents(dir: string, repo = "acme/web"): Promise<Array<[number, string]>> {
  const archive = await openArchive(join(dir, "archive.duckdb"), { readOnly: true });
  try {
    const rows = await archive.all("SELECT id, raw FROM events WHERE repository = ? ORDER BY received_at, id", [repo]);
    return rows.map((r) => [Number(r.id), String(r.raw)]);
  } finally {
    archive.close();
  }
}

/** The repository's covered ranges in the archive in `dir`, as stored (not merged), oldest first. */
export async function coverageRows(dir: string, repo = "acme/web"): Promise<Array<[string, string]>> {
  const archive = await openArchive(join(dir, "archive.duckdb"), { readOnly: true });
  try {
    const rows = await archive.all("SELECT range_from AS f, range_to AS t FROM coverage WHERE repository = ? ORDER BY range_from", [repo]);
    return rows.map((r) => [String(r.f), String(r.t)]);
  } finally {
    archive.close();
  }
}

/** Every event of acme/web in the window through the API of the server at `url`, as `mq logs --all -o ndjson` prints them. */
export async function eventsFromApi(url: string, since: string, until: string): Promise<Record<string, unknown>[]> {
  const r = await runMq(["logs", ...apiFlags(url), "--repo", "acme/web", "--since", since, "--until", until, "--all", "-o", "ndjson"]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * The bundled server both archive suites sync from (3 simulated days up to ARCHIVE_NOW, seed 3), for
 * the enclosing file: its API flags and the events it serves over a window.
 */
export function archiveApiServer(): {
  url: () => string;
  api: () => string[];
  fromApi: (since: string, until: string) => ReturnType<typeof eventsFromApi>;
} {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ now: ARCHIVE_NOW, seed: 3, days: 3, recordRequests: false });
  });
  afterAll(async () => {
    await server.close();
  });
  return { url: () => server.url, api: () => apiFlags(server.url), fromApi: (since, until) => eventsFromApi(server.url, since, until) };
}

/**
 * A small archive at `dir/archive.duckdb` made without a server: events of acme/web with these ids
 * (`action.rebase`, on 2026-11-20 from 10:00, a second apart), covered from 00:00 to 12:00.
 */
export async function seedArchive(dir: string, ids: ReadonlyArray<number | bigint> = [1, 2, 3]): Promise<void> {
  const archive = await openArchive(join(dir, "archive.duckdb"), { create: true });
  try {
    for (const [i, id] of ids.entries()) {
      const at = new Date(Date.parse("2026-11-20T10:00:00Z") + i * 1000).toISOString();
      await archive.run(
        `INSERT INTO events (repository, id, received_at, type, raw, archived_at, dialect) VALUES ('acme/web', ${String(id)}, TIMESTAMPTZ '${at}', 'action.rebase', '{"id":${String(id)},"received_at":"${at}","trigger":"t","repository":"acme/web","pull_request":null,"base_ref":null,"type":"action.rebase","metadata":{}}', now(), 'spec')`,
      );
    }
    await archive.run(
      "INSERT INTO coverage VALUES ('acme/web', TIMESTAMPTZ '2026-11-20 00:00:00+00', TIMESTAMPTZ '2026-11-20 12:00:00+00')",
    );
  } finally {
    archive.close();
  }
}
