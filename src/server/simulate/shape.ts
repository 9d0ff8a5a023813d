// What every part of a simulated day shares: the repository's shape (its base branches, queues,
// accounts and traffic, from seed x repository), the day's random stream (seed x repository x
// day), its bounds and the running counters of pull request and comment numbers.
//
// Everything random comes from one seeded Rng: no Math.random, no clock. The parts draw from it in
// turn, so the order of their calls is the day's history: moving a call moves every draw after it.
import { Rng, hash32 } from "./prng.js";
import { DAY, MIN, reachOf } from "./days.js";
import type { Account, QueueConfig } from "./model.js";

export const LOGINS = [
  "alice",
  "bob",
  "carol",
  "dave",
  "erin",
  "frank",
  "grace",
  "heidi",
  "ivan",
  "judy",
  "mallory",
  "niaj",
  "olivia",
  "peggy",
  "rupert",
  "sybil",
  "trent",
  "victor",
  "walter",
  "yves",
];
export const BOTS = ["dependabot[bot]", "renovate[bot]"];

const QUEUE_WEIGHTS = (q: QueueConfig[]): Array<readonly [QueueConfig, number]> => [
  [q[0]!, 0.75],
  [q[1]!, 0.07],
  [q[2]!, 0.18],
];

/** One simulated day of one repository: the state its parts share. */
export class SimDay {
  readonly rng: Rng;
  readonly startMs: number;
  /** nothing a day does reaches past this (see reachOf) */
  readonly limitMs: number;
  /** facts mode (simulateDayFacts): queue events become facts, other events are not built */
  readonly factsOnly: boolean;
  prCounter: number;
  draftCounter: number;
  commentCounter: number;
  readonly baseRefs: string[];
  readonly queues: QueueConfig[];
  readonly authors: Account[];
  readonly humans: Account[];
  readonly baseWeights: Array<readonly [string, number]>;
  readonly queueWeights: Array<readonly [QueueConfig, number]>;
  readonly dailyRate: number;

  constructor(
    readonly repo: string,
    seed: number,
    readonly day: number,
    factsOnly: boolean,
  ) {
    this.factsOnly = factsOnly;
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
      {
        name: "default",
        maxBatch: 4,
        speculative: 2,
        ciMedianMs: 14 * MIN,
        timeoutMs: 45 * MIN,
        maxRetries: 2,
        officeHours: false,
        failureRate: 0.12,
      },
      {
        name: "hotfix",
        maxBatch: 1,
        speculative: 1,
        ciMedianMs: 9 * MIN,
        timeoutMs: 30 * MIN,
        maxRetries: null,
        officeHours: false,
        failureRate: 0.08,
      },
      {
        name: "lowrisk",
        maxBatch: 8,
        speculative: 1,
        ciMedianMs: 20 * MIN,
        timeoutMs: 60 * MIN,
        maxRetries: 1,
        officeHours: true,
        failureRate: 0.16,
      },
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

  /** facts mode: where a uuid's 32 draws start (to make it later), the stream moved past them */
  skipUuid(): Rng {
    const at = this.rng.snapshot();
    this.rng.skip(32);
    return at;
  }

  /** a head commit's sha: its draws in any case, its text only for events */
  sha(): string {
    if (!this.factsOnly) return this.rng.hex(40);
    this.rng.skip(40);
    return "";
  }
}
