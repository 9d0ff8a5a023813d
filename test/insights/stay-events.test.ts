// stayEvent (insights/dialects.ts), what the archive keeps of each queue event for the analyses to
// read (queue_facts): every field a stay is built from reads the same from it as from the whole
// event, in both dialects and for hostile shapes, so the stays are the same whichever is parsed.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dialectOf, QUEUE_EVENT_TYPES, READINGS, readField, STAY_KEYS_SPEC, stayEvent, type Field } from "../../src/insights/dialects.js";
import type { LogEvent } from "../../src/api/events.js";
import { staysOf } from "../../src/insights/stays.js";
import { QUEUE_FACTS_SPEC_SHA256 } from "../../src/archive/db.js";
import { newestFirst, prSevenEvents } from "./fixture.js";

/** stayEvent as the archive stores it and the reader gets it back: through JSON text */
const stored = (e: unknown) => JSON.parse(JSON.stringify(stayEvent(e as LogEvent))) as LogEvent;

describe("stayEvent", () => {
  it.each(["contract", "mergify"] as const)(
    "rebuilds the fixture's stays, steps included, exactly as the whole events do (%s)",
    (dialect) => {
      const events = newestFirst(prSevenEvents(dialect)) as LogEvent[];
      expect(staysOf(events.map(stored), { steps: true })).toEqual(staysOf(events, { steps: true }));
    },
  );

  it("keeps the envelope and drops what no stay reads (a leave's checks, a head sha)", () => {
    const leave = {
      id: 5,
      received_at: "2026-11-20T10:00:00Z",
      trigger: "Rule: q",
      repository: "acme/web",
      pull_request: 7,
      base_ref: "main",
      type: "action.queue.leave",
      metadata: {
        reason: "merged",
        merged: true,
        queue_name: "default",
        checks: [{ name: "ci" }],
        pull_request_head_sha: "c5f7",
        seconds_waiting_for_freeze: 3,
      },
    };
    expect(stored(leave)).toEqual({
      id: 5,
      received_at: "2026-11-20T10:00:00Z",
      repository: "acme/web",
      pull_request: 7,
      base_ref: "main",
      type: "action.queue.leave",
      metadata: { reason: "merged", merged: true, queue_name: "default", seconds_waiting_for_freeze: 3 },
    });
  });

  it("reads every field, in every dialect, the same from it as from the whole event, whatever the metadata holds", () => {
    const keys = [
      ...new Set(Object.values(READINGS).flatMap((r) => Object.values(r.paths).flatMap((paths) => (paths ?? []).map((p) => p[0]!)))),
    ];
    const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, true, false, 0, -0, 1, 2.5, 1e21, "", "x", "2026-11-20T10:00:00Z", [], {}),
        fc.array(fc.oneof(fc.integer(), fc.constant(2 ** 60), fc.string(), fc.constant(null)), { maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom(...keys, "name", "number", "checks_started_at", "pull_request_numbers", "__proto__", "other"),
          tie("v"),
          { maxKeys: 4 },
        ),
      ),
    })).v;
    const metadata = fc.oneof(
      fc.dictionary(fc.constantFrom(...keys, "dequeue_code", "batch_id", "merge_commit_sha", "partition_names", "unrelated"), value, {
        maxKeys: 8,
      }),
      value,
    );
    fc.assert(
      fc.property(fc.constantFrom(...QUEUE_EVENT_TYPES), metadata, (type, m) => {
        // through JSON text as the server sends it (a parsed "__proto__" is an own key)
        const whole = JSON.parse(
          JSON.stringify({ id: 1, received_at: "2026-11-20T10:00:00Z", type, pull_request: 7, base_ref: "main", metadata: m }),
        ) as LogEvent;
        const cut = stored(whole);
        expect(dialectOf(type, cut.metadata)).toBe(dialectOf(type, whole.metadata));
        for (const field of Object.keys(READINGS) as Field[]) {
          for (const dialect of [undefined, "contract", "mergify"] as const) {
            expect(readField(cut.metadata, field, dialect), `${field} (${dialect})`).toEqual(readField(whole.metadata, field, dialect));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("keeps what the archive's queue_facts were computed with: a change needs a schema version that recomputes them", () => {
    const hash = createHash("sha256").update(STAY_KEYS_SPEC).digest("hex").slice(0, 16);
    expect(
      hash,
      "the keys a stay reads changed: add an archive schema version whose migration recomputes queue_facts (src/archive/db.ts), then update QUEUE_FACTS_SPEC_SHA256",
    ).toBe(QUEUE_FACTS_SPEC_SHA256);
  });
});
