import { describe, expect, it } from "vitest";
import { rawEventTexts } from "../../src/archive/raw-events.js";

describe("rawEventTexts", () => {
  it("cuts out each event as written: spacing, key order, number spelling and escapes kept", () => {
    const a = `{ "id" : 1, "x": 1.50, "s": "a\\"]}\\\\", "n": {"deep": [1, {"b": "}"}]} }`;
    const b = `{"id":2,"u":"\\u00e9\\ud83d\\ude00 é","e":1E+2}`;
    const page = `{"size": 2,"per_page":100,\n  "events" : [ ${a} ,\n${b}\n] , "tail": [1,2]}`;
    expect(rawEventTexts(page)).toEqual([a, b]);
    for (const raw of rawEventTexts(page)) expect(() => JSON.parse(raw)).not.toThrow();
  });

  it("reads an empty array and takes the last of repeated keys, as JSON.parse does", () => {
    expect(rawEventTexts(`{"events":[]}`)).toEqual([]);
    expect(rawEventTexts(`{"events":[{"id":1}],"ev\\u0065nts":[{"id":2}]}`)).toEqual([`{"id":2}`]);
  });

  it("refuses a page without an events array", () => {
    expect(() => rawEventTexts(`{"size":0}`)).toThrow(/no events array/);
    expect(() => rawEventTexts(`[1]`)).toThrow(/not a JSON object/);
  });

  it("agrees with JSON.parse on generated pages", () => {
    const events = Array.from({ length: 50 }, (_, i) => ({
      id: i,
      t: "x".repeat(i % 7) + '\\"]}',
      arr: [i, { k: [] }],
      nil: null,
      b: i % 2 === 0,
    }));
    const page = JSON.stringify({ size: 50, per_page: 100, events }, null, 2);
    const cut = rawEventTexts(page).map((r) => JSON.parse(r));
    expect(cut).toEqual(events);
  });
});
