// Traffic and pull requests: what arrives in the queue on a day (at a rate that follows the
// working week), the pull requests' sessions and what happens to them around the queue: the
// automation before they are queued, leaving early, what follows a merge, and the author's answer
// to a failure (a fix and a new session, or a close).
import { HOUR, MIN, iso } from "./days.js";
import type { Emission } from "./emission.js";
import type { Account, Lane, QueueConfig, Session } from "./model.js";
import { BOTS, LOGINS, type SimDay } from "./shape.js";

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

export class Traffic {
  /** the lanes that had a pull request, in the order they first had one (the order they run in) */
  readonly lanes = new Map<string, Lane>();
  /** base -> partition -> queue -> lane */
  private readonly laneIndex = new Map<string, Map<string, Map<QueueConfig, Lane>>>();

  constructor(
    private readonly day: SimDay,
    private readonly out: Emission,
  ) {}

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

  /** the day's pull requests, hour by hour, each in its lane's arrivals */
  makeArrivals(): void {
    const rng = this.day.rng;
    const startMs = this.day.startMs;
    const weekend = new Date(startMs).getUTCDay() % 6 === 0;
    // 11 working hours at 2.0 and 13 at 0.35 make an average weekday weight of about 1.1
    const perHour = this.day.dailyRate / 24 / 1.1;
    const times: number[] = [];
    for (let hour = 0; hour < 24; hour++) {
      const h = startMs + hour * HOUR;
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
    const day = this.day;
    const rng = day.rng;
    // one by one, so that the first numbers of a day's block always exist; the draw is kept so the
    // rest of the day is what it was
    rng.int(1, 3);
    const pr = ++day.prCounter;
    const base = rng.weighted<string>(day.baseWeights);
    day.prBases.push(base);
    // a few pull requests are merged by a rule, outside the queue
    if (rng.chance(0.02)) {
      this.out.emit(t, "action.merge", pr, base, "Rule: automatic merge", { branch: base });
      return;
    }
    let queue = rng.weighted<QueueConfig>(day.queueWeights);
    if (queue.officeHours && !lowriskOpen) queue = day.queues[0]!;
    const partition = base === "main" ? rng.pick(["api", "web"]) : "__default__";
    const prio = queue.name === "hotfix" ? "urgent" : rng.weighted<string | null>(PRIORITY_WEIGHTS);
    const author = rng.chance(0.1) ? day.authors[LOGINS.length + rng.int(0, BOTS.length - 1)]! : rng.pick(day.humans);
    const session = this.newSession(pr, this.lane(base, partition, queue), prio, t, author, day.sha(), 0);
    this.preActions(session);
  }

  private newSession(pr: number, lane: Lane, prio: string | null, enter: number, author: Account, sha: string, requeue: number): Session {
    const day = this.day;
    const rng = day.rng;
    const facts = day.factsOnly;
    const s: Session = {
      // facts mode: the id's draws are made, its text only when a fact needs it (Emission.sessionId)
      id: facts ? "" : rng.uuid(),
      idFrom: facts ? day.skipUuid() : null,
      pr,
      lane,
      prio,
      prioRank: prio === "urgent" ? 0 : prio === null ? 1 : 2,
      enter,
      enterIso: facts ? "" : iso(enter),
      retry: 0,
      exitAt: null,
      exitCode: null,
      scheduleWait: 0,
      freezeWait: 0,
      holdKind: "",
      holdStart: 0,
      holdEnd: 0,
      notStarted: false,
      author,
      sha,
      requeue,
      left: false,
      firstStart: NaN,
      lastRun: "",
      lastRunEnd: -Infinity,
    };
    if (rng.chance(0.07)) {
      s.exitAt = enter + Math.max(30_000, Math.round(rng.exp(6 * MIN)));
      s.exitCode = rng.weighted(EARLY_EXITS);
      if (lane.partition === "__default__" && s.exitCode === "PR_DEQUEUED_FROM_PARTITION") s.exitCode = "PR_DEQUEUED";
    }
    lane.arrivals.push(s);
    const viaCommand = requeue === 0 && rng.chance(0.6);
    if (viaCommand && facts) {
      // the draws of the event below: its time, who queued it, its comment id
      rng.skip(1);
      day.commander(author);
      day.commentCounter += rng.int(1, 50);
    } else if (viaCommand) {
      const at = enter - rng.int(2, 20) * 1000;
      const by = day.commander(author);
      this.out.emit(at, "command.queue", pr, lane.base, "Command: queue", {
        author: { ...by },
        comment_id: (day.commentCounter += rng.int(1, 50)),
        session_id: s.id,
      });
    }
    this.out.enter(s);
    return s;
  }

  /** what happens to a pull request before it is queued */
  private preActions(s: Session): void {
    const rng = this.day.rng;
    if (this.day.factsOnly) {
      // facts mode: no statistic reads these events, but the rest of the day depends on their
      // draws: each action's chance, then its time and the draws of its metadata (one each), in
      // the order below (a change there changes the facts, which stats-facts.test.ts compares)
      for (let i = 0; i < PRE_ACTION_DRAWS.length; i++) if (rng.chance(PRE_ACTION_DRAWS[i]![0])) rng.skip(PRE_ACTION_DRAWS[i]![1]);
      return;
    }
    const out = this.out;
    const { pr } = s;
    const base = s.lane.base;
    const at = () => s.enter - rng.int(10, 6 * 3600) * 1000;
    const trig = "Rule: pull request automation";
    if (rng.chance(0.4))
      out.emit(at(), "action.label", pr, base, trig, { added: ["ready-to-merge"], removed: rng.chance(0.3) ? ["wip"] : [] });
    if (rng.chance(0.25)) {
      out.emit(at(), "action.request_reviews", pr, base, trig, {
        reviewers: [rng.pick(LOGINS), rng.pick(LOGINS)].filter((v, i, a) => a.indexOf(v) === i),
        team_reviewers: rng.chance(0.5) ? ["backend"] : [],
      });
    }
    if (rng.chance(0.15)) {
      out.emit(at(), "action.review", pr, base, trig, {
        review_type: rng.pick(["APPROVE", "COMMENT", "REQUEST_CHANGES"]),
        reviewer: rng.chance(0.8) ? "mergify[bot]" : null,
        message: rng.chance(0.6) ? "Automatically approved: dependency update" : null,
      });
    }
    if (rng.chance(0.15)) out.emit(at(), "action.assign", pr, base, trig, { added: [s.author.login], removed: [] });
    if (rng.chance(0.08))
      out.emit(at(), "action.comment", pr, base, trig, { message: "Thanks! This pull request will be queued once approved." });
    if (rng.chance(0.2)) {
      out.emit(at(), "action.post_check", pr, base, trig, {
        conclusion: rng.pick(["success", "success", "failure", "neutral"]),
        title: "Pull request conventions",
        summary: "Title follows Conventional Commits",
      });
    }
    if (rng.chance(0.05)) out.emit(at(), "action.rebase", pr, base, trig, {});
    if (rng.chance(0.08)) out.emit(at(), "action.update", pr, base, trig, {});
    if (rng.chance(0.05)) out.emit(at(), "action.refresh", pr, base, "Command: refresh", {});
    if (rng.chance(0.03)) out.emit(at(), "action.edit", pr, base, trig, { draft: false });
    if (rng.chance(0.02)) out.emit(at(), "action.squash", pr, base, trig, {});
    if (rng.chance(0.02))
      out.emit(at(), "action.platform_actions", pr, base, trig, {
        workflow: "deploy-preview.yml",
        inputs: { environment: "preview", pr: String(pr) },
      });
    if (rng.chance(0.03)) out.emit(at(), "action.dismiss_reviews", pr, base, trig, { users: [rng.pick(LOGINS)] });
  }

  /**
   * a waiting pull request leaves the queue (its exitCode) at its exitAt, or just after the end of
   * checks it was in then (it was put back in the queue): never before its checks end
   */
  earlyExit(s: Session): void {
    const day = this.day;
    const rng = day.rng;
    const at = Math.max(s.exitAt!, s.lastRunEnd + 1000);
    // a hold (freeze, closed schedule) is credited whole when it begins; leaving inside it, the
    // session waited for it only until it left
    if (at < s.holdEnd) {
      const unwaited = s.holdEnd - Math.max(at, s.holdStart);
      if (s.holdKind === "freeze") s.freezeWait -= unwaited;
      else if (s.holdKind === "schedule") s.scheduleWait -= unwaited;
    }
    const code = s.exitCode!;
    const base = s.lane.base;
    if (code === "PR_MANUALLY_DEQUEUED") {
      const by = day.commander(s.author);
      this.out.emit(at - 2000, "command.dequeue", s.pr, base, "Command: dequeue", {
        author: { ...by },
        comment_id: (day.commentCounter += rng.int(1, 50)),
        session_id: s.id,
      });
      this.out.emit(at - 1000, "action.unqueue", s.pr, base, "Command: dequeue", {});
    }
    if (code === "PULL_REQUEST_UPDATED" && rng.chance(0.3))
      this.out.emit(at - 500, "action.dismiss_reviews", s.pr, base, "Rule: dismiss stale reviews", { users: [rng.pick(LOGINS)] });
    this.out.leave(s, at, code, false);
  }

  /** the queue merges a session's pull request at t (rarely, the merge fails), and what follows */
  merge(s: Session, t: number): void {
    const day = this.day;
    const rng = day.rng;
    const lane = s.lane;
    if (rng.chance(0.004)) {
      this.out.leave(s, t, "PR_UNEXPECTEDLY_FAILED_TO_MERGE", false);
      return;
    }
    this.out.merged(s, t);
    this.out.leave(s, t + 1000, null, true);
    const trig = "Rule: after merge";
    if (rng.chance(0.6)) this.out.emit(t + 3000, "action.delete_head_branch", s.pr, lane.base, trig, { branch: `feature/pr-${s.pr}` });
    if (lane.base === "main" && rng.chance(0.04)) {
      this.out.emit(t + 5000, "action.backport", s.pr, lane.base, "Rule: backport to release", {
        to: "release/v2",
        pull_request_number: ++day.draftCounter,
        conflicts: rng.chance(0.1),
      });
    }
    if (rng.chance(0.01))
      this.out.emit(t + 6000, "action.copy", s.pr, lane.base, "Rule: copy", {
        to: "develop",
        pull_request_number: ++day.draftCounter,
        conflicts: false,
      });
    if (rng.chance(0.1)) this.out.emit(t + 4000, "action.label", s.pr, lane.base, trig, { added: [], removed: ["ready-to-merge"] });
  }

  /**
   * What the author does after a failure at t: a comment from a rule, then perhaps a fix queued
   * again (a new session, put among the lane's arrivals not yet admitted: from `nextArrival` on),
   * or a close.
   */
  afterFailure(s: Session, t: number, arrivals: Session[], nextArrival: number): void {
    const day = this.day;
    const rng = day.rng;
    const base = s.lane.base;
    if (rng.chance(0.3))
      this.out.emit(t + 2000, "action.comment", s.pr, base, "Rule: notify on queue failure", {
        message: "This pull request failed the merge queue checks.",
      });
    if (rng.chance(0.25) && t < day.startMs + 17 * HOUR) {
      // the author fixes it and queues it again: a new session (of this day's simulation; not late in the day, so that the day ends)
      const at = t + rng.int(30, 240) * MIN;
      if (rng.chance(0.5)) {
        const by = day.commander(s.author);
        this.out.emit(at - 3000, "command.requeue", s.pr, base, "Command: requeue", {
          author: { ...by },
          comment_id: (day.commentCounter += rng.int(1, 50)),
        });
      } else {
        this.out.emit(at - 3000, "action.requeue", s.pr, base, "Rule: requeue", {});
      }
      const again = this.newSession(s.pr, s.lane, s.prio, at, s.author, day.sha(), s.requeue + 1);
      // newSession appended it; keep the not-yet-admitted arrivals in time order
      arrivals.pop();
      let k = arrivals.length;
      while (k > nextArrival && arrivals[k - 1]!.enter > at) k--;
      arrivals.splice(k, 0, again);
    } else if (rng.chance(0.05)) {
      this.out.emit(t + 3000, "action.close", s.pr, base, "Rule: close stale", { message: "Closing: the checks keep failing." });
    }
  }
}
