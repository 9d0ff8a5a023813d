// What a watch of figures writes in a pipe: a record (as -o ndjson writes it) whose figures differ
// from the previous poll's. A record is told apart from the others of its poll by its text fields
// (repository, group, figure name, unit, an interval's start and end) and its rank among those
// alike; the window's bounds (start_at, end_at) move with the present and are neither who it is nor
// a change; every other field is a figure. A record's group is its group fields (repository, base
// ref, partition, queue, priority rule): a group that had records at the poll before and has none
// now has left the window (no more events there), said by one record of its group fields with
// `left_window: true` — but only after a complete poll (a repository that could not be read this
// time has not left).

const TIME_FIELDS = new Set(["start_at", "end_at"]);
const GROUP_FIELDS = ["repository", "base_ref", "partition_name", "queue_name", "priority_rule_name"] as const;

export type FigureRecord = Record<string, unknown>;

/** RECORD's group fields, in their order; none for a record of the whole window (mq stats summary). */
function groupOf(record: FigureRecord): FigureRecord {
  const out: FigureRecord = {};
  for (const k of GROUP_FIELDS) if (k in record) out[k] = record[k];
  return out;
}

/**
 * Groups followed poll after poll (a figure watch's groups, a queue watch's lanes): those that had
 * records at the poll before and have none now. Only a complete poll (every repository read) says
 * a group left; after an incomplete one, the groups it could not read are still where they were.
 */
export class GroupsLeft {
  private last = new Map<string, FigureRecord>();

  /** GROUPS, those of this poll's records (one or more times each); the groups that left, in the order they came */
  next(groups: Iterable<FigureRecord>, complete: boolean): FigureRecord[] {
    const now = new Map<string, FigureRecord>();
    for (const g of groups) now.set(JSON.stringify(g), g);
    const left = complete ? [...this.last].filter(([key]) => !now.has(key)).map(([, g]) => g) : [];
    this.last = complete ? now : new Map([...this.last, ...now]);
    return left;
  }
}

export class FigureChanges {
  private last = new Map<string, string>();
  private readonly groupsLeft = new GroupsLeft();

  /**
   * The records of a poll at AT that are new or whose figures changed, each with `at` first, then
   * (when COMPLETE: every repository was read) a record for each group that left the window.
   */
  next(records: readonly FigureRecord[], at: string, complete = true): FigureRecord[] {
    const now = new Map<string, string>();
    const out: FigureRecord[] = [];
    const rank = new Map<string, number>();
    const groups: FigureRecord[] = [];
    for (const r of records) {
      const group = groupOf(r);
      if (Object.keys(group).length > 0) groups.push(group);
      const who = JSON.stringify(Object.entries(r).filter(([k, v]) => typeof v === "string" && !TIME_FIELDS.has(k)));
      const n = rank.get(who) ?? 0;
      rank.set(who, n + 1);
      const key = `${who}#${n}`;
      const figures = JSON.stringify(Object.entries(r).filter(([k, v]) => typeof v !== "string" && !TIME_FIELDS.has(k)));
      now.set(key, figures);
      if (this.last.get(key) !== figures) out.push({ at, ...r });
    }
    for (const group of this.groupsLeft.next(groups, complete)) out.push({ at, ...group, left_window: true });
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
