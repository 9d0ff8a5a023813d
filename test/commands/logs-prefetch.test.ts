// `mq logs --parallel 1` asks for the next page while it writes this one (api/pagination.ts): the
// output and the requests the server receives are those of a walk that waits, page after page.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testContext, type TestContext } from "../helpers/context.js";
import { main } from "../../src/main.js";
import { makeEvents, startLogServer, useServer, type LogServer } from "./logs-fixture.js";

const PATH = "/v1/repos/acme/web/logs";
const WINDOW = ["--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z"];
const QUERY = "received_from=2026-11-19T12%3A00%3A00Z&received_to=2026-11-20T12%3A00%3A00Z&per_page=10";

describe("mq logs, one page ahead", () => {
  const events = makeEvents(45);
  const ndjson = (from: number, to: number) =>
    events
      .slice(from, to)
      .map((e) => JSON.stringify(e) + "\n")
      .join("");
  let server: LogServer;
  let ctx: TestContext;
  beforeEach(async () => {
    server = await startLogServer(events);
  });
  afterEach(async () => {
    await ctx?.cleanup();
    await server.close();
  });
  const run = (args: string[]) => {
    ctx = useServer(testContext(), server);
    return main(["logs", "--all", "--parallel", "1", "-o", "ndjson", "--per-page", "10", ...WINDOW, ...args], ctx);
  };

  it("writes every page in order, byte for byte, and asks for each page once", async () => {
    expect(await run([])).toBe(0);
    expect(ctx.stdoutText()).toBe(ndjson(0, 45));
    expect(server.requests).toEqual([`${PATH}?${QUERY}`, ...[10, 20, 30, 40].map((c) => `${PATH}?${QUERY}&cursor=${c}`)]);
    expect(ctx.stderrText()).toBe("");
  });

  it("a failure of page 3 comes after pages 1 and 2 are written, with the resume command, and nothing asked beyond it", async () => {
    server.failRequest(3, 503, { detail: "database unavailable" });
    expect(await run([])).toBe(6);
    expect(ctx.stdoutText()).toBe(ndjson(0, 20));
    expect(server.requests).toEqual([`${PATH}?${QUERY}`, `${PATH}?${QUERY}&cursor=10`, `${PATH}?${QUERY}&cursor=20`]);
    expect(ctx.stderrText()).toContain("HTTP 503");
    expect(ctx.stderrText()).toContain(
      "20 events were written before this. To resume:\n  mq logs --repo acme/web --since 2026-11-19T12:00:00Z --until 2026-11-20T12:00:00Z --per-page 10 --all -o ndjson --cursor 20\n",
    );
  });

  it("--limit ending on a page boundary asks for no page beyond it", async () => {
    ctx = useServer(testContext(), server);
    expect(await main(["logs", "--limit", "20", "--per-page", "10", "-o", "ndjson", ...WINDOW], ctx)).toBe(0);
    expect(ctx.stdoutText()).toBe(ndjson(0, 20));
    expect(server.requests).toEqual([`${PATH}?${QUERY}`, `${PATH}?${QUERY}&cursor=10`]);
  });
});
