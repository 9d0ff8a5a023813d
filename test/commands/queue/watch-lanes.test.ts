// `mq queue --watch` in a pipe says when a lane (base ref, queue, partition) that had pull requests
// has none: one record `change: "emptied"` with the lane's fields, after the poll's changes, at the
// poll it emptied. Against the bundled simulation, its present moved by the watch's sleeps (a poll
// every 10 minutes, nothing waits) and mq's clock a week ahead: the lanes are those of the plain
// `mq queue --until` at each poll's present.
import { afterAll, describe, expect, it } from "vitest";
import { runMq } from "../../reliability/harness.js";
import { drivenServer, iso, records, type DrivenServer } from "../../helpers/watch.js";

const T = [new Date("2026-11-20T09:50:00Z"), new Date("2026-11-20T10:00:00Z"), new Date("2026-11-20T10:10:00Z")];
const SKEW = 7 * 86_400_000;
const servers: DrivenServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.server.close()));
});

type Lane = { repository: unknown; base_ref: unknown; queue_name: unknown; partition_name: unknown };

describe("mq queue --watch in a pipe", () => {
  it("a lane that empties is one record, change emptied, with the lane's fields, after the poll's changes", async () => {
    const options = { days: 2, repos: ["acme/web"] };
    const plain = await drivenServer(T[0]!, options);
    const watched = await drivenServer(T[0]!, options);
    servers.push(plain, watched);
    const lanesAt = async (at: Date) => {
      plain.set(at);
      const r = await runMq(["queue", "--since", iso(new Date(at.getTime() - 86_400_000)), "--until", iso(at), "-o", "json"], {
        apiUrl: plain.url,
        now: () => at,
      });
      expect(r.code, r.stderr).toBe(0);
      const lanes = new Map<string, Lane>();
      for (const x of JSON.parse(r.stdout) as Lane[]) {
        const lane = { repository: x.repository, base_ref: x.base_ref, queue_name: x.queue_name, partition_name: x.partition_name };
        lanes.set(JSON.stringify(lane), lane);
      }
      return lanes;
    };
    const lanes = [await lanesAt(T[0]!), await lanesAt(T[1]!), await lanesAt(T[2]!)];
    const expected = [1, 2].flatMap((k) =>
      [...lanes[k - 1]!].filter(([key]) => !lanes[k]!.has(key)).map(([, lane]) => ({ at: iso(T[k]!), change: "emptied", ...lane })),
    );
    // the simulation empties two lanes at the second poll
    const lane = (partition: string) => ({
      at: "2026-11-20T10:00:00Z",
      change: "emptied",
      repository: "acme/web",
      base_ref: "main",
      queue_name: "lowrisk",
      partition_name: partition,
    });
    expect(expected).toEqual([lane("api"), lane("web")]);
    const r = await runMq(["queue", "--since", "1d", "--watch", "--interval", "600", "--fields", "pull_request"], {
      apiUrl: watched.url,
      ...watched.watch(3, SKEW),
    });
    expect(r.code, r.stderr).toBe(130);
    const out = records(r.stdout);
    expect(out.filter((x) => x.change === "emptied")).toEqual(expected);
    // each poll's emptied lanes come after its pull requests' changes
    for (const t of T) {
      const poll = out.filter((x) => x.at === iso(t)).map((x) => x.change);
      expect(poll.slice(poll.indexOf("emptied") === -1 ? poll.length : poll.indexOf("emptied")).every((c) => c === "emptied")).toBe(true);
    }
  });
});
