// Why a pull request left the queue (or is still in it, or never entered it), from its events
// alone: for each stay, the outcome in words, the failing checks with their links, the pull requests
// that caused an eviction (the culprit a bisection found, the pull requests ahead in an aborted run),
// who dequeued it, how often it was requeued, and the next step. `mq why N` prints it; `mq wait N`
// prints its first line when a pull request leaves without merging.
import type { LogEvent } from "../api/events.js";
import { readField } from "../insights/dialects.js";
import type { CheckRun, Stay } from "../insights/stays.js";
import { timelineOf } from "../insights/timeline.js";
import { stateOf, type QueueState } from "./reconstruct.js";
import { formatTime } from "../iostreams/human.js";

export interface FailingCheck {
  name: string;
  state: string;
  url: string | null;
}

export interface Eviction {
  /** when the run that took it out ended (ms) */
  at: number;
  /** the pull requests tested together, this one included */
  batch: number[];
  /** why the run ended: its abort code, or the checks' conclusion */
  code: string;
  /** culprit: its own checks failed; bystander: others caused it */
  role: "culprit" | "bystander";
  /** the pull requests that caused it: the bisection's culprits, else those ahead of it in the run */
  causedBy: number[];
}

export interface StayWhy {
  stay: Stay;
  /** 1-based, oldest first */
  index: number;
  /** the state of a stay still open */
  state: QueueState | null;
  stateSince: number | null;
  failingChecks: FailingCheck[];
  evictions: Eviction[];
  /** who or what took it out, when the log says: "dequeue command by @alice" */
  removedBy: string | null;
  next: string;
}

export interface WhyReport {
  pullRequest: number;
  stays: StayWhy[];
  /** what the log shows of a pull request that entered no queue in the window */
  seen: { events: number; byType: Record<string, number>; lastCommand: string | null; lastCommandAt: number | null };
}

/** Abort codes that mean another pull request (or batch) ahead caused a run to stop. */
const AHEAD_CODES: ReadonlySet<string> = new Set(["BATCH_AHEAD_FAILED", "PR_AHEAD_DEQUEUED", "PR_WITH_HIGHER_PRIORITY_QUEUED"]);
const OK_STATES: ReadonlySet<string> = new Set(["success", "neutral", "skipped", "pending"]);
const CHECK_CODES: ReadonlySet<string> = new Set([
  "CHECKS_FAILED",
  "CHECKS_TIMEOUT",
  "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
  "DROPPED_BY_BISECTION_ELIMINATION",
]);

const time = (iso: unknown) => (typeof iso === "string" ? Date.parse(iso) : Number.NaN);

function checksOf(list: unknown): FailingCheck[] {
  if (!Array.isArray(list)) return [];
  const out: FailingCheck[] = [];
  for (const c of list) {
    if (c === null || typeof c !== "object") continue;
    const o = c as Record<string, unknown>;
    if (typeof o.name !== "string") continue;
    const state = typeof o.state === "string" ? o.state : "failure";
    if (OK_STATES.has(state)) continue;
    out.push({ name: o.name, state, url: typeof o.url === "string" ? o.url : null });
  }
  return out;
}

function by(m: unknown): string {
  const login = (m as { author?: { login?: unknown } } | null)?.author?.login;
  return typeof login === "string" ? ` by @${login}` : "";
}

/** Explains every stay of `pr` in the events (its own and the bisections naming it), oldest first. */
export function explain(pr: number, events: readonly LogEvent[], untilMs: number): WhyReport {
  const timeline = timelineOf(pr, events);
  const own = events.filter((e) => e.pull_request === pr);
  const bisectionEnds = events.filter((e) => e.type === "action.queue.batch_bisection_end");
  const stays = timeline.map(({ stay }, i): StayWhy => {
    const end = stay.leftAt ?? stay.mergedAt ?? untilMs;
    const mine = own.filter((e) => time(readField(e.metadata, "queued_at")) === stay.enteredAt);
    const leave = mine.find((e) => e.type === "action.queue.leave");
    // the leave's checks (and the real service's unsuccessful_checks), else the last failing run's
    let failingChecks: FailingCheck[] = [];
    if (stay.outcome !== "merged") {
      const m = (leave?.metadata ?? {}) as Record<string, unknown>;
      const seen = new Set<string>();
      failingChecks = [...checksOf(m.checks), ...checksOf(m.unsuccessful_checks)].filter((c) => !seen.has(c.name) && seen.add(c.name));
      if (failingChecks.length === 0 && stay.outcome === "failed") {
        const lastEnd = mine
          .filter((e) => e.type === "action.queue.checks_end")
          .sort((a, b) => time(b.received_at) - time(a.received_at))
          .find((e) => (readField(e.metadata, "unsuccessful_checks") ?? []).length > 0);
        failingChecks = checksOf(readField(lastEnd?.metadata, "unsuccessful_checks"));
      }
    }
    const evictions = evictionsOf(pr, stay, bisectionEnds, end);
    const state = stay.outcome === "open" ? stateOf(stay) : null;
    const removedBy = stay.outcome === "dequeued" ? removerOf(own, stay) : null;
    return {
      stay,
      index: i + 1,
      state: state?.state ?? null,
      stateSince: state?.since ?? null,
      failingChecks,
      evictions,
      removedBy,
      next: nextStep(pr, stay, failingChecks),
    };
  });
  const byType: Record<string, number> = {};
  let lastCommand: LogEvent | undefined;
  for (const e of own) {
    byType[e.type] = (byType[e.type] ?? 0) + 1;
    if (e.type.startsWith("command.") && (!lastCommand || time(e.received_at) > time(lastCommand.received_at))) lastCommand = e;
  }
  return {
    pullRequest: pr,
    stays,
    seen: {
      events: own.length,
      byType,
      lastCommand: lastCommand ? `${lastCommand.type.slice("command.".length)} command${by(lastCommand.metadata)}` : null,
      lastCommandAt: lastCommand ? time(lastCommand.received_at) : null,
    },
  };
}

/** The runs of a stay that ended for another pull request's sake, or for its own in a batch. */
function evictionsOf(pr: number, stay: Stay, bisectionEnds: readonly LogEvent[], endMs: number): Eviction[] {
  const out: Eviction[] = [];
  const ends = bisectionEnds
    .filter((e) => (readField(e.metadata, "original_batch_pr_numbers") ?? []).includes(pr))
    .map((e) => ({
      at: time(e.received_at),
      batch: readField(e.metadata, "original_batch_pr_numbers") ?? [],
      culprits: readField(e.metadata, "culprit_pr_numbers") ?? [],
    }))
    .filter((b) => b.at >= stay.enteredAt && b.at <= endMs);
  const bisected = new Set<string>();
  for (const b of ends) {
    if (b.culprits.length === 0) continue;
    bisected.add(b.batch.join(","));
    const culprit = b.culprits.includes(pr);
    out.push({
      at: b.at,
      batch: b.batch,
      code: "BISECTION",
      role: culprit ? "culprit" : "bystander",
      causedBy: culprit ? [pr] : b.culprits,
    });
  }
  for (const r of stay.runs) {
    if (r.endedAt === null || r.abortCode === null || !AHEAD_CODES.has(r.abortCode)) continue;
    if (bisected.has(r.pullRequests.join(","))) continue;
    out.push({ at: r.endedAt, batch: r.pullRequests, code: r.abortCode, role: "bystander", causedBy: ahead(r, pr) });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** The pull requests before this one in a run (a train car tests those ahead of it together with it). */
function ahead(r: CheckRun, pr: number): number[] {
  const i = r.pullRequests.indexOf(pr);
  return i > 0 ? r.pullRequests.slice(0, i) : r.pullRequests.filter((n) => n !== pr);
}

/** Who took a dequeued stay out: the last dequeue command or unqueue action up to its leave. */
function removerOf(own: readonly LogEvent[], stay: Stay): string | null {
  const left = stay.leftAt ?? Infinity;
  const e = own
    .filter((x) => ["command.dequeue", "action.unqueue", "action.dequeue"].includes(x.type))
    .filter((x) => time(x.received_at) >= stay.enteredAt && time(x.received_at) <= left)
    .sort((a, b) => time(b.received_at) - time(a.received_at))[0];
  if (!e) return null;
  return e.type === "command.dequeue" ? `dequeue command${by(e.metadata)}` : "removed by a rule or an action";
}

function nextStep(pr: number, s: Stay, failing: readonly FailingCheck[]): string {
  if (s.outcome === "merged") return `nothing to do: merged at ${formatTime(s.mergedAt ?? s.leftAt!)}`;
  if (s.outcome === "open") return `nothing to do yet: mq wait ${pr} waits until it leaves the queue`;
  const requeue = `comment "@mergifyio requeue" on #${pr}`;
  if (s.reason !== null && CHECK_CODES.has(s.reason))
    return `${failing.length ? "fix the failing checks" : "look at its checks"}, then ${requeue}`;
  if (s.reason?.startsWith("CONFLICT")) return `resolve the conflict (rebase on the base branch), then ${requeue}`;
  if (s.reason === "PR_DEQUEUED" || s.reason === "PR_MANUALLY_DEQUEUED") return `to queue it again, comment "@mergifyio queue" on #${pr}`;
  return requeue;
}
