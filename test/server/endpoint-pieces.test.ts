// Adding a statistics endpoint is one record (src/stats/endpoints.ts) and one server definition
// (src/server/endpoints/); everything else follows from them and is generated. This test names,
// endpoint by endpoint, any piece that is missing or stale, and how to make it.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { STATS_ENDPOINTS, type StatsEndpoint } from "../../src/stats/endpoints.js";
import { STATS_SPECS } from "../../src/server/endpoints/index.js";
import { definitionOf, DOCS_PATH, withDerivationTable } from "../../src/server/endpoints/docs.js";
import { EXAMPLES } from "../../src/help/examples.js";
import { CONTRACT_STATS_CHECKS } from "../../src/api/schema/contract-stats-checks.generated.js";
import { MERGIFY_STATS_CHECKS } from "../../src/api/dialects/mergify-stats-checks.generated.js";

const text = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const GEN = "node scripts/gen-stats-endpoints.mjs";

/** What the pieces of the endpoints are found in (the repository's files, or a test's stand-ins). */
interface Sources {
  hasDefinition(e: StatsEndpoint): boolean;
  /** the fact kinds its definition reads (windowed endpoints: the statistics of whole simulated days are folded from facts) */
  factKinds(e: StatsEndpoint): number;
  examples: Readonly<Record<string, readonly string[]>>;
  contractFixtures: Record<string, unknown>;
  mergifyFixtures: Record<string, unknown>;
  completions: ReadonlyArray<readonly [file: string, text: string]>;
  contractChecks: Readonly<Record<string, unknown>>;
  mergifyChecks: Readonly<Record<string, unknown>>;
}

/** every missing piece, as "<endpoint>: <what> (<how to make it>)" */
function missingPieces(records: readonly StatsEndpoint[], s: Sources): string[] {
  const out: string[] = [];
  for (const e of records) {
    const spec = e.dialects.includes("spec");
    const mergify = e.dialects.includes("mergify");
    const miss = (what: string, how: string) => out.push(`${e.name}: ${what} (${how})`);
    if (!s.hasDefinition(e))
      miss(
        "no server definition",
        "a Spec in the family's file of src/server/endpoints/, listed in STATS_SPECS of src/server/endpoints/index.ts",
      );
    else if (e.params !== "time-to-merge" && s.factKinds(e) === 0)
      miss(
        "its server definition reads no facts",
        "`facts` in its definition: the statistics of whole simulated days are folded from them",
      );
    const examples = s.examples[`stats ${e.name}`];
    if (!examples || examples.length < 2 || examples.length > 4)
      miss("no help examples (2 to 4)", `"stats ${e.name}" in src/help/examples.ts`);
    if (spec && s.contractFixtures[e.name] === undefined) miss("no example answer of the contract in src/api/fixtures/stats.json", GEN);
    if (mergify && s.mergifyFixtures[`stats/${e.path}`] === undefined)
      miss("no example answer of the real service in test/fixtures/mergify-stats.json", GEN);
    for (const [file, script] of s.completions) {
      if (!new RegExp(`(^|[^a-z-])${e.name}([^a-z-]|$)`, "m").test(script)) miss(`not in ${file}`, "npm run build && npm run completions");
    }
    if (spec && !(e.name in s.contractChecks)) miss("no generated check of the contract's answer", "node scripts/gen-checks.mjs");
    if (mergify && !(`stats/${e.path}` in s.mergifyChecks))
      miss(
        "no generated check of the real service's answer",
        "node scripts/gen-checks.mjs, after adding the path to docs/mergify-openapi.json",
      );
  }
  return out;
}

const REPOSITORY: Sources = {
  hasDefinition: (e) => definitionOf(e.name) !== undefined,
  factKinds: (e) => STATS_SPECS[e.name]?.facts.kinds.length ?? 0,
  examples: EXAMPLES,
  contractFixtures: JSON.parse(text("src/api/fixtures/stats.json")) as Record<string, unknown>,
  mergifyFixtures: JSON.parse(text("test/fixtures/mergify-stats.json")) as Record<string, unknown>,
  completions: ["completions/mq.bash", "completions/_mq", "completions/mq.fish"].map((f) => [f, text(f)] as const),
  contractChecks: CONTRACT_STATS_CHECKS,
  mergifyChecks: MERGIFY_STATS_CHECKS,
};

describe("every statistics endpoint has all its pieces", () => {
  it("a server definition, facts read, help examples, example answers, completions and generated checks", () => {
    expect(missingPieces(STATS_ENDPOINTS, REPOSITORY)).toEqual([]);
  });

  it(`${DOCS_PATH}'s "How each figure is derived" is what the definitions say (else: ${GEN})`, () => {
    const page = text(DOCS_PATH);
    expect(withDerivationTable(page) === page, `${DOCS_PATH} is out of date: run ${GEN}`).toBe(true);
  });

  it("no server definition without a record", () => {
    const names = new Set(STATS_ENDPOINTS.map((e) => e.name));
    expect(Object.keys(STATS_SPECS).filter((n) => !names.has(n))).toEqual([]);
  });

  it("an endpoint added with only its record is named, with each piece it lacks", () => {
    const base = STATS_ENDPOINTS.find((e) => e.name === "queues-entered-count")!;
    const added: StatsEndpoint = { ...base, name: "queues-left-count", path: "queues_left_count" };
    expect(missingPieces([added], REPOSITORY)).toEqual([
      "queues-left-count: no server definition (a Spec in the family's file of src/server/endpoints/, listed in STATS_SPECS of src/server/endpoints/index.ts)",
      `queues-left-count: no help examples (2 to 4) ("stats queues-left-count" in src/help/examples.ts)`,
      `queues-left-count: no example answer of the contract in src/api/fixtures/stats.json (${GEN})`,
      `queues-left-count: no example answer of the real service in test/fixtures/mergify-stats.json (${GEN})`,
      "queues-left-count: not in completions/mq.bash (npm run build && npm run completions)",
      "queues-left-count: not in completions/_mq (npm run build && npm run completions)",
      "queues-left-count: not in completions/mq.fish (npm run build && npm run completions)",
      "queues-left-count: no generated check of the contract's answer (node scripts/gen-checks.mjs)",
      "queues-left-count: no generated check of the real service's answer (node scripts/gen-checks.mjs, after adding the path to docs/mergify-openapi.json)",
    ]);
  });
});
