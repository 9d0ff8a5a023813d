// End to end against the bundled server (`mq serve`) over real HTTP, and the real binary once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { testContext, type TestContext } from "../helpers/context.js";
import { main } from "../../src/main.js";

const BIN = fileURLToPath(new URL("../../bin/mq.js", import.meta.url));
const NOW = new Date("2026-11-20T12:00:00Z");

describe("mq logs against mq serve", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, now: NOW, seed: 7, days: 3 });
  });
  afterAll(() => server.close());

  async function run(args: string[], ctx: TestContext = testContext()): Promise<{ code: number; ctx: TestContext }> {
    const code = await main(["--api-url", server.url, "--token", "test-token", "logs", "--repo", "acme/web", ...args], ctx);
    return { code, ctx };
  }

  it("--all follows every Link: rel=next and prints each event once", async () => {
    const before = server.requests.length;
    const { code, ctx } = await run(["--all", "--parallel", "1", "--since", "2d", "-o", "ndjson"]);
    expect(code).toBe(0);
    const events = ctx
      .stdoutText()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; received_at: string });
    const requests = server.requests.slice(before).map((r) => r.url);
    expect(requests.length).toBeGreaterThan(2);
    expect(requests[0]).toBe("/v1/repos/acme/web/logs?received_from=2026-11-18T12%3A00%3A00Z&per_page=100");
    for (const url of requests.slice(1)) expect(url).toMatch(/[?&]cursor=/);
    expect(events.length).toBeGreaterThan(100 * (requests.length - 1));
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    for (const e of events) expect(Date.parse(e.received_at)).toBeGreaterThanOrEqual(Date.parse("2026-11-18T12:00:00Z"));
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer test-token");
  });

  it("--all over parallel time slices writes exactly the sequential walk", async () => {
    const sequential = (await run(["--all", "--parallel", "1", "--since", "3d", "-o", "ndjson", "--per-page", "50"])).ctx.stdoutText();
    const before = server.requests.length;
    const parallel = (await run(["--all", "--parallel", "8", "--since", "3d", "-o", "ndjson", "--per-page", "50"])).ctx.stdoutText();
    expect(sequential.split("\n").length).toBeGreaterThan(1000);
    expect(parallel).toBe(sequential);
    const windows = new Set(server.requests.slice(before).map((r) => new URL(r.url, "http://x").searchParams.get("received_to")));
    expect(windows.size).toBeGreaterThan(8);
  });

  it("a long table keeps one header and its column widths, and is written page by page", async () => {
    const { TABLE_SIZING_ROWS } = await import("../../src/commands/logs/table.js");
    const ctx = testContext({ tty: true, columns: 200, env: { NO_COLOR: "1" } });
    // on a terminal each line is a write of its own (Ctrl-C stops it at once: iostreams/write.ts);
    // a streamed table starts before the last page is asked for, a held one after
    let writes = 0;
    const before = server.requests.length;
    let requestsAtFirstWrite: number | undefined;
    ctx.io.stdout.on("data", () => {
      writes += 1;
      requestsAtFirstWrite ??= server.requests.length;
    });
    const { code } = await run(
      ["--all", "--parallel", "1", "--since", "1d", "--per-page", "100", "--type", "action.queue.change,action.queue.checks.change"],
      ctx,
    );
    expect(code).toBe(0);
    const lines = ctx.stdoutText().trimEnd().split("\n");
    const rows = lines.length - 1;
    expect(rows).toBeGreaterThan(TABLE_SIZING_ROWS + 100);
    expect(writes).toBe(lines.length);
    const pages = server.requests.length - before;
    expect(pages).toBeGreaterThan(Math.ceil(TABLE_SIZING_ROWS / 100) + 1);
    expect(requestsAtFirstWrite! - before).toBeLessThan(pages);
    expect(lines.filter((l) => l.startsWith("AGE ")).length).toBe(1);
    // every row's PR column starts where the header's does
    const prAt = lines[0]!.indexOf("PR");
    for (const line of lines.slice(1)) expect(line.slice(prAt - 2, prAt)).toBe("  ");
  });

  it("json and csv carry the same events as ndjson", async () => {
    const nd = (await run(["--limit", "250", "-o", "ndjson"])).ctx
      .stdoutText()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const json = JSON.parse((await run(["--limit", "250", "-o", "json"])).ctx.stdoutText());
    expect(json).toEqual(nd);
    const csv = (await run(["--limit", "250", "-o", "csv", "--fields", "id,type"])).ctx.stdoutText();
    const rows = csv.trimEnd().split("\r\n");
    expect(rows[0]).toBe("id,type");
    expect(rows.slice(1)).toEqual(nd.map((e: { id: number; type: string }) => `${e.id},${e.type}`));
  });

  it("--type sends repeated event_type keys and gets only those types", async () => {
    const before = server.requests.length;
    const { code, ctx } = await run(["--type", "action.queue.enter,action.queue.leave", "--limit", "20", "-o", "ndjson"]);
    expect(code).toBe(0);
    expect(server.requests[before]!.url).toBe(
      "/v1/repos/acme/web/logs?event_type=action.queue.enter&event_type=action.queue.leave&per_page=20",
    );
    const types = new Set(
      ctx
        .stdoutText()
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).type),
    );
    expect([...types].sort()).toEqual(["action.queue.enter", "action.queue.leave"]);
  });

  it("--follow picks up events appended while it runs", async () => {
    const ac = new AbortController();
    const ctx = testContext({ signal: ac.signal });
    const done = run(["--follow", "--interval", "0.1", "--limit", "2", "-o", "ndjson"], ctx);
    const ids = () =>
      ctx
        .stdoutText()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l).id as number);
    await waitFor(() => ids().length === 2);
    const [template] = ctx
      .stdoutText()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const appended = [1, 2].map((i) => ({
      ...template,
      id: 990_000_000 + i,
      received_at: new Date(NOW.getTime() + i * 60_000).toISOString(),
    }));
    server.appendEvents("acme/web", appended);
    await waitFor(() => ids().length === 4);
    ac.abort();
    expect((await done).code).toBe(130);
    expect(ids().slice(2)).toEqual([990_000_001, 990_000_002]);
    expect(ids()[0]!).toBeLessThan(ids()[1]!);
  });
});

describe("the real binary", () => {
  it("mq --offline logs --repo acme/web -o ndjson --limit 5 prints 5 JSON lines", () => {
    const r = spawnSync(process.execPath, [BIN, "--offline", "logs", "--repo", "acme/web", "-o", "ndjson", "--limit", "5"], {
      encoding: "utf8",
      env: { ...process.env, MQ_CONFIG_DIR: "/nonexistent-mq-config", NO_COLOR: "1" },
    });
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(JSON.parse(l)).toHaveProperty("type");
  });

  it("`| head -1` ends quietly with 0: no interruption message, no resume hint", () => {
    const r = spawnSync(
      "bash",
      ["-c", `"${process.execPath}" "${BIN}" --offline logs --repo acme/web --all --since 7d -o ndjson | head -1; exit \${PIPESTATUS[0]}`],
      { encoding: "utf8", env: { ...process.env, MQ_CONFIG_DIR: "/nonexistent-mq-config" } },
    );
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe("");
  });

  it("a bad flag exits 2 and sends nothing", () => {
    const r = spawnSync(process.execPath, [BIN, "--offline", "logs", "--repo", "acme/web", "--type", "nope"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('mq: --type: unknown event type "nope"; see `mq logs --help` for the 47 types.\n');
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}
