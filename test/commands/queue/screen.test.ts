// mq queue on a terminal with a queue longer than a screen: the first 30 rows, and a line saying how
// many there are and what shows them all (iostreams/long-list.ts); a pipe's -o table gets every row.
import { describe, expect, it } from "vitest";
import { renderQueueTable } from "../../../src/commands/queue/table.js";
import type { QueueRecord } from "../../../src/queue/records.js";
import { testContext } from "../../helpers/context.js";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

/** A queue of N pull requests, one lane, in position order. */
function queue(n: number): QueueRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    repository: "acme/web",
    pull_request: 1000 + i,
    base_ref: "main",
    queue_name: "default",
    partition_name: null,
    priority_rule_name: null,
    position: i + 1,
    entered_at: at(60 - i),
    time_in_queue: (60 - i) * 60,
    state: i < 3 ? "checks_running" : "waiting_for_capacity",
    state_since: at(5),
    batch_with: [],
    eta_p50: at(-10 - i),
    eta_p90: at(-20 - i),
    eta_sample: 40,
    eta_basis: "position",
    entered_before_lookback: false,
  }));
}

describe("mq queue longer than a screen", () => {
  it("on a terminal: the first 30 pull requests, then the line saying there are 45 and what shows them", () => {
    const ctx = testContext({ tty: true, columns: 120, env: { NO_COLOR: "1" } });
    let more: string | undefined;
    const text = renderQueueTable(queue(45), NOW, ctx, { more: (line) => (more = line) });
    const prs = text.split("\n").flatMap((l) => /#(\d+) /.exec(l)?.[1] ?? []);
    expect(prs).toEqual(Array.from({ length: 30 }, (_, i) => String(1000 + i)));
    expect(more).toBe("the first 30 of 45 pull requests in the queue; -o table | less shows them all");
  });

  it("in a pipe (-o table): every pull request, and no such line", () => {
    const ctx = testContext({ env: { NO_COLOR: "1" } });
    let more: string | undefined;
    const text = renderQueueTable(queue(45), NOW, ctx, { more: (line) => (more = line) });
    expect(text.split("\n").filter((l) => /#\d+ /.test(l))).toHaveLength(45);
    expect(more).toBeUndefined();
  });

  it("30 exactly fit a screen: no line", () => {
    const ctx = testContext({ tty: true, columns: 120, env: { NO_COLOR: "1" } });
    let more: string | undefined;
    renderQueueTable(queue(30), NOW, ctx, { more: (line) => (more = line) });
    expect(more).toBeUndefined();
  });
});
