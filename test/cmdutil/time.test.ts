import { describe, expect, it } from "vitest";
import { formatInstant, parseTimeFlag, parseTimeWindow } from "../../src/cmdutil/time.js";
import { UsageError } from "../../src/errors.js";

const now = new Date("2026-11-20T12:00:00Z");

describe("parseTimeFlag", () => {
  it.each([
    ["30m", "2026-11-20T11:30:00Z"],
    ["6h", "2026-11-20T06:00:00Z"],
    ["7d", "2026-11-13T12:00:00Z"],
    ["2w", "2026-11-06T12:00:00Z"],
    ["2026-11-01T09:00:00Z", "2026-11-01T09:00:00Z"],
    ["2026-11-01T09:00:00+02:00", "2026-11-01T07:00:00Z"],
    ["2026-11-01T09:00Z", "2026-11-01T09:00:00Z"],
  ])("%s resolves to %s", (value, expected) => {
    expect(formatInstant(parseTimeFlag("--since", value, now))).toBe(expected);
  });

  it.each(["20000000w", "99999999999w", "3000000d"])("rejects %s, which reaches back before 1970", (value) => {
    expect(() => parseTimeFlag("--since", value, now)).toThrow(
      `--since "${value}" reaches back before 1970: give a shorter duration or a date-time.`,
    );
  });

  it("rejects a date-time without a timezone, saying how to fix it", () => {
    expect(() => parseTimeFlag("--since", "2026-11-01T09:00:00", now)).toThrow(
      new UsageError(
        '--since "2026-11-01T09:00:00" has no timezone: add Z or an offset (e.g. 2026-11-01T09:00:00Z), or give a date (midnight UTC) or a duration such as 7d.',
      ),
    );
  });

  it("takes a calendar date as midnight UTC", () => {
    expect(parseTimeFlag("--since", "2026-11-01", now).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(parseTimeFlag("--since", " 2024-02-29 ", now).toISOString()).toBe("2024-02-29T00:00:00.000Z");
  });

  it.each([
    ["1h30m", 5400],
    ["2d12h", 216000],
    ["1w2d6h5m4s", 799504],
    ["90s", 90],
  ])("takes the compound duration %s as %i seconds ago", (value, seconds) => {
    expect(parseTimeFlag("--since", value, now).getTime()).toBe(now.getTime() - seconds * 1000);
  });

  it.each(["30m1h", "1h1h", "1h 30m", "h", "1.5h", "2026-02-29", "2026-11-31"])("refuses %j", (value) => {
    expect(() => parseTimeFlag("--since", value, now)).toThrow(UsageError);
  });

  it.each(["2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-01T25:00:00Z", "yesterday", "7 days", "-7d", ""])(
    "rejects %j",
    (value) => {
      expect(() => parseTimeFlag("--until", value, now)).toThrow(UsageError);
    },
  );
});

describe("parseTimeWindow", () => {
  it("rejects --since after --until", () => {
    expect(() => parseTimeWindow({ since: "1d", until: "2d" }, now)).toThrow(
      "--since (2026-11-19T12:00:00Z) is after --until (2026-11-18T12:00:00Z): --since must be earlier.",
    );
  });

  it("rejects a --since in the future when --until is left to now", () => {
    expect(() => parseTimeWindow({ since: "2099-01-01T00:00:00Z" }, now)).toThrow(
      "--since (2099-01-01T00:00:00Z) is after now (2026-11-20T12:00:00Z): --since must be earlier.",
    );
    expect(() => parseTimeWindow({ since: "0d" }, now)).toThrow("--since (2026-11-20T12:00:00Z) is the same instant as now");
  });

  it("rejects an empty window, which the API would answer with 422", () => {
    expect(() => parseTimeWindow({ since: "2026-11-19T00:00:00Z", until: "2026-11-19T00:00:00Z" }, now)).toThrow(
      "--since (2026-11-19T00:00:00Z) is the same instant as --until (2026-11-19T00:00:00Z): --since must be earlier.",
    );
  });
});
