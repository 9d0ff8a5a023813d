import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { ContractError, ExitCode } from "../../../src/errors.js";
import { EVENT_TYPES, TYPED_EVENT_TYPES } from "../../../src/api/dialects/spec.js";
import {
  EVENT_METADATA_SCHEMAS,
  eventSchemas,
  EventEnvelopeSchema,
  parseEventsPage,
  validateEvent,
  isTypedEvent,
} from "../../../src/api/schema/events.js";
const { EventSchema } = eventSchemas();
import { DateTimeSchema, EventTypeSchema, firstIssues } from "../../../src/api/schema/common.js";
import { contractError } from "../../helpers/contract.js";

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../src/api/fixtures/${name}`, import.meta.url), "utf8"));
const events = fixture("events.json") as Array<Record<string, unknown> & { id: number; type: string }>;
const realEvent = fixture("real-service-event.json") as Record<string, unknown>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const page = (evs: unknown[]) => ({ size: evs.length, per_page: 100, events: evs });

describe("event fixtures", () => {
  it("hold one event per type, distinct ids, received_at descending", () => {
    expect(events.map((e) => e.type).sort()).toEqual([...EVENT_TYPES].sort());
    expect(new Set(events.map((e) => e.id)).size).toBe(47);
    const times = events.map((e) => Date.parse(e.received_at as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it.each(events.map((e) => [e.type, e] as const))("%s parses strictly and round-trips", (_t, ev) => {
    const parsed = EventSchema.parse(ev);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(ev));
    expect(validateEvent(ev)).toEqual({ ok: true });
  });

  it("parse as a page without mismatches, even with strict, returning the body itself", () => {
    const body = page(events);
    const seen: string[] = [];
    const out = parseEventsPage(body, { onMetadataMismatch: (t) => seen.push(t) });
    expect(seen).toEqual([]);
    expect(out).toBe(body);
    expect(JSON.stringify(parseEventsPage(clone(body), { strict: true }))).toBe(JSON.stringify(body));
  });

  it("has a metadata schema for each of the 38 typed types and none for the 9 untyped", () => {
    expect(Object.keys(EVENT_METADATA_SCHEMAS).sort()).toEqual([...TYPED_EVENT_TYPES].sort());
    expect(TYPED_EVENT_TYPES).toHaveLength(38);
  });
});

describe("loose objects", () => {
  it("keep unknown fields everywhere, never strip them", () => {
    const ev = clone(events.find((e) => e.type === "action.queue.checks_end")!);
    ev.outcome = "failure";
    const m = ev.metadata as Record<string, unknown>;
    m.batch_id = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    (m.speculative_check_pull_request as Record<string, unknown>).pull_request_numbers = [4821];
    const parsed = EventSchema.parse(ev) as Record<string, unknown>;
    expect(parsed.outcome).toBe("failure");
    expect((parsed.metadata as Record<string, unknown>).batch_id).toBe(m.batch_id);
    expect(
      ((parsed.metadata as Record<string, unknown>).speculative_check_pull_request as Record<string, unknown>).pull_request_numbers,
    ).toEqual([4821]);
  });

  it("an event type the contract does not list parses as a generic event", () => {
    const ev = { ...clone(events[0]!), type: "product.enabled", metadata: { product: "merge-queue" } };
    expect(EventSchema.parse(ev)).toEqual(ev);
    const seen: string[] = [];
    parseEventsPage(page([ev]), { strict: true, onMetadataMismatch: (t) => seen.push(t) });
    expect(seen).toEqual([]);
  });

  it("the recursive condition evaluation is checked at depth", () => {
    const ev = clone(events.find((e) => e.type === "action.queue.leave")!);
    const cond = (ev.metadata as { conditions_evaluation: { subconditions: Array<Record<string, unknown>> } }).conditions_evaluation;
    cond.subconditions[1]!.match = "no";
    expect(validateEvent(ev)).toEqual({
      ok: false,
      level: "metadata",
      message: "metadata.conditions_evaluation.subconditions[1].match: Invalid input: expected boolean, received string",
    });
  });
});

describe("the real service's event", () => {
  it("parses with outcome kept and a mismatch callback, not an error", () => {
    const calls: Array<[string, number, string]> = [];
    const body = page([realEvent]);
    const out = parseEventsPage(body, { onMetadataMismatch: (...a) => calls.push(a) });
    expect(out.events[0]).toBe(realEvent);
    expect((out.events[0] as Record<string, unknown>).outcome).toBe("success");
    expect(calls).toEqual([["action.queue.enter", 1042, "metadata.partition_name: Invalid input: expected string, received undefined"]]);
  });

  it("skips the metadata check of a type the caller no longer asks about, but not with strict", () => {
    const calls: number[] = [];
    const body = page([realEvent, { ...realEvent, id: 1043 }]);
    const warned = new Set<string>();
    parseEventsPage(body, {
      checkMetadataOf: (type) => !warned.has(type),
      onMetadataMismatch: (type, id) => {
        warned.add(type);
        calls.push(id);
      },
    });
    expect(calls).toEqual([1042]);
    expect(() => parseEventsPage(body, { strict: true, checkMetadataOf: () => false })).toThrow(ContractError);
  });

  it("is a ContractError with strict", () => {
    const err = contractError(() => parseEventsPage(page([realEvent]), { strict: true }));
    expect(err.message).toBe(
      "response does not match the contract: events[0] (id 1042) action.queue.enter: metadata.partition_name: Invalid input: expected string, received undefined",
    );
    expect(err.exitCode).toBe(ExitCode.NETWORK);
  });

  it("checks_end with extra abort codes and no partition_name passes through unchanged", () => {
    const ev = clone(events.find((e) => e.type === "action.queue.checks_end")!);
    const m = ev.metadata as Record<string, unknown>;
    delete m.partition_name;
    m.abort_code = "CHECKS_INTERRUPTED";
    m.scopes = ["backend"];
    const seen: string[] = [];
    const out = parseEventsPage(page([ev]), { onMetadataMismatch: (t, _id, msg) => seen.push(`${t} ${msg}`) });
    expect(out.events[0]).toBe(ev);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("metadata.abort_code");
    expect(seen[0]).toContain("metadata.partition_name");
  });
});

describe("page and envelope are required", () => {
  it("a page missing per_page", () => {
    const err = contractError(() => parseEventsPage({ size: 0, events: [] }));
    expect(err.message).toBe("response does not match the contract: per_page: expected an integer, got missing");
  });

  it("a page that is not an object, or whose events is not an array", () => {
    expect(contractError(() => parseEventsPage([])).message).toBe(
      "response does not match the contract: expected a JSON object, got an array",
    );
    expect(contractError(() => parseEventsPage({ size: 0, per_page: 10, events: null })).message).toBe(
      "response does not match the contract: events: expected an array, got null",
    );
  });

  it("an event missing received_at names the field and the event id", () => {
    const evs = clone(events.slice(0, 5));
    delete (evs[3] as Record<string, unknown>).received_at;
    const err = contractError(() => parseEventsPage(page(evs)));
    expect(err.message).toBe(
      `response does not match the contract: events[3] (id ${evs[3]!.id}): received_at: expected an ISO 8601 date-time, got missing`,
    );
  });

  it.each([
    ["id", "12", "id: expected an integer, got a string"],
    ["received_at", "2026-11-20T10:00:00", 'received_at: expected an ISO 8601 date-time, got "2026-11-20T10:00:00"'],
    ["trigger", null, "trigger: expected a string, got null"],
    ["pull_request", 1.5, "pull_request: expected an integer or null, got a number"],
    ["base_ref", 3, "base_ref: expected a string or null, got a number"],
    ["metadata", [], "metadata: expected an object, got an array"],
  ])("envelope %s = %j", (field, value, message) => {
    const ev = clone(events[0]!) as Record<string, unknown>;
    ev[field] = value;
    const err = contractError(() => parseEventsPage(page([ev])));
    const id = field === "id" ? "12" : String(events[0]!.id);
    expect(err.message).toBe(`response does not match the contract: events[0] (id ${id}): ${message}`);
    expect(validateEvent(ev)).toEqual({ ok: false, level: "envelope", message });
    expect(EventEnvelopeSchema.safeParse(ev).success).toBe(false);
  });
});

describe("date-times and event types", () => {
  it.each([
    ["2026-11-20T10:00:00Z", true],
    ["2026-11-20T10:00:00.123456+00:00", true],
    ["2026-11-20T10:00:00-05:30", true],
    ["2024-02-29T00:00:00Z", true],
    ["2026-11-20T10:00:00", false],
    ["2026-02-30T00:00:00Z", false],
    ["2025-02-29T00:00:00Z", false],
    ["2026-11-20", false],
  ])("%s valid: %s", (value, ok) => {
    expect(DateTimeSchema.safeParse(value).success).toBe(ok);
  });

  it("refuses an unknown event type in the enum", () => {
    expect(EventTypeSchema.safeParse("action.queue.enter").success).toBe(true);
    expect(EventTypeSchema.safeParse("action.dequeue").success).toBe(false);
  });

  it("the whole-event schemas are built once, on first use, and shared", () => {
    const first = eventSchemas();
    expect(eventSchemas()).toBe(first);
    expect(first.EventsPageSchema.shape.events.element).toBe(first.EventSchema);
  });

  it("isTypedEvent narrows by type", () => {
    const ev = EventSchema.parse(events.find((e) => e.type === "action.queue.enter"));
    expect(isTypedEvent(ev, "action.queue.enter") && ev.metadata.queue_name).toBe("default");
  });
});

describe("firstIssues", () => {
  it("gives the same verdict and messages as safeParse", () => {
    const schema = EVENT_METADATA_SCHEMAS["action.queue.enter"];
    const good = events.find((e) => e.type === "action.queue.enter")!.metadata;
    expect(firstIssues(schema, good)).toBeUndefined();
    const bad = realEvent.metadata;
    expect(firstIssues(schema, bad)?.map((i) => i.message)).toEqual(schema.safeParse(bad).error?.issues.map((i) => i.message));
  });
});

describe("cost", () => {
  it("parses 100,000 events", () => {
    const evs = Array.from({ length: 100_000 }, (_, i) => events[i % events.length]);
    const out = parseEventsPage(page(evs), { onMetadataMismatch: () => undefined });
    expect(out.events).toHaveLength(100_000);
  });
});
