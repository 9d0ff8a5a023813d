// An event's text as sent rides on the parsed event (api/raw-json.ts): invisible to everything that
// reads the event's members, and not carried by a copy, whose members may differ from the text.
import { describe, expect, it } from "vitest";
import { attachRawJson, hasRawJson, rawJsonLines, rawJsonOf, rawMemberOf } from "../../src/api/raw-json.js";

const TEXT = '{"id":12345678901234567890,"m":{"a":"\\u00e9"}}';

function parsed(): Record<string, unknown> {
  const event = JSON.parse(TEXT) as Record<string, unknown>;
  attachRawJson(event, TEXT, { start: 0, end: TEXT.length, spaced: false }, Buffer.from(TEXT, "latin1"));
  return event;
}

describe("attachRawJson", () => {
  it("the text is the event's alone: no key, symbol or JSON shows it, and a copy does not carry it", () => {
    const event = parsed();
    expect(rawJsonOf(event)).toBe(TEXT);
    expect(rawMemberOf(event, "id")).toBe("12345678901234567890");
    expect(Object.keys(event)).toEqual(["id", "m"]);
    expect(Object.getOwnPropertySymbols(event)).toEqual([]);
    expect(Reflect.ownKeys(event)).toEqual(["id", "m"]);
    expect(JSON.stringify(event)).toBe('{"id":12345678901234567000,"m":{"a":"é"}}');
    const copy = { ...event };
    expect(hasRawJson(copy)).toBe(false);
    expect(rawJsonOf(copy)).toBeUndefined();
    expect(rawJsonOf(structuredClone(event))).toBeUndefined();
    expect(rawJsonLines([event, copy])).toBeUndefined();
    expect(rawJsonLines([event])!.toString("latin1")).toBe(TEXT + "\n");
  });

  it("attached again, the newer text wins; frozen and array values take one too", () => {
    const event = parsed();
    attachRawJson(event, '{"id":1}', { start: 0, end: 8, spaced: false });
    expect(rawJsonOf(event)).toBe('{"id":1}');
    const frozen = Object.freeze(JSON.parse("[1.0]") as unknown[]);
    attachRawJson(frozen, "[1.0]", { start: 0, end: 5, spaced: false });
    expect(rawJsonOf(frozen)).toBe("[1.0]");
    expect(rawJsonOf({})).toBeUndefined();
    expect(rawJsonOf(null)).toBeUndefined();
    expect(hasRawJson("x")).toBe(false);
  });
});
