// A column of durations has one precision (src/iostreams/human.ts: alignDurations).
import { describe, expect, it } from "vitest";
import { alignDurations, formatDuration, formatDurationTo } from "../../src/iostreams/human.js";

describe("durations in a column", () => {
  it("are written to the precision of the largest: the unit below its largest unit", () => {
    // before: 5h 0m 14s beside 7h 57m
    expect(alignDurations([formatDuration(18014), formatDuration(28640), formatDuration(45)])).toEqual(["5h 0m", "7h 57m", "1m"]);
    expect(alignDurations(["36m 57s", "1h 3m", "18m 42s"])).toEqual(["37m", "1h 3m", "19m"]);
    expect(alignDurations(["36m 57s", "12s", "18m 42s"])).toEqual(["36m 57s", "12s", "18m 42s"]);
    expect(alignDurations(["1d 2h", "3h 5m", "12s", "1d"])).toEqual(["1d 2h", "3h", "<1h", "1d 0h"]);
    expect(alignDurations(["45s", "12s", "0s"])).toEqual(["45s", "12s", "0s"]);
  });

  it("keep other cells and marks as they are: -, <1s, counts, a trailing *", () => {
    expect(alignDurations(["1h 0m 29s*", "-", "<1s", "2,200", "12m 3s", "-5m 3s"])).toEqual(["1h 0m*", "-", "<1s", "2,200", "12m", "-5m"]);
  });

  it("a cell in colour (a total in bold) is aligned with the rest", () => {
    expect(alignDurations(["\x1b[1m5h 0m 14s\x1b[22m", "7h 57m"])).toEqual(["\x1b[1m5h 0m\x1b[22m", "7h 57m"]);
  });

  it("formatDurationTo writes every unit from the largest down, zeros included", () => {
    expect(formatDurationTo(90061, 1)).toBe("1d 1h 1m 1s");
    expect(formatDurationTo(90061, 60)).toBe("1d 1h 1m");
    expect(formatDurationTo(29, 60)).toBe("<1m");
    expect(formatDurationTo(0, 60)).toBe("0m");
  });
});
