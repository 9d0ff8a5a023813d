// The shared value rules: every place that takes an owner/name, a date-time or a duration uses these.
import { describe, expect, it } from "vitest";
import { checkRepo, parseDurationSeconds, parseIsoDateTime } from "../src/validators.js";
import { OwnerSchema, RepositorySchema } from "../src/api/schema/common.js";
import { checkConfigValue } from "../src/config/keys.js";
import { parseServeFlags } from "../src/commands/serve/index.js";

describe("checkRepo", () => {
  it.each(["acme/web", "a-1/x.y_z", `${"o".repeat(40)}/${"n".repeat(100)}`])("accepts %s", (v) => {
    expect(checkRepo(v).ok).toBe(true);
  });

  it.each([
    ["acme", "'acme' is not of the form owner/name"],
    ["a/b/c", "'a/b/c' is not of the form owner/name"],
    ["a_b/web", "owner 'a_b' must be 1 to 40 letters, digits or hyphens"],
    [`${"o".repeat(41)}/web`, `owner '${"o".repeat(41)}' must be 1 to 40 letters, digits or hyphens`],
    ["acme/..", "repository name '..' must be 1 to 100 letters, digits, '_', '-' or '.'"],
    ["acme/", "repository name '' must be 1 to 100 letters, digits, '_', '-' or '.'"],
    ["acme/a b", "repository name 'a b' must be 1 to 100 letters, digits, '_', '-' or '.'"],
  ])("refuses %s", (v, message) => {
    expect(checkRepo(v)).toEqual({ ok: false, message });
  });

  it("agrees with the contract's schemas and with the config, serve and --events checks", () => {
    for (const v of ["acme/web", "a_b/web", "acme/a b", "-/x", "x/-", `${"o".repeat(41)}/w`, "acme/web.git"]) {
      const [owner, name] = v.split("/");
      const schemas = OwnerSchema.safeParse(owner).success && RepositorySchema.safeParse(name).success;
      expect(checkRepo(v).ok, v).toBe(schemas);
      // what a user types is held to the contract's rule, and a name ending in .git is refused too
      const typed = schemas && !v.endsWith(".git");
      expect(checkConfigValue("repo", v).ok, v).toBe(typed);
      if (typed) expect(() => parseServeFlags({ repos: v }, undefined), v).not.toThrow();
      else expect(() => parseServeFlags({ repos: v }, undefined), v).toThrow(/--repos must be a comma-separated list of owner\/name/);
    }
  });
});

describe("date-times and durations", () => {
  it("parseIsoDateTime takes Z or an offset, T or a space, and refuses impossible calendar dates", () => {
    expect(parseIsoDateTime("2026-11-20T12:00:00Z")?.toISOString()).toBe("2026-11-20T12:00:00.000Z");
    expect(parseIsoDateTime("2026-11-20 13:00:00+01:00")?.toISOString()).toBe("2026-11-20T12:00:00.000Z");
    for (const bad of ["2026-02-30T00:00:00Z", "2026-11-20T24:00:00Z", "2026-11-20T12:00:00", "2026-11-20", "soon"]) {
      expect(parseIsoDateTime(bad), bad).toBeUndefined();
    }
  });

  it("mq serve --now uses the same rule", () => {
    expect(parseServeFlags({ now: "2026-11-20T12:00:00Z" }, undefined).now?.toISOString()).toBe("2026-11-20T12:00:00.000Z");
    expect(() => parseServeFlags({ now: "2026-02-30T00:00:00Z" }, undefined)).toThrow(/--now must be an ISO 8601 date-time/);
  });

  it("durations: s, m, h, d, w", () => {
    expect(["90s", "30m", "6h", "7d", "2w"].map(parseDurationSeconds)).toEqual([90, 1800, 21600, 604800, 1209600]);
    expect(["7", "7y", "-1d", "d"].map(parseDurationSeconds)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
