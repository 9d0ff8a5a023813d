// The events of one repository, indexed by time so that a page of the log is a binary search plus
// `per_page` steps, and a statistics query only visits the events of the types it reads.
import { compareEventIds, eventIdKey, eventJson } from "../api/event-ids.js";
import type { SimEvent } from "./simulate/index.js";

export type StoredEvent = SimEvent & Record<string, unknown>;

/**
 * Where a page starts: after (older than) or before (newer than) an event (its time and its id's
 * exact digits: a replayed log's ids are int64), or the oldest page.
 */
export type Cursor = { dir: "next" | "prev"; t: number; id: string } | { dir: "last" };

export interface PageQuery {
  /** inclusive bounds, epoch ms */
  from: number;
  to: number;
  types?: readonly string[];
  pullRequest?: number;
  baseRef?: string;
  cursor?: Cursor;
  perPage: number;
  /** any further condition an event must meet (a dialect's own filters) */
  match?: (e: StoredEvent) => boolean;
}

export interface PageResult {
  /** newest first */
  events: StoredEvent[];
  json: string[];
  hasNext: boolean;
  hasPrev: boolean;
}

const EMPTY = new Int32Array(0);

export class EventStore {
  private events: StoredEvent[] = [];
  private times = new Float64Array(0);
  /** the ids as numbers (beyond 2^53 rounded: keyBound asks the event itself on a tie) */
  private ids = new Float64Array(0);
  private json: Array<string | undefined> = [];
  // secondary indexes, built when a query first needs them (a plain page needs none)
  private typeIndex: Map<string, Int32Array> | undefined;
  private prIndex: Map<number, Int32Array> | undefined;
  private baseIndex: Map<string, Int32Array> | undefined;
  private checkStarts: Map<string, number> | undefined;
  /** added since the last index: events and their times */
  private pending: StoredEvent[] = [];
  private pendingTimes: number[] = [];
  /** positions of the visible part: [visLo, visHi) (see `setVisible`) */
  private visFrom = -Infinity;
  private visTo = Infinity;
  private visLo = 0;
  private visHi = 0;

  constructor(events: readonly StoredEvent[] = []) {
    this.append(events);
    this.reindex();
  }

  get size(): number {
    this.reindex();
    return this.visHi - this.visLo;
  }

  /** the time of the newest visible event, or undefined when empty */
  get newest(): number | undefined {
    this.reindex();
    return this.visHi > this.visLo ? this.times[this.visHi - 1] : undefined;
  }

  /**
   * Adds events in any order (their times, epoch ms, when the caller knows them: no date parsing).
   * Positions change at the next query; cursors (a time and an id) stay valid.
   */
  append(events: readonly StoredEvent[], times?: ArrayLike<number>): void {
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      this.pending.push(e);
      this.pendingTimes.push(times ? times[i]! : Date.parse(e.received_at));
    }
  }

  /**
   * Only events with a time in [from, to] exist for queries (a simulated history holds whole days,
   * of which the server shows [now - days, now]).
   */
  setVisible(from: number, to: number): void {
    this.reindex();
    this.visFrom = from;
    this.visTo = to;
    this.visLo = this.rawLowerBound(from);
    this.visHi = this.rawUpperBound(to);
  }

  private reindex(): void {
    if (this.pending.length === 0) return;
    // sort what was added, then merge it with what is indexed: linear when days arrive in order
    const add = this.pending;
    const addT = this.pendingTimes;
    this.pending = [];
    this.pendingTimes = [];
    let order: number[] | undefined;
    for (let i = 1; i < add.length; i++) {
      if (addT[i]! < addT[i - 1]! || (addT[i] === addT[i - 1] && compareEventIds(add[i]!, add[i - 1]!) < 0)) {
        order = add.map((_, k) => k);
        order.sort((x, y) => addT[x]! - addT[y]! || compareEventIds(add[x]!, add[y]!));
        break;
      }
    }
    const old = this.events;
    const oldT = this.times;
    const oldJson = this.json;
    const n = old.length + add.length;
    const events: StoredEvent[] = new Array(n);
    const times = new Float64Array(n);
    const ids = new Float64Array(n);
    // an event's text does not depend on its position: what was written stays (a walk of the log
    // that reveals new events, or simulates its next day, does not write the events of before again)
    const json: Array<string | undefined> = new Array(n);
    let i = 0;
    let j = 0;
    for (let p = 0; p < n; p++) {
      const k = j < add.length ? (order ? order[j]! : j) : -1;
      let takeOld = i < old.length;
      if (takeOld && k >= 0) {
        const ot = oldT[i]!;
        const at = addT[k]!;
        takeOld = ot < at || (ot === at && compareEventIds(old[i]!, add[k]!) <= 0);
      }
      if (takeOld) {
        events[p] = old[i]!;
        times[p] = oldT[i]!;
        json[p] = oldJson[i];
        i++;
      } else {
        events[p] = add[k]!;
        times[p] = addT[k]!;
        j++;
      }
      ids[p] = events[p]!.id;
    }
    this.events = events;
    this.times = times;
    this.ids = ids;
    this.json = json;
    this.typeIndex = this.prIndex = this.baseIndex = undefined;
    this.checkStarts = undefined;
    this.visLo = this.rawLowerBound(this.visFrom);
    this.visHi = this.rawUpperBound(this.visTo);
  }

  private byType(): Map<string, Int32Array> {
    this.reindex();
    return (this.typeIndex ??= indexBy(this.events, (e) => e.type));
  }

  private byPr(): Map<number, Int32Array> {
    this.reindex();
    return (this.prIndex ??= indexBy(this.events, (e) => (typeof e.pull_request === "number" ? e.pull_request : undefined)));
  }

  private byBase(): Map<string, Int32Array> {
    this.reindex();
    return (this.baseIndex ??= indexBy(this.events, (e) => (typeof e.base_ref === "string" ? e.base_ref : undefined)));
  }

  event(pos: number): StoredEvent {
    return this.events[pos]!;
  }

  time(pos: number): number {
    return this.times[pos]!;
  }

  jsonAt(pos: number): string {
    let s = this.json[pos];
    if (s === undefined) this.json[pos] = s = eventJson(this.events[pos]!);
    return s;
  }

  /** first visible position whose time is >= t */
  lowerBound(t: number): number {
    this.reindex();
    return this.clamp(this.rawLowerBound(t));
  }

  /** first visible position whose time is > t */
  upperBound(t: number): number {
    this.reindex();
    return this.clamp(this.rawUpperBound(t));
  }

  private clamp(pos: number): number {
    return pos < this.visLo ? this.visLo : pos > this.visHi ? this.visHi : pos;
  }

  private rawLowerBound(t: number): number {
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private rawUpperBound(t: number): number {
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** first position whose (time, id) is >= (t, id), or > when `strict` */
  private keyBound(t: number, id: string, strict: boolean): number {
    const idNumber = Number(id);
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const mt = this.times[mid]!;
      const order = mt === t ? this.compareId(mid, idNumber, id) : 0;
      const before = mt < t || (mt === t && (strict ? order <= 0 : order < 0));
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return this.clamp(lo);
  }

  /**
   * The id at `pos` against a cursor's (as a number and as digits): rounding keeps the order of
   * numbers that differ, so only two ids beyond 2^53 that round alike are compared by their digits.
   */
  private compareId(pos: number, idNumber: number, id: string): number {
    const x = this.ids[pos]!;
    if (x !== idNumber || Number.isSafeInteger(x)) return x - idNumber;
    const exact = BigInt(eventIdKey(this.events[pos]!));
    const other = BigInt(id);
    return exact < other ? -1 : exact > other ? 1 : 0;
  }

  /** positions of `type` events in [fromMs, toMs) */
  positionsOf(type: string, fromMs: number, toMs: number): Int32Array {
    this.reindex();
    const list = this.byType().get(type) ?? EMPTY;
    const lo = this.lowerBound(fromMs);
    const hi = this.lowerBound(toMs);
    return list.subarray(lowerIndex(list, lo), lowerIndex(list, hi));
  }

  /** all visible positions of `type` events, oldest first */
  allOf(type: string): Int32Array {
    this.reindex();
    const list = this.byType().get(type) ?? EMPTY;
    return list.subarray(lowerIndex(list, this.visLo), lowerIndex(list, this.visHi));
  }

  /** time of the first checks_start of a queue session */
  firstChecksStart(sessionId: string): number | undefined {
    this.reindex();
    if (!this.checkStarts) {
      this.checkStarts = new Map();
      for (const p of this.byType().get("action.queue.checks_start") ?? EMPTY) {
        const sid = (this.events[p]!.metadata as { session_id?: unknown }).session_id;
        if (typeof sid === "string" && !this.checkStarts.has(sid)) this.checkStarts.set(sid, this.times[p]!);
      }
    }
    return this.checkStarts.get(sessionId);
  }

  page(q: PageQuery): PageResult {
    this.reindex();
    const winLo = this.lowerBound(q.from);
    const winHi = this.upperBound(q.to);
    const sources = this.sources(q);
    const typeSet = q.types && q.pullRequest !== undefined ? new Set(q.types) : undefined;
    const match = (p: number) => {
      const e = this.events[p]!;
      if (q.baseRef !== undefined && e.base_ref !== q.baseRef) return false;
      if (typeSet && !typeSet.has(e.type)) return false;
      if (q.match && !q.match(e)) return false;
      return true;
    };
    let positions: number[];
    let hasNext: boolean;
    let hasPrev: boolean;
    const c = q.cursor;
    if (c === undefined || c.dir === "next") {
      const hi = c === undefined ? winHi : Math.min(winHi, this.keyBound(c.t, c.id, false));
      positions = collect(sources, winLo, hi, -1, q.perPage + 1, match);
      hasNext = positions.length > q.perPage;
      positions = positions.slice(0, q.perPage);
      hasPrev = c !== undefined && collect(sources, Math.max(hi, winLo), winHi, 1, 1, match).length > 0;
    } else if (c.dir === "prev") {
      const lo = Math.max(winLo, this.keyBound(c.t, c.id, true));
      positions = collect(sources, lo, winHi, 1, q.perPage + 1, match);
      hasPrev = positions.length > q.perPage;
      positions = positions.slice(0, q.perPage).reverse();
      hasNext = collect(sources, winLo, Math.min(lo, winHi), -1, 1, match).length > 0;
    } else {
      positions = collect(sources, winLo, winHi, 1, q.perPage + 1, match);
      hasPrev = positions.length > q.perPage;
      positions = positions.slice(0, q.perPage).reverse();
      hasNext = false;
    }
    return {
      events: positions.map((p) => this.events[p]!),
      json: positions.map((p) => this.jsonAt(p)),
      hasNext,
      hasPrev,
    };
  }

  private sources(q: PageQuery): Int32Array[] | null {
    if (q.pullRequest !== undefined) return [this.byPr().get(q.pullRequest) ?? EMPTY];
    if (q.types) return [...new Set(q.types)].map((t) => this.byType().get(t) ?? EMPTY);
    if (q.baseRef !== undefined) return [this.byBase().get(q.baseRef) ?? EMPTY];
    return null;
  }
}

/** position lists per value of one field, oldest first */
function indexBy<K>(events: readonly StoredEvent[], keyOf: (e: StoredEvent) => K | undefined): Map<K, Int32Array> {
  const lists = new Map<K, number[]>();
  for (let p = 0; p < events.length; p++) {
    const k = keyOf(events[p]!);
    if (k === undefined) continue;
    let list = lists.get(k);
    if (!list) lists.set(k, (list = []));
    list.push(p);
  }
  return toTyped(lists);
}

function toTyped<K>(lists: Map<K, number[]>): Map<K, Int32Array> {
  const out = new Map<K, Int32Array>();
  for (const [k, v] of lists) out.set(k, Int32Array.from(v));
  return out;
}

/** first index i of the sorted list with list[i] >= pos */
function lowerIndex(list: Int32Array, pos: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Up to `limit` matching positions in [lo, hi), walking down (dir -1, newest first) or up (dir 1).
 * With index lists (one per event type, or one pull request) it merges their heads instead of
 * scanning every event of the window.
 */
function collect(
  sources: Int32Array[] | null,
  lo: number,
  hi: number,
  dir: 1 | -1,
  limit: number,
  match: (p: number) => boolean,
): number[] {
  const out: number[] = [];
  if (lo >= hi) return out;
  if (sources === null) {
    if (dir === -1) {
      for (let p = hi - 1; p >= lo && out.length < limit; p--) if (match(p)) out.push(p);
    } else {
      for (let p = lo; p < hi && out.length < limit; p++) if (match(p)) out.push(p);
    }
    return out;
  }
  // cursors into each list, all inside [lo, hi)
  const heads = sources.map((list) => (dir === -1 ? lowerIndex(list, hi) - 1 : lowerIndex(list, lo)));
  const ends = sources.map((list) => (dir === -1 ? lowerIndex(list, lo) - 1 : lowerIndex(list, hi)));
  while (out.length < limit) {
    let best = -1;
    let bestPos = dir === -1 ? -1 : Number.MAX_SAFE_INTEGER;
    for (let k = 0; k < sources.length; k++) {
      if (heads[k] === ends[k]) continue;
      const p = sources[k]![heads[k]!]!;
      if (dir === -1 ? p > bestPos : p < bestPos) {
        bestPos = p;
        best = k;
      }
    }
    if (best < 0) break;
    heads[best]! += dir;
    if (match(bestPos)) out.push(bestPos);
  }
  return out;
}
