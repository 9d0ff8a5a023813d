// `mq stats summary --watch` and `mq insights --watch --fail-if` against the bundled server with a
// running present in the past (mq serve --now 2026-11-20T14:40Z --speed 600: a simulated hour in six
// seconds) and mq's clock three days ahead of it, in both dialects: in a pipe, a record per poll
// whose figures changed, each one's window ending at the server's present at its poll and its
// figures exactly those of the plain command over that window; with --fail-if, the watch ends at
// the breach with the verdict and exit 1. In-process, but seconds of simulation: the e2e half.
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../../src/server/index.js";
import { runMq } from "../../reliability/harness.js";
import { records, runningServer } from "../../helpers/watch.js";

const T0 = new Date("2026-11-20T14:40:00Z");
const SKEW = 3 * 86_400_000;
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function pastServer(dialect: "spec" | "mergify") {
  const r = await runningServer(dialect, T0, 600);
  servers.push(r.server);
  // mq's clock is not the server's: a window ending at mq's clock would lie in the server's future
  return { ...r, mqClock: () => new Date(r.present().getTime() + SKEW) };
}

describe("--watch against a running present in the past", () => {
  for (const dialect of ["spec", "mergify"] as const) {
    it(`${dialect}: stats summary writes a record when its figures change, its window ending at the server's present`, async () => {
      const { server, present, mqClock } = await pastServer(dialect);
      const ac = new AbortController();
      const from = present();
      const run = runMq(["--dialect", dialect, "stats", "summary", "--since", "2h", "--watch", "--interval", "0.5"], {
        apiUrl: server.url,
        now: mqClock,
        signal: ac.signal,
        realSleep: true,
      });
      // Ctrl-C once five polls are done (a sixth asks the present), however busy the machine
      const probes = () => server.requests.filter((q) => new URL(q.url, server.url).searchParams.get("per_page") === "1").length;
      const stop = setInterval(() => probes() >= 6 && ac.abort(), 20);
      const r = await run;
      clearInterval(stop);
      const to = present();
      expect(r.code, r.stderr).toBe(130);
      const out = records(r.stdout);
      expect(out.length).toBeGreaterThanOrEqual(2);
      for (let i = 0; i < out.length; i++) {
        const { at, ...record } = out[i]!;
        const end = Date.parse(String(record.end_at));
        expect(end).toBe(Date.parse(String(at)));
        expect(end).toBeGreaterThanOrEqual(from.getTime());
        expect(end).toBeLessThanOrEqual(to.getTime());
        expect(end - Date.parse(String(record.start_at))).toBe(7_200_000);
        if (i > 0) expect(end).toBeGreaterThan(Date.parse(String(out[i - 1]!.at)));
        // exactly what the plain command says of that window
        const plain = await runMq(
          ["--dialect", dialect, "stats", "summary", "--since", String(record.start_at), "--until", String(record.end_at), "-o", "ndjson"],
          { apiUrl: server.url, now: mqClock },
        );
        expect(plain.code, plain.stderr).toBe(0);
        expect(records(plain.stdout)).toEqual([record]);
      }
    }, 60_000);

    it(`${dialect}: insights --fail-if ends the watch at the breach with the verdict and exit 1`, async () => {
      const { server, mqClock } = await pastServer(dialect);
      const base = await runMq(["--dialect", dialect, "insights", "--since", "6h", "--compare", "none", "-o", "json"], {
        apiUrl: server.url,
        now: () => new Date(mqClock().getTime() - SKEW),
      });
      expect(base.code, base.stderr).toBe(0);
      const merged = (JSON.parse(base.stdout) as { figures: { merged: { value: number } } }).figures.merged.value;
      const r = await runMq(
        [
          "--dialect",
          dialect,
          "insights",
          "--since",
          "6h",
          "--compare",
          "none",
          "--watch",
          "--interval",
          "0.2",
          "--fail-if",
          `merged > ${merged + 2}`,
        ],
        { apiUrl: server.url, now: mqClock, realSleep: true },
      );
      expect(r.code, r.stderr).toBe(1);
      const out = records(r.stdout).filter((x) => x.figure === "merged");
      expect(out.at(-1)!.value as number).toBeGreaterThan(merged + 2);
      expect(out.slice(0, -1).every((x) => (x.value as number) <= merged + 2)).toBe(true);
      expect(r.stderr).toMatch(new RegExp(`^FAIL  merged \\d+ > ${merged + 2}.*\\nmq: 1 of 1 --fail-if check failed\\.\\n$`));
    }, 90_000);
  }
});
