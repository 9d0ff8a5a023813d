import { describe, expect, it } from "vitest";
import {
  FACTOR_FROM,
  formatAge,
  formatBytes,
  formatChange,
  formatCount,
  formatDuration,
  formatInstant,
  formatPercent,
  formatTime,
  formatTimeText,
  TIME_WIDTH,
} from "../../src/output/format.js";

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

describe("formatAge: the one form of an age (kubectl's AGE)", () => {
  const now = new Date("2026-11-20T12:00:00Z");
  it.each([
    ["2026-11-20T11:59:55Z", "now"],
    ["2026-11-20T11:59:30Z", "30s"],
    ["2026-11-20T11:57:00Z", "3m"],
    ["2026-11-20T09:30:00Z", "2h"],
    ["2026-11-15T12:00:00Z", "5d"],
    ["2026-11-20T12:02:00Z", "in 2m"],
  ])("%s → %s", (at, text) => expect(formatAge(new Date(at), now)).toBe(text));
  it("takes milliseconds too, and says '-' for no time", () => {
    expect(formatAge(Date.parse("2026-11-20T11:57:00Z"), now)).toBe("3m");
    expect(formatAge(Number.NaN, now)).toBe("-");
  });
});

describe("formatTime: the one form of an absolute time on a terminal", () => {
  it("is UTC to the second, the date first, the zone said by Z, whatever the process's time zone", () => {
    expect(formatTime(new Date("2026-11-20T11:58:03.767Z"))).toBe("2026-11-20 11:58:03Z");
    expect(formatTime(Date.parse("2026-11-20T13:58:03+02:00"))).toBe("2026-11-20 11:58:03Z");
    expect(formatTime(Date.parse("2026-11-20T00:00:00Z"))).toBe("2026-11-20 00:00:00Z");
    expect(formatTime(Number.NaN)).toBe("-");
    expect(formatTime(0).length).toBe(TIME_WIDTH);
  });
  it("cuts to the second rather than rounding up into the next one", () => {
    expect(formatTime(Date.parse("2026-11-20T23:59:59.999Z"))).toBe("2026-11-20 23:59:59Z");
  });
  it("formatTimeText gives the same text from an instant's own text, without a Date", () => {
    for (const text of ["2026-11-20T11:58:03Z", "2026-11-20T11:58:03.123456Z", "2026-11-20T11:58:03+00:00", "2026-11-20T11:58:03z"])
      expect(formatTimeText(text)).toBe(formatTime(Date.parse(text)));
    // other offsets, and days a month may not have, are left to Date
    expect(formatTimeText("2026-11-20T13:58:03+02:00")).toBeUndefined();
    expect(formatTimeText("2026-02-30T11:58:03Z")).toBeUndefined();
    expect(formatTimeText("yesterday")).toBeUndefined();
  });
  it("is not the raw form records and the API carry (formatInstant)", () => {
    expect(formatInstant(new Date("2026-11-20T11:58:03Z"))).toBe("2026-11-20T11:58:03Z");
    expect(formatInstant(Date.parse("2026-11-20T11:58:03.5Z"))).toBe("2026-11-20T11:58:03.500Z");
  });
});

describe("formatChange: a percentage, then a factor from FACTOR_FROM on", () => {
  it.each([
    [0.12, "▲ 12%"],
    [-0.03, "▼ 3.0%"],
    [-0.003, "▼ 0.3%"],
    [0, "= 0%"],
    [-1, "▼ 100%"],
    [0.994, "▲ 99%"],
    [1, "▲ ×2.0"],
    [1.31, "▲ ×2.3"],
    [8.99, "▲ ×9.9"],
    [9, "▲ ×10"],
    [330.13, "▲ ×331"],
    [12_040, "▲ ×12,041"],
  ])("%d → %s", (delta, text) => expect(formatChange(delta)).toBe(text));
  it("the threshold is a doubling: +100%", () => expect(FACTOR_FROM).toBe(1));
  it("no five-digit percentage, whatever the change", () => {
    for (let delta = -1; delta < 100_000; delta = delta < 1 ? delta + 0.01 : delta * 1.7)
      expect(formatChange(delta)).not.toMatch(/\d{4,}%/);
  });
});

describe("formatBytes: binary units, the number under 1,024", () => {
  it.each([
    [0, "0 B"],
    [512, "512 B"],
    [1024, "1 KiB"],
    [1536, "1.5 KiB"],
    [25_740_089, "24.5 MiB"],
    [64 * 1024 * 1024, "64 MiB"],
    [5 * 1024 ** 4, "5 TiB"],
  ])("%d → %s", (n, text) => expect(formatBytes(n)).toBe(text));
});

describe("numbers", () => {
  it("formats counts with separators and rates as percentages", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(2.5)).toBe("2.5");
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
