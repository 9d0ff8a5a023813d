// With MQ_TEST_REPORT (CI): writes what failed in the run beside vitest's JSON report, as
// NAME.failures.json, for the closing summary of .ci/run (scripts/ci-summary.mjs): each failed
// test with its errors, each file that failed outside its tests, and the errors thrown outside any
// test. vitest's JSON report has no errors outside tests, and keeps only the stack of a timeout
// (its message, "Test timed out in 30000ms", is lost), the likeliest failure of a loaded machine.
import { writeFileSync } from "node:fs";
import type { Reporter, SerializedError, TestModule } from "vitest/node";

export function reportPath(report: string, kind: "failures" | "leftovers"): string {
  return `${report.replace(/\.json$/, "")}.${kind}.json`;
}

const brief = (e: SerializedError) => ({ name: e.name, message: e.message, stack: e.stack });

export class CiFailuresReporter implements Reporter {
  constructor(private readonly report: string) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const tests = [];
    const files = [];
    for (const module of modules) {
      for (const test of module.children.allTests("failed")) {
        tests.push({ file: module.moduleId, name: test.fullName, errors: (test.result().errors ?? []).map(brief) });
      }
      const errors = module.errors();
      if (errors.length > 0) files.push({ file: module.moduleId, errors: errors.map(brief) });
    }
    writeFileSync(reportPath(this.report, "failures"), JSON.stringify({ tests, files, unhandled: unhandled.map(brief) }));
  }
}
