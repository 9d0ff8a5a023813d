// The bundled server the statistics tests read (seed 2, 4 days, at NOW), one per test file, and what
// they share: the one-day window they ask about, the log's events in it, a statistic's answer, the
// group keys of an answer and of an event.
import { afterAll, beforeAll, expect } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { NOW, get, qs, walk, type Ev } from "./helpers.js";

export const DAY = 86_400_000;
export const end_at = NOW.toISOString();
export const start_at = new Date(NOW.getTime() - DAY).toISOString();

export interface StatsServer {
  /** the file's server, once its tests run */
  server: RunningServer;
  /** its URL for acme/web: `${server.url}/v1/repos/acme/web` */
  base: string;
  /** every event of `types` in [from, to), from the log */
  eventsOf(types: string[], from?: string, to?: string): Promise<Ev[]>;
  /** a statistic's answer over [start_at, end_at) (status 200 required), as helpers.ts's get() reads it */
  stats(path: string, params?: Record<string, string | readonly string[]>): Promise<Awaited<ReturnType<typeof get>>["json"]>;
}

/** Registers the file's hooks: call it once, at the top of a test file. */
export function useStatsServer(): StatsServer {
  const s: StatsServer = {
    server: undefined as unknown as RunningServer,
    base: "",
    async eventsOf(types, from = start_at, to = end_at) {
      const { events } = await walk(`${s.base}/logs?${qs({ event_type: types, received_from: from, received_to: to, per_page: 100 })}`);
      // stats windows are half-open: an event exactly at end_at belongs to the next window
      return events.filter((e) => Date.parse(e.received_at) < Date.parse(to));
    },
    async stats(path, params = {}) {
      const r = await get(`${s.base}/stats/${path}?${qs({ start_at, end_at, ...params })}`);
      expect(r.status, r.text).toBe(200);
      return r.json;
    },
  };
  beforeAll(async () => {
    s.server = await startServer({ port: 0, seed: 2, days: 4, now: NOW });
    s.base = `${s.server.url}/v1/repos/acme/web`;
  });
  afterAll(() => s.server.close());
  return s;
}

export const groupKey = (g: Record<string, unknown>) => `${g.base_ref}|${g.partition_name}|${g.queue_name}|${g.priority_rule_name}`;
export function evKey(e: Ev): string {
  const m = e.metadata;
  return `${e.base_ref}|${m.partition_name ?? "__default__"}|${m.queue_name}|${m.priority_rule_name ?? null}`;
}
export function tally<T>(items: T[], key: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}
