// No exit 70 for any input: statistics answers with 130,000 intervals or 150,000 groups through
// --fail-if, --chart, the step summary and the table. Each ended in "Maximum call stack size
// exceeded" (exit 70) before: Math.max(...xs) and push(...xs) over the intervals.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { hugeEnteredCount } from "../helpers/huge-stats.js";
import { tempDir } from "../helpers/tmp.js";
import { runMq } from "./harness.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => ({ status: 500 }));
});
afterAll(() => server.close());

const WINDOW = ["--since", "2010-01-01T00:00:00Z", "--until", "2026-01-01T00:00:00Z"];

// in the e2e half: each run parses and folds a body of 10 to 20 MB (about 10 s at load 4)
describe.each([
  ["130,000 intervals in one group", 1, 130_000, ["--fail-if", "--chart", "the table", "the step summary"]],
  // the table and the chart of 150,000 groups are as long as their input: the gate is the crash case
  ["150,000 groups", 150_000, 1, ["--fail-if"]],
])("a statistics answer with %s", (_name, groups, intervals, cases) => {
  let reply: ReturnType<typeof hugeEnteredCount>;
  beforeAll(() => {
    reply = hugeEnteredCount(groups, intervals);
  });

  const all: Array<[string, string[]]> = [
    ["--fail-if", ["--fail-if", "entered > 1000000000", "-o", "none"]],
    ["--chart", ["--chart", "-o", "table"]],
    ["the table", ["-o", "table"]],
    ["the step summary", ["--fail-if", "entered > 1000000000", "-o", "none", "STEP"]],
  ];
  it.each(all.filter(([what]) => cases.includes(what)))(
    "%s: no exit 70",
    async (_what, args) => {
      server.setScript(() => reply);
      const dir = tempDir();
      const summary = join(dir, "summary.md");
      writeFileSync(summary, "");
      const env = args.includes("STEP") ? { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary } : {};
      const r = await runMq(["stats", "queues-entered-count", "--repo", "acme/web", ...WINDOW, ...args.filter((a) => a !== "STEP")], {
        apiUrl: server.url,
        env,
      });
      expect(r.stderr).not.toMatch(/Maximum call stack|internal error/);
      expect(r.code, r.stderr.slice(0, 500)).toBe(0);
      if (args.includes("STEP")) expect(readFileSync(summary, "utf8")).toMatch(/entered/);
    },
    120_000,
  );
});
