// The bundled server's moving present (mq serve --speed): from --now, the present runs --speed
// times as fast as the real clock, and the log reveals the events it reaches. The bounds below are
// the clock's own: what it must show between the real instants before and after a request.
import { afterAll, describe, expect, it } from "vitest";
import { movingClock, startServer, type RunningServer } from "../../src/server/index.js";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function newest(s: RunningServer, query = ""): Promise<number> {
  const res = await fetch(`${s.url}/v1/repos/acme/web/logs?per_page=1${query}`, { headers: { authorization: "Bearer t" } });
  const body = (await res.json()) as { events: Array<{ received_at: string }> };
  return Date.parse(body.events[0]!.received_at);
}

describe("mq serve --speed: a present that moves", () => {
  it("movingClock: whole seconds, `speed` times the real time since its origin", () => {
    const from = Date.now() - 1500;
    const clock = movingClock(new Date(NOW), 60, from);
    const before = Date.now();
    const t = clock();
    const after = Date.now();
    expect(t % 1000).toBe(0);
    expect(t).toBeGreaterThanOrEqual(Math.floor((NOW + (before - from) * 60) / 1000) * 1000);
    expect(t).toBeLessThanOrEqual(NOW + (after - from) * 60);
  });

  it("reveals the events the present reaches, in both dialects; a frozen --now does not", async () => {
    // two real seconds ago the present was NOW: at 1800× it is at least an hour past it
    const from = Date.now() - 2000;
    for (const dialect of ["spec", "mergify"] as const) {
      const moving = await startServer({ now: new Date(NOW), speed: 1800, speedFrom: from, days: 2, dialect });
      const frozen = await startServer({ now: new Date(NOW), days: 2, dialect });
      servers.push(moving, frozen);
      const before = Date.now();
      const t = await newest(moving);
      const after = Date.now();
      expect(await newest(frozen)).toBeLessThanOrEqual(NOW);
      // past NOW by most of the hour (a queue event comes every few minutes at noon), never past the present
      expect(t).toBeGreaterThan(NOW + 30 * 60_000);
      expect(t).toBeLessThanOrEqual(NOW + (after - from) * 1800);
      expect(before).toBeGreaterThan(from);
    }
  });
});
