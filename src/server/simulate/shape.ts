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
/** who may queue, dequeue or requeue someone else's pull request (a bot's pull request is always queued by one of them) */
export const MAINTAINERS: readonly string[] = ["alice", "bob", "carol"];

/** each day's block of pull request numbers: its pull requests from the start, drafts from DRAFTS_FROM */
export const NUMBERS_PER_DAY = 1000;
const DRAFTS_FROM = 700;
/** the day whose block starts at #1 (2026-01-01), and how many days' blocks there are before they wrap (5 years) */
const NUMBERS_FROM_DAY = 20_454;
const NUMBER_DAYS = 2000;

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
  /** the day's first pull request number */
  readonly firstPr: number;
  /** the base branch of each of the day's pull requests, from firstPr on */
  readonly prBases: string[] = [];
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
    // Pull request numbers grow with the days, as a repository's do, and no two days share one:
    // each day has its block of NUMBERS_PER_DAY, its pull requests numbered one by one from the
    // block's start, the drafts of its batches, backports and copies from DRAFTS_FROM on (a day
    // uses well under either part). Blocks count from 2026-01-01 and wrap every NUMBER_DAYS days,
    // longer than any history the server shows (365 days and the days that reach into it), so a
    // number is one pull request within a history.
    const block = (((day - NUMBERS_FROM_DAY) % NUMBER_DAYS) + NUMBER_DAYS) % NUMBER_DAYS;
    const slot = ((day % 20_000) + 20_000) % 20_000;
    this.prCounter = block * NUMBERS_PER_DAY;
    this.firstPr = this.prCounter + 1;
    this.draftCounter = block * NUMBERS_PER_DAY + DRAFTS_FROM;
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

  /**
   * who runs a command on a pull request: its author, or one of the maintainers (always for a
   * bot's pull request); two draws in any case
   */
  commander(author: Account): Account {
    const own = this.rng.int(0, 9) >= 2;
    const maintainer = this.authors[LOGINS.indexOf(this.rng.pick(MAINTAINERS))]!;
    return own && author.type !== "Bot" ? author : maintainer;
  }

  /** a head commit's sha: its draws in any case, its text only for events */
  sha(): string {
    if (!this.factsOnly) return this.rng.hex(40);
    this.rng.skip(40);
    return "";
  }
}
