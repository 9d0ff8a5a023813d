// mq exporter counts each event once, told apart by its exact id as mq logs --follow does: two events
// at one instant whose ids round to one number beyond 2^53 are two events.
import { describe, expect, it } from "vitest";
import { keepExactId } from "../../../src/api/event-ids.js";
import type { LogEvent } from "../../../src/api/events.js";
import { emptyMetrics } from "../../../src/commands/exporter/metrics.js";
import { countNew } from "../../../src/commands/exporter/run.js";
import type { ExporterState } from "../../../src/commands/exporter/state.js";

/** an enter as a page of the log gives it: parsed, its exact id kept */
function enter(idText: string, pr: number): LogEvent {
  const text = `{"id":${idText},"received_at":"2026-11-20T09:00:00.000Z","type":"action.queue.enter","pull_request":${pr},"repository":"acme/web","base_ref":"main","trigger":"t","metadata":{"queue_name":"default","partition_name":"__default__","queued_at":"2026-11-20T09:00:00.000Z"}}`;
  const ev = JSON.parse(text) as LogEvent;
  expect(keepExactId(ev, text)).toBeUndefined();
  return ev;
}

describe("mq exporter's position in a repository's log", () => {
  it("counts two events whose ids round to one number, and neither again on the next poll", () => {
    const state: ExporterState = { positions: {}, metrics: emptyMetrics(), queue: {} };
    const since = Date.parse("2026-11-20T00:00:00Z");
    const [a, b] = [enter("9007199254740993", 1), enter("9007199254740992", 2)];
    expect(a.id).toBe(b.id);
    expect(countNew(state, "acme/web", [a, b], since).map((e) => e.pull_request)).toEqual([2, 1]);
    expect(countNew(state, "acme/web", [a, b], since)).toEqual([]);
    expect(state.positions["acme/web"]!.seen).toEqual(["9007199254740992", "9007199254740993"]);
  });

  it("reads a state file's ids written as numbers", () => {
    const at = Date.parse("2026-11-20T09:00:00Z");
    const state: ExporterState = { positions: { "acme/web": { watermark: at, seen: [7] } }, metrics: emptyMetrics(), queue: {} };
    const ev = { ...enter("7", 1) };
    expect(countNew(state, "acme/web", [ev], 0)).toEqual([]);
  });
});
