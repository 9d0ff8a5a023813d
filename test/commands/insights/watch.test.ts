// `mq insights --watch` reads each window once, then only the events new since the poll before: in
// a pipe its records at each poll are a plain run's at that present (the server's, moved by the
// watch's sleeps; mq's clock a week ahead), and the requests of a later poll ask the log only from
// the newest event read (the server's log of requests says so).
import { afterEach, describe, expect, it } from "vitest";
import { QUEUE_EVENT_TYPES } from "../../../src/insights/dialects.js";
import { runMq } from "../../reliability/harness.js";
import { drivenServer, type DrivenServer, iso, records } from "../../helpers/watch.js";

const T = [new Date("2026-11-20T09:00:00Z"), new Date("2026-11-20T10:00:00Z"), new Date("2026-11-20T11:00:00Z")];
const SKEW = 7 * 86_400_000;
const H = 3_600_000;

const servers: DrivenServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.server.close()));
});

describe("mq insights --watch", () => {
  it.each(["spec", "mergify"] as const)(
    "%s: each poll's records are a plain run's at that present; a later poll asks only for events since the newest one read",
    async (dialect) => {
      const plain = await drivenServer(T[0]!, { dialect });
      const watched = await drivenServer(T[0]!, { dialect });
      servers.push(plain, watched);
      const plainAt = async (at: Date) => {
        plain.set(at);
        const r = await runMq(
          ["--dialect", dialect, "insights", "--since", iso(new Date(at.getTime() - 2 * H)), "--until", iso(at), "-o", "ndjson"],
          {
            apiUrl: plain.url,
            now: () => at,
          },
        );
        expect(r.code, r.stderr).toBe(0);
        return r.stdout.trim().split("\n");
      };
      const p = [await plainAt(T[0]!), await plainAt(T[1]!), await plainAt(T[2]!)];
      const r = await runMq(["insights", "--since", "2h", "--watch", "--interval", "3600"], {
        apiUrl: watched.url,
        ...watched.watch(3, SKEW),
      });
      expect(r.code, r.stderr).toBe(130);
      const out = records(r.stdout);
      for (let k = 0; k < 3; k++) {
        const got = out.filter((x) => x.at === iso(T[k]!)).map(({ at: _at, ...x }) => JSON.stringify(x));
        const before = new Set(k === 0 ? [] : p[k - 1]);
        expect(got).toEqual(p[k]!.filter((x) => !before.has(x)));
      }
      // the newest queue event of both windows (the comparison's too) at each present: where the next poll reads from
      const newest = async (from: Date, to: Date) => {
        const u = new URL(`${watched.url}/v1/repos/acme/web/logs`);
        for (const t of QUEUE_EVENT_TYPES) u.searchParams.append("event_type", t);
        u.searchParams.set("received_from", iso(from));
        u.searchParams.set("received_to", iso(to));
        u.searchParams.set("per_page", "1");
        const page = (await (await fetch(u, { headers: { authorization: "Bearer t" } })).json()) as {
          events: Array<{ received_at: string }>;
        };
        return page.events[0]!.received_at;
      };
      // the polls, each: the present asked (per_page 1), then the log's reads
      const polls: Array<Array<[string | null, string | null]>> = [];
      for (const q of watched.server.requests) {
        const s = new URL(q.url, watched.url).searchParams;
        if (s.get("per_page") === "1") polls.push([]);
        else polls.at(-1)!.push([s.get("received_from"), s.get("received_to")]);
      }
      expect(polls.length).toBe(3);
      const from = (k: number) => Math.min(...polls[k]!.map(([f]) => Date.parse(f!)));
      expect(polls.every((reads) => reads.length > 0)).toBe(true);
      // the first poll reads both windows (four hours); the next ones from the newest event read
      expect(from(0)).toBe(T[0]!.getTime() - 4 * H);
      expect(from(1)).toBe(Date.parse(await newest(new Date(T[0]!.getTime() - 4 * H), T[0]!)));
      expect(from(2)).toBe(Date.parse(await newest(new Date(T[1]!.getTime() - 4 * H), T[1]!)));
      for (let k = 0; k < 3; k++) expect(Math.max(...polls[k]!.map(([, t]) => Date.parse(t!)))).toBe(T[k]!.getTime());
    },
  );
});
