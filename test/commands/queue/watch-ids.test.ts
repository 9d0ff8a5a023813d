// mq queue --watch tells events apart as mq logs --follow does: by the exact id, beyond 2^53 too.
import { describe, expect, it } from "vitest";
import { keepExactId } from "../../../src/api/event-ids.js";
import type { LogEvent } from "../../../src/api/events.js";
import { advance } from "../../../src/commands/queue/watch.js";

/** an event as a page of the log gives it: parsed, its exact id kept */
function event(idText: string): LogEvent {
  const text = `{"id":${idText},"received_at":"2026-11-20T09:00:00.000Z","type":"action.queue.enter","pull_request":1,"repository":"acme/web","base_ref":"main","trigger":"t","metadata":{}}`;
  const ev = JSON.parse(text) as LogEvent;
  expect(keepExactId(ev, text)).toBeUndefined();
  return ev;
}

describe("mq queue --watch's position in the log", () => {
  it("two events at one instant whose ids round to one number are both new; each only once", () => {
    const f = { watermark: 0, seen: new Set<string>() };
    const [a, b] = [event("9007199254740993"), event("9007199254740992")];
    expect(a.id).toBe(b.id);
    expect([advance(f, a), advance(f, b), advance(f, a), advance(f, b)]).toEqual([true, true, false, false]);
  });
});
