// Figures a dialect has no endpoint for, computed from endpoints it does have. The real service has
// no /stats/average_queue_time: its time in queue is /stats/total_queue_time's avg_queue_time and its
// idle parts are /stats/idle_queue_time's means, over the same window, groups and intervals, which
// is what the contract's endpoint reports. Plain and pure: the command fetches, this combines.
import type { DialectName } from "../globals.js";

export interface Derivation {
  /** the endpoints (record names) fetched with the same query */
  readonly from: readonly string[];
  /** one line for --help and the listing: where the figures come from */
  readonly note: string;
  /** the response the derived endpoint would have sent, from the bodies of `from` (by name) */
  combine(bodies: ReadonlyMap<string, unknown>): unknown;
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function groupsOf(body: unknown): Json[] {
  return isRecord(body) && Array.isArray(body.groups) ? body.groups.filter(isRecord) : [];
}

/** a group's key fields (everything but its records and summary), as one string */
function keyOf(group: Json): string {
  return JSON.stringify(Object.entries(group).filter(([k, v]) => k !== "stats" && !isRecord(v) && !Array.isArray(v)));
}

function averageQueueTime(bodies: ReadonlyMap<string, unknown>): unknown {
  const idleByGroup = new Map<string, Map<string, Json>>();
  for (const g of groupsOf(bodies.get("idle-queue-time"))) {
    const byStart = new Map<string, Json>();
    for (const r of Array.isArray(g.stats) ? g.stats.filter(isRecord) : []) byStart.set(String(r.start), r);
    idleByGroup.set(keyOf(g), byStart);
  }
  return {
    groups: groupsOf(bodies.get("total-queue-time")).map((g) => {
      const { stats, ...keys } = g;
      const idle = idleByGroup.get(keyOf(g));
      return {
        ...keys,
        stats: (Array.isArray(stats) ? stats.filter(isRecord) : []).map((r) => {
          const i = idle?.get(String(r.start));
          // both come from the same queue sessions; an interval the idle endpoint lacks had no idle time
          const part = (name: string) => (typeof i?.[name] === "number" ? (i[name] as number) : 0);
          // the sums and counts behind the averages, as sent: with them the figure over a window
          // and the total of several repositories are Σsum / Σcount (without, n/a)
          const counts: Json = {};
          for (const name of ["sum_queue_time", "count_queue_time"]) if (typeof r[name] === "number") counts[name] = r[name];
          if (typeof i?.count_idle === "number" || !i) {
            for (const name of ["sum_idle_capacity", "sum_idle_schedule", "sum_idle_freeze", "count_idle"]) counts[name] = part(name);
          }
          return {
            start: r.start,
            end: r.end,
            queue_time: r.avg_queue_time,
            idle_capacity: part("idle_capacity"),
            idle_schedule: part("idle_schedule"),
            idle_freeze: part("idle_freeze"),
            ...counts,
          };
        }),
      };
    }),
  };
}

/** endpoint name -> dialect -> how to compute it there */
export const DERIVED: Readonly<Record<string, Partial<Record<DialectName, Derivation>>>> = {
  "average-queue-time": {
    mergify: {
      from: ["total-queue-time", "idle-queue-time"],
      note: "computed from total-queue-time (queue_time) and idle-queue-time (the idle parts)",
      combine: averageQueueTime,
    },
  },
};

export function derivationOf(name: string, dialect: DialectName): Derivation | undefined {
  return DERIVED[name]?.[dialect];
}
