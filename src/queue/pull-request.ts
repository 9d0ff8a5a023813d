// One pull request's events over a window, for `mq why N` and `mq wait N`: its own events (the
// envelope names it) and the batch bisections that name it in their metadata, read over the span of
// its stays that were tested in a batch (a bisection event carries no pull request of its own).
import type { LogEvent } from "../api/events.js";
import { bisectionNames, timelineOf } from "../insights/timeline.js";
import type { EventSource } from "../insights/walk.js";

export interface PullRequestQuery {
  owner: string;
  name: string;
  pullRequest: number;
  since: Date;
  until: Date;
  parallel?: number;
}

const BISECTIONS = ["action.queue.batch_bisection_start", "action.queue.batch_bisection_end"];

/** The pull request's events and the bisections naming it, newest first as the log sends them. */
export async function readPullRequestEvents(source: EventSource, q: PullRequestQuery): Promise<LogEvent[]> {
  const events: LogEvent[] = [];
  for await (const e of source.events({ ...q })) events.push(e);
  const batched = timelineOf(q.pullRequest, events).filter((s) => s.stay.runs.some((r) => r.pullRequests.length > 1));
  if (batched.length) {
    const from = Math.min(...batched.map((s) => s.stay.enteredAt));
    const to = Math.max(...batched.map((s) => s.stay.leftAt ?? q.until.getTime()));
    for await (const e of source.events({
      owner: q.owner,
      name: q.name,
      since: new Date(Math.max(from, q.since.getTime())),
      until: new Date(Math.min(to, q.until.getTime())),
      types: BISECTIONS,
      parallel: q.parallel,
    })) {
      if (bisectionNames(e, q.pullRequest)) events.push(e);
    }
  }
  return events;
}
