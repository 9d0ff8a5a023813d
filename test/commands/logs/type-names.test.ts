import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALL_EVENT_TYPES } from "../../../src/api/dialects/index.js";
import { fitType, SHORT_TYPE_NAMES, SHORT_TYPE_WIDTH, typeLabel } from "../../../src/commands/logs/type-names.js";

const widest = Math.max(...ALL_EVENT_TYPES.map((t) => typeLabel(t).length));

describe("the TYPE column's short names", () => {
  it("cover exactly the event types of both dialects", () => {
    expect(Object.keys(SHORT_TYPE_NAMES).sort()).toEqual([...ALL_EVENT_TYPES].sort());
  });

  it("are at most SHORT_TYPE_WIDTH characters, and each is the widest that is needed", () => {
    const lengths = Object.values(SHORT_TYPE_NAMES).map((s) => s.length);
    expect(Math.max(...lengths)).toBe(SHORT_TYPE_WIDTH);
  });

  it("keep every type distinct at every column width from SHORT_TYPE_WIDTH to the widest label", () => {
    for (let width = SHORT_TYPE_WIDTH; width <= widest; width++) {
      const cells = ALL_EVENT_TYPES.map((t) => fitType(t, typeLabel(t), width));
      const seen = new Map<string, string>();
      for (const [i, cell] of cells.entries()) {
        expect(cell.length, `${ALL_EVENT_TYPES[i]} at ${width}`).toBeLessThanOrEqual(width);
        expect(seen.get(cell), `${ALL_EVENT_TYPES[i]} and ${seen.get(cell)} both read "${cell}" at ${width} columns`).toBeUndefined();
        seen.set(cell, ALL_EVENT_TYPES[i]!);
      }
    }
  });

  it("the cases a user saw merge: queue.change, queue.checks.change and command.queue", () => {
    const at = (width: number) =>
      ["action.queue.change", "action.queue.checks.change", "command.queue"].map((t) => fitType(t, typeLabel(t), width));
    // a suffix that names the type alone first ("checks.change"), never one two types share ("change")
    expect(at(13)).toEqual(["queue.change", "checks.change", "command.queue"]);
    expect(at(11)).toEqual(["q.change", "q.chk.chg", "cmd.queue"]);
  });

  it("a type no dialect has keeps its old fit: leading parts go, then it is cut", () => {
    expect(fitType("x.made_up.something_long", "x.made_up.something_long", 11)).toBe("something_…");
    expect(fitType("x.y.short", "x.y.short", 11)).toBe("x.y.short");
  });

  it("are listed in docs/logs.md", () => {
    const doc = readFileSync(new URL("../../../docs/logs.md", import.meta.url), "utf8");
    for (const [type, short] of Object.entries(SHORT_TYPE_NAMES)) {
      if (typeLabel(type).length > SHORT_TYPE_WIDTH) expect(doc, type).toContain(`| \`${type}\` | \`${short}\` |`);
    }
  });
});
