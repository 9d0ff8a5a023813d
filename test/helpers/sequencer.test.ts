import { existsSync } from "node:fs";
import type { TestSpecification } from "vitest/node";
import { describe, expect, it } from "vitest";
import { SLOW_FIRST, SlowFirstSequencer } from "./sequencer.js";

const ROOT = "/repo";
const spec = (project: string, path: string) => ({
  project: { name: project, config: { sequence: { groupOrder: 0 }, isolate: true } },
  moduleId: `${ROOT}/${path}`,
});
/** vitest's context as BaseSequencer reads it: no timings, every file 100 bytes but the ones given */
const context = (sizes: Record<string, number>) => ({
  config: { root: ROOT },
  cache: { getFileTestResults: () => undefined, getFileStats: (key: string) => ({ size: sizes[key.split(":")[1]!] ?? 100 }) },
});

describe("the order in which a run starts its files", () => {
  it("starts the slowest end-to-end files first, the others in vitest's order (larger first), each project's files together", async () => {
    const files = [
      spec("runtime", "test/e2e/startup.e2e.test.ts"),
      spec("e2e", "test/commands/logs.e2e.test.ts"),
      spec("e2e", "test/bench/quick.e2e.test.ts"),
      spec("e2e", "test/golden/golden.e2e.test.ts"),
      spec("e2e", "test/output/openmetrics.e2e.test.ts"),
    ];
    const sequencer = new SlowFirstSequencer(context({ "test/output/openmetrics.e2e.test.ts": 500 }) as never);
    const sorted = await sequencer.sort(files as unknown as TestSpecification[]);
    expect(sorted.map((f) => `${f.project.name} ${f.moduleId.slice(ROOT.length + 1)}`)).toEqual([
      "e2e test/bench/quick.e2e.test.ts",
      "e2e test/golden/golden.e2e.test.ts",
      "e2e test/output/openmetrics.e2e.test.ts",
      "e2e test/commands/logs.e2e.test.ts",
      "runtime test/e2e/startup.e2e.test.ts",
    ]);
  });

  it("names files that exist", () => {
    expect(SLOW_FIRST.filter((path) => !existsSync(new URL(`../../${path}`, import.meta.url)))).toEqual([]);
  });
});
