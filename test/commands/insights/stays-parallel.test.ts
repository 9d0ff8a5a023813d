// --parallel on the commands that walk the log (mq insights, mq prs, mq pr): checked as mq logs
// checks it, before any request, and it sets how many time slices the walk cuts the window into.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { testContext } from "../../helpers/context.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 3, days: 3, now: NOW });
});
afterAll(() => server.close());

let pr = "";
beforeAll(async () => {
  const r = await mq(["prs", "--since", "2026-11-18T12:00:00Z", "--until", "2026-11-20T12:00:00Z", "--parallel", "1"]);
  pr = String(JSON.parse(r.out)[0].pull_request);
});

async function mq(rawArgs: string[]) {
  const args = rawArgs.map((a) => (a === "PR" ? pr : a));
  const ctx = testContext({ now: () => NOW, env: { MQ_TOKEN: "test-token-1234" } });
  const before = server.requests.length;
  const code = await main([...args, "--api-url", server.url, "--repo", "acme/web", "--color", "never", "-o", "json"], ctx);
  const urls = server.requests.slice(before).map((r) => new URL(r.url, "http://x"));
  // a slice is a window of its own: count the distinct ends the walk asked for
  const windows = new Set(urls.map((u) => u.searchParams.get("received_to"))).size;
  return { code, out: ctx.stdoutText(), err: ctx.stderrText(), requests: urls.length, windows };
}

const WINDOW = ["--since", "2026-11-18T12:00:00Z", "--until", "2026-11-20T12:00:00Z"];

describe.each([
  ["insights", ["insights", "--compare", "none"], true],
  ["prs", ["prs"], true],
  // a pull request with stays in the window: the first row of mq prs (below)
  // (one pull request's events fit in one page: the walk sees that and cuts no slices)
  ["pr", ["pr", "PR"], false],
])("mq %s --parallel", (_name, command, slices) => {
  it("--parallel 1 walks page after page; the default (and --parallel 3) the same output, in slices over a long window", async () => {
    const one = await mq([...command, ...WINDOW, "--parallel", "1"]);
    expect(one.err).toBe("");
    expect(one.code).toBe(0);
    expect(one.windows).toBe(1);
    const dflt = await mq([...command, ...WINDOW]);
    expect(dflt.code).toBe(0);
    expect(dflt.windows > 1).toBe(slices);
    expect(dflt.out).toBe(one.out);
    const three = await mq([...command, ...WINDOW, "--parallel", "3"]);
    expect(three.windows > 1).toBe(slices);
    expect(three.out).toBe(one.out);
  });

  it.each([
    [["--parallel", "0"], '--parallel must be an integer from 1 to 16, not "0".\n'],
    [["--parallel", "17"], '--parallel must be an integer from 1 to 16, not "17".\n'],
    [["--parallel", "two"], '--parallel must be an integer from 1 to 16, not "two".\n'],
    [["--parallel", "2", "--archive"], "--parallel applies to the API's pages, not to --archive.\n"],
  ])("%j: exit 2, one line, nothing sent", async (flags, message) => {
    const r = await mq([...command, ...WINDOW, ...flags]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`mq: ${message}`);
    expect(r.requests).toBe(0);
  });
});
