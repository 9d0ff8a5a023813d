// The endpoint records are the one place an endpoint is described: these tests check them against
// what they were not written from (the contract's fixture responses, the server's handlers) and
// against each other (a field name means one thing everywhere).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { FIGURES, STATS_ENDPOINTS, type StatsEndpoint } from "../../src/stats/endpoints.js";
import { STATS_FLAGS } from "../../src/stats/flags.js";
import { STATS_HANDLERS } from "../../src/server/stats/index.js";
import { STATS_QUERY_SCHEMAS } from "../../src/api/schema/params.js";
import { CHECKS_OUTCOME_COUNTERS } from "../../src/api/schema/common.js";

const fixtures = JSON.parse(readFileSync(new URL("../../src/api/fixtures/stats.json", import.meta.url), "utf8")) as Record<string, unknown>;

type Rec = Record<string, unknown>;

/** The interval records of a fixture response, whatever its shape. */
function fixtureRecords(e: StatsEndpoint): Rec[] {
  const body = fixtures[e.name] as Rec & Rec[];
  switch (e.shape) {
    case "time-to-merge":
      return body.flatMap((p) => (p.queues as Rec[]).map((q) => q.time_to_merge as Rec));
    case "groups":
      return (body.groups as Rec[]).flatMap((g) => g.stats as Rec[]);
    case "bisection":
      return (["started", "completed"] as const).flatMap((s) => (body[s] as Rec[]).flatMap((g) => g.stats as Rec[]));
    default:
      return [];
  }
}

describe("stats endpoint records", () => {
  // the real service's own endpoints are checked against its OpenAPI (test/dialects/data.test.ts)
  it.each(
    STATS_ENDPOINTS.filter((e) => e.shape !== "list" && e.shape !== "checks-outcome" && e.dialects.includes("spec")).map(
      (e) => [e.name, e] as const,
    ),
  )("%s: the figures are exactly the numeric fields of the contract's example response", (_name, e) => {
    const seen = new Set(fixtureRecords(e).flatMap((r) => Object.keys(r)));
    for (const k of ["start", "end", e.category]) if (k) seen.delete(k);
    expect([...seen].sort()).toEqual([...e.fields].sort());
    if (e.category) expect(fixtureRecords(e).every((r) => typeof r[e.category!] === "string")).toBe(true);
  });

  it("checks-outcome: the example's counters are outcome names, counted in the one figure", () => {
    const e = STATS_ENDPOINTS.find((x) => x.shape === "checks-outcome")!;
    const groups = (fixtures[e.name] as { groups: Array<{ stats: Rec }> }).groups;
    for (const g of groups) for (const k of Object.keys(g.stats)) expect(CHECKS_OUTCOME_COUNTERS).toContain(k);
    expect(e.fields).toEqual(["count"]);
    expect(e.category).toBe("check_outcome");
  });

  it("list endpoints name their array and have no figures", () => {
    for (const e of STATS_ENDPOINTS.filter((x) => x.shape === "list")) {
      expect(Object.keys(fixtures[e.name] as Rec)).toEqual([e.listKey]);
      expect(e.fields).toEqual([]);
    }
  });

  it("a field name has one meaning across records, so aggregation by name is sound", () => {
    for (const e of STATS_ENDPOINTS) {
      for (const [field, spec] of Object.entries(e.figures)) expect({ field, ...FIGURES.get(field) }).toEqual({ field, ...spec });
    }
  });

  it("derived parts agree with the record: main field, sections, category, durations, weights and ratios", () => {
    for (const e of STATS_ENDPOINTS) {
      if (e.mainField) expect(e.fields).toContain(e.mainField);
      if (e.category) expect(e.fields).not.toContain(e.category);
      if (e.sections) expect([...e.sections.started, ...e.sections.completed].sort()).toEqual([...e.fields].sort());
      expect(e.durationFields).toEqual(e.fields.filter((f) => e.figures[f]!.kind === "duration"));
      for (const spec of Object.values(e.figures)) {
        const rule = spec.window;
        if (rule.by === "weighted") expect(e.fields).toContain(rule.weight);
        if (rule.by === "ratio") for (const f of [rule.num, ...rule.den]) expect(e.fields).toContain(f);
      }
    }
  });

  it("accepted flags come from the flag table and each sets a parameter of the endpoint's query schema", () => {
    for (const e of STATS_ENDPOINTS) {
      expect(e.accepts.length).toBeGreaterThan(0);
      const params = Object.keys(STATS_QUERY_SCHEMAS[e.params].shape);
      for (const flag of e.accepts) {
        const row = STATS_FLAGS.find((f) => f.flag === flag)!;
        const param = row.filterParam ?? { "--since": "start_at", "--until": "end_at", "--at": "at", "--branch": "branch" }[flag];
        expect(params).toContain(param);
      }
    }
  });

  it("the bundled server has a handler under each record's name, and none without a record", () => {
    // time-to-merge is answered apart: its query is an instant, not a window
    const windowed = STATS_ENDPOINTS.filter((e) => e.params !== "time-to-merge").map((e) => e.name);
    expect(Object.keys(STATS_HANDLERS).sort()).toEqual([...windowed].sort());
  });

  it("names and paths are unique", () => {
    expect(new Set(STATS_ENDPOINTS.map((e) => e.name)).size).toBe(STATS_ENDPOINTS.length);
    expect(new Set(STATS_ENDPOINTS.map((e) => e.path)).size).toBe(STATS_ENDPOINTS.length);
  });
});
