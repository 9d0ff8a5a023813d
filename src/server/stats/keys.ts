// The group keys of the statistics (base ref, partition, queue, priority rule) and the filters
// over them. Keys are interned: the same names are the same object, so a query over a million
// events builds a handful of key objects, not a million, and keys can index maps.
import type { StoredEvent } from "../store.js";
import { meta } from "./fields.js";

export interface StatsFilter {
  base_ref?: readonly string[];
  partition_name?: readonly string[];
  queue_name?: readonly string[];
  priority_rule_name?: readonly string[];
}

export interface GroupKey {
  base_ref: string;
  partition_name: string;
  queue_name: string;
  priority_rule_name: string | null;
}

function str(v: unknown, fallback: string): string {
  return typeof v === "string" && v !== "" ? v : fallback;
}

// interned keys by their text; a key's text remembered beside it
const NO_PRIORITY = Symbol("noPriorityKey");
const interned = new Map<string, GroupKey>();
const keyStrings = new WeakMap<object, string>();

export function intern<T extends object>(key: T): T {
  const s = JSON.stringify(key);
  const found = interned.get(s);
  if (found) return found as unknown as T;
  interned.set(s, key as unknown as GroupKey);
  keyStrings.set(key, s);
  return key;
}

/** the interned key whose text (keyString) this is */
export function keyFromString(s: string): object {
  return interned.get(s) ?? intern(JSON.parse(s) as object);
}

export function keyString(key: object): string {
  let s = keyStrings.get(key);
  if (s === undefined) keyStrings.set(key, (s = JSON.stringify(key)));
  return s;
}

// the group key of the event before: the endpoints fed by one pass each ask for it in turn
let lastEvent: StoredEvent | undefined;
let lastKey: GroupKey | undefined;
const groupKeys = new Map<string, GroupKey>();

/** an event's group key */
export function keyOf(e: StoredEvent): GroupKey {
  if (e === lastEvent) return lastKey!;
  const m = meta(e);
  const base_ref = str(e.base_ref, str(m.branch, ""));
  const partition_name = str(m.partition_name, "__default__");
  const queue_name = str(m.queue_name, "default");
  const priority_rule_name = typeof m.priority_rule_name === "string" ? m.priority_rule_name : null;
  const key = groupKey(base_ref, partition_name, queue_name, priority_rule_name);
  lastEvent = e;
  lastKey = key;
  return key;
}

/** the interned group key of these names (the same object for the same names) */
export function groupKey(base_ref: string, partition_name: string, queue_name: string, priority_rule_name: string | null): GroupKey {
  // a plain string to look the key up: JSON-encoding a key per event cost more than the rest
  const s = `${base_ref}\u0000${partition_name}\u0000${queue_name}\u0000${priority_rule_name ?? "\u0001"}`;
  let key = groupKeys.get(s);
  if (!key) groupKeys.set(s, (key = intern<GroupKey>({ base_ref, partition_name, queue_name, priority_rule_name })));
  return key;
}

const mergedKeys = new Map<GroupKey, Map<string, object>>();

/** queues_merged_count's key of an event: the group key with partition_names in place of partition_name */
export function mergedKeyOf(e: StoredEvent): object {
  const raw = meta(e).partition_names;
  return mergedKey(keyOf(e), Array.isArray(raw) && raw.length > 0 ? raw.map(String) : ["__default__"]);
}

/** the interned key of queues_merged_count for a group key (its partition_name ignored) and partition_names */
export function mergedKey(k: GroupKey, partition_names: string[]): object {
  let byNames = mergedKeys.get(k);
  if (!byNames) mergedKeys.set(k, (byNames = new Map()));
  const s = partition_names.join("\u0000");
  let key = byNames.get(s);
  if (!key)
    byNames.set(
      s,
      (key = intern({ base_ref: k.base_ref, partition_names, queue_name: k.queue_name, priority_rule_name: k.priority_rule_name })),
    );
  return key;
}

/** the interned group key without its priority_rule_name (running_speculative_checks) */
export function noPriorityKey(key: GroupKey): object {
  const k = key as GroupKey & { [NO_PRIORITY]?: object };
  if (!k[NO_PRIORITY]) {
    const reduced = intern({ base_ref: k.base_ref, partition_name: k.partition_name, queue_name: k.queue_name });
    Object.defineProperty(k, NO_PRIORITY, { value: reduced, enumerable: false });
  }
  return k[NO_PRIORITY]!;
}

/** an event's group key without its priority */
export const noPriority = (e: StoredEvent): object => noPriorityKey(keyOf(e));

export function matches(k: GroupKey, f: StatsFilter, partitions?: readonly string[]): boolean {
  if (f.base_ref && !f.base_ref.includes(k.base_ref)) return false;
  if (f.partition_name) {
    const names = partitions ?? [k.partition_name];
    if (!names.some((n) => f.partition_name!.includes(n))) return false;
  }
  if (f.queue_name && !f.queue_name.includes(k.queue_name)) return false;
  if (f.priority_rule_name && (k.priority_rule_name === null || !f.priority_rule_name.includes(k.priority_rule_name))) return false;
  return true;
}

/** the keys a filter keeps */
export const byKey = (f: StatsFilter) => (k: object) => matches(k as GroupKey, f);

/** the one key of branches and queues (the names of the whole window, whatever their group) */
export const ALL_NAMES = {};

/** the one key of checks_retries' sessions (kept whole, bucketed when rendered) */
export const SESSIONS = {};
