// The rest of the sweeps of stats-dialects.test.ts (which runs a sample of each in the fast half):
// every subcommand of each dialect in the three formats it did not check, and --chart and
// --fail-if on the subcommands it did not check.
import { describe, test } from "vitest";
import { rest } from "../../helpers/sweep.js";
import { DIALECT_NAMES, dialectRuns, expectChartAndFailIf, expectStatsFormat, STATS_SAMPLE } from "../dialect-runs.js";

describe.each(DIALECT_NAMES)("mq stats against mq serve --dialect %s, the whole sweep", (dialect) => {
  const runs = dialectRuns(dialect);

  test("every subcommand of the dialect in the other formats: exit 0, no warning", async () => {
    for (const [e, format] of STATS_SAMPLE.otherFormats(dialect)) await expectStatsFormat(runs, e, format);
  }, 120_000);

  test("--chart and --fail-if on the other subcommands that have them", async () => {
    for (const e of rest(STATS_SAMPLE.charted(dialect), STATS_SAMPLE.charts)) await expectChartAndFailIf(runs, e);
  }, 120_000);
});
