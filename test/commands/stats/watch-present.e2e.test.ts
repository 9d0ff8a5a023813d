// `mq stats summary --watch` and `mq insights --watch --fail-if` against the bundled server with a
// running present (mq serve --speed 600: a simulated hour in six seconds), mq's clock the server's,
// in both dialects: in a pipe, a record per poll whose figures changed, each one's window ending at
// its poll; with --fail-if, the watch ends at the breach with the verdict and exit 1. In-process,
// but seconds of simulation: the e2e half.
import { afterAll, describe, expect, it } from "vitest";
import { movingClock, startServer, type RunningServer } from "../../../src/server/index.js";
import { runMq } from "../../reliability/harness.js";

const T0 = new Date("2026-11-20T14:40:00Z");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const records = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function present(dialect: "spec" | "mergify") {
  const from = Date.now();
  const server = await startServer({ now: T0, speed: 600, speedFrom: from, days: 2, dialect, repos: ["acme/web"] });
  servers.push(server);
  const clock = movingClock(T0, 600, from);
  return { server, now: () => new Date(clock()) };
}

describe("--watch against a running present", () => {
  for (const dialect of ["spec", "mergify"] as const) {
    it(`${dialect}: stats summary writes a record when its figures change, its window ending at the poll`, async () => {
      const { server, now } = await present(dialect);
      const ac = new AbortController();
      const run = runMq(["--dialect", dialect, "stats", "summary", "--since", "2h", "--watch", "--interval", "0.2"], {
        apiUrl: server.url,
        now,
        signal: ac.signal,
        realSleep: true,
      });
      // a simulated hour of polls (six seconds), then Ctrl-C
      const stop = setTimeout(() => ac.abort(), 6000);
      const r = await run;
      clearTimeout(stop);
      expect(r.code, r.stderr).toBe(130);
      const out = records(r.stdout);
      expect(out.length).toBeGreaterThanOrEqual(2);
      const figures = (x: Record<string, unknown>) => {
        const { at: _a, start_at: _s, end_at: _e, ...rest } = x;
        return JSON.stringify(rest);
      };
      for (let i = 0; i < out.length; i++) {
        const x = out[i]!;
        expect(Date.parse(String(x.end_at))).toBe(Date.parse(String(x.at)));
        expect(Date.parse(String(x.end_at)) - Date.parse(String(x.start_at))).toBe(7_200_000);
        if (i > 0) {
          expect(Date.parse(String(x.at))).toBeGreaterThan(Date.parse(String(out[i - 1]!.at)));
          expect(figures(x)).not.toBe(figures(out[i - 1]!));
        }
      }
    }, 60_000);

    it(`${dialect}: insights --fail-if ends the watch at the breach with the verdict and exit 1`, async () => {
      const { server, now } = await present(dialect);
      const base = await runMq(["--dialect", dialect, "insights", "--since", "6h", "--compare", "none", "-o", "json"], {
        apiUrl: server.url,
        now,
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
        { apiUrl: server.url, now, realSleep: true },
      );
      expect(r.code, r.stderr).toBe(1);
      const out = records(r.stdout).filter((x) => x.figure === "merged");
      expect(out.at(-1)!.value as number).toBeGreaterThan(merged + 2);
      expect(out.slice(0, -1).every((x) => (x.value as number) <= merged + 2)).toBe(true);
      expect(r.stderr).toMatch(new RegExp(`^FAIL  merged \\d+ > ${merged + 2}.*\\nmq: 1 of 1 --fail-if check failed\\.\\n$`));
    }, 90_000);
  }
});
