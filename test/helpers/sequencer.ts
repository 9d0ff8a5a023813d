// The order in which a run starts its files. vitest starts the files it has no timings for (every
// file of a clean clone: CI) largest first, and a short file can be slow: bench/quick.e2e.test.ts
// is 81 lines and a minute of work. Started last, such a file keeps one worker busy alone at the
// end while the other has nothing left to do. The end-to-end files measured slowest in CI start
// first, the others follow in vitest's own order; the projects keep theirs.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The slowest end-to-end files of CI's run on 2026-11-27 (seconds on one worker), slowest first. */
export const SLOW_FIRST = [
  "test/help-examples.e2e.test.ts", // 98-116
  "test/bench/quick.e2e.test.ts", // 57-61
  "test/reliability/server-load.e2e.test.ts", // 30-44
  "test/server/simulate-invariants.e2e.test.ts", // 26-29
  "test/archive/sigkill.e2e.test.ts", // 27-28
  "test/golden/golden.e2e.test.ts", // 22-23
  "test/archive/analyses.e2e.test.ts", // 21
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((path) => f.moduleId.endsWith(`/${path}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    const project = new Map<string, number>();
    for (const [i, f] of sorted.entries()) if (!project.has(f.project.name)) project.set(f.project.name, i);
    // stable: within a project the ranked files first, then vitest's order
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => (project.get(a.f.project.name) ?? 0) - (project.get(b.f.project.name) ?? 0) || rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
