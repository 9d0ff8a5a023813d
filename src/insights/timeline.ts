// One pull request's way through the queue, for `mq pr N`: its stays, each with its steps (the
// queue events, the commands and rules that queued, requeued or dequeued it, CI retries) in time
// order, the wait before each step, and its check runs.
import { readField } from "./dialects.js";
import { compareEventTimes } from "../api/event-ids.js";
import type { LogEvent } from "../api/events.js";
import { staysOf, type Stay } from "./stays.js";

/** Events of the pull request that are not queue events but explain its stays. */
const TIMELINE_TEXT: Readonly<Record<string, (m: unknown) => string>> = {
  "command.queue": (m) => `queue command${by(m)}`,
  "command.requeue": (m) => `requeue command${by(m)}`,
  "action.requeue": () => "requeued by a rule",
  "command.dequeue": (m) => `dequeue command${by(m)}`,
  "action.unqueue": () => "removed from the queue",
  "action.dequeue": () => "removed from the queue",
  "ci_insights.job_retried": (m) => {
    const o = (m ?? {}) as Record<string, unknown>;
    const rule = typeof o.rule_name === "string" ? ` by rule ${o.rule_name}` : "";
    const attempt = typeof o.retry_attempt === "number" ? ` (attempt ${o.retry_attempt})` : "";
    return `CI job retried${rule}${attempt}`;
  },
};

function by(m: unknown): string {
  const author = (m as { author?: { login?: unknown } } | null)?.author;
  return typeof author?.login === "string" ? ` by @${author.login}` : "";
}

/** The event types whose steps explain a stay, besides the queue events. */
export const TIMELINE_EXTRA_TYPES = Object.keys(TIMELINE_TEXT);

export interface TimelineStep {
  at: number;
  /** seconds since the step before (null for the first) */
  wait: number | null;
  type: string;
  text: string;
}

export interface TimelineStay {
  stay: Stay;
  steps: TimelineStep[];
}

const newestFirst = (a: LogEvent, b: LogEvent) => compareEventTimes(b, a);

/**
 * The stays of pull request `pr` from its events and the batch bisection events that name it (they
 * carry no pull request of their own), oldest stay first.
 */
export function timelineOf(pr: number, events: readonly LogEvent[]): TimelineStay[] {
  const sorted = [...events].sort(newestFirst);
  const stays = staysOf(
    sorted.filter((e) => e.pull_request === pr || e.type.startsWith("action.queue.batch_bisection")),
    { steps: true },
  )
    .filter((s) => s.pullRequest === pr)
    .sort((a, b) => a.enteredAt - b.enteredAt);
  const out: TimelineStay[] = stays.map((stay) => ({ stay, steps: stay.steps.map((s) => ({ ...s, wait: null })) }));
  // a command or rule belongs to the first stay that had not ended when it happened: a queue
  // command just before the stay it started, a retry during it, a requeue before the next one
  for (const e of sorted) {
    if (e.pull_request !== pr) continue;
    const text = TIMELINE_TEXT[e.type];
    if (!text) continue;
    const t = Date.parse(e.received_at);
    const target = out.find((s) => t <= (s.stay.leftAt ?? Infinity));
    target?.steps.push({ at: t, wait: null, type: e.type, text: text(e.metadata) });
  }
  for (const s of out) {
    s.steps.sort((a, b) => a.at - b.at);
    for (let i = 1; i < s.steps.length; i++) s.steps[i]!.wait = Math.max(0, (s.steps[i]!.at - s.steps[i - 1]!.at) / 1000);
  }
  return out;
}

/** Whether a bisection event names pull request `pr`. */
export function bisectionNames(e: LogEvent, pr: number): boolean {
  return (readField(e.metadata, "original_batch_pr_numbers") ?? []).includes(pr);
}
