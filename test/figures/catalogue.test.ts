// The catalogue of figures (src/figures/catalogue.ts) holds every figure mq prints, each name once:
// the fields of every statistics endpoint, the summary, the figures of mq insights, the fields of a
// stay and every OpenMetrics family. docs/figures.md and `mq help figures` are made from it.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { catalogueMarkdown, catalogueText } from "../../src/figures/catalogue-text.js";
import { closestMatches } from "../../src/closest.js";
import { figureCatalogue, catalogueNameOf, figure } from "../../src/figures/catalogue.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { SUMMARY_SOURCES, type SummaryFigures } from "../../src/stats/summary.js";
import { FIGURE_NAMES } from "../../src/insights/figures.js";
import { STAY_FIELDS } from "../../src/insights/records.js";
import { statsMetrics, summaryMetrics } from "../../src/commands/stats/figures.js";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";

const FIXTURES: Record<string, unknown> = JSON.parse(readFileSync(new URL("../../src/api/fixtures/stats.json", import.meta.url), "utf8"));
const MERGIFY: Record<string, unknown> = JSON.parse(readFileSync(new URL("../fixtures/mergify-stats.json", import.meta.url), "utf8"));
/** a stay's identity, not a figure */
const IDENTITY = ["repository", "pull_request", "base_ref", "queue_name", "partition_name", "priority_rule_name", "session_id"];

describe("the catalogue of figures", () => {
  it("names each figure once", () => {
    const names = figureCatalogue().map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("has every field of every statistics endpoint, under the API field's catalogue name", () => {
    const missing: string[] = [];
    for (const e of STATS_ENDPOINTS)
      for (const f of e.fields) if (!figure(catalogueNameOf(e.name, f))?.api?.includes(`${e.name}.${f}`)) missing.push(`${e.name}.${f}`);
    expect(missing).toEqual([]);
  });

  it("has every figure of mq stats summary, mq insights and a stay", () => {
    const printed = [
      ...Object.keys(SUMMARY_SOURCES),
      ...FIGURE_NAMES,
      "exit_reason(REASON)",
      ...STAY_FIELDS.filter((f) => !IDENTITY.includes(f)),
    ];
    expect(printed.filter((n) => !figure(n))).toEqual([]);
    // the summary's figure is its source field's entry, so the two can never mean different things
    for (const [name, [endpoint, field]] of Object.entries(SUMMARY_SOURCES)) expect(catalogueNameOf(endpoint, field)).toBe(name);
  });

  it("has every OpenMetrics family mq stats writes, with its help text from the entry", () => {
    const families = [
      ...STATS_ENDPOINTS.filter((e) => e.shape !== "list").flatMap((e) =>
        statsMetrics(e, e.dialects.includes("spec") ? FIXTURES[e.name] : MERGIFY[`stats/${e.path}`], "acme/web"),
      ),
      ...summaryMetrics({ start_at: "", end_at: "" } as unknown as SummaryFigures, "acme/web"),
    ];
    const metrics = new Set(figureCatalogue().flatMap((f) => (f.metric ? [f.metric] : [])));
    expect(families.map((f) => f.name).filter((n) => !metrics.has(n))).toEqual([]);
    const rate = families.find((f) => f.name === "mq_queue_check_failure_rate")!;
    expect(rate.help).toContain("The share of queue checks that failed: failed checks ÷ checks.");
  });

  it("gives the two failure rates two names, and says how each combines", () => {
    expect(figure("failure_rate")).toBeUndefined();
    expect(figure("check_failure_rate")).toMatchObject({ unit: "ratio", ratio: { numerator: "check_failures", denominator: "checks" } });
    expect(figure("stay_failure_rate")).toMatchObject({ unit: "ratio", ratio: { numerator: "failed", denominator: "left" } });
    expect(figure("time_to_merge_mean")!.groups.by).toBe("none");
    expect(figure("p95_idle_capacity")!.repositories.by).toBe("none");
    expect(figure("entered")!.groups.by).toBe("sum");
  });

  it("docs/figures.md is generated from it (node scripts/gen-figures.mjs)", () => {
    expect(readFileSync(new URL("../../docs/figures.md", import.meta.url), "utf8")).toBe(catalogueMarkdown());
  });

  it("mq help figures prints it", async () => {
    const ctx = testContext();
    expect(await main(["help", "figures"], ctx)).toBe(0);
    expect(ctx.stdoutText()).toBe(catalogueText());
    expect(ctx.stdoutText()).toContain("\n  stay_failure_rate\n");
  });

  it("did-you-mean finds near names", () => {
    expect(closestMatches("p95(queue_tme)", FIGURE_NAMES)[0]).toBe("p95(queue_time)");
    expect(closestMatches("check_failure", ["check_failure_rate", "checks", "entered"])).toEqual(["check_failure_rate"]);
  });
});
