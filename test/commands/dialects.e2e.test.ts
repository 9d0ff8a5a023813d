// The rest of the sweeps of dialects.test.ts (which runs a sample of each in the fast half): the
// other formats of the two-day run, and every event type of each dialect it did not check.
import { describe, test } from "vitest";
import { DIALECTS } from "../../src/api/dialects/index.js";
import { rest } from "../helpers/sweep.js";
import { DIALECT_NAMES, dialectRuns, expectTwoDaysOfLogs, expectTypeServedAsSentences, LOGS_SAMPLE } from "./dialect-runs.js";

describe.each(DIALECT_NAMES)("mq logs against mq serve --dialect %s, the whole sweep", (dialect) => {
  // a budget that holds the month of the --since 29d queries (the default one refuses it: 422)
  const runs = dialectRuns(dialect, { memoryBudgetMb: 1024 });
  const formats = ["table", "json", "ndjson", "csv"].filter((f) => !(LOGS_SAMPLE.formats[dialect] as readonly string[]).includes(f));

  test.each(formats)("-o %s over two days: exit 0, no warning", (format) => expectTwoDaysOfLogs(runs, format));

  test("every other event type of the dialect is served, and the table gives each a sentence, never key=value", async () => {
    for (const type of rest(DIALECTS[dialect].eventTypes, LOGS_SAMPLE.types)) await expectTypeServedAsSentences(runs, type, "29d");
  }, 120_000);
});
