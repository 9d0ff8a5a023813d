// The deterministic merge-queue simulation behind `mq serve` and `mq --offline`.
//
// One repository is a set of lanes (base ref x partition x queue). Pull requests arrive in each lane
// at a rate that follows the working week; the lane forms "waves" of up to `speculative` cars of up
// to `maxBatch` pull requests, runs their checks, merges the successes in order, bisects failed
// batches to find the culprit, retries single failures, re-embarks the cars behind a failure, and
// stops for pauses, scheduled freezes and the queue's schedule. Queue sizes and running-check
// counts are then derived from the enter/leave and start/end events themselves, so every figure
// the statistics endpoints report is consistent with the event log.
//
// Everything random comes from one seeded Rng (seed x repository): no Math.random, no clock.
import { Rng, hash32 } from "./prng.js";
import { ABORT_CODE_TEXT, MERGED_REASON } from "./texts.js";

export interface SimEvent {
  id: number;
  received_at: string;
  trigger: string;
  repository: string;
  pull_request: number | null;
  base_ref: string | null;
  type: string;
  metadata: Record<string, unknown>;
}

/**
 * What the statistics endpoints read of one queue event, recorded in place of the event by
 * simulateDayFacts: the same random draws, the same times, none of the event's text. The
 * statistics of a day are folded from these (stats-facts.ts) exactly as from the events.
 */
export interface QueueFact {
  /** epoch ms, as the event's id says (its time clamped to the day's reach) */
  t: number;
  kind: FactKind;
  lane: FactLane;
  /** priority_rule_name (null for checks.change, which has none) */
  prio: string | null;
  /** checks_end with a retry_attempt of 1 or more: its session_id (checks_retries); else "" */
  session: string;
  /** leave: the time of its session's first checks_start (NaN when its checks never started) */
  d: number;
  /**
   * by kind: queue.change its size; checks.change its running checks; checks_start the batch's
   * size; checks_end the ms of checks_started_at; leave the ms of queued_at; bisection start its depth
   */
  a: number;
  /** checks_end the ms of checks_ended_at; leave seconds_waiting_for_schedule; bisection start batch_size_before_split */
  b: number;
  /** checks_end retry_attempt (-1 for null); leave seconds_waiting_for_freeze */
  c: number;
  /** checks_end abort_code; leave reason */
  text: string | null;
  /** checks_end checks_conclusion */
  conclusion: string;
  /**
   * checks_start and checks_end: the first of its train car's (a car starts and ends once, its
   * facts all at one time); leave merged; bisection end culprit_found
   */
  flag: boolean;
  /** bisection end max_failure_resolution_reached */
  flag2: boolean;
}

/** the queue event types a QueueFact stands for */
export const FACT = {
  enter: 0,
  leave: 1,
  merged: 2,
  checksStart: 3,
  checksEnd: 4,
  change: 5,
  checksChange: 6,
  bisectionStart: 7,
  bisectionEnd: 8,
} as const;
export type FactKind = (typeof FACT)[keyof typeof FACT];

/** a lane of the queue, as its events name it */
export interface FactLane {
  /** base, partition and queue in one string */
  key: string;
  base: string;
  partition: string;
  queue: { name: string };
  /** where the statistics fold keeps what it derived from the lane (stats-facts.ts): a day's lanes are few, its facts many */
  memo?: unknown;
}

export interface SimulationOptions {
  /** "owner/name" */
  repo: string;
  seed: number;
  now: Date;
  days: number;
}

interface QueueConfig {
  name: string;
  maxBatch: number;
  speculative: number;
  ciMedianMs: number;
  timeoutMs: number;
  maxRetries: number | null;
  /** Mon-Fri 08:00-18:00 UTC only */
  officeHours: boolean;
  failureRate: number;
}

interface Lane {
  key: string;
  base: string;
  partition: string;
  queue: QueueConfig;
  arrivals: Session[];
  /** priority -> sizeKey */
  sizeKeys: Map<string | null, string>;
}

interface Session {
  id: string;
  /** facts mode: the stream where the id's draws were (sessionId) */
  idFrom: Rng | null;
  pr: number;
  lane: Lane;
  prio: string | null;
  prioRank: number;
  enter: number;
  /** `queued_at` of every event of the session */
  enterIso: string;
  retry: number;
  exitAt: number | null;
  exitCode: string | null;
  scheduleWait: number;
  freezeWait: number;
  notStarted: boolean;
  author: Account;
  sha: string;
  requeue: number;
  left: boolean;
  /** facts mode: the (clamped) time of its first checks_start, NaN before */
  firstStart: number;
}

interface Account {
  login: string;
  id: number;
  type: string;
}

interface Block {
  start: number;
  end: number;
  kind: "pause" | "freeze" | "schedule";
  baseRefs: readonly string[] | null;
}

interface Car {
  sessions: Session[];
  start: number;
  startIso: string;
  end: number;
  id: string;
  number: number;
  outcome: "success" | "failure" | "timeout";
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** how much earlier a car behind must pass for the queue to skip the rest of a car's checks */
const SKIP_AHEAD_MS = 5 * MIN;

const CHECK_NAMES = ["ci/build", "ci/test", "ci/lint", "e2e"] as const;
const LOGINS = [
  "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory",
  "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "yves",
];
const BOTS = ["dependabot[bot]", "renovate[bot]"];

const EARLY_EXITS: ReadonlyArray<readonly [string, number]> = [
  ["PR_MANUALLY_DEQUEUED", 30],
  ["PULL_REQUEST_UPDATED", 15],
  ["CONFLICT_WITH_BASE_BRANCH", 12],
  ["PR_DEQUEUED", 8],
  ["PR_MANUALLY_MERGED", 4],
  ["CONFLICT_WITH_PULL_AHEAD", 3],
  ["DRAFT_PULL_REQUEST_CHANGED", 3],
  ["BASE_BRANCH_CHANGED", 3],
  ["PR_AHEAD_DEQUEUED", 2],
  ["STACK_PREDECESSOR_DEQUEUED", 2],
  ["BRANCH_UPDATE_FAILED", 2],
  ["CONFIGURATION_CHANGED", 2],
  ["PR_DEQUEUED_FROM_PARTITION", 2],
  ["MERGE_QUEUE_RESET", 1],
  ["QUEUE_RULE_MISSING", 1],
  ["UNPROCESSABLE_PULL_REQUEST", 1],
  ["INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS", 1],
  ["DRAFT_PULL_REQUEST_CREATION_FAILED", 1],
  ["DRAFT_PULL_REQUEST_CREATION_BRANCH_NOT_INDEXED", 0.5],
  ["SPECULATIVE_CHECK_NUMBER_REDUCED", 0.5],
  ["BASE_BRANCH_MISSING", 0.5],
];

// ISO strings are built for every event and many metadata fields: the date and minute part is
// cached, only seconds and milliseconds are formatted per call
let isoMinute = NaN;
let isoPrefix = "";
function iso(time: number): string {
  const t = Math.trunc(time);
  const minute = Math.floor(t / MIN);
  if (minute !== isoMinute) {
    isoMinute = minute;
    isoPrefix = new Date(minute * MIN).toISOString().slice(0, 17);
  }
  const ms = t - minute * MIN;
  const sec = Math.floor(ms / 1000);
  const frac = ms - sec * 1000;
  return `${isoPrefix}${sec < 10 ? "0" : ""}${sec}.${frac < 10 ? "00" : frac < 100 ? "0" : ""}${frac}Z`;
}
// nested metadata shared by many events: built once, never mutated
const CHECKS = new Map<string, Record<string, unknown>[]>();
const CONDITIONS = [false, true].map((match) => ({
  match: false,
  label: "all of",
  is_label_user_input: false,
  description: null,
  attribute_name: null,
  operator: null,
  schedule: null,
  subconditions: [
    { match, label: "check-success=ci/test", is_label_user_input: true, description: null, attribute_name: "check-success", operator: "=", schedule: null, subconditions: [], evaluations: [] },
  ],
  evaluations: [],
}));
/**
 * preActions' draws, action by action: its chance, then how many draws its event takes (its time
 * and each random field of its metadata; every draw of Rng.int, chance and pick is one u32)
 */
const PRE_ACTION_DRAWS: ReadonlyArray<readonly [chance: number, draws: number]> = [
  [0.4, 2], // label: time, removed
  [0.25, 4], // request_reviews: time, two reviewers, team
  [0.15, 4], // review: time, type, reviewer, message
  [0.15, 1], // assign
  [0.08, 1], // comment
  [0.2, 2], // post_check: time, conclusion
  [0.05, 1], // rebase
  [0.08, 1], // update
  [0.05, 1], // refresh
  [0.03, 1], // edit
  [0.02, 1], // squash
  [0.02, 1], // platform_actions
  [0.03, 2], // dismiss_reviews: time, user
];
const PRIORITY_WEIGHTS: ReadonlyArray<readonly [string | null, number]> = [
  [null, 0.6],
  ["dependencies", 0.25],
  ["urgent", 0.15],
];
const QUEUE_WEIGHTS = (q: QueueConfig[]): Array<readonly [QueueConfig, number]> => [
  [q[0]!, 0.75],
  [q[1]!, 0.07],
  [q[2]!, 0.18],
];

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
/** ids are time-major: received_at in ms x ID_PER_MS + slot (see `finish`) */
export const ID_PER_MS = 1024;
const SLOTS_PER_DAY = ID_PER_MS / (SPILL_DAYS + 1);

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

/** The history of one repository up to now, oldest first: its days, filtered and merged. */
export function simulateRepository(options: SimulationOptions): SimEvent[] {
  const nowMs = Math.floor(options.now.getTime());
  const startMs = historyStart(nowMs, options.days);
  const out: SimEvent[] = [];
  for (let d = dayOf(startMs); d <= dayOf(nowMs); d++) {
    for (const e of simulateDay({ repo: options.repo, seed: options.seed, day: d })) {
      const t = timeOf(e);
      if (t >= startMs && t <= nowMs) out.push(e);
    }
  }
  // ids are time-major, so id order is (received_at, id) order
  return out.sort((a, b) => a.id - b.id);
}

/**
 * Every event of the queue sessions, pauses, freezes and CI issues that start on UTC day `day`
 * (days since 1970-01-01), oldest first. A day starts with empty queues at 00:00 UTC and is
 * independent of every other day, so any window of history needs only its own days and the
 * few before it that reach into it (daysFor).
 */
export function simulateDay(options: { repo: string; seed: number; day: number }): SimEvent[] {
  const steps = simulateDaySteps(options);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * simulateDay in steps of about a millisecond (a lane of the queue at a time): the server runs
 * one step per event-loop turn, so a day being simulated never holds up other answers for long.
 */
export function simulateDaySteps(options: { repo: string; seed: number; day: number }): Generator<void, SimEvent[], void> {
  return new Simulation(options.repo, options.seed, options.day, false).steps();
}

/**
 * The queue events of simulateDay as QueueFacts, in the same order (time, then emission), for
 * the statistics of whole days: the same simulation and random draws, without building the
 * events, their metadata or their times' text (several times faster). In steps, as simulateDaySteps.
 */
export function simulateDayFactsSteps(options: { repo: string; seed: number; day: number }): Generator<void, QueueFact[], void> {
  return new Simulation(options.repo, options.seed, options.day, true).factSteps();
}

/** simulateDayFactsSteps in one go */
export function simulateDayFacts(options: { repo: string; seed: number; day: number }): QueueFact[] {
  const steps = simulateDayFactsSteps(options);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** the epoch-ms time of a simulated event, recovered from its id (no date parsing) */
export function timeOf(e: { id: number }): number {
  return Math.floor(e.id / ID_PER_MS);
}

class Simulation {
  private readonly rng: Rng;
  private readonly startMs: number;
  /** nothing a day does reaches past this (see reachOf) */
  private readonly limitMs: number;
  private readonly events: SimEvent[] = [];
  /** facts mode (simulateDayFacts): the queue events' facts, in emission order; no events */
  private readonly facts: QueueFact[] | null;
  private prCounter: number;
  private draftCounter: number;
  private commentCounter: number;
  private readonly baseRefs: string[];
  private readonly queues: QueueConfig[];
  private readonly lanes = new Map<string, Lane>();
  /** base -> partition -> queue -> lane */
  private readonly laneIndex = new Map<string, Map<string, Map<QueueConfig, Lane>>>();
  private readonly blocks: Block[] = [];
  /** lane key + priority -> +1/-1 at time t, for queue.change */
  private readonly sizeDeltas: Array<{ t: number; key: string; lane: Lane; prio: string | null; d: number; pr: number }> = [];
  /** lane key -> +1/-1, for checks.change */
  private readonly checkDeltas: Array<{ t: number; lane: Lane; d: number }> = [];
  private readonly authors: Account[];
  private readonly humans: Account[];
  private readonly baseWeights: Array<readonly [string, number]>;
  private readonly queueWeights: Array<readonly [QueueConfig, number]>;
  private readonly dailyRate: number;

  constructor(
    private readonly repo: string,
    seed: number,
    private readonly day: number,
    factsOnly: boolean,
  ) {
    this.facts = factsOnly ? [] : null;
    // the repository's shape comes from (seed, repo); what happens on a day from (seed, repo, day)
    const h = hash32(`${seed}\u0000${repo}`);
    const shape = new Rng(h);
    this.rng = new Rng(hash32(`${seed}\u0000${repo}\u0000${day}`));
    this.startMs = day * DAY;
    this.limitMs = this.startMs + (1 + reachOf(day)) * DAY - 1;
    // Pull request numbers a repository of a few years has (the documentation's #4821), and the
    // same ones every week: each day of the week has its block of 1,000, numbered one by one from
    // 821 + 1,000 × weekday (a day uses well under 1,000), the drafts of batches, backports and
    // copies from 10,000 + 1,000 × weekday. So #4821 is the first pull request of one day in seven
    // and any 7-day window holds it: the documented examples find it whenever they run.
    const slot = ((day % 20_000) + 20_000) % 20_000;
    const weekday = ((day % 7) + 7) % 7;
    this.prCounter = 820 + weekday * 1000;
    this.draftCounter = 10_000 + weekday * 1000;
    this.commentCounter = 1_000_000_000 + slot * 50_000;
    this.baseRefs = ["main", "release/v2"];
    if (shape.chance(0.5)) this.baseRefs.push("develop");
    this.queues = [
      { name: "default", maxBatch: 4, speculative: 2, ciMedianMs: 14 * MIN, timeoutMs: 45 * MIN, maxRetries: 2, officeHours: false, failureRate: 0.12 },
      { name: "hotfix", maxBatch: 1, speculative: 1, ciMedianMs: 9 * MIN, timeoutMs: 30 * MIN, maxRetries: null, officeHours: false, failureRate: 0.08 },
      { name: "lowrisk", maxBatch: 8, speculative: 1, ciMedianMs: 20 * MIN, timeoutMs: 60 * MIN, maxRetries: 1, officeHours: true, failureRate: 0.16 },
    ];
    this.authors = [
      ...LOGINS.map((login, i) => ({ login, id: 1000 + ((h + i * 7919) % 9_000_000), type: "User" })),
      ...BOTS.map((login, i) => ({ login, id: 49_699_333 + i, type: "Bot" })),
    ];
    this.dailyRate = 220 + (hash32(`rate:${repo}`) % 260);
    this.humans = this.authors.slice(0, LOGINS.length);
    this.baseWeights = this.baseRefs.map((b, i) => [b, i === 0 ? 0.72 : i === 1 ? 0.2 : 0.08] as const);
    this.queueWeights = QUEUE_WEIGHTS(this.queues);
  }

  *steps(): Generator<void, SimEvent[], void> {
    yield* this.run();
    this.makeCiIssues();
    yield;
    return this.finish();
  }

  *factSteps(): Generator<void, QueueFact[], void> {
    yield* this.run();
    // CI issues come last and draw only for themselves: no statistic reads them
    return this.finishFacts();
  }

  private *run(): Generator<void, void, void> {
    this.makeBlocks();
    this.makeArrivals();
    yield;
    for (const lane of this.lanes.values()) {
      this.runLane(lane);
      yield;
    }
    this.emitQueueSizes();
    this.emitRunningChecks();
  }

  // ---------------------------------------------------------------------------------------------

  /** a day owns [00:00, limit]: a "few seconds before" the first arrival stays on the day */
  private clamp(t: number): number {
    const ms = Math.round(t);
    return ms < this.startMs ? this.startMs : ms > this.limitMs ? this.limitMs : ms;
  }

  private emit(t: number, type: string, pr: number | null, base: string | null, trigger: string, metadata: Record<string, unknown>): void {
    // facts mode: the queue events are recorded as facts where they are emitted, the others dropped
    if (this.facts) return;
    const ms = this.clamp(t);
    // the final event, with its time in `id` until `finish` (one object per event, no record)
    this.events.push({ id: ms, received_at: "", trigger, repository: this.repo, pull_request: pr, base_ref: base, type, metadata });
  }

  /**
   * Ids are time-major so that they increase with time across days too, as on the real service:
   * id = ms x 1024 + (day mod 4) x 256 + rank among the day's events of that millisecond. Days
   * whose events can share a millisecond are at most SPILL_DAYS apart, so their slots differ.
   * (Exact integers until the year 2248.)
   */
  private fact(
    t: number,
    kind: FactKind,
    lane: FactLane,
    prio: string | null,
    session: string,
    d = 0,
    a = 0,
    b = 0,
    c = 0,
    text: string | null = null,
    conclusion = "",
    flag = false,
    flag2 = false,
  ): void {
    this.facts!.push({ t: this.clamp(t), kind, lane, prio, session, d, a, b, c, text, conclusion, flag, flag2 });
  }

  /** the facts in the order `finish` gives the events: by time, then as emitted */
  private finishFacts(): QueueFact[] {
    // stable, and fast on what is emitted: runs in time order (a lane's, the sizes', the checks')
    return this.facts!.sort((a, b) => a.t - b.t);
  }

  private finish(): SimEvent[] {
    const out = this.events;
    // stable: events of the same millisecond keep the order they were emitted in
    out.sort((a, b) => a.id - b.id);
    const dayBase = (((this.day % (SPILL_DAYS + 1)) + SPILL_DAYS + 1) % (SPILL_DAYS + 1)) * SLOTS_PER_DAY;
    let lastT = -Infinity;
    let rank = 0;
    for (let i = 0; i < out.length; i++) {
      const e = out[i]!;
      const t = e.id;
      rank = t === lastT ? rank + 1 : 0;
      lastT = t;
      if (rank >= SLOTS_PER_DAY) throw new Error(`simulation: more than ${SLOTS_PER_DAY} events at ${iso(t)}`);
      e.id = t * ID_PER_MS + dayBase + rank;
      e.received_at = iso(t);
    }
    return out;
  }

  /** facts mode: where a uuid's 32 draws start (to make it later), the stream moved past them */
  private skipUuid(): Rng {
    const at = this.rng.snapshot();
    this.rng.skip(32);
    return at;
  }

  /** a session's id (facts mode makes it when first needed, from where its draws were) */
  private sessionId(s: Session): string {
    if (s.idFrom) {
      s.id = s.idFrom.uuid();
      s.idFrom = null;
    }
    return s.id;
  }

  /** a head commit's sha: its draws in any case, its text only for events */
  private sha(): string {
    if (!this.facts) return this.rng.hex(40);
    this.rng.skip(40);
    return "";
  }

  private actor(): Record<string, unknown> {
    const a = this.rng.pick(this.humans);
    return this.rng.chance(0.2)
      ? { type: "application", id: this.rng.uuid(), name: "release-bot" }
      : { type: "user", id: a.id, name: a.login };
  }

  // ---------------------------------------------------------------------------------------------
  // pauses and scheduled freezes, all within the day

  private makeBlocks(): void {
    const rng = this.rng;
    const dayStart = this.startMs;
    // a pause on about one day in four, during working hours, 20 to 90 minutes
    if (rng.chance(0.25)) {
      const start = dayStart + 9 * HOUR + rng.int(0, 8 * 60) * MIN;
      const end = start + rng.int(20, 90) * MIN;
      this.blocks.push({ start, end, kind: "pause", baseRefs: null });
      const reason = rng.pick(["Incident on the CI runners", "Deploy in progress", "Investigating flaky tests", "Database migration"]);
      this.emit(start, "queue.pause.create", null, null, "Queue pause", { reason, created_by: this.actor() });
      if (rng.chance(0.5)) {
        this.emit((start + end) / 2, "queue.pause.update", null, null, "Queue pause", { reason: `${reason} (extended)`, updated_by: this.actor() });
      }
      this.emit(end, "queue.pause.delete", null, null, "Queue pause", { deleted_by: this.actor() });
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
      this.emit(createdAt, "scheduled_freeze.create", null, "main", "Scheduled freeze", {
        scheduled_freeze_attributes: attrs,
        created_by: this.actor(),
        created_at: iso(createdAt),
      });
      if (rng.chance(0.5)) {
        const updatedAt = createdAt + rng.int(1, 4) * HOUR;
        const after = { ...attrs, reason: `${attrs.reason} (rescheduled)` };
        this.emit(updatedAt, "scheduled_freeze.update", null, "main", "Scheduled freeze", {
          scheduled_freeze_attributes_before: attrs,
          scheduled_freeze_attributes_after: after,
          updated_by: this.actor(),
          updated_at: iso(updatedAt),
        });
      }
      if (deleted) {
        const deletedAt = createdAt + 5 * HOUR;
        this.emit(deletedAt, "scheduled_freeze.delete", null, "main", "Scheduled freeze", {
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
  private blockAt(t: number, lane: Lane): Block | undefined {
    for (const b of this.blocks) {
      if (b.start > t) break;
      if (t < b.end && (b.baseRefs === null || b.baseRefs.includes(lane.base))) return b;
    }
    return undefined;
  }

  /** the first pause or freeze starting in (from, to) for this lane */
  private blockStartingIn(from: number, to: number, lane: Lane): Block | undefined {
    for (const b of this.blocks) {
      if (b.start >= to) break;
      if (b.start > from && (b.baseRefs === null || b.baseRefs.includes(lane.base))) return b;
    }
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // arrivals

  private lane(base: string, partition: string, queue: QueueConfig): Lane {
    // looked up by its names' (constant) strings: a key string built per pull request cost more
    let byPartition = this.laneIndex.get(base);
    if (!byPartition) this.laneIndex.set(base, (byPartition = new Map()));
    let byQueue = byPartition.get(partition);
    if (!byQueue) byPartition.set(partition, (byQueue = new Map()));
    let lane = byQueue.get(queue);
    if (!lane) {
      const key = `${base}\u0000${partition}\u0000${queue.name}`;
      lane = { key, base, partition, queue, arrivals: [], sizeKeys: new Map() };
      // lanes run in the order they first had a pull request
      this.lanes.set(key, lane);
      byQueue.set(queue, lane);
    }
    return lane;
  }

  private makeArrivals(): void {
    const rng = this.rng;
    const weekend = new Date(this.startMs).getUTCDay() % 6 === 0;
    // 11 working hours at 2.0 and 13 at 0.35 make an average weekday weight of about 1.1
    const perHour = this.dailyRate / 24 / 1.1;
    const times: number[] = [];
    for (let hour = 0; hour < 24; hour++) {
      const h = this.startMs + hour * HOUR;
      const weight = (weekend ? 0.25 : 1) * (hour >= 8 && hour < 19 ? 2.0 : 0.35);
      const n = rng.poisson(perHour * weight);
      times.length = 0;
      for (let k = 0; k < n; k++) times.push(h + Math.floor(rng.next() * HOUR));
      times.sort((x, y) => x - y);
      // the office-hours queue takes pull requests queued before it closes on a working day, so
      // that a day's train has drained before the next day's starts
      const lowrisk = !weekend && hour < 18;
      for (const t of times) this.newPullRequest(t, lowrisk);
    }
  }

  private newPullRequest(t: number, lowriskOpen: boolean): void {
    const rng = this.rng;
    // one by one, so that the first numbers of a day's block always exist; the draw is kept so the
    // rest of the day is what it was
    rng.int(1, 3);
    const pr = ++this.prCounter;
    const base = rng.weighted<string>(this.baseWeights);
    // a few pull requests are merged by a rule, outside the queue
    if (rng.chance(0.02)) {
      this.emit(t, "action.merge", pr, base, "Rule: automatic merge", { branch: base });
      return;
    }
    let queue = rng.weighted<QueueConfig>(this.queueWeights);
    if (queue.officeHours && !lowriskOpen) queue = this.queues[0]!;
    const partition = base === "main" ? rng.pick(["api", "web"]) : "__default__";
    const prio = queue.name === "hotfix" ? "urgent" : rng.weighted<string | null>(PRIORITY_WEIGHTS);
    const author = rng.chance(0.1) ? this.authors[LOGINS.length + rng.int(0, BOTS.length - 1)]! : rng.pick(this.humans);
    const session = this.newSession(pr, this.lane(base, partition, queue), prio, t, author, this.sha(), 0);
    this.preActions(session);
  }

  private newSession(pr: number, lane: Lane, prio: string | null, enter: number, author: Account, sha: string, requeue: number): Session {
    const rng = this.rng;
    const s: Session = {
      // facts mode: the id's draws are made, its text only when a fact needs it (sessionId)
      id: this.facts ? "" : rng.uuid(),
      idFrom: this.facts ? this.skipUuid() : null,
      pr,
      lane,
      prio,
      prioRank: prio === "urgent" ? 0 : prio === null ? 1 : 2,
      enter,
      enterIso: this.facts ? "" : iso(enter),
      retry: 0,
      exitAt: null,
      exitCode: null,
      scheduleWait: 0,
      freezeWait: 0,
      notStarted: false,
      author,
      sha,
      requeue,
      left: false,
      firstStart: NaN,
    };
    if (rng.chance(0.07)) {
      s.exitAt = enter + Math.max(30_000, Math.round(rng.exp(6 * MIN)));
      s.exitCode = rng.weighted(EARLY_EXITS);
      if (lane.partition === "__default__" && s.exitCode === "PR_DEQUEUED_FROM_PARTITION") s.exitCode = "PR_DEQUEUED";
    }
    lane.arrivals.push(s);
    const viaCommand = requeue === 0 && rng.chance(0.6);
    if (viaCommand && this.facts) {
      // the draws of the event below: its time, its comment id
      rng.skip(1);
      this.commentCounter += rng.int(1, 50);
    } else if (viaCommand) {
      this.emit(enter - rng.int(2, 20) * 1000, "command.queue", pr, lane.base, "Command: queue", {
        author: { ...author },
        comment_id: (this.commentCounter += rng.int(1, 50)),
        session_id: s.id,
      });
    }
    if (this.facts) this.fact(enter, FACT.enter, lane, prio, "");
    else {
      this.emit(enter, "action.queue.enter", pr, lane.base, this.trigger(s), {
        queue_name: lane.queue.name,
        branch: lane.base,
        queued_at: s.enterIso,
        partition_name: lane.partition,
        priority_rule_name: prio,
        session_id: s.id,
      });
    }
    this.sizeDeltas.push({ t: enter, key: this.sizeKey(lane, prio), lane, prio, d: 1, pr });
    return s;
  }

  /** the queue a size counts: lane and priority (one string each, made once) */
  private sizeKey(lane: Lane, prio: string | null): string {
    let key = lane.sizeKeys.get(prio);
    if (key === undefined) lane.sizeKeys.set(prio, (key = `${lane.key}\u0000${prio ?? ""}`));
    return key;
  }

  private trigger(s: Session): string {
    return `Rule: queue to ${s.lane.queue.name}`;
  }

  /** what happens to a pull request before it is queued */
  private preActions(s: Session): void {
    const rng = this.rng;
    if (this.facts) {
      // facts mode: no statistic reads these events, but the rest of the day depends on their
      // draws: each action's chance, then its time and the draws of its metadata (one each), in
      // the order below (a change there changes the facts, which stats-facts.test.ts compares)
      for (let i = 0; i < PRE_ACTION_DRAWS.length; i++) if (rng.chance(PRE_ACTION_DRAWS[i]![0])) rng.skip(PRE_ACTION_DRAWS[i]![1]);
      return;
    }
    const { pr } = s;
    const base = s.lane.base;
    const at = () => s.enter - rng.int(10, 6 * 3600) * 1000;
    const trig = "Rule: pull request automation";
    if (rng.chance(0.4)) this.emit(at(), "action.label", pr, base, trig, { added: ["ready-to-merge"], removed: rng.chance(0.3) ? ["wip"] : [] });
    if (rng.chance(0.25)) {
      this.emit(at(), "action.request_reviews", pr, base, trig, {
        reviewers: [rng.pick(LOGINS), rng.pick(LOGINS)].filter((v, i, a) => a.indexOf(v) === i),
        team_reviewers: rng.chance(0.5) ? ["backend"] : [],
      });
    }
    if (rng.chance(0.15)) {
      this.emit(at(), "action.review", pr, base, trig, {
        review_type: rng.pick(["APPROVE", "COMMENT", "REQUEST_CHANGES"]),
        reviewer: rng.chance(0.8) ? "mergify[bot]" : null,
        message: rng.chance(0.6) ? "Automatically approved: dependency update" : null,
      });
    }
    if (rng.chance(0.15)) this.emit(at(), "action.assign", pr, base, trig, { added: [s.author.login], removed: [] });
    if (rng.chance(0.08)) this.emit(at(), "action.comment", pr, base, trig, { message: "Thanks! This pull request will be queued once approved." });
    if (rng.chance(0.2)) {
      this.emit(at(), "action.post_check", pr, base, trig, {
        conclusion: rng.pick(["success", "success", "failure", "neutral"]),
        title: "Pull request conventions",
        summary: "Title follows Conventional Commits",
      });
    }
    if (rng.chance(0.05)) this.emit(at(), "action.rebase", pr, base, trig, {});
    if (rng.chance(0.08)) this.emit(at(), "action.update", pr, base, trig, {});
    if (rng.chance(0.05)) this.emit(at(), "action.refresh", pr, base, "Command: refresh", {});
    if (rng.chance(0.03)) this.emit(at(), "action.edit", pr, base, trig, { draft: false });
    if (rng.chance(0.02)) this.emit(at(), "action.squash", pr, base, trig, {});
    if (rng.chance(0.02)) this.emit(at(), "action.platform_actions", pr, base, trig, { workflow: "deploy-preview.yml", inputs: { environment: "preview", pr: String(pr) } });
    if (rng.chance(0.03)) this.emit(at(), "action.dismiss_reviews", pr, base, trig, { users: [rng.pick(LOGINS)] });
  }

  // ---------------------------------------------------------------------------------------------
  // the queue

  private runLane(lane: Lane): void {
    const arrivals = lane.arrivals;
    arrivals.sort((a, b) => a.enter - b.enter);
    const waiting: Session[] = [];
    let i = 0;
    let lastBlock: Block | undefined;
    let t = arrivals.length > 0 ? arrivals[0]!.enter : Infinity;
    const admit = (s: Session) => {
      if (lastBlock && s.enter >= lastBlock.start && s.enter < lastBlock.end) {
        this.addWait(s, lastBlock.kind, lastBlock.end - s.enter);
      }
      let k = waiting.length;
      while (k > 0 && waiting[k - 1]!.prioRank > s.prioRank) k--;
      waiting.splice(k, 0, s);
    };
    let guard = 0;
    while (guard++ < 1_000_000) {
      while (i < arrivals.length && arrivals[i]!.enter <= t) admit(arrivals[i++]!);
      // pull requests that left while waiting
      for (let k = 0; k < waiting.length; k++) {
        const s = waiting[k]!;
        if (s.exitAt !== null && s.exitAt <= t) {
          this.earlyExit(s);
          waiting.splice(k--, 1);
        }
      }
      if (waiting.length === 0) {
        if (i >= arrivals.length) break;
        t = arrivals[i]!.enter;
        continue;
      }
      const block = this.blockAt(t, lane);
      const schedEnd = lane.queue.officeHours ? this.scheduleOpensAt(t) : t;
      if (block || schedEnd > t) {
        const kind = block ? block.kind : "schedule";
        const until = block ? block.end : schedEnd;
        for (const s of waiting) {
          this.addWait(s, kind, until - Math.max(t, s.enter));
          if (!s.notStarted) {
            s.notStarted = true;
            this.emit(t + 1, "action.queue.checks_not_started", s.pr, lane.base, this.trigger(s), {
              branch: lane.base,
              partition_name: lane.partition,
              priority_rule_name: s.prio,
              queue_name: lane.queue.name,
              queued_at: s.enterIso,
              reason: kind === "pause" ? "The merge queue is paused" : kind === "freeze" ? "A scheduled freeze is active" : "The queue schedule is closed",
              session_id: s.id,
            });
          }
        }
        lastBlock = { start: t, end: until, kind, baseRefs: null };
        t = until;
        continue;
      }
      t = this.runWave(lane, waiting, t, arrivals, i);
    }
  }

  private addWait(s: Session, kind: string, ms: number): void {
    if (ms <= 0) return;
    if (kind === "freeze") s.freezeWait += ms;
    else if (kind === "schedule") s.scheduleWait += ms;
    // a pause is idle capacity: it has no counter of its own in the leave event
  }

  /** office hours: Mon-Fri 08:00-18:00 UTC */
  private scheduleOpensAt(t: number): number {
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

  private earlyExit(s: Session): void {
    const rng = this.rng;
    const at = s.exitAt!;
    const code = s.exitCode!;
    const base = s.lane.base;
    if (code === "PR_MANUALLY_DEQUEUED") {
      this.emit(at - 2000, "command.dequeue", s.pr, base, "Command: dequeue", {
        author: { ...s.author },
        comment_id: (this.commentCounter += rng.int(1, 50)),
        session_id: s.id,
      });
      this.emit(at - 1000, "action.unqueue", s.pr, base, "Command: dequeue", {});
    }
    if (code === "PULL_REQUEST_UPDATED" && rng.chance(0.3)) this.emit(at - 500, "action.dismiss_reviews", s.pr, base, "Rule: dismiss stale reviews", { users: [rng.pick(LOGINS)] });
    this.leave(s, at, code, false);
  }

  /** the checks of a run; a handful of variants, shared by the events (never mutated) */
  private checks(state: string, failing: string | null): Record<string, unknown>[] {
    const key = `${state}\u0000${failing ?? ""}`;
    let list = CHECKS.get(key);
    if (!list) {
      list = CHECK_NAMES.map((name) => ({
        name,
        description: name === failing ? `${name} ${state}` : "Successful",
        url: `https://ci.example.com/${name}`,
        state: name === failing ? state : "success",
        avatar_url: null,
      }));
      CHECKS.set(key, list);
    }
    return list;
  }

  private leave(s: Session, t: number, code: string | null, merged: boolean, failing: { state: string; check: string } | null = null): void {
    if (s.left) return;
    s.left = true;
    const lane = s.lane;
    if (this.facts) {
      const reason = merged ? MERGED_REASON : ABORT_CODE_TEXT[code!] ?? code;
      // queued_at is the entry time's text, to the ms (truncated, as iso writes it)
      this.fact(t, FACT.leave, lane, s.prio, "", s.firstStart, Math.trunc(s.enter), Math.round(s.scheduleWait / 1000), Math.round(s.freezeWait / 1000), reason, "", merged);
    } else this.emit(t, "action.queue.leave", s.pr, lane.base, this.trigger(s), {
      reason: merged ? MERGED_REASON : ABORT_CODE_TEXT[code!] ?? code,
      merged,
      queue_name: lane.queue.name,
      branch: lane.base,
      partition_name: lane.partition,
      queued_at: s.enterIso,
      seconds_waiting_for_schedule: Math.round(s.scheduleWait / 1000),
      seconds_waiting_for_freeze: Math.round(s.freezeWait / 1000),
      priority_rule_name: s.prio,
      conditions_evaluation: merged ? null : CONDITIONS[code === "CHECKS_FAILED" ? 0 : 1],
      checks: failing ? this.checks(failing.state, failing.check) : merged ? this.checks("success", null) : [],
      pull_request_head_sha: s.sha,
      session_id: s.id,
    });
    this.sizeDeltas.push({ t, key: this.sizeKey(lane, s.prio), lane, prio: s.prio, d: -1, pr: s.pr });
  }

  private merge(s: Session, t: number): void {
    const rng = this.rng;
    const lane = s.lane;
    if (rng.chance(0.004)) {
      this.leave(s, t, "PR_UNEXPECTEDLY_FAILED_TO_MERGE", false);
      return;
    }
    if (this.facts) this.fact(t, FACT.merged, lane, s.prio, "");
    else {
      this.emit(t, "action.queue.merged", s.pr, lane.base, this.trigger(s), {
        branch: lane.base,
        partition_names: [lane.partition],
        queue_name: lane.queue.name,
        queued_at: s.enterIso,
        priority_rule_name: s.prio,
        session_id: s.id,
      });
    }
    this.leave(s, t + 1000, null, true);
    const trig = "Rule: after merge";
    if (rng.chance(0.6)) this.emit(t + 3000, "action.delete_head_branch", s.pr, lane.base, trig, { branch: `feature/pr-${s.pr}` });
    if (lane.base === "main" && rng.chance(0.04)) {
      this.emit(t + 5000, "action.backport", s.pr, lane.base, "Rule: backport to release", { to: "release/v2", pull_request_number: ++this.draftCounter, conflicts: rng.chance(0.1) });
    }
    if (rng.chance(0.01)) this.emit(t + 6000, "action.copy", s.pr, lane.base, "Rule: copy", { to: "develop", pull_request_number: ++this.draftCounter, conflicts: false });
    if (rng.chance(0.1)) this.emit(t + 4000, "action.label", s.pr, lane.base, trig, { added: [], removed: ["ready-to-merge"] });
  }

  private specPr(car: Car, conclusion: string, ended: number | null, failing: { state: string; check: string } | null): Record<string, unknown> {
    return {
      number: car.number,
      in_place: car.sessions.length === 1,
      checks_timed_out: conclusion === "timed_out",
      checks_conclusion: conclusion,
      checks_started_at: car.startIso,
      checks_ended_at: ended === null ? null : iso(ended),
      unsuccessful_checks: failing ? this.checks(failing.state, failing.check).filter((c) => c.state !== "success") : [],
    };
  }

  private startCar(lane: Lane, sessions: Session[], start: number, reason: string): Car {
    const rng = this.rng;
    const q = lane.queue;
    const outcome: Car["outcome"] = rng.chance(q.failureRate) ? (rng.chance(0.2) ? "timeout" : "failure") : "success";
    const dur = outcome === "timeout" ? q.timeoutMs : Math.min(q.timeoutMs - MIN, Math.max(3 * MIN, rng.logNormal(q.ciMedianMs, 0.35)));
    const car: Car = {
      sessions,
      start,
      startIso: this.facts ? "" : iso(start),
      end: start + dur,
      id: this.facts ? (this.skipUuid(), "") : rng.uuid(),
      number: sessions.length === 1 ? sessions[0]!.pr : ++this.draftCounter,
      outcome,
    };
    this.checkDeltas.push({ t: start, lane, d: 1 });
    if (this.facts) {
      // flag: the car's first fact (a car starts once: the statistics count a batch once by it)
      const ms = this.clamp(start);
      for (const s of sessions) {
        if (!(s.firstStart <= ms)) s.firstStart = ms;
        this.fact(start, FACT.checksStart, lane, s.prio, "", 0, sessions.length, 0, 0, null, "", s === sessions[0]);
      }
      return car;
    }
    const numbers = sessions.map((s) => s.pr);
    const pending = this.specPr(car, "pending", null, null);
    for (const s of sessions) {
      this.emit(start, "action.queue.checks_start", s.pr, lane.base, this.trigger(s), {
        branch: lane.base,
        partition_name: lane.partition,
        priority_rule_name: s.prio,
        queue_name: q.name,
        queued_at: s.enterIso,
        start_reason: reason,
        speculative_check_pull_request: pending,
        pull_request_numbers: numbers,
        train_car_id: car.id,
        session_id: s.id,
      });
    }
    return car;
  }

  private endCar(
    lane: Lane,
    car: Car,
    at: number,
    conclusion: string,
    abort: { code: string; status: "DEFINITIVE" | "REEMBARKED" } | null,
    failing: { state: string; check: string } | null,
  ): void {
    const q = lane.queue;
    this.checkDeltas.push({ t: at, lane, d: -1 });
    if (this.facts) {
      // checks_started_at and checks_ended_at are written to the ms (truncated, as iso writes them)
      const started = Math.trunc(car.start);
      const ended = Math.trunc(at);
      const code = abort?.code ?? null;
      for (const s of car.sessions) {
        // flag: the car's first fact (a car ends once: the statistics count a run once by it)
        const retry = q.maxRetries === null ? -1 : s.retry;
        // the session's id is read only by checks_retries, for retried runs
        this.fact(at, FACT.checksEnd, lane, s.prio, retry >= 1 ? this.sessionId(s) : "", 0, started, ended, retry, code, conclusion, s === car.sessions[0]);
      }
      return;
    }
    const numbers = car.sessions.map((s) => s.pr);
    const spec = this.specPr(car, conclusion, at, failing);
    for (const s of car.sessions) {
      this.emit(at, "action.queue.checks_end", s.pr, lane.base, this.trigger(s), {
        aborted: abort !== null,
        abort_code: abort?.code ?? null,
        abort_reason: abort ? ABORT_CODE_TEXT[abort.code] ?? abort.code : null,
        abort_status: abort?.status ?? "DEFINITIVE",
        branch: lane.base,
        partition_name: lane.partition,
        priority_rule_name: s.prio,
        queue_name: q.name,
        queued_at: s.enterIso,
        retry_attempt: q.maxRetries === null ? null : s.retry,
        max_retries: q.maxRetries,
        speculative_check_pull_request: spec,
        pull_request_numbers: numbers,
        train_car_id: car.id,
        session_id: s.id,
      });
    }
  }

  /** runs one wave of cars starting at t; returns when the lane can start the next one */
  private runWave(lane: Lane, waiting: Session[], t: number, arrivals: Session[], nextArrival: number): number {
    const rng = this.rng;
    const q = lane.queue;
    const cars: Car[] = [];
    for (let c = 0; c < q.speculative && waiting.length > 0; c++) {
      const take = waiting.splice(0, Math.min(q.maxBatch, waiting.length));
      const first = take.every((s) => s.retry === 0);
      cars.push(this.startCar(lane, take, t + c * 20_000, first ? "First time checks" : "Re-embarked pull requests"));
    }
    const failIdx = cars.findIndex((c) => c.outcome !== "success");
    const decisive = failIdx >= 0 ? cars[failIdx]!.end : Math.max(...cars.map((c) => c.end));
    const putBack = (sessions: Session[]) => waiting.unshift(...sessions);

    // a pause or freeze starting while the cars run stops them all
    const block = this.blockStartingIn(t, Math.min(...cars.map((c) => c.end)), lane);
    if (block) {
      const code = block.kind === "pause" ? "PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE" : "SCHEDULED_FREEZE_STATUS_CHANGED";
      for (let c = cars.length - 1; c >= 0; c--) {
        this.endCar(lane, cars[c]!, block.start, "cancelled", { code, status: "REEMBARKED" }, null);
        putBack(cars[c]!.sessions);
      }
      return block.start;
    }

    // an urgent pull request arriving while a lower-priority car runs takes its place
    const lastCar = cars[cars.length - 1]!;
    for (let k = nextArrival; k < arrivals.length && arrivals[k]!.enter < lastCar.end; k++) {
      const s = arrivals[k]!;
      if (s.prioRank === 0 && lastCar.sessions.every((x) => x.prioRank > 0) && failIdx < 0 && rng.chance(0.5)) {
        const at = Math.max(s.enter + 5000, lastCar.start + 1000);
        for (let c = 0; c < cars.length - 1; c++) this.finishSuccess(lane, cars[c]!, 0);
        this.endCar(lane, lastCar, at, "cancelled", { code: "PR_WITH_HIGHER_PRIORITY_QUEUED", status: "REEMBARKED" }, null);
        putBack(lastCar.sessions);
        return Math.max(at, ...cars.slice(0, -1).map((c) => c.end)) + 5000;
      }
      break;
    }

    let mergedUntil = 0;
    const limit = failIdx >= 0 ? failIdx : cars.length;
    for (let c = 0; c < limit; c++) mergedUntil = this.finishSuccess(lane, cars[c]!, mergedUntil, this.skippedBy(cars, c, limit));
    if (failIdx < 0) return mergedUntil + 5000;

    const failed = cars[failIdx]!;
    // the cars behind a failure were tested on top of it: re-embark them
    for (let c = cars.length - 1; c > failIdx; c--) {
      this.endCar(lane, cars[c]!, Math.max(decisive, cars[c]!.start + 1000), "cancelled", { code: "BATCH_AHEAD_FAILED", status: "REEMBARKED" }, null);
      putBack(cars[c]!.sessions);
    }
    const state = failed.outcome === "timeout" ? "timed_out" : "failure";
    const failing = { state, check: rng.pick(CHECK_NAMES) };
    const code = failed.outcome === "timeout" ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
    const end = failed.end;
    if (failed.sessions.length === 1) {
      const s = failed.sessions[0]!;
      if (q.maxRetries !== null && s.retry < q.maxRetries && failed.outcome === "failure") {
        this.endCar(lane, failed, end, state, { code: "CHECKS_RETRIED", status: "REEMBARKED" }, failing);
        if (rng.chance(0.6)) {
          this.emit(end + 4000, "ci_insights.job_retried", s.pr, lane.base, "CI Insights", {
            rule_id: "5f0c6a1e-8d3b-4c1e-9f4a-2b7d9e1c3a55",
            rule_name: "Retry flaky jobs",
            max_retry: q.maxRetries,
            retry_mode: rng.chance(0.8) ? "job" : "pipeline",
            retry_attempt: s.retry + 1,
            condition_matches: [{ type: "log_pattern", pattern: "ECONNRESET", job_name: failing.check }],
          });
        }
        s.retry += 1;
        putBack([s]);
        return end + 10_000;
      }
      this.endCar(lane, failed, end, state, { code, status: "DEFINITIVE" }, failing);
      this.leave(s, end + 3000, code, false, failing);
      this.afterFailure(s, end + 3000, arrivals, nextArrival);
      return end + 5000;
    }
    return this.bisect(lane, failed, failing, code, arrivals, nextArrival);
  }

  /**
   * When a successful car's checks were cut short: a car behind it (tested on top of it) passed
   * at least SKIP_AHEAD_MS before it would have ended, so the queue stopped waiting for it
   * (skip_intermediate_results). Decided from the cars' times alone, no random draw, so the rest
   * of the day is the same whether or not it happens.
   */
  private skippedBy(cars: readonly Car[], c: number, limit: number): number | undefined {
    let first: number | undefined;
    for (let k = c + 1; k < limit; k++) {
      const end = cars[k]!.end;
      if (end + SKIP_AHEAD_MS <= cars[c]!.end && (first === undefined || end < first)) first = end;
    }
    return first;
  }

  /**
   * checks_end for a successful car (cut short at `skippedAt` + 1 s when a car behind it passed
   * first) and the merges, in queue order; returns the last merge time
   */
  private finishSuccess(lane: Lane, car: Car, after: number, skippedAt?: number): number {
    if (skippedAt === undefined) this.endCar(lane, car, car.end, "success", null, null);
    else this.endCar(lane, car, skippedAt + 1000, "cancelled", { code: "INTERMEDIATE_RESULTS_SKIPPED", status: "DEFINITIVE" }, null);
    let t = Math.max(car.end, after) + this.rng.int(2, 10) * 1000;
    for (const s of car.sessions) {
      this.merge(s, t);
      t += 2000;
    }
    return t;
  }

  private afterFailure(s: Session, t: number, arrivals: Session[], nextArrival: number): void {
    const rng = this.rng;
    const base = s.lane.base;
    if (rng.chance(0.3)) this.emit(t + 2000, "action.comment", s.pr, base, "Rule: notify on queue failure", { message: "This pull request failed the merge queue checks." });
    if (rng.chance(0.25) && t < this.startMs + 17 * HOUR) {
      // the author fixes it and queues it again: a new session (of this day's simulation; not late in the day, so that the day ends)
      const at = t + rng.int(30, 240) * MIN;
      if (rng.chance(0.5)) {
        this.emit(at - 3000, "command.requeue", s.pr, base, "Command: requeue", { author: { ...s.author }, comment_id: (this.commentCounter += rng.int(1, 50)) });
      } else {
        this.emit(at - 3000, "action.requeue", s.pr, base, "Rule: requeue", {});
      }
      const again = this.newSession(s.pr, s.lane, s.prio, at, s.author, this.sha(), s.requeue + 1);
      // newSession appended it; keep the not-yet-admitted arrivals in time order
      arrivals.pop();
      let k = arrivals.length;
      while (k > nextArrival && arrivals[k - 1]!.enter > at) k--;
      arrivals.splice(k, 0, again);
    } else if (rng.chance(0.05)) {
      this.emit(t + 3000, "action.close", s.pr, base, "Rule: close stale", { message: "Closing: the checks keep failing." });
    }
  }

  private bisect(lane: Lane, car: Car, failing: { state: string; check: string }, code: string, arrivals: Session[], nextArrival: number): number {
    const rng = this.rng;
    const q = lane.queue;
    const original = car.sessions.map((s) => s.pr);
    const first = car.sessions[0]!;
    const common = { queue_name: q.name, partition_name: lane.partition, priority_rule_name: first.prio };
    this.endCar(lane, car, car.end, failing.state, { code, status: "REEMBARKED" }, failing);
    const culprit = rng.pick(car.sessions);
    const giveUp = car.sessions.length >= 3 && rng.chance(0.08);
    let set = car.sessions;
    let time = car.end + 5000;
    let depth = 1;
    let reachedMax = false;
    while (set.length > 1) {
      if (this.facts) this.fact(time, FACT.bisectionStart, lane, first.prio, "", 0, depth, set.length);
      else this.emit(time, "action.queue.batch_bisection_start", null, lane.base, this.trigger(first), {
        ...common,
        original_batch_pr_numbers: original,
        batch_size_before_split: set.length,
        number_of_sub_batches: 2,
        bisection_depth: depth,
        is_top_level: depth === 1,
        session_id: first.id,
      });
      const half = Math.ceil(set.length / 2);
      const parts = [set.slice(0, half), set.slice(half)];
      let failedPart = set;
      let latest = time;
      for (const part of parts) {
        const sub = this.startCar(lane, part, time + 10_000, "Batch bisection");
        const bad = part.includes(culprit);
        sub.end = sub.start + Math.min(q.timeoutMs - MIN, Math.max(3 * MIN, rng.logNormal(q.ciMedianMs, 0.3)));
        if (bad) {
          failedPart = part;
          this.endCar(lane, sub, sub.end, failing.state, { code, status: part.length === 1 ? "DEFINITIVE" : "REEMBARKED" }, failing);
        } else {
          this.endCar(lane, sub, sub.end, "success", null, null);
        }
        latest = Math.max(latest, sub.end);
      }
      time = latest + 5000;
      set = failedPart;
      depth += 1;
      if (giveUp && depth > 2) {
        reachedMax = true;
        break;
      }
    }
    if (this.facts) this.fact(time, FACT.bisectionEnd, lane, first.prio, "", 0, 0, 0, 0, null, "", !reachedMax, reachedMax);
    else this.emit(time, "action.queue.batch_bisection_end", null, lane.base, this.trigger(first), {
      ...common,
      original_batch_pr_numbers: original,
      culprit_found: !reachedMax,
      culprit_pr_numbers: reachedMax ? [] : [culprit.pr],
      remaining_pr_numbers: original.filter((n) => reachedMax || n !== culprit.pr),
      max_failure_resolution_reached: reachedMax,
      session_id: first.id,
    });
    if (reachedMax) {
      let t = time + 3000;
      for (const s of car.sessions) {
        this.leave(s, t, "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS", false, failing);
        t += 1000;
      }
      return t + 5000;
    }
    this.leave(culprit, time + 3000, code, false, failing);
    this.afterFailure(culprit, time + 3000, arrivals, nextArrival);
    let t = time + 5000;
    for (const s of car.sessions) {
      if (s === culprit) continue;
      this.merge(s, t);
      t += 2000;
    }
    return t + 5000;
  }

  // ---------------------------------------------------------------------------------------------
  // derived events

  private emitQueueSizes(): void {
    this.sizeDeltas.sort((a, b) => a.t - b.t || a.d - b.d);
    const sizes = new Map<string, number>();
    for (const d of this.sizeDeltas) {
      const size = Math.max(0, (sizes.get(d.key) ?? 0) + d.d);
      sizes.set(d.key, size);
      if (this.facts) this.fact(d.t, FACT.change, d.lane, d.prio, "", 0, size);
      else this.emit(d.t, "action.queue.change", d.pr, d.lane.base, "Merge queue", {
        queue_name: d.lane.queue.name,
        partition_name: d.lane.partition,
        priority_rule_name: d.prio,
        size,
      });
    }
  }

  private emitRunningChecks(): void {
    this.checkDeltas.sort((a, b) => a.t - b.t || a.d - b.d);
    const running = new Map<string, number>();
    for (const d of this.checkDeltas) {
      const n = Math.max(0, (running.get(d.lane.key) ?? 0) + d.d);
      running.set(d.lane.key, n);
      if (this.facts) this.fact(d.t, FACT.checksChange, d.lane, null, "", 0, n);
      else this.emit(d.t, "action.queue.checks.change", null, d.lane.base, "Merge queue", {
        queue_name: d.lane.queue.name,
        partition_name: d.lane.partition,
        running_checks: n,
      });
    }
  }

  private makeCiIssues(): void {
    const rng = this.rng;
    let issueId = 1 + (((this.day % 100_000) + 100_000) % 100_000) * 100;
    const n = Math.min(99, rng.poisson(2));
    for (let k = 0; k < n; k++) {
      const id = ++issueId;
      const t = this.startMs + rng.int(0, DAY / 1000 - 1) * 1000;
      const name = `Flaky test: ${rng.pick(["test_checkout", "test_login", "e2e/cart.spec.ts", "TestQueueOrder"])}`;
      const meta = { ci_issue_id: id, name };
      this.emit(t, "ci_issue.created", null, null, "CI Insights", meta);
      if (rng.chance(0.7)) this.emit(t + rng.int(1, 120) * MIN, "ci_issue.linked", this.prCounter - rng.int(0, 50), "main", "CI Insights", meta);
      if (rng.chance(0.1)) this.emit(t + rng.int(1, 60) * MIN, "ci_issue.renamed", null, null, "CI Insights", { ...meta, name: `${name} (renamed)` });
      if (rng.chance(0.05)) this.emit(t + rng.int(60, 600) * MIN, "ci_issue.merged", null, null, "CI Insights", { ...meta, into: id - 1 });
      if (rng.chance(0.5)) {
        const r = t + rng.int(2, 12) * HOUR;
        this.emit(r, "ci_issue.resolved", null, null, "CI Insights", meta);
        if (rng.chance(0.15)) this.emit(r + rng.int(1, 8) * HOUR, "ci_issue.reopened", null, null, "CI Insights", meta);
      } else if (rng.chance(0.1)) {
        this.emit(t + rng.int(2, 12) * HOUR, "ci_issue.unresolved", null, null, "CI Insights", meta);
      }
    }
  }
}
