// `mq wait N` against the bundled server with a running present (mq serve --speed): the pull
// request is one the queue held at the start, the present runs 600 times as fast as the real
// clock (a simulated hour in six seconds), and mq's clock runs a week ahead of the server's present
// (the log's "now" is the server's, the Date of its answers; --max-wait is mq's). Whatever happens to it,
// wait's exit code and last record must agree with what the log then says of its stay (mq why).
// In-process, but seconds of simulation and waiting: the e2e half.
import { afterAll, describe, expect, it } from "vitest";
import { movingClock, startServer, type RunningServer } from "../../../src/server/index.js";
import { runMq } from "../../reliability/harness.js";

const T0 = new Date("2026-11-20T14:40:00Z");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe("mq wait against a running present", () => {
  for (const dialect of ["spec", "mergify"] as const) {
    it(`${dialect}: exits 0 or 1 as the log says its stay ended`, async () => {
      const from = Date.now();
      const server = await startServer({ now: T0, speed: 600, speedFrom: from, days: 2, dialect });
      servers.push(server);
      const clock = movingClock(T0, 600, from);
      const mq = (args: string[]) => runMq(args, { apiUrl: server.url, now: () => new Date(clock() + 7 * 86_400_000) });
      // the queue at the start, fixed: the first pull request whose checks run
      const queue = await mq(["queue", "--since", "2026-11-19T14:40:00Z", "--until", T0.toISOString(), "-o", "json"]);
      expect(queue.code, queue.stderr).toBe(0);
      const rows: Array<{ pull_request: number; state: string }> = JSON.parse(queue.stdout);
      const pr = (rows.find((r) => r.state === "checks_running") ?? rows[0]!).pull_request;
      const wait = await mq(["wait", String(pr), "--since", "1d", "--interval", "0.2", "--max-wait", "2d", "-o", "ndjson"]);
      const records = wait.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { status: string; left_at: string | null });
      const last = records.at(-1)!;
      expect(["merged", "failed", "dequeued"]).toContain(last.status);
      expect(wait.code, wait.stderr).toBe(last.status === "merged" ? 0 : 1);
      // the log, read afterwards up to the present, says the same of its latest stay
      const why = await mq(["why", String(pr), "--since", "2026-11-19T14:40:00Z", "-o", "json"]);
      const doc = JSON.parse(why.stdout) as { stays: Array<{ outcome: string; left_at: string | null; merged_at: string | null }> };
      expect(doc.stays[0]!.outcome).toBe(last.status);
      // a merge is known from the merged event, which comes a second before the leave: either time
      expect([doc.stays[0]!.left_at, doc.stays[0]!.merged_at]).toContain(last.left_at);
    }, 120_000);
  }
});
