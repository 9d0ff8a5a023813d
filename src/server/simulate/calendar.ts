// When a queue cannot run: pauses and scheduled freezes (made for the day, with their events), and
// the office-hours schedule of a queue that keeps one.
import { DAY, HOUR, MIN, iso } from "./days.js";
import type { Emission } from "./emission.js";
import type { Block, Lane } from "./model.js";
import type { SimDay } from "./shape.js";

export class Calendar {
  private readonly blocks: Block[] = [];

  constructor(
    private readonly day: SimDay,
    private readonly out: Emission,
  ) {}

  /** who acts on a pause or a freeze: a person, or now and then a bot */
  private actor(): Record<string, unknown> {
    const rng = this.day.rng;
    const a = rng.pick(this.day.humans);
    return rng.chance(0.2) ? { type: "application", id: rng.uuid(), name: "release-bot" } : { type: "user", id: a.id, name: a.login };
  }

  /** the day's pauses and scheduled freezes, all within the day */
  makeBlocks(): void {
    const rng = this.day.rng;
    const dayStart = this.day.startMs;
    // a pause on about one day in four, during working hours, 20 to 90 minutes
    if (rng.chance(0.25)) {
      const start = dayStart + 9 * HOUR + rng.int(0, 8 * 60) * MIN;
      const end = start + rng.int(20, 90) * MIN;
      this.blocks.push({ start, end, kind: "pause", baseRefs: null });
      const reason = rng.pick(["Incident on the CI runners", "Deploy in progress", "Investigating flaky tests", "Database migration"]);
      this.out.emit(start, "queue.pause.create", null, null, "Queue pause", { reason, created_by: this.actor() });
      if (rng.chance(0.5)) {
        this.out.emit((start + end) / 2, "queue.pause.update", null, null, "Queue pause", {
          reason: `${reason} (extended)`,
          updated_by: this.actor(),
        });
      }
      this.out.emit(end, "queue.pause.delete", null, null, "Queue pause", { deleted_by: this.actor() });
    }
    // an evening freeze of main about once a week, announced hours ahead; and, on about one day
    // in eight, a freeze announced and then called off
    const freeze = rng.chance(0.15);
    const cancelled = rng.chance(0.12);
    for (const deleted of [false, true]) {
      if (deleted ? !cancelled : !freeze) continue;
      const start = dayStart + rng.int(15, 19) * HOUR;
      const end = Math.min(start + rng.int(2, 5) * HOUR, dayStart + DAY - MIN);
      const createdAt = start - rng.int(6, 14) * HOUR;
      const attrs = {
        reason: rng.pick(["Release candidate cut", "End-of-quarter change freeze", "Holiday freeze", "Incident freeze"]),
        start: iso(start),
        end: iso(end),
        timezone: "UTC",
        matching_conditions: ["base=main"],
        exclude_conditions: ["label=hotfix"],
      };
      if (!deleted) this.blocks.push({ start, end, kind: "freeze", baseRefs: ["main"] });
      this.out.emit(createdAt, "scheduled_freeze.create", null, "main", "Scheduled freeze", {
        scheduled_freeze_attributes: attrs,
        created_by: this.actor(),
        created_at: iso(createdAt),
      });
      if (rng.chance(0.5)) {
        const updatedAt = createdAt + rng.int(1, 4) * HOUR;
        const after = { ...attrs, reason: `${attrs.reason} (rescheduled)` };
        this.out.emit(updatedAt, "scheduled_freeze.update", null, "main", "Scheduled freeze", {
          scheduled_freeze_attributes_before: attrs,
          scheduled_freeze_attributes_after: after,
          updated_by: this.actor(),
          updated_at: iso(updatedAt),
        });
      }
      if (deleted) {
        const deletedAt = createdAt + 5 * HOUR;
        this.out.emit(deletedAt, "scheduled_freeze.delete", null, "main", "Scheduled freeze", {
          scheduled_freeze_attributes: attrs,
          reason: "Freeze no longer needed",
          deleted_by: this.actor(),
          deleted_at: iso(deletedAt),
        });
      }
    }
    this.blocks.sort((a, b) => a.start - b.start);
  }

  /** the pause or freeze covering t for this lane, if any */
  blockAt(t: number, lane: Lane): Block | undefined {
    for (const b of this.blocks) {
      if (b.start > t) break;
      if (t < b.end && (b.baseRefs === null || b.baseRefs.includes(lane.base))) return b;
    }
    return undefined;
  }

  /** the first pause or freeze starting in (from, to) for this lane */
  blockStartingIn(from: number, to: number, lane: Lane): Block | undefined {
    for (const b of this.blocks) {
      if (b.start >= to) break;
      if (b.start > from && (b.baseRefs === null || b.baseRefs.includes(lane.base))) return b;
    }
    return undefined;
  }

  /** office hours: Mon-Fri 08:00-18:00 UTC */
  scheduleOpensAt(t: number): number {
    let x = t;
    for (let k = 0; k < 8; k++) {
      const d = new Date(x);
      const day = d.getUTCDay();
      const h = d.getUTCHours();
      const dayStart = Math.floor(x / DAY) * DAY;
      if (day === 0 || day === 6 || h >= 18) {
        x = dayStart + DAY + 8 * HOUR;
        continue;
      }
      if (h < 8) return dayStart + 8 * HOUR;
      return x;
    }
    return x;
  }
}
