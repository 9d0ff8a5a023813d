// What makes a simulated history one that could happen, checked over the events of any number of
// days: each pull request has one life (merged at most once, one base branch, commands from its
// author or a maintainer), each queue session enters once, leaves once and has nothing after its
// leave, each train car's checks end after they start, check runs have their own URLs, queue
// sizes and running checks move by one from zero and never go negative, a stay's schedule and
// freeze waits and its checks' running time fit in it, a merge follows passing
// checks and a failure's exit follows failing ones, and a bisection's culprit is the pull request
// whose checks failed. Both dialects: the real service's names are mapped to the contract's.
import { toMergifyEvent } from "../../src/server/dialects/mergify-events.js";
import { simulateDay } from "../../src/server/simulate/index.js";
import { MAINTAINERS } from "../../src/server/simulate/shape.js";
import type { StoredEvent } from "../../src/server/store.js";

type Meta = Record<string, unknown>;
export interface Ev {
  id: number;
  received_at: string;
  pull_request: number | null;
  base_ref: string | null;
  type: string;
  metadata: Meta;
}

interface Pr {
  base: string | null;
  merges: number;
  commanders: Set<string>;
  open: string | null;
}
interface SessionState {
  pr: number;
  entered: number;
  left: number | null;
  lastRun: { conclusion: string; code: string | null } | null;
  merged: boolean;
  /** ms its checks ran, start to end, over all its cars */
  checking: number;
}

const TERMINAL = new Set(["action.queue.merged", "action.merge"]);
const COMMANDS = new Set(["command.queue", "command.dequeue", "command.requeue"]);

/** Feeds events day by day (any order across days, time order within what is fed at once); `problems` lists what cannot happen. */
export class HistoryChecker {
  readonly problems: string[] = [];
  private readonly prs = new Map<number, Pr>();
  private readonly sessions = new Map<string, SessionState>();
  /** train car -> its start's pull requests and the sessions whose end was seen */
  private readonly cars = new Map<string, { prs: string; ends: Set<string>; start: number }>();
  /** check url -> train car */
  private readonly urls = new Map<string, string>();
  /** per queue (lane + priority) and per lane: the last size and running-check count, per simulated day */
  private sizes = new Map<string, number>();
  private running = new Map<string, number>();
  readonly counts = { events: 0, merges: 0, sessions: 0, leaves: 0, bisections: 0, cars: 0 };

  /** `limit`: how many problems are kept (a broken history has thousands) */
  constructor(private readonly limit = 50) {}

  private fail(e: Ev, what: string): void {
    if (this.problems.length < this.limit) this.problems.push(`#${e.pull_request ?? "-"} ${e.type} ${e.received_at}: ${what}`);
  }

  /** one simulated day's events (its derived sizes and running checks start from zero) */
  day(events: readonly Ev[]): void {
    this.sizes = new Map();
    this.running = new Map();
    // a simulated day comes in id order: sorted only when it is not (a sort was a tenth of the check)
    const inOrder = events.every((e, i) => i === 0 || events[i - 1]!.id < e.id);
    for (const e of inOrder ? events : [...events].sort((a, b) => a.id - b.id)) this.event(e);
  }

  private event(e: Ev): void {
    this.counts.events++;
    const m = e.metadata;
    const type = e.type;
    if (e.pull_request !== null && !type.startsWith("ci_issue.") && !type.startsWith("test.") && !type.startsWith("ci_insights.auto")) {
      let pr = this.prs.get(e.pull_request);
      if (!pr) this.prs.set(e.pull_request, (pr = { base: e.base_ref, merges: 0, commanders: new Set(), open: null }));
      if (pr.base !== e.base_ref) this.fail(e, `base ${e.base_ref}, was ${pr.base}`);
      if (TERMINAL.has(type)) {
        pr.merges++;
        this.counts.merges++;
        if (pr.merges > 1) this.fail(e, "merged a second time");
      }
      if (COMMANDS.has(type)) {
        const login = String((m.author as Meta | undefined)?.login ?? "");
        if (login.endsWith("[bot]")) this.fail(e, `command by a bot, ${login}`);
        if (!MAINTAINERS.includes(login)) pr.commanders.add(login);
        if (pr.commanders.size > 1) this.fail(e, `commands by ${[...pr.commanders].join(", ")}, who are not all maintainers`);
      }
      if (type === "action.queue.enter") {
        if (pr.merges > 0) this.fail(e, "queued after its merge");
        if (pr.open !== null) this.fail(e, `entered while its session ${pr.open} is open`);
        pr.open = String(m.session_id);
      }
    }
    const sid = typeof m.session_id === "string" ? m.session_id : null;
    if (type === "action.queue.enter") {
      if (this.sessions.has(sid!)) this.fail(e, "a session entered twice");
      // (the time read only for a session's events: parsing every event's was a sixth of the check)
      this.sessions.set(sid!, {
        pr: e.pull_request!,
        entered: Date.parse(e.received_at),
        left: null,
        lastRun: null,
        merged: false,
        checking: 0,
      });
      this.counts.sessions++;
    } else if (
      sid !== null &&
      type.startsWith("action.queue.") &&
      !type.startsWith("action.queue.batch_bisection") &&
      type !== "action.queue.conflict_deferred"
    ) {
      const s = this.sessions.get(sid);
      if (!s) {
        this.fail(e, "an event of a session that never entered");
        return;
      }
      if (s.left !== null) this.fail(e, "an event of a session after its leave");
      if (Date.parse(e.received_at) < s.entered) this.fail(e, "an event of a session before its enter");
      if (type === "action.queue.checks_start") this.checksStart(e);
      else if (type === "action.queue.checks_end") this.checksEnd(e, s, sid);
      else if (type === "action.queue.merged") {
        s.merged = true;
        const run = s.lastRun;
        if (!run || !(run.conclusion === "success" || run.code === "INTERMEDIATE_RESULTS_SKIPPED"))
          this.fail(e, `merged after checks ${run ? `${run.conclusion}/${run.code}` : "that never ran"}`);
      } else if (type === "action.queue.leave") this.leave(e, s);
    }
    if (type === "action.queue.batch_bisection_end") this.bisectionEnd(e);
    // (the real service's events name no partition: their key is the whole queue's)
    if (type === "action.queue.change")
      this.step(e, this.sizes, `${e.base_ref}|${m.partition_name}|${m.queue_name}|${m.priority_rule_name}`, Number(m.size));
    if (type === "action.queue.checks.change")
      this.step(e, this.running, `${e.base_ref}|${m.partition_name}|${m.queue_name}`, Number(m.running_checks));
    this.checkUrls(e);
  }

  /** sizes and counts start at 0 and move by one; never negative */
  private step(e: Ev, map: Map<string, number>, key: string, value: number): void {
    const before = map.get(key) ?? 0;
    if (value < 0) this.fail(e, `negative ${value}`);
    if (Math.abs(value - before) !== 1) this.fail(e, `${key}: ${before} then ${value}`);
    map.set(key, value);
  }

  private checksStart(e: Ev): void {
    const car = String(e.metadata.train_car_id ?? e.metadata.batch_id);
    const prs = JSON.stringify(e.metadata.pull_request_numbers ?? (e.metadata.speculative_check_pull_request as Meta).pull_request_numbers);
    const c = this.cars.get(car);
    if (!c) {
      this.cars.set(car, { prs, ends: new Set(), start: Date.parse(e.received_at) });
      this.counts.cars++;
    } else if (c.prs !== prs) this.fail(e, "a car's pull requests differ between its starts");
  }

  private checksEnd(e: Ev, s: SessionState, sid: string): void {
    const m = e.metadata;
    const car = String(m.train_car_id ?? m.batch_id);
    const c = this.cars.get(car);
    if (!c) {
      this.fail(e, "checks end without a start");
      return;
    }
    if (c.ends.has(sid)) this.fail(e, "checks end twice");
    c.ends.add(sid);
    if (Date.parse(e.received_at) < c.start) this.fail(e, "checks end before they start");
    const spec = m.speculative_check_pull_request as Meta;
    s.lastRun = { conclusion: String(spec.checks_conclusion), code: (m.abort_code as string | null) ?? null };
    s.checking += Date.parse(e.received_at) - c.start;
  }

  private leave(e: Ev, s: SessionState): void {
    const m = e.metadata;
    s.left = Date.parse(e.received_at);
    this.counts.leaves++;
    // a hold (schedule or freeze) stops checks, so the waits and the checks' time fit in the stay
    // (each wait is rounded to the second)
    const parts = (Number(m.seconds_waiting_for_schedule ?? 0) + Number(m.seconds_waiting_for_freeze ?? 0)) * 1000 + s.checking;
    if (parts > s.left - s.entered + 1000) this.fail(e, `waits and checks ${parts} ms in a stay of ${s.left - s.entered} ms`);
    const pr = this.prs.get(s.pr);
    if (pr) pr.open = null;
    if ((m.merged === true) !== s.merged) this.fail(e, `leave merged=${m.merged}, merged event ${s.merged}`);
    const code = typeof m.dequeue_code === "string" ? m.dequeue_code : String(m.reason);
    const run = s.lastRun;
    if (/CHECKS_FAILED|checks failed/i.test(code) && !(run && run.conclusion === "failure"))
      this.fail(e, `left for failed checks after checks ${run?.conclusion}`);
    if (/CHECKS_TIMEOUT|timed out/i.test(code) && !(run && run.conclusion === "timed_out"))
      this.fail(e, `left for timed-out checks after checks ${run?.conclusion}`);
  }

  private bisectionEnd(e: Ev): void {
    this.counts.bisections++;
    const m = e.metadata;
    const original = m.original_batch_pr_numbers as number[];
    const culprits = (m.culprit_pr_numbers ?? m.confirmed_culprit_pr_numbers) as number[];
    if (m.culprit_found === true && culprits.length !== 1) this.fail(e, "culprit found, but not one");
    for (const c of culprits) if (!original.includes(c)) this.fail(e, `culprit #${c} not in the batch`);
    if (m.max_failure_resolution_reached === true && m.culprit_found === true) this.fail(e, "culprit found and resolution given up");
  }

  /** a check run's URL names one run: one train car */
  private checkUrls(e: Ev): void {
    const m = e.metadata;
    const car = typeof m.train_car_id === "string" ? m.train_car_id : typeof m.batch_id === "string" ? m.batch_id : null;
    if (car === null) return;
    const spec = m.speculative_check_pull_request as Meta | undefined;
    for (const c of (spec?.unsuccessful_checks ?? []) as Meta[]) {
      if (typeof c.url !== "string") continue;
      const was = this.urls.get(c.url);
      if (was !== undefined && was !== car) this.fail(e, `check URL ${c.url} of two runs`);
      this.urls.set(c.url, car);
    }
  }

  /** after the last day: every car's start had its ends, every session left */
  finish(): void {
    for (const [id, c] of this.cars) {
      const n = (JSON.parse(c.prs) as number[]).length;
      if (c.ends.size !== n) this.problems.push(`car ${id}: ${n} pull requests, ${c.ends.size} ends`);
    }
    for (const [id, s] of this.sessions) if (s.left === null) this.problems.push(`session ${id} of #${s.pr} never left`);
  }
}

/** the checker's verdict on `days` simulated days from `first`, in a dialect */
export function checkDays(repo: string, seed: number, first: number, days: number, mergify: boolean): HistoryChecker {
  const checker = new HistoryChecker();
  for (let d = first; d < first + days; d++) {
    const events = simulateDay({ repo, seed, day: d }) as StoredEvent[];
    checker.day((mergify ? events.map(toMergifyEvent) : events) as unknown as Ev[]);
  }
  checker.finish();
  return checker;
}
