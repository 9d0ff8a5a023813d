// `mq queue --watch` in-process against the bundled simulation at a fixed history, the server's
// present moved by the test and mq's clock a week ahead of it (each poll's instant is the server's
// present, the Date of its answers): in a pipe, the first poll writes every pull request in the queue ("queued"), a later
// one exactly the changes between `mq queue`'s two queues (entered, changed, merged, left), each
// poll asking only for the events since the newest one read; on a terminal, the table redrawn on
// the alternate screen, left again on Ctrl-C (exit 130).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { testContext } from "../../helpers/context.js";
import { runMq } from "../../reliability/harness.js";
import { drivenServer, type DrivenServer } from "../../helpers/watch.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const T0 = new Date("2026-11-20T09:00:00Z");
const T1 = new Date("2026-11-20T09:40:00Z");
/** mq's clock runs a week ahead of the server's present: a queue at mq's clock would be a week off */
const SKEW = 7 * 86_400_000;
let server: RunningServer;
/** the same history, the present at T0 for the plain runs, and one more for each watch */
let plain: DrivenServer;
const driven: DrivenServer[] = [];
const at0Server = async () => {
  const d = await drivenServer(T0, { days: 8, repos: ["acme/web"] });
  driven.push(d);
  return d;
};
beforeAll(async () => {
  server = await startServer({ now: NOW, days: 8, repos: ["acme/web"] });
  plain = await at0Server();
});
afterAll(async () => {
  await Promise.all([server?.close(), ...driven.map((d) => d.server.close())]);
});

type Row = Record<string, unknown> & { pull_request: number; entered_at: string };

async function queueAt(at: Date): Promise<Row[]> {
  plain.set(at);
  const r = await runMq(["queue", "--until", at.toISOString(), "-o", "json"], { apiUrl: plain.url, now: () => at });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

/** Runs `mq queue --watch` against WATCHED until STOP says so; mq's clock a week ahead of its present */
async function watch(watched: DrivenServer, args: string[], stop: (out: string) => boolean, tty = false) {
  const server = watched.server;
  const ac = new AbortController();
  const ctx = testContext({ signal: ac.signal, now: () => new Date(watched.now().getTime() + SKEW), tty, columns: 120 });
  const before = server.requests.length;
  const done = main(["--api-url", server.url, "--token", "t", "--repo", "acme/web", "--color", "never", "queue", "--watch", ...args], ctx);
  let code: number | undefined;
  void done.then((c) => (code = c));
  for (let i = 0; i < 3000 && !stop(ctx.stdoutText()); i++) {
    if (code !== undefined) throw new Error(`mq queue --watch ended (exit ${code}): ${ctx.stderrText()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  ac.abort();
  return {
    code: await done,
    stdout: ctx.stdoutText(),
    stderr: ctx.stderrText(),
    requests: server.requests.slice(before).map((q) => q.url),
  };
}

const key = (r: Row) => `${r.pull_request} ${r.entered_at}`;

describe("mq queue --watch", () => {
  it("in a pipe: the queue, then a record per change, as mq queue's two queues differ", async () => {
    const [at0, at1] = [await queueAt(T0), await queueAt(T1)];
    const watched = await at0Server();
    const server = watched.server;
    let mark = 0;
    const r = await watch(watched, ["--interval", "0.1"], (out) => {
      if (watched.now().getTime() === T0.getTime() && out.includes(`"at":"${T0.toISOString().replace(".000Z", "Z")}"`)) {
        // the lookback is read: from here on, polls
        mark = server.requests.length;
        watched.set(T1);
      }
      return out.includes(`"at":"${T1.toISOString().replace(".000Z", "Z")}"`);
    });
    expect(r.code, r.stderr).toBe(130);
    const records = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Row & { at: string; change: string });
    const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
    // first: every pull request in the queue, as mq queue lists it
    expect(records.filter((x) => x.at === iso(T0))).toEqual(at0.map((row) => ({ at: iso(T0), change: "queued", ...row })));
    // then the changes, nothing else
    const before = new Map(at0.map((x) => [key(x), x]));
    const after = new Map(at1.map((x) => [key(x), x]));
    const moved = (a: Row, b: Row) =>
      JSON.stringify([a.position, a.state, a.state_since, a.batch_with, a.partition_name]) !==
      JSON.stringify([b.position, b.state, b.state_since, b.batch_with, b.partition_name]);
    const changes = records.filter((x) => x.at === iso(T1));
    expect(changes.filter((x) => x.change === "entered")).toEqual(
      at1.filter((x) => !before.has(key(x))).map((row) => ({ at: iso(T1), change: "entered", ...row })),
    );
    expect(changes.filter((x) => x.change === "changed")).toEqual(
      at1.filter((x) => before.has(key(x)) && moved(before.get(key(x))!, x)).map((row) => ({ at: iso(T1), change: "changed", ...row })),
    );
    const gone = changes.filter((x) => x.change === "merged" || x.change === "left");
    expect(gone.map(key).sort()).toEqual(
      at0
        .filter((x) => !after.has(key(x)))
        .map(key)
        .sort(),
    );
    expect(gone.length).toBeGreaterThan(0);
    expect(changes.filter((x) => x.change === "merged").length).toBeGreaterThan(0);
    // the lookback read once, then only the events since the newest one read
    const all = server.requests.slice(mark).map((q) => q.url);
    // and, each poll, the present: one event at most, from the present known before
    const present = all.filter((u) => !u.includes("event_type="));
    expect(present.length).toBeGreaterThan(0);
    for (const u of present) expect(u).toMatch(/\/logs\?per_page=1&received_from=2026-11-20T09%3A[04]0%3A00Z$/);
    const polls = all.filter((u) => u.includes("event_type="));
    expect(polls.length).toBeGreaterThan(0);
    for (const u of polls) {
      const from = Date.parse(decodeURIComponent(/received_from=([^&]+)/.exec(u)![1]!));
      expect(from).toBeGreaterThan(T0.getTime() - 3_600_000);
      expect(u).toContain("event_type=action.queue.enter");
    }
    // three rebuilds of a week's queue (16 s alone): a limit of its own
  }, 120_000);

  it("on a terminal: redrawn in place on the alternate screen, left on Ctrl-C", async () => {
    const r = await watch(await at0Server(), ["--interval", "0.1"], (out) => out.split("\x1b[H\x1b[2J").length > 2, true);
    expect(r.code).toBe(130);
    expect(r.stdout.startsWith("\x1b[?1049h\x1b[H\x1b[2J")).toBe(true);
    expect(r.stdout.endsWith("\x1b[?1049l")).toBe(true);
    const screens = r.stdout.slice("\x1b[?1049h".length, -"\x1b[?1049l".length).split("\x1b[H\x1b[2J").slice(1);
    // the same queue each time at a clock that does not move
    expect(new Set(screens).size).toBe(1);
    expect(screens[0]).toMatch(/^BASE +QUEUE +PARTITION +POS +PR +IN QUEUE +ETA +STATE\n/);
    expect(screens[0]).toMatch(/\nacme\/web: \d+ pull requests in the queue at 2026-11-20 09:00:00Z; every 0\.1 s, Ctrl-C to stop\n$/);
  });

  it("flags: --interval without --watch, --watch with --until or -o json: exit 2, nothing sent", async () => {
    for (const [args, message] of [
      [["queue", "--interval", "5"], "--interval applies to --watch: give --watch too.\n"],
      [["queue", "--watch", "--until", "2026-11-20T09:00:00Z"], "--watch follows the present: drop --until.\n"],
      [["queue", "--watch", "-o", "json"], "--watch writes the table on a terminal or ndjson (a record per change), not -o json.\n"],
      [["queue", "--watch", "--interval", "0"], '--interval must be a number of seconds from 0.1 to 3600, not "0".\n'],
    ] as const) {
      const before = server.requests.length;
      const r = await runMq([...args], { apiUrl: server.url, now: () => T0 });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`mq: ${message}`);
      expect(server.requests.length).toBe(before);
    }
  });
});
