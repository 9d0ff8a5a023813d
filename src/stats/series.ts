// Statistics responses as plain groups and flat records. Every renderer (table, csv, ndjson, chart),
// --fail-if and the summary read responses through this one module, so a figure is computed the
// same way wherever it is shown. Pure and light: no zod, no output modules.
import type { StatsEndpoint } from "./endpoints.js";
import { STATS_FLAGS } from "./flags.js";

export type KeyValue = string | number | boolean | null | readonly string[];

/** One group of a response: its key fields in the order the API sent them, and its records. */
export interface StatsGroup {
  /** batch-bisection only: which list the group came from */
  section?: "started" | "completed";
  keys: Array<[string, KeyValue]>;
  records: Array<Record<string, unknown>>;
  /** figures over the whole window the API gives per group (the real service's idle_queue_time) */
  summary?: Record<string, unknown>;
}

/** Interval fields that are part of every record, not figures. */
const INTERVAL_FIELDS = new Set(["start", "end"]);

/** `base_refs` → `base_ref`: the column of a list endpoint's records. */
export function listItemKey(endpoint: StatsEndpoint): string {
  return (endpoint.listKey ?? "name").replace(/s$/, "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The key fields of a group: everything but its records and any object (a summary is not a key). */
function groupKeys(group: Record<string, unknown>): Array<[string, KeyValue]> {
  return Object.entries(group).filter(([k, v]) => k !== "stats" && !isRecord(v)) as Array<[string, KeyValue]>;
}

function byStart(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return String(a.start ?? "").localeCompare(String(b.start ?? ""));
}

/**
 * The groups of a (validated) response. Interval records are sorted by start so that "last" and
 * charts follow time whatever order the server used. List endpoints have no groups.
 */
export function toGroups(endpoint: StatsEndpoint, body: unknown): StatsGroup[] {
  switch (endpoint.shape) {
    case "list":
      return [];
    case "time-to-merge": {
      const partitions = Array.isArray(body) ? body : [];
      return partitions.filter(isRecord).map((p) => ({
        // the real service's entries have no partition: no "partition_name none" heading for them
        keys: "partition_name" in p ? [["partition_name", (p.partition_name as KeyValue) ?? null]] : [],
        records: (Array.isArray(p.queues) ? p.queues : []).filter(isRecord).map((q) => ({
          queue_name: q.queue_name,
          mean: isRecord(q.time_to_merge) ? q.time_to_merge.mean : null,
          median: isRecord(q.time_to_merge) ? q.time_to_merge.median : null,
        })),
      }));
    }
    case "checks-outcome": {
      const groups = isRecord(body) && Array.isArray(body.groups) ? body.groups : [];
      return groups.filter(isRecord).map((g) => ({
        keys: groupKeys(g),
        records: Object.entries(isRecord(g.stats) ? g.stats : {}).map(([outcome, count]) => ({
          check_outcome: outcome,
          count,
        })),
      }));
    }
    case "bisection": {
      const out: StatsGroup[] = [];
      for (const section of ["started", "completed"] as const) {
        const groups = isRecord(body) && Array.isArray(body[section]) ? (body[section] as unknown[]) : [];
        for (const g of groups.filter(isRecord)) {
          const stats = Array.isArray(g.stats) ? g.stats.filter(isRecord) : [];
          out.push({ section, keys: groupKeys(g), records: [...stats].sort(byStart) });
        }
      }
      return out;
    }
    case "groups": {
      const groups = isRecord(body) && Array.isArray(body.groups) ? body.groups : [];
      return groups.filter(isRecord).map((g) => {
        const stats = Array.isArray(g.stats) ? g.stats.filter(isRecord) : [];
        return { keys: groupKeys(g), records: [...stats].sort(byStart), ...(isRecord(g.summary) ? { summary: g.summary } : {}) };
      });
    }
  }
}

/** The names of a list endpoint's response. */
export function listItems(endpoint: StatsEndpoint, body: unknown): string[] {
  if (!isRecord(body) || !endpoint.listKey) return [];
  const items = body[endpoint.listKey];
  return Array.isArray(items) ? items.map(String) : [];
}

/**
 * One flat record per group × record, group keys first (and `section` for batch-bisection), so jq
 * and spreadsheets need no nesting. Fields the API adds beyond the contract are kept.
 */
export function flatten(endpoint: StatsEndpoint, body: unknown): Array<Record<string, unknown>> {
  if (endpoint.shape === "list") {
    const key = listItemKey(endpoint);
    return listItems(endpoint, body).map((name) => ({ [key]: name }));
  }
  const out: Array<Record<string, unknown>> = [];
  for (const group of toGroups(endpoint, body)) {
    const head: Record<string, unknown> = group.section ? { section: group.section } : {};
    for (const [k, v] of group.keys) head[k] = v;
    // a group's summary (the real service's idle_queue_time) belongs to the group, as its keys do:
    // on each of its records, named summary_X beside the records' own X
    const tail = group.summary ? Object.fromEntries(Object.entries(group.summary).map(([k, v]) => [summaryFieldName(k), v])) : undefined;
    for (const record of group.records) out.push(tail ? { ...head, ...record, ...tail } : { ...head, ...record });
    if (tail && group.records.length === 0) out.push({ ...head, ...tail });
  }
  return out;
}

/** The flat record's name of a field of a group's summary: `p95_idle_capacity` → `summary_p95_idle_capacity`. */
export function summaryFieldName(field: string): string {
  return `summary_${field}`;
}

/**
 * Series for charts and --fail-if: a group, split by its category field where the endpoint has one
 * (one series per check outcome or exit reason), so a threshold on `count` means one outcome's count.
 */
export function toSeries(endpoint: StatsEndpoint, groups: readonly StatsGroup[]): StatsGroup[] {
  const category = endpoint.category;
  if (!category) return [...groups];
  const out: StatsGroup[] = [];
  for (const group of groups) {
    const split = new Map<string, Array<Record<string, unknown>>>();
    for (const record of group.records) {
      const name = String(record[category]);
      if (!split.has(name)) split.set(name, []);
      split.get(name)!.push(record);
    }
    for (const [name, records] of split) {
      out.push({ section: group.section, keys: [...group.keys, [category, name]], records });
    }
  }
  return out;
}

/** The numeric fields of an endpoint in a given bisection section (the others are absent there). */
export function fieldsOfSection(endpoint: StatsEndpoint, section: StatsGroup["section"]): readonly string[] {
  if (!endpoint.sections || !section) return endpoint.fields;
  return endpoint.sections[section];
}

/** "base_ref main, queue_name default, priority_rule_name none": a group in one line. */
/**
 * The group's keys for a person: a table's heading, a chart's title, a --fail-if breach line. The
 * server chose them: whoever prints this passes it through iostreams/terminal-text.ts.
 */
export function describeKeys(group: Pick<StatsGroup, "section" | "keys">): string {
  const parts = group.keys.map(([k, v]) => `${k} ${formatKeyValue(v)}`);
  if (group.section) parts.unshift(`section ${group.section}`);
  return parts.join(", ");
}

export function formatKeyValue(v: KeyValue | undefined): string {
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v)) return v.length ? v.join(",") : "none";
  return String(v);
}

export function isIntervalField(name: string): boolean {
  return INTERVAL_FIELDS.has(name);
}

/**
 * The fields of the flat records (what --fields can select), in the order `flatten` writes them:
 * the bisection section, the group keys (the filters the endpoint accepts name them), the interval,
 * the category and the figures.
 */
export function recordFieldNames(endpoint: StatsEndpoint): string[] {
  if (endpoint.shape === "list") return [listItemKey(endpoint)];
  if (endpoint.shape === "time-to-merge") return ["partition_name", "queue_name", ...endpoint.fields];
  const keys = STATS_FLAGS.filter((f) => f.filterParam && endpoint.accepts.includes(f.flag)).map((f) =>
    f.filterParam === "partition_name" && endpoint.partitionNames ? "partition_names" : f.filterParam!,
  );
  return [
    ...(endpoint.sections ? ["section"] : []),
    ...keys,
    ...(endpoint.shape === "checks-outcome" ? [] : ["start", "end"]),
    ...(endpoint.category ? [endpoint.category] : []),
    ...endpoint.fields,
  ];
}
