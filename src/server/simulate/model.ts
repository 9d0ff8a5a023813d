// What the simulation is made of: the events it writes, the facts it records in their place for
// the statistics, and the things it simulates (lanes of a queue, queue sessions, train cars,
// pauses and freezes, accounts).
import type { Rng } from "./prng.js";

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
 * statistics of a day are folded from these (stats/facts.ts) exactly as from the events.
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
  /**
   * checks_end the ms of checks_ended_at; leave seconds_waiting_for_schedule; bisection start
   * batch_size_before_split; queue.change and checks.change the whole queue's (WHOLE_QUEUE)
   */
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

/**
 * On a queue.change or checks.change event's metadata (a symbol: the log never shows it): the size
 * or running checks of the whole queue, every partition together, which is what the real
 * service's events report (they name no partition). --dialect mergify serves it as the value.
 */
export const WHOLE_QUEUE = Symbol("whole queue");

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
  /** where the statistics fold keeps what it derived from the lane (stats/facts.ts): a day's lanes are few, its facts many */
  memo?: unknown;
}

export interface SimulationOptions {
  /** "owner/name" */
  repo: string;
  seed: number;
  now: Date;
  days: number;
}

export interface QueueConfig {
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

export interface Lane {
  key: string;
  base: string;
  partition: string;
  queue: QueueConfig;
  arrivals: Session[];
  /** priority -> sizeKey */
  sizeKeys: Map<string | null, string>;
}

export interface Session {
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
  /** ms waiting for the schedule and for a freeze: each hold is credited whole when it begins */
  scheduleWait: number;
  freezeWait: number;
  /**
   * the last hold (pause, freeze, closed schedule) credited to it: its kind ("" before any), from
   * when it held this session and when it ends; an early exit inside it takes back the rest
   */
  holdKind: Block["kind"] | "";
  holdStart: number;
  holdEnd: number;
  notStarted: boolean;
  author: Account;
  sha: string;
  requeue: number;
  left: boolean;
  /** facts mode: the (clamped) time of its first checks_start, NaN before */
  firstStart: number;
  /** the train car of its last checks (its check runs' URLs name it), "" before */
  lastRun: string;
  /** when its last checks ended, -Infinity before */
  lastRunEnd: number;
}

export interface Account {
  login: string;
  id: number;
  type: string;
}

export interface Block {
  start: number;
  end: number;
  kind: "pause" | "freeze" | "schedule";
  baseRefs: readonly string[] | null;
}

export interface Car {
  sessions: Session[];
  start: number;
  startIso: string;
  end: number;
  id: string;
  number: number;
  outcome: "success" | "failure" | "timeout";
}

/** the failing check of a failed run: its state (failure, timed_out) and name */
export interface Failing {
  state: string;
  check: string;
}
