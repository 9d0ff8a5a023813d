// `mq stats <endpoint> --watch`, `mq stats summary --watch` and `mq insights --watch` in-process
// against the bundled simulation at a fixed history, the clock and the sleep injected (a poll an
// hour, nothing waits): in a pipe, the first poll writes what the plain command writes at that
// instant and a later one only records the plain command writes then and not before; on a
// terminal, the plain command's screen redrawn on the alternate screen, left on Ctrl-C (130);
// --fail-if ends the watch at the poll that breaches it, with the gate's verdict line and exit 1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { ALT_SCREEN, HOME_CLEAR, MAIN_SCREEN } from "../../../src/watch/loop.js";
import { runMq } from "../../reliability/harness.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const T = [new Date("2026-11-20T09:00:00Z"), new Date("2026-11-20T10:00:00Z"), new Date("2026-11-20T11:00:00Z")];
const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
/** an instant as a terminal shows it (docs/formats.md): UTC to the second */
const shown = (d: Date) =>
  d
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: NOW, days: 8, repos: ["acme/web", "acme/api"] });
});
afterAll(() => server?.close());

/** A clock at T[0] that a sleep moves on by its length; Ctrl-C at the sleep after POLLS polls. */
function driven(polls: number) {
  const ac = new AbortController();
  let t = T[0]!.getTime();
  let n = 0;
  return {
    signal: ac.signal,
    now: () => new Date(t),
    sleep: async (ms: number, signal: AbortSignal) => {
      if (++n >= polls) ac.abort();
      if (signal.aborted) throw new Error("aborted");
      t += ms;
    },
  };
}

const records = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("mq stats --watch", () => {
  it("in a pipe (two repositories): the plain command's records at the first poll, then only records new since the poll before", async () => {
    const plain = async (at: Date) => {
      const r = await runMq(
        ["--repo", "acme/web,acme/api", "stats", "queue-size", "--since", iso(new Date(at.getTime() - 7_200_000)), "-o", "ndjson"],
        {
          apiUrl: server.url,
          now: () => at,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      return records(r.stdout);
    };
    const [p0, p1] = [await plain(T[0]!), await plain(T[1]!)];
    const before = server.requests.length;
    const r = await runMq(["--repo", "acme/web,acme/api", "stats", "queue-size", "--since", "2h", "--watch", "--interval", "3600"], {
      apiUrl: server.url,
      repo: false,
      ...driven(2),
    });
    expect(r.code, r.stderr).toBe(130);
    const out = records(r.stdout);
    expect(out.filter((x) => x.at === iso(T[0]!))).toEqual(p0.map((x) => ({ at: iso(T[0]!), ...x })));
    const later = out.filter((x) => x.at === iso(T[1]!)).map(({ at: _at, ...x }) => JSON.stringify(x));
    const p1Text = p1.map((x) => JSON.stringify(x));
    const p0Text = new Set(p0.map((x) => JSON.stringify(x)));
    // exactly the records the plain command writes at T1 and did not at T0
    expect(later.length).toBeGreaterThan(0);
    expect(later).toEqual(p1Text.filter((x) => !p0Text.has(x)));
    expect(out.length).toBe(p0.length + later.length);
    // one request a repository a poll, its window moved on with the clock
    const asked = server.requests.slice(before).map((q) => {
      const u = new URL(q.url, server.url);
      return [u.pathname.split("/")[4], u.searchParams.get("start_at"), u.searchParams.get("end_at")].join(" ");
    });
    const window = (t: Date) => `${iso(new Date(t.getTime() - 7_200_000))} ${iso(t)}`;
    expect(asked.sort()).toEqual([`api ${window(T[0]!)}`, `api ${window(T[1]!)}`, `web ${window(T[0]!)}`, `web ${window(T[1]!)}`]);
  });

  it("summary --fail-if: the watch ends at the poll that breaches it, with the verdict line and exit 1", async () => {
    const entered = async (at: Date) => {
      const r = await runMq(["stats", "summary", "--since", iso(new Date(at.getTime() - 3_600_000)), "--until", iso(at), "-o", "json"], {
        apiUrl: server.url,
        now: () => at,
      });
      return (JSON.parse(r.stdout) as { entered: number }).entered;
    };
    const [e0, e1] = [await entered(T[0]!), await entered(T[1]!)];
    expect(e1).not.toBe(e0);
    const op = e1 > e0 ? ">" : "<";
    const check = `entered ${op} ${e0}`;
    const before = server.requests.length;
    const r = await runMq(["stats", "summary", "--since", "1h", "--watch", "--interval", "3600", "--fail-if", check], {
      apiUrl: server.url,
      ...driven(5),
    });
    expect(r.code).toBe(1);
    const out = records(r.stdout);
    expect(out.map((x) => [x.at, x.entered])).toEqual([
      [iso(T[0]!), e0],
      [iso(T[1]!), e1],
    ]);
    // the breach's verdict, once: the passing poll said nothing
    expect(r.stderr).toBe(`FAIL  entered ${e1} ${op} ${e0} (all groups)\nmq: 1 of 1 --fail-if check failed.\n`);
    // two polls, no third
    const polls = new Set(server.requests.slice(before).map((q) => new URL(q.url, server.url).searchParams.get("end_at")));
    expect(polls.size).toBe(2);
  });

  it("insights on a terminal: the plain command's screen redrawn on the alternate screen, left on Ctrl-C", async () => {
    const window = ["--since", iso(new Date(T[0]!.getTime() - 86_400_000)), "--until", iso(T[0]!), "--compare", "none"];
    const plain = await runMq(["--color", "never", "insights", ...window], {
      apiUrl: server.url,
      now: () => T[0]!,
      stdoutIsTTY: true,
      columns: 100,
    });
    expect(plain.code, plain.stderr).toBe(0);
    const r = await runMq(["--color", "never", "insights", "--since", "1d", "--compare", "none", "--watch", "--interval", "3600"], {
      apiUrl: server.url,
      tty: true,
      columns: 100,
      ...driven(2),
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout.startsWith(ALT_SCREEN + HOME_CLEAR)).toBe(true);
    expect(r.stdout.endsWith(MAIN_SCREEN)).toBe(true);
    const screens = r.stdout.slice(ALT_SCREEN.length, -MAIN_SCREEN.length).split(HOME_CLEAR).slice(1);
    expect(screens.length).toBe(2);
    expect(screens[0]).toBe(`${plain.stdout}${plain.stderr}mq insights: at ${shown(T[0]!)}; every 3600 s, Ctrl-C to stop\n`);
    expect(screens[1]).toMatch(new RegExp(`\\nmq insights: at ${shown(T[1]!)}; every 3600 s, Ctrl-C to stop\\n$`));
  });

  it("flags that make no sense under --watch: one line naming the flag, exit 2, nothing sent", async () => {
    for (const [args, message] of [
      [["stats", "queue-size", "--interval", "5"], "--interval applies to --watch: give --watch too."],
      [["stats", "queue-size", "--watch", "--until", "1h"], "--watch follows the present: drop --until (the window ends at each poll)."],
      [["stats", "time-to-merge", "--watch", "--at", "1h"], "--watch follows the present: drop --at."],
      [
        ["stats", "summary", "--watch", "-o", "json"],
        "--watch writes the table on a terminal or ndjson (a record per change), not -o json.",
      ],
      [["stats", "summary", "--watch", "--interval", "0.01"], '--interval must be a number of seconds from 0.1 to 3600, not "0.01".'],
      [["insights", "--watch", "--archive"], "--watch reads new events from the API, not from --archive."],
      [["insights", "--watch", "--interval", "soon"], '--interval must be a number of seconds from 0.1 to 3600, not "soon".'],
      [["insights", "--watch", "-o", "csv"], "--watch writes the table on a terminal or ndjson (a record per change), not -o csv."],
    ] as const) {
      const before = server.requests.length;
      const r = await runMq([...args], { apiUrl: server.url, now: () => T[0]! });
      expect([r.code, r.stderr]).toEqual([2, `mq: ${message}\n`]);
      expect(server.requests.length).toBe(before);
    }
  });
});
