import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { appendQuery, type QueryInput } from "../../src/api/client.js";

/** What the transport puts after the "?" for these parameters. */
function encodeQuery(query: QueryInput): string {
  const params = new URLSearchParams();
  appendQuery(params, query);
  return params.toString();
}
import { decodeQuery, LogsQuerySchema, StatsFilterSchema } from "../../src/api/schema/params.js";
import { EVENT_TYPES } from "../../src/api/dialects/spec.js";

describe("query parameters (appendQuery)", () => {
  it("is empty for no parameters", () => {
    expect(encodeQuery({})).toBe("");
    expect(encodeQuery({ a: undefined, b: null })).toBe("");
  });

  it("keeps insertion order, repeats array keys, skips null and undefined", () => {
    expect(
      encodeQuery({ per_page: 100, event_type: ["action.queue.enter", "action.queue.leave"], cursor: undefined, x: null, on: true }),
    ).toBe("per_page=100&event_type=action.queue.enter&event_type=action.queue.leave&on=true");
  });

  it("percent-encodes as URLSearchParams does", () => {
    expect(encodeQuery({ received_from: "2026-11-20T10:00:00+01:00", base_ref: "feature/a b&c" })).toBe(
      "received_from=2026-11-20T10%3A00%3A00%2B01%3A00&base_ref=feature%2Fa+b%26c",
    );
  });

  it("an empty array adds nothing", () => {
    expect(encodeQuery({ a: [], b: 1 })).toBe("b=1");
  });
});

describe("encodeQuery round trip through decodeQuery", () => {
  it("logs parameters", () => {
    const q = {
      pull_request: 4821,
      base_ref: "release/4.2 + hotfix",
      event_type: ["action.queue.enter", "ci_issue.created"],
      received_from: "2026-11-19T12:00:00+05:30",
      received_to: "2026-11-20T12:00:00Z",
      cursor: "abc/def==&x",
      per_page: 100,
    };
    expect(decodeQuery(new URLSearchParams(encodeQuery(q)), LogsQuerySchema)).toEqual({ ok: true, value: q });
  });

  it("any valid stats filter (property)", () => {
    const name = fc.string({ minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        fc.record(
          { base_ref: fc.array(name, { minLength: 1, maxLength: 4 }), queue_name: fc.array(name, { minLength: 1, maxLength: 4 }) },
          { requiredKeys: [] },
        ),
        (q) => {
          expect(decodeQuery(new URLSearchParams(encodeQuery(q)), StatsFilterSchema)).toEqual({ ok: true, value: q });
        },
      ),
    );
  });

  it("any valid logs query (property)", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            pull_request: fc.integer({ min: 1, max: 2147483646 }),
            per_page: fc.integer({ min: 1, max: 100 }),
            event_type: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { minLength: 1, maxLength: 5 }),
            cursor: fc.string(),
          },
          { requiredKeys: [] },
        ),
        (q) => {
          expect(decodeQuery(new URLSearchParams(encodeQuery(q)), LogsQuerySchema)).toEqual({ ok: true, value: q });
        },
      ),
    );
  });
});
