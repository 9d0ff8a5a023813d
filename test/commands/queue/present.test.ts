// `mq queue` and `mq why N` without --until take "now" from the server's present (the Date of its
// answers), not from mq's clock: against the bundled simulation at a present in the past, mq's clock
// a week ahead, they write exactly what they write with --until at that present, relative flags
// counting back from it; --archive keeps mq's clock (nothing to ask).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMq } from "../../reliability/harness.js";
import { drivenServer, iso, type DrivenServer } from "../../helpers/watch.js";

const PRESENT = new Date("2026-11-20T09:00:00Z");
const WEEK_AHEAD = new Date(PRESENT.getTime() + 7 * 86_400_000);
let server: DrivenServer;
beforeAll(async () => {
  server = await drivenServer(PRESENT, { days: 3, repos: ["acme/web"] });
});
afterAll(() => server?.server.close());

async function mq(args: string[]) {
  const before = server.server.requests.length;
  const r = await runMq([...args, "--color", "never"], { apiUrl: server.url, now: () => WEEK_AHEAD, columns: 120 });
  return { ...r, requests: server.server.requests.slice(before).map((q) => q.url) };
}

describe("now is the server's present", () => {
  it("mq queue: the rows of mq queue --until <present>, the lookback counted back from it", async () => {
    const pinned = await mq(["queue", "--since", "2026-11-18T09:00:00Z", "--until", iso(PRESENT), "-o", "json"]);
    expect(pinned.code, pinned.stderr).toBe(0);
    const rows = JSON.parse(pinned.stdout) as unknown[];
    expect(rows.length).toBeGreaterThan(0);
    const r = await mq(["queue", "--since", "2d", "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(rows);
    // the present asked once, then the lookback (its first page over all of it) up to it
    expect(r.requests[0]).toBe("/v1/repos/acme/web/logs?per_page=1");
    expect(r.requests[1]).toContain("&received_from=2026-11-18T09%3A00%3A00Z&received_to=2026-11-20T09%3A00%3A00Z&");
  });

  it("mq queue as a table: the same screen, its line at the server's present", async () => {
    const pinned = await mq(["queue", "--until", iso(PRESENT), "-o", "table"]);
    const r = await mq(["queue", "-o", "table"]);
    expect(r.code, r.stderr).toBe(0);
    expect([r.stdout, r.stderr]).toEqual([pinned.stdout, pinned.stderr]);
    expect(r.stderr).toContain("in the queue at 2026-11-20 09:00:00Z");
  });

  it("mq why N: the document of mq why N --until <present>", async () => {
    const queue = JSON.parse((await mq(["queue", "--until", iso(PRESENT), "-o", "json"])).stdout) as Array<{ pull_request: number }>;
    const pr = String(queue[0]!.pull_request);
    const pinned = await mq(["why", pr, "--until", iso(PRESENT), "-o", "json"]);
    expect(pinned.code, pinned.stderr).toBe(0);
    const r = await mq(["why", pr, "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(pinned.stdout);
    expect(JSON.parse(r.stdout)).toMatchObject({ until: iso(PRESENT), since: "2026-10-21T09:00:00Z", stays: [{ outcome: "open" }] });
    expect(r.requests[0]).toBe("/v1/repos/acme/web/logs?per_page=1");
  });
});
