// A page or statistics answer the generated checks vouch for is written without zod; one they
// cannot vouch for takes zod's path. Against the real service's shape (the mergify dialect) and
// the contract's statistics: the same output, warnings, errors and exit codes either way.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { testContext, type TestContext } from "../helpers/context.js";
import { main } from "../../src/main.js";
import { startLogServer, useServer, type FixtureEvent, type LogServer } from "./logs-fixture.js";
import { FIXTURES, startFixtureServer } from "./stats/fixture-server.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";

const read = (url: string): unknown => JSON.parse(readFileSync(new URL(url, import.meta.url), "utf8"));
const MERGIFY_EVENTS = read("../fixtures/mergify-events.json") as FixtureEvent[];
const MERGIFY_STATS = read("../fixtures/mergify-stats.json") as Record<string, unknown>;
/** the real service's answers by endpoint name, as the fixture server serves them */
const MERGIFY_BODIES = Object.fromEntries(
  STATS_ENDPOINTS.filter((e) => MERGIFY_STATS[`stats/${e.path}`] !== undefined).map((e) => [e.name, MERGIFY_STATS[`stats/${e.path}`]]),
);

describe("mq logs --dialect mergify", () => {
  let server: LogServer | undefined;
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.cleanup();
    await server?.close();
  });

  async function run(events: FixtureEvent[], args: string[]): Promise<number> {
    server = await startLogServer(events);
    ctx = useServer(testContext(), server, "mergify");
    return main(["logs", "--dialect", "mergify", "--per-page", "100", ...args], ctx);
  }

  it("a valid page of every event type is written as sent, without a word", async () => {
    expect(await run(MERGIFY_EVENTS, ["-o", "ndjson"])).toBe(0);
    expect(ctx!.stdoutText()).toBe(MERGIFY_EVENTS.map((e) => JSON.stringify(e) + "\n").join(""));
    expect(ctx!.stderrText()).toBe("");
  });

  const change = MERGIFY_EVENTS.find((e) => e.type === "action.queue.change")!;
  const broken = [
    { ...change, id: 7, metadata: { ...change.metadata, size: "2" } },
    { ...change, id: 6, metadata: { ...change.metadata, size: "3" } },
  ];

  it("metadata that differs from the OpenAPI: one warning per type, the events as sent", async () => {
    expect(await run(broken, ["-o", "ndjson"])).toBe(0);
    expect(ctx!.stdoutText()).toBe(broken.map((e) => JSON.stringify(e) + "\n").join(""));
    expect(ctx!.stderrText()).toBe(
      "mq: warning: action.queue.change event 7 does not match the service's OpenAPI (metadata.size: Invalid input: expected number, received string); shown as sent. --strict makes this an error.\n",
    );
  });

  it("--strict makes it an error (exit 6), nothing written", async () => {
    expect(await run(broken, ["--strict", "-o", "ndjson"])).toBe(6);
    expect(ctx!.stdoutText()).toBe("");
    expect(ctx!.stderrText()).toBe(
      "mq: response does not match the service's OpenAPI: events[0] (id 7) action.queue.change: metadata.size: Invalid input: expected number, received string\n",
    );
  });
});

describe("mq logs --repo a,b --dialect mergify", () => {
  // every repository's log checked against the dialect in effect: it was held to the contract's
  // shapes, so the real service's valid queue events each warned, and --strict failed on them
  it("valid pages of the real service's shape: every event, no warning, and --strict agrees", async () => {
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url ?? "");
      const repository = /^\/v1\/repos\/([^/]+\/[^/]+)\/logs/.exec(req.url ?? "")?.[1] ?? "?";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ size: MERGIFY_EVENTS.length, per_page: 100, events: MERGIFY_EVENTS.map((e) => ({ ...e, repository })) }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const strict of [[], ["--strict"]]) {
        const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
        try {
          const code = await main(
            ["logs", "--repo", "acme/web,acme/api", "--dialect", "mergify", ...strict, "--parallel", "1", "-o", "ndjson", "--api-url", url],
            ctx,
          );
          expect(ctx.stderrText()).toBe("");
          expect(code).toBe(0);
          expect(ctx.stdoutText().trimEnd().split("\n")).toHaveLength(2 * MERGIFY_EVENTS.length);
        } finally {
          await ctx.cleanup();
        }
      }
      expect(requests.map((u) => u.split("?")[0]).sort()).toEqual([
        "/v1/repos/acme/api/logs",
        "/v1/repos/acme/api/logs",
        "/v1/repos/acme/web/logs",
        "/v1/repos/acme/web/logs",
      ]);
    } finally {
      server.close();
    }
  });

  it("metadata that differs from the OpenAPI: warned once per type in the service's words", async () => {
    const change = MERGIFY_EVENTS.find((e) => e.type === "action.queue.change")!;
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ size: 1, per_page: 100, events: [{ ...change, id: 7, metadata: { ...change.metadata, size: "2" } }] }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(
        await main(
          ["logs", "--repo", "acme/web,acme/api", "--dialect", "mergify", "--parallel", "1", "-o", "ndjson", "--api-url", url],
          ctx,
        ),
      ).toBe(0);
      expect(ctx.stderrText()).toBe(
        "mq: warning: action.queue.change event 7 does not match the service's OpenAPI (metadata.size: Invalid input: expected number, received string); shown as sent. --strict makes this an error.\n",
      );
    } finally {
      await ctx.cleanup();
      server.close();
    }
  });
});

describe("mq insights --dialect mergify --strict", () => {
  // the log it reads is held to the dialect in effect: it was held to the contract's shapes, and
  // failed (exit 6) on the real service's valid queue events
  it("valid pages of the real service's shape: no word, exit 0", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ size: MERGIFY_EVENTS.length, per_page: 100, events: MERGIFY_EVENTS }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const code = await main(
        [
          "insights",
          "--repo",
          "acme/web",
          "--dialect",
          "mergify",
          "--strict",
          "--compare",
          "none",
          "--parallel",
          "1",
          "--since",
          "7d",
          "-o",
          "json",
          "--api-url",
          url,
        ],
        ctx,
      );
      expect(ctx.stderrText()).toBe("");
      expect(code).toBe(0);
    } finally {
      await ctx.cleanup();
      server.close();
    }
  });
});

describe("mq stats, answers the generated checks vouch for and answers they do not", () => {
  async function mq(bodies: Record<string, unknown>, args: string[]) {
    const server = await startFixtureServer({ bodies });
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
    try {
      const code = await main([...args, "--api-url", server.url, "--repo", "acme/web"], ctx);
      return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
    } finally {
      await ctx.cleanup();
      await server.close();
    }
  }

  it("--dialect mergify: the service's answer is shown as sent, without a word", async () => {
    const r = await mq(MERGIFY_BODIES, ["--dialect", "mergify", "stats", "failure-rate", "-o", "json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(MERGIFY_BODIES["failure-rate"]);
  });

  const rate = MERGIFY_BODIES["failure-rate"] as { groups: Array<{ stats: Array<Record<string, unknown>> }> };
  const brokenRate = { groups: [{ ...rate.groups[0]!, stats: [{ ...rate.groups[0]!.stats[0]!, failure_rate: "0.5" }] }] };

  it("--dialect mergify: an answer that differs from the OpenAPI is shown as sent with a warning; --strict: exit 6", async () => {
    const r = await mq({ ...MERGIFY_BODIES, "failure-rate": brokenRate }, ["--dialect", "mergify", "stats", "failure-rate", "-o", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(brokenRate);
    expect(r.err).toBe(
      "mq: warning: failure-rate response does not match the service's OpenAPI (groups[0].stats[0].failure_rate: Invalid input: expected number, received string); shown as sent. --strict makes this an error.\n",
    );
    const strict = await mq({ ...MERGIFY_BODIES, "failure-rate": brokenRate }, [
      "--dialect",
      "mergify",
      "--strict",
      "stats",
      "failure-rate",
      "-o",
      "json",
    ]);
    expect(strict.code).toBe(6);
    expect(strict.out).toBe("");
    expect(strict.err).toBe(
      "mq: failure-rate response does not match the service's OpenAPI (groups[0].stats[0].failure_rate: Invalid input: expected number, received string)\n",
    );
  });

  it("the contract: the fixture without a word; the real service's groups (no partition_name) still noted under --debug", async () => {
    const plain = await mq(FIXTURES, ["stats", "failure-rate", "-o", "json"]);
    expect(plain.err).toBe("");
    expect(plain.code).toBe(0);
    const debug = await mq(MERGIFY_BODIES, ["--debug", "stats", "failure-rate", "-o", "json"]);
    expect(debug.code).toBe(0);
    expect(JSON.parse(debug.out)).toEqual(MERGIFY_BODIES["failure-rate"]);
    expect(debug.err.split("\n").filter((l) => l !== "" && !l.startsWith("mq debug: "))).toEqual([
      "mq: failure-rate response differs from the contract (groups[0].partition_name: Invalid input: expected string, received undefined; groups[1].partition_name: Invalid input: expected string, received undefined); --strict makes this an error.",
    ]);
  });
});
