// What a watch of figures writes in a pipe: a record (as -o ndjson writes it) whose figures differ
// from the previous poll's. A record is told apart from the others of its poll by its text fields
// (repository, group, figure name, unit, an interval's start and end) and its rank among those
// alike; the window's bounds (start_at, end_at) move with the present and are neither who it is nor
// a change; every other field is a figure.

const TIME_FIELDS = new Set(["start_at", "end_at"]);

export type FigureRecord = Record<string, unknown>;

export class FigureChanges {
  private last = new Map<string, string>();

  /** The records of a poll at AT that are new or whose figures changed, each with `at` first. */
  next(records: readonly FigureRecord[], at: string): FigureRecord[] {
    const now = new Map<string, string>();
    const out: FigureRecord[] = [];
    const rank = new Map<string, number>();
    for (const r of records) {
      const who = JSON.stringify(Object.entries(r).filter(([k, v]) => typeof v === "string" && !TIME_FIELDS.has(k)));
      const n = rank.get(who) ?? 0;
      rank.set(who, n + 1);
      const key = `${who}#${n}`;
      const figures = JSON.stringify(Object.entries(r).filter(([k, v]) => typeof v !== "string" && !TIME_FIELDS.has(k)));
      now.set(key, figures);
      if (this.last.get(key) !== figures) out.push({ at, ...r });
    }
    this.last = now;
    return out;
  }
}

/** The ndjson lines of a caught run, as records (lines that are not a JSON object are left out). */
export function ndjsonRecords(text: string): FigureRecord[] {
  const out: FigureRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      out.push(JSON.parse(line) as FigureRecord);
    } catch {
      // not a record: nothing a watch compares
    }
  }
  return out;
}
