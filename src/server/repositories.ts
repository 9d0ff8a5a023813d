// Repositories and their data within a memory budget. A simulated repository is generated a UTC
// day at a time, only the days a request needs, one day per event-loop turn (so a cold history
// never holds up the answers of warm ones); its statistics come from per-calendar-day partials,
// so a year-long query merges ~365 small records instead of rescanning every event. Everything
// is accounted in bytes against one budget: the least recently used repositories are dropped
// (and simulated again, identically, when asked again).
import { BudgetError, DATA_SHARE, dataBytesFor, DEFAULT_MEMORY_BUDGET_MB, EVENT_BYTES } from "./budget.js";
import { Mutex, Turns } from "./turns.js";
import { dayOf, daysFor, historyStart, timeOf, type SimEvent } from "./simulate/index.js";
import { CONTRACT_VIEW, type FactView } from "./stats/facts.js";
import { DayFolder } from "./stats/day-fold.js";
import type { FoldHelper, FoldHelperOptions, FoldJob } from "./stats/fold-helper.js";
import { EventStore, type PageQuery, type PageResult, type StoredEvent } from "./store.js";
import {
  Accumulation,
  bucketIndex,
  bucketsFor,
  computeStats,
  intervalFor,
  timeToMerge,
  mergePartials,
  partialBytes,
  renderStats,
  Sink,
  STATS_SPECS,
  type Partials,
  type RenderOptions,
  type Slots,
  type StatsFilter,
} from "./stats/index.js";

const DAY = 86_400_000;
/** a page's first span: an hour needs its day and the one before (reaching into it); two days needed four or five */
const FIRST_SPAN = 3_600_000;

/** the parts of days (a window's edges) whose partials a repository keeps */
const MAX_EDGES = 8;

const bytesOf = (partials: Partials): number => [...partials.values()].reduce((bytes, slots) => bytes + partialBytes(slots), 0);

/** every event type some statistics endpoint reads */
const STATS_TYPES = [...new Set(Object.values(STATS_SPECS).flatMap((spec) => spec.types))];

export { BudgetError, DEFAULT_MEMORY_BUDGET_MB, EVENT_BYTES };
/**
 * the fewest missing days a window needs for the helper thread to fold some: starting it costs
 * some tens of ms and its code runs cold at first, a week's days about 20 ms on this thread
 */
const PARALLEL_MIN_DAYS = 14;

/** A simulated repository: its store, the days simulated so far, and its statistics partials. */
interface SimulatedRepo {
  name: string;
  store: EventStore;
  /** day -> its events (oldest first) and how many of them are in the store (those up to now) */
  days: Map<number, { events: SimEvent[]; inserted: number }>;
  eventBytes: number;
  /** `${calendar day}:${first simulated day}` -> every endpoint's partials of that whole day */
  partials: Map<string, Partials>;
  partialBytes: number;
  /** `${from}-${to}:${first simulated day}` -> every endpoint's partials of a part of a day (most recent last) */
  edges: Map<string, Partials>;
  /** holds appended events, which a new simulation would not have: never dropped */
  pinned: boolean;
}

export interface RepositoriesOptions {
  seed: number;
  days: number;
  now?: Date;
  /** the present as it moves (mq serve --speed): wins over `now` */
  clock?: () => number;
  repos?: string[];
  fixed?: Map<string, StoredEvent[]>;
  /** bytes; default DEFAULT_MEMORY_BUDGET_MB */
  budgetBytes?: number;
  /**
   * each event as the dialect spoken sends it (mq serve --dialect mergify): applied once, as
   * events enter a store (simulated days, recorded logs, appended events), so that pages,
   * filters and statistics all read the same shape
   */
  translate?: (e: StoredEvent) => StoredEvent;
  /**
   * what the statistics read of the events as `translate` shapes them, in terms of the
   * simulation's facts: whole days' statistics are then folded from facts (stats/facts.ts), not
   * from events. Default: the contract's shape without `translate`; with `translate` and no view,
   * from the translated events.
   */
  factView?: FactView;
  /**
   * fold long windows' days on a helper thread too (stats/fold-helper.ts), with these limits; without
   * it, one thread folds every day
   */
  foldHelper?: FoldHelperOptions;
}

export class Repositories {
  private readonly fixed = new Map<string, EventStore>();
  /** least recently used first */
  private readonly simulated = new Map<string, SimulatedRepo>();
  private readonly allowed: Set<string> | undefined;
  private readonly turns = new Turns();
  /** simulation, one request at a time */
  private readonly cold = new Mutex();
  /** the repository being simulated now: never dropped meanwhile */
  private building: SimulatedRepo | undefined;
  readonly budgetBytes: number;
  /** what the data held may take of the budget: the rest is the runtime and the garbage collector's headroom */
  private readonly dataBytes: number;
  /**
   * the most one request's window may hold while it is answered: the budget's data share, above
   * what is kept between requests when the worker's heap cap is the tighter bound (a week of
   * events under a 256 MB budget is served, and then pushed out by the next repository)
   */
  private readonly windowBytes: number;
  private usedBytes = 0;
  /** started by startHelper or on the first long window (opts.foldHelper) */
  private helper: Promise<FoldHelper> | undefined;
  /** how many calendar days the helper thread has folded (tests) */
  helperDays = 0;

  constructor(private readonly opts: RepositoriesOptions) {
    this.budgetBytes = opts.budgetBytes ?? DEFAULT_MEMORY_BUDGET_MB * 1048576;
    this.dataBytes = dataBytesFor(this.budgetBytes);
    this.windowBytes = Math.max(this.dataBytes, Math.floor(this.budgetBytes * DATA_SHARE));
    if (opts.fixed) {
      const t = opts.translate;
      for (const [repo, events] of opts.fixed) this.fixed.set(repo.toLowerCase(), new EventStore(t ? events.map(t) : events));
      this.allowed = new Set([...opts.fixed.keys(), ...(opts.repos ?? [])].map((r) => r.toLowerCase()));
    } else if (opts.repos && opts.repos.length > 0) {
      this.allowed = new Set(opts.repos.map((r) => r.toLowerCase()));
    }
  }

  /** the helper thread, when the options ask for one and it has not given up */
  private async foldHelper(): Promise<FoldHelper | undefined> {
    const options = this.opts.foldHelper;
    if (!options) return undefined;
    this.helper ??= import("./stats/fold-helper.js").then(({ FoldHelper }) => new FoldHelper(options));
    const helper = await this.helper;
    return helper.available ? helper : undefined;
  }

  /** starts the helper thread now, idle, when the options ask for one (the first long window then does not wait for it) */
  startHelper(): void {
    void this.foldHelper().then((helper) => helper?.start());
  }

  /** stops the helper thread, if one was started */
  async close(): Promise<void> {
    await (await this.helper)?.close();
  }

  /** the present of the history: --now (moving with --speed), or else the real clock truncated to the second */
  nowMs(): number {
    return this.opts.clock?.() ?? this.opts.now?.getTime() ?? Math.floor(Date.now() / 1000) * 1000;
  }

  /** Where the simulated history begins (00:00 UTC `days` before now, epoch ms); none for a recorded log. */
  historyStartMs(): number | undefined {
    return this.opts.fixed ? undefined : historyStart(this.nowMs(), this.opts.days);
  }

  /** whether "owner/name" exists */
  has(repo: string): boolean {
    return !this.allowed || this.allowed.has(repo.toLowerCase());
  }

  /** bytes of simulated data held now (events and statistics partials) */
  get heldBytes(): number {
    return this.usedBytes;
  }

  /** a recorded (or appended-to, next to a recording) repository's store; undefined when simulated */
  private fixedStore(key: string): EventStore | undefined {
    const fixed = this.fixed.get(key);
    if (fixed || !this.opts.fixed) return fixed;
    // a repository added by --repos next to a recorded log, or by appendEvents: empty
    const empty = new EventStore();
    this.fixed.set(key, empty);
    return empty;
  }

  /** the repository's entry, now the most recently used */
  private entry(repo: string): SimulatedRepo {
    const key = repo.toLowerCase();
    let sim = this.simulated.get(key);
    if (sim) this.simulated.delete(key);
    else
      sim = {
        name: repo,
        store: new EventStore(),
        days: new Map(),
        eventBytes: 0,
        partials: new Map(),
        edges: new Map(),
        partialBytes: 0,
        pinned: false,
      };
    this.simulated.set(key, sim);
    return sim;
  }

  /**
   * Makes room for `more` bytes: first the events of the least recently used repositories (big,
   * and only needed again for a page of the log), then their statistics partials (small, and what
   * makes a warm statistics query cheap). Never what the simulation under way holds, nor appended events.
   */
  private makeRoom(more: number, keep: SimulatedRepo): void {
    const fits = () => this.usedBytes + more <= this.dataBytes;
    if (fits()) return;
    const spared = (sim: SimulatedRepo) => sim === keep || sim === this.building || sim.pinned;
    for (const [key, sim] of this.simulated) {
      if (fits()) return;
      if (spared(sim) || sim.eventBytes === 0) continue;
      this.dropEvents(sim);
      if (sim.partialBytes === 0) this.simulated.delete(key);
    }
    for (const [key, sim] of this.simulated) {
      if (fits()) return;
      if (spared(sim)) continue;
      this.usedBytes -= sim.eventBytes + sim.partialBytes;
      this.simulated.delete(key);
    }
    // still short: this repository's own partials go too (those of this request are still referenced)
    if (!fits() && keep.partialBytes > 0) {
      this.usedBytes -= keep.partialBytes;
      keep.partials.clear();
      keep.edges.clear();
      keep.partialBytes = 0;
    }
  }

  /** forgets a repository's events (not its partials): its store is rebuilt from what is needed */
  private dropEvents(sim: SimulatedRepo): void {
    this.usedBytes -= sim.eventBytes;
    sim.eventBytes = 0;
    sim.days.clear();
    sim.store = new EventStore();
  }

  /** The store of a repository for a query of [from, to] (epoch ms, inclusive), its days simulated first. */
  async store(repo: string, from: number, to: number): Promise<EventStore> {
    return this.withDays(repo, from, to, (store) => store);
  }

  /**
   * Runs `use` on the store of an existing repository, ready for a query of [from, to] (epoch ms,
   * inclusive): the days that window needs are simulated first, and the history shows
   * [now - days, now]. Simulation is one request at a time, first come first served (one core
   * does it either way, and the first to ask is the first answered); answers that need no
   * simulation go ahead meanwhile, between its steps. `use` runs before anything can drop the days.
   */
  private async withDays<T>(repo: string, from: number, to: number, use: (store: EventStore) => T): Promise<T> {
    const fixed = this.fixedStore(repo.toLowerCase());
    if (fixed) return use(fixed);
    const plan = () => {
      const sim = this.entry(repo);
      const now = this.nowMs();
      const start = historyStart(now, this.opts.days);
      const lo = Math.max(from, start);
      const hi = Math.min(to, now);
      const needed = lo <= hi ? daysFor(lo, hi, dayOf(start)) : [];
      return { sim, now, start, needed, missing: needed.filter((d) => !sim.days.has(d)).length };
    };
    const first = plan();
    if (first.missing === 0) return use(this.reveal(first.sim, first.now, first.start));
    return this.cold.run(async () => {
      // again: another request may have simulated, or dropped, days meanwhile
      const { sim, now, start, needed, missing } = plan();
      this.building = sim;
      try {
        if (missing > 0) {
          // a day of a repository is about 4,000 events: what cannot fit is refused before any work
          const guess = needed.length * 4_000 * EVENT_BYTES;
          if (guess > this.windowBytes) throw new BudgetError(guess, this.budgetBytes);
          if (!sim.pinned && sim.eventBytes + missing * 4_000 * EVENT_BYTES > this.windowBytes) this.dropEvents(sim);
        }
        for (const d of needed) {
          if (sim.days.has(d)) continue;
          const events = await this.simulateDay(sim.name, d);
          const bytes = events.length * EVENT_BYTES;
          this.makeRoom(bytes, sim);
          sim.days.set(d, { events, inserted: 0 });
          sim.eventBytes += bytes;
          this.usedBytes += bytes;
        }
        return use(this.reveal(sim, now, start));
      } finally {
        this.building = undefined;
      }
    });
  }

  /** what the clock has reached of every simulated day goes into the store (a later `now` reveals more of the same days) */
  private reveal(sim: SimulatedRepo, now: number, start: number): EventStore {
    for (const day of sim.days.values()) {
      const evs = day.events;
      let n = day.inserted;
      while (n < evs.length && timeOf(evs[n]!) <= now) n++;
      if (n > day.inserted) {
        const slice = evs.slice(day.inserted, n) as StoredEvent[];
        sim.store.append(slice, slice.map(timeOf));
        day.inserted = n;
      }
    }
    sim.store.setVisible(start, Infinity);
    return sim.store;
  }

  /**
   * A page of the log of [q.from, q.to]. From a simulated history, only the days the page reaches
   * are simulated: a span growing from the page's top (walking down: the first page, `next`) or
   * bottom (walking up: `prev`, `last`), doubled until it holds the page and one event more (so
   * the other link is known) or covers the window. `received_from=0001-01-01` then costs what a
   * page of the last days costs, not a simulation of the whole history.
   */
  async page(repo: string, q: PageQuery): Promise<PageResult> {
    const c = q.cursor;
    const fixed = this.fixedStore(repo.toLowerCase());
    if (fixed) return fixed.page(q);
    const now = this.nowMs();
    const start = historyStart(now, this.opts.days);
    if (c === undefined || c.dir === "next") {
      // where the page starts: only a guess for the first span (the query below always covers
      // [lo, q.to], appended events newer than now included), so any top gives the same page
      const top = Math.min(q.to, now, c === undefined ? Infinity : c.t);
      for (let span = FIRST_SPAN; ; span *= 2) {
        // nothing exists before the history starts: past it, the whole window is as cheap
        let lo = Math.max(q.from, top - span);
        if (lo <= start) lo = q.from;
        // the store holds every event of [lo, q.to] (whole days), so the events above the
        // cursor (`prev`) and the page below it, down to lo, are complete
        const result = await this.withDays(repo, lo, q.to, (store) => store.page({ ...q, from: lo }));
        if (result.hasNext || lo === q.from) return result;
      }
    }
    // walking up: from the cursor (its own event, in the store, tells that `next` exists) or the window's bottom
    const bottom = Math.max(q.from, start, c.dir === "prev" ? c.t : -Infinity);
    const end = Math.min(q.to, now);
    for (let span = FIRST_SPAN; ; span *= 2) {
      let hi = Math.min(q.to, bottom + span);
      if (hi >= end) hi = q.to;
      const result = await this.withDays(repo, bottom, hi, (store) => store.page({ ...q, to: hi }));
      if (result.hasPrev || hi === q.to) return result;
    }
  }

  /** the deprecated time_to_merge (7 days before `at`), over the events */
  async timeToMerge(repo: string, at: number, branch: string | undefined): Promise<unknown> {
    return this.withDays(repo, at - 7 * DAY, at, (store) => timeToMerge(store, at, branch));
  }

  /**
   * The answer of a statistics endpoint over [from, to). A recorded log, a repository with
   * appended events and a window cut finer than days are computed in one pass over the events;
   * a simulated history's longer windows merge cached whole-day partials, and only the partial
   * days at the edges (and today, which is not over) are read from events.
   */
  async stats(repo: string, name: string, from: number, to: number, filter: StatsFilter, options: RenderOptions = {}): Promise<unknown> {
    const key = repo.toLowerCase();
    if (this.opts.fixed || this.simulated.get(key)?.pinned || intervalFor(to - from) < DAY) {
      return this.withDays(repo, from, to - 1, (store) => computeStats(name, { store, from, to, filter, sums: options.sums }));
    }
    const now = this.nowMs();
    const start = historyStart(now, this.opts.days);
    const lo = Math.max(from, start);
    const hi = Math.min(to, now + 1); // exclusive
    const buckets = bucketsFor(from, to);
    const result: Slots<unknown> = new Map();
    const firstWhole = Math.ceil(lo / DAY);
    const endWhole = Math.floor(hi / DAY); // exclusive
    const edges: Array<[number, number]> = [];
    if (firstWhole < endWhole) {
      const partials = await this.dayPartials(repo, firstWhole, endWhole, dayOf(start));
      // a day's slot is the day itself (or 0 for the endpoints kept whole, which ignore it)
      for (let d = firstWhole; d < endWhole; d++)
        mergePartials(name, result, partials.get(d)!.get(name)!, (day) => bucketIndex(buckets, day * DAY));
      if (lo < firstWhole * DAY) edges.push([lo, firstWhole * DAY]);
      if (endWhole * DAY < hi) edges.push([endWhole * DAY, hi]);
    } else if (lo < hi) {
      edges.push([lo, hi]);
    }
    for (const [a, b] of edges) {
      // a part of a day: cached by its bounds (with a fixed --now, today's part is asked again)
      const edgeKey = `${a}-${b}:${dayOf(start)}`;
      let partials = this.entry(repo).edges.get(edgeKey);
      if (!partials) {
        partials = await this.withDays(repo, a, b - 1, (store) => {
          const acc = new Accumulation(
            new Sink(
              () => 1,
              (sid) => store.firstChecksStart(sid),
            ),
          );
          for (const type of STATS_TYPES) {
            const positions = store.positionsOf(type, a, b);
            for (let i = 0; i < positions.length; i++) acc.add(store.event(positions[i]!), store.time(positions[i]!));
          }
          return acc.partials;
        });
        this.keepPartials(this.entry(repo), edgeKey, partials, true);
      }
      // one slot (1) for the whole part: it lies within one bucket
      const bucket = bucketIndex(buckets, a);
      mergePartials(name, result, partials.get(name)!, () => bucket);
    }
    return renderStats(name, result, { from, to, filter, sums: options.sums });
  }

  /**
   * Every endpoint's partials of each whole calendar day of [firstDay, endDay), from the cache
   * or simulated now: a calendar day holds the events of the simulated days that reach into it
   * (up to three before it, none before the history's first day).
   */
  private async dayPartials(repo: string, firstDay: number, endDay: number, historyDay: number): Promise<Map<number, Partials>> {
    const keyOf = (d: number) => `${d}:${Math.max(d - 3, historyDay)}`;
    const cached = () => {
      const sim = this.entry(repo);
      const out = new Map<number, Partials>();
      for (let d = firstDay; d < endDay; d++) {
        const p = sim.partials.get(keyOf(d));
        if (p) out.set(d, p);
      }
      return { sim, out };
    };
    const first = cached();
    if (first.out.size === endDay - firstDay) return first.out;
    return this.cold.run(async () => {
      const { sim, out } = cached();
      const days: number[] = [];
      for (let d = firstDay; d < endDay; d++) if (!out.has(d)) days.push(d);
      if (days.length === 0) return out;
      this.building = sim;
      try {
        const keep = (d: number, partials: Partials) => {
          this.keepPartials(sim, keyOf(d), partials);
          out.set(d, partials);
        };
        const view = this.opts.factView ?? (this.opts.translate ? undefined : CONTRACT_VIEW);
        if (view) await this.foldDays({ repo: sim.name, seed: this.opts.seed, view, historyDay, days }, keep);
        else await this.accumulateDays(sim, days, historyDay, keep);
        return out;
      } finally {
        this.building = undefined;
      }
    });
  }

  /**
   * Whole calendar days' partials folded from the simulation's facts (stats/facts.ts), each kept
   * as it is done: on this thread a day at a time from the front, in steps of about a
   * millisecond; for a long window, a helper thread takes days from the back meanwhile.
   */
  private async foldDays(job: FoldJob, keep: (d: number, partials: Partials) => void): Promise<void> {
    const helper = job.days.length >= PARALLEL_MIN_DAYS ? await this.foldHelper() : undefined;
    const done = new Set<number>();
    const folded = (d: number, partials: Partials) => {
      done.add(d);
      keep(d, partials);
    };
    const run = helper?.run(job, (d, partials) => {
      this.helperDays++;
      folded(d, partials);
    });
    const folder = new DayFolder(job, job.days);
    try {
      for (const d of job.days) {
        if (run && !run.claim()) break;
        folded(d, await this.turns.steps(folder.fold(d)));
      }
    } catch (err) {
      // this thread stopped early: the helper takes no more days, and is free again once it has
      // finished the block it is on (the next window's run waits for nothing)
      if (run) {
        run.cancel();
        await run.finished;
      }
      throw err;
    }
    if (!run || !("error" in (await run.finished))) return;
    // the helper failed: the days it took and did not send are folded here
    const missing = job.days.filter((d) => !done.has(d));
    const again = new DayFolder(job, missing);
    for (const d of missing) folded(d, await this.turns.steps(again.fold(d)));
  }

  /** Whole calendar days' partials from the simulated events, through the endpoints' own accumulators (a dialect without a fact view). */
  private async accumulateDays(
    sim: SimulatedRepo,
    days: number[],
    historyDay: number,
    keep: (d: number, partials: Partials) => void,
  ): Promise<void> {
    const building = new Map<number, Accumulation>();
    let currentStarts = new Map<string, number>();
    const starts = (sid: string) => currentStarts.get(sid);
    for (const d of days) building.set(d, new Accumulation(new Sink(() => d, starts)));
    // a calendar day is complete once the simulated day of the same date is read: its partials
    // are kept (and accounted) then, and its accumulation's dedupe sets dropped, so a cold year
    // holds about one day of work besides its results
    const complete = (upTo: number) => {
      for (const [d, acc] of building) {
        if (d > upTo) break;
        keep(d, acc.partials);
        building.delete(d);
      }
    };
    for (let s = Math.max(days[0]! - 3, historyDay); s <= days[days.length - 1]!; s++) {
      // only the simulated days that reach a missing calendar day
      if (!days.some((d) => s <= d && s >= d - 3)) continue;
      const events = sim.days.get(s)?.events ?? (await this.simulateDay(sim.name, s));
      // a queue session's events all come from the simulated day it started on
      currentStarts = new Map();
      for (const e of events) {
        if (e.type !== "action.queue.checks_start") continue;
        const sid = (e.metadata as { session_id?: unknown }).session_id;
        if (typeof sid === "string" && !currentStarts.has(sid)) currentStarts.set(sid, timeOf(e));
      }
      for (let i = 0; i < events.length; i++) {
        if (i > 0 && i % 500 === 0) await this.turns.next();
        const e = events[i]!;
        const t = timeOf(e);
        const acc = building.get(Math.floor(t / DAY));
        if (acc) acc.add(e as StoredEvent, t);
      }
      complete(s);
    }
    complete(Infinity);
  }

  private keepPartials(sim: SimulatedRepo, key: string, partials: Partials, edge = false): void {
    const bytes = bytesOf(partials);
    // two requests may have built the same partials meanwhile: the later replaces the earlier
    const before = (edge ? sim.edges : sim.partials).get(key);
    if (before) {
      const freed = bytesOf(before);
      sim.partialBytes -= freed;
      this.usedBytes -= freed;
      (edge ? sim.edges : sim.partials).delete(key);
    }
    this.makeRoom(bytes, sim);
    if (edge) {
      // windows that follow the clock make a new edge every second: only the last few are kept
      if (sim.edges.size >= MAX_EDGES) {
        const [oldest, old] = sim.edges.entries().next().value!;
        sim.edges.delete(oldest);
        const freed = bytesOf(old);
        sim.partialBytes -= freed;
        this.usedBytes -= freed;
      }
      sim.edges.set(key, partials);
    } else {
      sim.partials.set(key, partials);
    }
    sim.partialBytes += bytes;
    this.usedBytes += bytes;
  }

  /** a simulated day's events, in the dialect spoken (translated a chunk per turn, as simulated) */
  private async simulateDay(name: string, day: number): Promise<SimEvent[]> {
    const events = await this.turns.simulate(name, this.opts.seed, day);
    const t = this.opts.translate;
    if (!t) return events;
    const out: SimEvent[] = [];
    for (let i = 0; i < events.length; i++) {
      if (i > 0 && i % 500 === 0) await this.turns.next();
      out.push(t(events[i] as StoredEvent) as SimEvent);
    }
    return out;
  }

  /** how many days of `repo` have been simulated and held (tests) */
  simulatedDays(repo: string): number {
    return this.simulated.get(repo.toLowerCase())?.days.size ?? 0;
  }

  /** appended events exist from now on, even for a repository outside --repos */
  append(repo: string, appended: StoredEvent[]): void {
    const events = this.opts.translate ? appended.map(this.opts.translate) : appended;
    const key = repo.toLowerCase();
    this.allowed?.add(key);
    const fixed = this.fixedStore(key);
    if (fixed) {
      fixed.append(events);
      return;
    }
    // the simulated days join the same store when a request needs them
    const sim = this.entry(repo);
    sim.pinned = true;
    sim.store.append(events);
  }

  /** the simulated repositories in memory, least recently used first */
  cachedRepositories(): string[] {
    return [...this.simulated.values()].map((s) => s.name);
  }
}
