// `mq stats <endpoint> --watch`, `mq stats summary --watch` and `mq insights --watch` in-process
// against the bundled simulation, its present moved by the watch's sleeps (a poll an hour, nothing
// waits) and mq's clock a week ahead of it: each poll's window ends at the server's present. In a
// pipe, the first poll writes what the plain command writes at that present and a later one only
// records the plain command writes then and not before; on a terminal, the plain command's screen
// redrawn on the alternate screen, left on Ctrl-C (130); --fail-if ends the watch at the poll that
// breaches it, with the gate's verdict line and exit 1.
import { afterEach, describe, expect, it } from "vitest";
import { ALT_SCREEN, HOME_CLEAR, MAIN_SCREEN } from "../../../src/watch/loop.js";
import { runMq } from "../../reliability/harness.js";
import { drivenServer, iso, records, type DrivenServer } from "../../helpers/watch.js";

const T = [new Date("2026-11-20T09:00:00Z"), new Date("2026-11-20T10:00:00Z"), new Date("2026-11-20T11:00:00Z")];
/** mq's clock runs a week ahead of the server's present: a window ending at mq's clock would be empty */
const SKEW = 7 * 86_400_000;
/** an instant as a terminal shows it (docs/formats.md): UTC to the second */
const shown = (d: Date) =>
  d
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");

const servers: DrivenServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.server.close()));
});
/** two servers of the same history at T[0]: one for the plain runs, one for the watch */
async function pair() {
  const plain = await drivenServer(T[0]!);
  const watched = await drivenServer(T[0]!);
  servers.push(plain, watched);
  return { plain, watched };
}

const request = (url: string, base: string) => new URL(url, base);

describe("mq stats --watch", () => {
  it("in a pipe (two repositories): the plain command's records at the server's present, then only records new since the poll before", async () => {
    const { plain, watched } = await pair();
    const plainAt = async (at: Date) => {
      plain.set(at);
      const window = ["--since", iso(new Date(at.getTime() - 7_200_000)), "--until", iso(at)];
      const r = await runMq(["--repo", "acme/web,acme/api", "stats", "queue-size", ...window, "-o", "ndjson"], {
        apiUrl: plain.url,
        repo: false,
        now: () => at,
      });
      expect(r.code, r.stderr).toBe(0);
      return records(r.stdout);
    };
    const [p0, p1] = [await plainAt(T[0]!), await plainAt(T[1]!)];
    const r = await runMq(["--repo", "acme/web,acme/api", "stats", "queue-size", "--since", "2h", "--watch", "--interval", "3600"], {
      apiUrl: watched.url,
      repo: false,
      ...watched.watch(2, SKEW),
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
    // a poll: the present asked (one event at most, only what came since the present before), then
    // one request a repository, its window ending at that present
    const asked = watched.server.requests.map((q) => {
      const u = request(q.url, watched.url);
      const p = u.searchParams;
      return u.pathname.endsWith("/logs")
        ? `present ${u.pathname.split("/")[4]} ${p.get("per_page")} ${p.get("received_from")}`
        : [u.pathname.split("/")[4], p.get("start_at"), p.get("end_at")].join(" ");
    });
    const window = (t: Date) => `${iso(new Date(t.getTime() - 7_200_000))} ${iso(t)}`;
    expect(asked[0]).toBe("present web 1 null");
    expect(asked.slice(1, 3).sort()).toEqual([`api ${window(T[0]!)}`, `web ${window(T[0]!)}`]);
    expect(asked[3]).toBe(`present web 1 ${iso(T[0]!)}`);
    expect(asked.slice(4).sort()).toEqual([`api ${window(T[1]!)}`, `web ${window(T[1]!)}`]);
  });

  it("in a pipe: a group with no more events in the window is said to have left it, once, at the poll it left", async () => {
    const H = [new Date("2026-11-20T12:00:00Z"), new Date("2026-11-20T13:00:00Z"), new Date("2026-11-20T14:00:00Z")];
    const plain = await drivenServer(H[0]!);
    const watched = await drivenServer(H[0]!);
    servers.push(plain, watched);
    const groupsAt = async (at: Date) => {
      plain.set(at);
      const window = ["--since", iso(new Date(at.getTime() - 3_600_000)), "--until", iso(at)];
      const r = await runMq(["stats", "queues-entered-count", ...window, "-o", "ndjson"], { apiUrl: plain.url, now: () => at });
      expect(r.code, r.stderr).toBe(0);
      const groups = new Map<string, Record<string, unknown>>();
      for (const x of records(r.stdout)) {
        const g = {
          base_ref: x.base_ref,
          partition_name: x.partition_name,
          queue_name: x.queue_name,
          priority_rule_name: x.priority_rule_name,
        };
        groups.set(JSON.stringify(g), g);
      }
      return groups;
    };
    const g = [await groupsAt(H[0]!), await groupsAt(H[1]!), await groupsAt(H[2]!)];
    const expected = [1, 2].flatMap((k) =>
      [...g[k - 1]!].filter(([key]) => !g[k]!.has(key)).map(([, group]) => ({ at: iso(H[k]!), ...group, left_window: true })),
    );
    // the simulation has groups leaving at both polls
    expect(new Set(expected.map((x) => x.at))).toEqual(new Set([iso(H[1]!), iso(H[2]!)]));
    const r = await runMq(["stats", "queues-entered-count", "--since", "1h", "--watch", "--interval", "3600"], {
      apiUrl: watched.url,
      ...watched.watch(3, SKEW),
    });
    expect(r.code, r.stderr).toBe(130);
    expect(records(r.stdout).filter((x) => x.left_window === true)).toEqual(expected);
  });

  it("summary --fail-if: the watch ends at the poll that breaches it, with the verdict line and exit 1", async () => {
    const { plain, watched } = await pair();
    const entered = async (at: Date) => {
      plain.set(at);
      const r = await runMq(["stats", "summary", "--since", iso(new Date(at.getTime() - 3_600_000)), "--until", iso(at), "-o", "json"], {
        apiUrl: plain.url,
        now: () => at,
      });
      return (JSON.parse(r.stdout) as { entered: number }).entered;
    };
    const [e0, e1] = [await entered(T[0]!), await entered(T[1]!)];
    expect(e1).not.toBe(e0);
    const op = e1 > e0 ? ">" : "<";
    const check = `entered ${op} ${e0}`;
    const r = await runMq(["stats", "summary", "--since", "1h", "--watch", "--interval", "3600", "--fail-if", check], {
      apiUrl: watched.url,
      ...watched.watch(5, SKEW),
    });
    expect(r.code).toBe(1);
    const out = records(r.stdout);
    expect(out.map((x) => [x.at, x.start_at, x.end_at, x.entered])).toEqual([
      [iso(T[0]!), iso(new Date(T[0]!.getTime() - 3_600_000)), iso(T[0]!), e0],
      [iso(T[1]!), iso(new Date(T[1]!.getTime() - 3_600_000)), iso(T[1]!), e1],
    ]);
    // the breach's verdict, once: the passing poll said nothing
    expect(r.stderr).toBe(`FAIL  entered ${e1} ${op} ${e0} (all groups)\nmq: 1 of 1 --fail-if check failed.\n`);
    // two polls, no third
    const polls = new Set(
      watched.server.requests.map((q) => request(q.url, watched.url).searchParams.get("end_at")).filter((x) => x !== null),
    );
    expect(polls).toEqual(new Set([iso(T[0]!), iso(T[1]!)]));
  });

  it("insights on a terminal: the plain command's screen redrawn on the alternate screen, left on Ctrl-C", async () => {
    const { plain, watched } = await pair();
    const window = ["--since", iso(new Date(T[0]!.getTime() - 86_400_000)), "--until", iso(T[0]!), "--compare", "none"];
    const first = await runMq(["--color", "never", "insights", ...window], {
      apiUrl: plain.url,
      now: () => T[0]!,
      stdoutIsTTY: true,
      columns: 100,
    });
    expect(first.code, first.stderr).toBe(0);
    const r = await runMq(["--color", "never", "insights", "--since", "1d", "--compare", "none", "--watch", "--interval", "3600"], {
      apiUrl: watched.url,
      tty: true,
      columns: 100,
      ...watched.watch(2, SKEW),
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout.startsWith(ALT_SCREEN + HOME_CLEAR)).toBe(true);
    expect(r.stdout.endsWith(MAIN_SCREEN)).toBe(true);
    const screens = r.stdout.slice(ALT_SCREEN.length, -MAIN_SCREEN.length).split(HOME_CLEAR).slice(1);
    expect(screens.length).toBe(2);
    expect(screens[0]).toBe(`${first.stdout}${first.stderr}mq insights: at ${shown(T[0]!)}; every 3600 s, Ctrl-C to stop\n`);
    expect(screens[1]).toMatch(new RegExp(`\\nmq insights: at ${shown(T[1]!)}; every 3600 s, Ctrl-C to stop\\n$`));
  });

  it("flags that make no sense under --watch: one line naming the flag, exit 2, nothing sent", async () => {
    const { plain } = await pair();
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
      const before = plain.server.requests.length;
      const r = await runMq([...args], { apiUrl: plain.url, now: () => T[0]! });
      expect([r.code, r.stderr]).toEqual([2, `mq: ${message}\n`]);
      expect(plain.server.requests.length).toBe(before);
    }
  });
});
