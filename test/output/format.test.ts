import { describe, expect, it } from "vitest";
import { formatCount, formatDuration, formatPercent, formatRelativeTime } from "../../src/output/format.js";

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [0.4, "<1s"],
    [42, "42s"],
    [750, "12m 30s"],
    [3600, "1h"],
    [3725, "1h 2m"],
    [93784, "1d 2h"],
  ])("%d → %s", (s, text) => expect(formatDuration(s)).toBe(text));
});

describe("formatRelativeTime", () => {
  const now = new Date("2026-11-20T12:00:00Z");
  it.each([
    ["2026-11-20T11:59:30Z", "just now"],
    ["2026-11-20T11:57:00Z", "3m ago"],
    ["2026-11-20T09:30:00Z", "2h ago"],
    ["2026-11-15T12:00:00Z", "5d ago"],
    ["2026-11-20T12:02:00Z", "in 2m"],
  ])("%s → %s", (at, text) => expect(formatRelativeTime(new Date(at), now)).toBe(text));
});

describe("numbers", () => {
  it("formats counts with separators and rates as percentages", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatPercent(0.1234)).toBe("12.3%");
  });
});

describe("formatDuration cannot be misread", () => {
  it("keeps the unit next to the largest even when it is 0: 1h 0m 29s, not 1h 29s (read as 1h 29m)", () => {
    expect(formatDuration(3629)).toBe("1h 0m 29s");
    expect(formatDuration(86_700)).toBe("1d 0h 5m");
    expect(formatDuration(3660)).toBe("1h 1m");
    expect(formatDuration(3600)).toBe("1h");
    expect(formatDuration(2703)).toBe("45m 3s");
  });
});
