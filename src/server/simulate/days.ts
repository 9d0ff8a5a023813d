// Time in the simulation: a simulated day, how far its events reach, event ids and their times.
// Plain arithmetic, shared by the simulation, the server's caches and the statistics fold.

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/**
 * How many days after its own a day's events may reach: a day's sessions have left by the end of
 * the next day (the office-hours queue keeps what it could not merge for its next opening, CI
 * issues are resolved within two days), except a Friday's, which the office-hours queue keeps
 * until Monday. No event of a day comes before the day's 00:00 UTC.
 */
export function reachOf(day: number): number {
  // 1970-01-01 was a Thursday: day % 7 === 1 is a Friday
  return ((day % 7) + 7) % 7 === 1 ? 3 : 1;
}
/** the most any day reaches (reachOf) */
export const SPILL_DAYS = 3;
/** ids are time-major: received_at in ms x ID_PER_MS + slot (see Emission.finish) */
export const ID_PER_MS = 1024;
/** the ids of one millisecond a day may use: days whose events can share it take turns */
export const SLOTS_PER_DAY = ID_PER_MS / (SPILL_DAYS + 1);

/** the days whose events can fall in [lo, hi] (epoch ms), not before `firstDay` */
export function daysFor(lo: number, hi: number, firstDay = -Infinity): number[] {
  const out: number[] = [];
  const a = dayOf(lo);
  for (let d = Math.max(a - SPILL_DAYS, firstDay); d <= dayOf(hi); d++) if (d + reachOf(d) >= a) out.push(d);
  return out;
}

/** the UTC day index of an epoch-ms time */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY);
}

/**
 * When the history of `days` up to `nowMs` starts: 00:00 UTC of the day `days` before now. Whole
 * days, so that no queue session is cut in two at the start.
 */
export function historyStart(nowMs: number, days: number): number {
  return dayOf(nowMs - Math.round(days * DAY)) * DAY;
}

/** the epoch-ms time of a simulated event, recovered from its id (no date parsing) */
export function timeOf(e: { id: number }): number {
  return Math.floor(e.id / ID_PER_MS);
}

// ISO strings are built for every event and many metadata fields: the date is cached, the rest is
// looked up (formatting numbers, and a Date for each new minute, was a third of a day's simulation)
let isoDay = NaN;
let isoDate = "";
let isoMinute = NaN;
let isoPrefix = "";
/** "00" to "59" */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));
const MILLIS = Array.from({ length: 1000 }, (_, ms) => `.${String(ms).padStart(3, "0")}Z`);
/** an epoch-ms time as the events write it (to the ms, truncated) */
export function iso(time: number): string {
  const t = Math.trunc(time);
  const minute = Math.floor(t / MIN);
  if (minute !== isoMinute) {
    isoMinute = minute;
    const day = Math.floor(minute / 1440);
    if (day !== isoDay) {
      isoDay = day;
      isoDate = new Date(day * DAY).toISOString().slice(0, 11);
    }
    const inDay = minute - day * 1440;
    isoPrefix = `${isoDate}${TWO_DIGITS[Math.floor(inDay / 60)]!}:${TWO_DIGITS[inDay % 60]!}:`;
  }
  const ms = t - minute * MIN;
  const sec = Math.floor(ms / 1000);
  return isoPrefix + TWO_DIGITS[sec]! + MILLIS[ms - sec * 1000]!;
}
