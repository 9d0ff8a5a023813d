// The analyses' walk of the log over the API (insights, prs, pr) cuts a long window into parallel
// time slices, as mq logs does: the same events in the same order as the walk page after page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { walkLog } from "../../src/insights/walk.js";
import { testContext } from "../helpers/context.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 3, days: 3, now: NOW });
});
afterAll(() => server.close());

async function walk(parallel: number | undefined) {
  const ctx = testContext({ now: () => NOW });
  ctx.globals = { ...ctx.globals, apiUrl: server.url, token: "t" };
  const before = server.requests.length;
  const ids: number[] = [];
  for await (const e of walkLog(ctx, { owner: "acme", name: "web", since: new Date(NOW.getTime() - 2 * 86_400_000), until: NOW, parallel }))
    ids.push(e.id);
  const windows = new Set(server.requests.slice(before).map((r) => new URL(r.url, "http://x").searchParams.get("received_to")));
  return { ids, windows: windows.size };
}

describe("walkLog over the API", () => {
  it("walks a long window in parallel time slices by default: the events of the walk page after page, in its order", async () => {
    const sequential = await walk(1);
    expect(sequential.ids.length).toBeGreaterThan(500);
    expect(sequential.windows).toBe(1);
    const parallel = await walk(undefined);
    expect(parallel.windows).toBeGreaterThan(3);
    expect(parallel.ids).toEqual(sequential.ids);
    expect((await walk(3)).ids).toEqual(sequential.ids);
  });
});
