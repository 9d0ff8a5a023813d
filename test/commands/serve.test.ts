import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/main.js";
import { NewCmdServe, type ServeOptions } from "../../src/commands/serve/index.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

async function parse(args: string[]): Promise<{ code: number; opts?: ServeOptions; stderr: string }> {
  const ctx = testContext();
  let opts: ServeOptions | undefined;
  // as cli.ts builds it: global options (--token) added to the leaf, errors mapped by main's reporter
  const spy = async (o: ServeOptions) => void (opts = o);
  const { Command } = await import("commander");
  const program = new Command("mq").exitOverride();
  const { addGlobalOptions, readGlobals } = await import("../../src/cmdutil/global-options.js");
  const cmd = NewCmdServe(ctx, spy);
  addGlobalOptions(cmd);
  cmd.exitOverride();
  program.addCommand(cmd);
  program.hook("preAction", (_r, a) => void (ctx.globals = readGlobals(a)));
  let code = 0;
  try {
    await program.parseAsync(["serve", ...args], { from: "user" });
  } catch (err) {
    const { reportError } = await import("../../src/main.js");
    code = reportError(err, ctx);
  }
  return { code, opts, stderr: ctx.stderrText() };
}

describe("mq serve flags", () => {
  it("has defaults: 127.0.0.1, port 0, seed 0, 30 days, no token", async () => {
    const r = await parse([]);
    expect(r.code).toBe(0);
    expect(r.opts).toEqual({
      host: "127.0.0.1",
      port: 0,
      token: undefined,
      seed: 0,
      days: 30,
      now: undefined,
      repos: undefined,
      eventsFile: undefined,
      latencyMs: 0,
      memoryBudgetMb: 1024,
    });
  });

  it("reads every flag", async () => {
    const r = await parse([
      ...[
        "--host",
        "0.0.0.0",
        "--port",
        "8080",
        "--token",
        "T0KEN",
        "--seed",
        "7",
        "--days",
        "5",
        "--now",
        "2026-11-20T12:00:00Z",
        "--repos",
        "a/b, c/d",
      ],
      ...["--latency", "100", "--memory-budget", "1024"],
    ]);
    expect(r.opts).toEqual({
      host: "0.0.0.0",
      port: 8080,
      token: "T0KEN",
      seed: 7,
      days: 5,
      now: new Date("2026-11-20T12:00:00Z"),
      repos: ["a/b", "c/d"],
      eventsFile: undefined,
      latencyMs: 100,
      memoryBudgetMb: 1024,
    });
    expect((await parse(["--events", "rec.ndjson"])).opts?.eventsFile).toBe("rec.ndjson");
  });

  it.each([
    [["--port", "70000"], "mq: --port must be an integer from 0 to 65535 (0 picks a free port), not '70000'.\n"],
    [["--port", "http"], "mq: --port must be an integer from 0 to 65535 (0 picks a free port), not 'http'.\n"],
    [["--seed", "-1"], "mq: --seed must be a non-negative integer, not '-1'.\n"],
    [["--days", "0"], "mq: --days must be an integer from 1 to 365, not '0'.\n"],
    [["--days", "400"], "mq: --days must be an integer from 1 to 365, not '400'.\n"],
    [["--now", "yesterday"], "mq: --now must be an ISO 8601 date-time with a timezone (e.g. 2026-11-20T12:00:00Z), not 'yesterday'.\n"],
    [
      ["--now", "2026-11-20T12:00:00"],
      "mq: --now must be an ISO 8601 date-time with a timezone (e.g. 2026-11-20T12:00:00Z), not '2026-11-20T12:00:00'.\n",
    ],
    [["--repos", "a/b,nope"], "mq: --repos must be a comma-separated list of owner/name, not 'nope'.\n"],
    [["--repos", "a/b/c"], "mq: --repos must be a comma-separated list of owner/name, not 'a/b/c'.\n"],
    [["--token", ""], "mq: --token must be a non-empty token without whitespace (or leave --token out to accept any bearer token).\n"],
    [["--token", "a b"], "mq: --token must be a non-empty token without whitespace (or leave --token out to accept any bearer token).\n"],
    [["--token", " tok"], "mq: --token must be a non-empty token without whitespace (or leave --token out to accept any bearer token).\n"],
    [["--token", "tok\t"], "mq: --token must be a non-empty token without whitespace (or leave --token out to accept any bearer token).\n"],
    [["--events", "x.ndjson", "--seed", "3"], "mq: --events replays a recorded log: it cannot be combined with --seed or --days.\n"],
    [["--latency", "-1"], "mq: --latency must be an integer number of milliseconds from 0 to 60000, not '-1'.\n"],
    [["--latency", "1.5"], "mq: --latency must be an integer number of milliseconds from 0 to 60000, not '1.5'.\n"],
    [["--latency", "60001"], "mq: --latency must be an integer number of milliseconds from 0 to 60000, not '60001'.\n"],
    [["--latency", "100ms"], "mq: --latency must be an integer number of milliseconds from 0 to 60000, not '100ms'.\n"],
    [["--memory-budget", "127"], "mq: --memory-budget must be an integer number of MB from 128 to 65536, not '127'.\n"],
    [["--memory-budget", "1G"], "mq: --memory-budget must be an integer number of MB from 128 to 65536, not '1G'.\n"],
    [["--memory-budget", "65537"], "mq: --memory-budget must be an integer number of MB from 128 to 65536, not '65537'.\n"],
  ])("rejects %j with exit 2 and one line", async (args, message) => {
    const r = await parse(args as string[]);
    expect(r.code).toBe(2);
    expect(r.opts).toBeUndefined();
    expect(r.stderr).toBe(message);
  });
});

describe("runServe", () => {
  it("prints the URL first, hints on stderr, and stops when the signal aborts", async () => {
    const controller = new AbortController();
    const ctx = testContext({ signal: controller.signal });
    const { runServe } = await import("../../src/commands/serve/index.js");
    const done = runServe(
      { host: "127.0.0.1", port: 0, seed: 1, days: 1, now: new Date("2026-11-20T12:00:00Z"), latencyMs: 0, memoryBudgetMb: 512 },
      ctx,
    );
    let url = "";
    for (let i = 0; i < 200 && !url; i++) {
      await new Promise((r) => setTimeout(r, 10));
      url = ctx.stdoutText().split("\n")[0] ?? "";
    }
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/v1/repos/acme/web/logs?per_page=1`, { headers: { authorization: "Bearer x" } });
    expect(res.status).toBe(200);
    controller.abort();
    await done;
    expect(ctx.stdoutText()).toBe(`${url}\n`);
    expect(ctx.stderrText()).toContain("mq serve: listening on");
    expect(ctx.stderrText()).toContain("mq serve: stopped\n");
  });

  it("Ctrl-C while the server starts: it closes without announcing a URL nobody will serve, exit 130", async () => {
    // the server's start does not look at the signal: an abort before it is one during it
    const controller = new AbortController();
    controller.abort();
    const ctx = testContext({ signal: controller.signal });
    const { runServe } = await import("../../src/commands/serve/index.js");
    const err = await runServe(
      { host: "127.0.0.1", port: 0, seed: 1, days: 1, now: new Date("2026-11-20T12:00:00Z"), latencyMs: 0, memoryBudgetMb: 512 },
      ctx,
    ).catch((e: unknown) => e);
    const { reportError } = await import("../../src/main.js");
    expect(reportError(err, ctx)).toBe(130);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toBe("mq: interrupted while the server was starting; it was not left running\n");
  });

  it("--host beyond loopback without --token: exit 2 before listening (it answered any token before)", async () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.10"]) {
      const controller = new AbortController();
      controller.abort();
      const ctx = testContext({ signal: controller.signal });
      expect(await main(["serve", "--host", host, "--days", "1"], ctx), host).toBe(2);
      expect(ctx.stdoutText()).toBe("");
      expect(ctx.stderrText()).toBe(
        `mq: --host ${host} listens beyond this machine: give --token T too, so that only requests carrying T are answered.\n`,
      );
    }
  });

  it("its Try: line works as printed, from 0.0.0.0 too (it named 0.0.0.0, which mq refuses over plain http)", async () => {
    const controller = new AbortController();
    const ctx = testContext({ signal: controller.signal });
    const { runServe } = await import("../../src/commands/serve/index.js");
    const done = runServe(
      {
        host: "0.0.0.0",
        port: 0,
        token: "s3cret-token",
        seed: 1,
        days: 1,
        now: new Date("2026-11-20T12:00:00Z"),
        latencyMs: 0,
        memoryBudgetMb: 512,
      },
      ctx,
    );
    let tryLine: string | undefined;
    for (let i = 0; i < 300 && !tryLine; i++) {
      await new Promise((r) => setTimeout(r, 10));
      tryLine = ctx
        .stderrText()
        .split("\n")
        .find((l) => l.startsWith("Try: mq "));
    }
    expect(tryLine).toMatch(/^Try: mq --api-url http:\/\/127\.0\.0\.1:\d+ --token <your --token> logs --repo acme\/web$/);
    const args = tryLine!.slice("Try: mq ".length).replace("<your --token>", "s3cret-token").split(" ");
    const client = testContext({ now: () => new Date("2026-11-20T12:00:00Z") });
    expect(await main([...args, "--limit", "3", "-o", "ndjson"], client)).toBe(0);
    expect(client.stdoutText().trimEnd().split("\n")).toHaveLength(3);
    controller.abort();
    await done;
  });

  it("behind a reverse proxy that rewrites Host (a port map, an SSH tunnel, nginx's default), the pages are followed (--limit 100 at 20 a page)", async () => {
    const { startServer } = await import("../../src/server/index.js");
    const { startReverseProxy } = await import("../helpers/reverse-proxy.js");
    const server = await startServer({ port: 0, seed: 2, days: 1, now: new Date("2026-11-20T12:00:00Z"), recordRequests: true });
    const proxy = await startReverseProxy(server.url);
    try {
      const direct = testContext({ now: () => new Date("2026-11-20T12:00:00Z") });
      expect(
        await main(
          ["--api-url", server.url, "--token", "t", "logs", "--repo", "acme/web", "--limit", "100", "--per-page", "20", "-o", "ndjson"],
          direct,
        ),
      ).toBe(0);
      const ctx = testContext({ now: () => new Date("2026-11-20T12:00:00Z") });
      expect(
        await main(
          ["--api-url", proxy.url, "--token", "t", "logs", "--repo", "acme/web", "--limit", "100", "--per-page", "20", "-o", "ndjson"],
          ctx,
        ),
      ).toBe(0);
      expect(ctx.stderrText()).toBe("");
      const lines = ctx.stdoutText().trimEnd().split("\n");
      expect(lines.length).toBe(100);
      expect(ctx.stdoutText()).toBe(direct.stdoutText());
      // every page went through the proxy, which named the upstream in Host
      expect(proxy.forwardedHosts.length).toBe(Math.ceil(lines.length / 20));
      expect(new Set(proxy.forwardedHosts)).toEqual(new Set([new URL(server.url).host]));
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 90_000);

  it("through main, an empty --token or one with whitespace exits 2 before listening", async () => {
    for (const token of ["", "a b"]) {
      // an already aborted signal: a server that did start would stop at once (exit 0)
      const controller = new AbortController();
      controller.abort();
      const ctx = testContext({ signal: controller.signal });
      expect(await main(["serve", "--token", token, "--days", "1"], ctx), JSON.stringify(token)).toBe(2);
      expect(ctx.stdoutText()).toBe("");
      expect(ctx.stderrText()).toBe(
        "mq: --token must be a non-empty token without whitespace (or leave --token out to accept any bearer token).\n",
      );
    }
  });

  it.each([
    ['"2026-11-18T00:00:00"', 'received_at: expected an ISO 8601 date-time, got "2026-11-18T00:00:00"'],
    ['"2026-11-18"', 'received_at: expected an ISO 8601 date-time, got "2026-11-18"'],
    ['"2026-02-30T00:00:00Z"', 'received_at: expected an ISO 8601 date-time, got "2026-02-30T00:00:00Z"'],
  ])("an --events line with received_at %s exits 2 with one line", async (receivedAt, problem) => {
    const dir = tempDir("mq-serve-");
    const file = join(dir, "bad.ndjson");
    writeFileSync(
      file,
      `{"id":1,"received_at":${receivedAt},"trigger":"t","repository":"a/b","pull_request":null,"base_ref":null,"type":"action.refresh","metadata":{}}\n`,
    );
    const ctx = testContext();
    expect(await main(["serve", "--events", file], ctx)).toBe(2);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toBe(`mq: --events: ${file}:1: not an event: ${problem}\n`);
  });

  it("an --events line nested too deep to serve exits 2 naming the line", async () => {
    const dir = tempDir("mq-serve-");
    const file = join(dir, "deep.ndjson");
    const ok = `{"id":1,"received_at":"2026-11-18T00:00:00Z","trigger":"t","repository":"a/b","pull_request":null,"base_ref":null,"type":"action.refresh","metadata":{}}`;
    // 10,000 levels: JSON.parse takes it, writing it back out in a page would overflow the stack
    const deep = ok.replace('"id":1', '"id":2').replace('"metadata":{}', `"metadata":{"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}`);
    writeFileSync(file, `${ok}\n${deep}\n`);
    const ctx = testContext();
    expect(await main(["serve", "--events", file], ctx)).toBe(2);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toBe(`mq: --events: ${file}:2: not an event: nested more than 64 levels deep\n`);
  });

  it("an --events file larger than --memory-budget exits 2 naming the line where it stops fitting", async () => {
    const dir = tempDir("mq-serve-");
    const file = join(dir, "big.ndjson");
    const pad = "x".repeat(100_000);
    const lines = Array.from(
      { length: 600 },
      (_, i) =>
        `{"id":${i + 1},"received_at":"2026-11-18T00:00:00Z","trigger":"${pad}","repository":"a/b","pull_request":null,"base_ref":null,"type":"action.refresh","metadata":{}}`,
    );
    writeFileSync(file, `${lines.join("\n")}\n`);
    const ctx = testContext();
    expect(await main(["serve", "--events", file, "--memory-budget", "128"], ctx)).toBe(2);
    expect(ctx.stdoutText()).toBe("");
    // each 100 kB line is taken to weigh 3 x its length + 200 bytes: 128 MB hold 446 of them
    expect(ctx.stderrText()).toBe(
      `mq: --events: ${file}:447: the log does not fit in the memory budget (128 MB; raise it with --memory-budget, or replay a shorter log)\n`,
    );
  });

  it("a malformed --events file exits 2 naming the line", async () => {
    const dir = tempDir("mq-serve-");
    const file = join(dir, "bad.ndjson");
    writeFileSync(file, "{}\n");
    const ctx = testContext();
    const code = await main(["serve", "--events", file], ctx);
    expect(code).toBe(2);
    expect(ctx.stderrText()).toBe(`mq: --events: ${file}:1: not an event: id: expected an integer, got missing\n`);
  });
});
