// The whole sweep of stats-days.test.ts (which checks two kinds of window over ten days, and two
// filters): every window of the 40-day history, and the other filters over the month.
import { describe, it } from "vitest";
import {
  expectFilterMerged,
  expectWindowMerged,
  FAST_FILTERS,
  FILTER_WINDOW,
  FILTERS,
  historyAndOracle,
  WINDOWS,
} from "./stats-days-checks.js";

describe("per-day partials give exactly the one-pass figures, the whole sweep", () => {
  const history = historyAndOracle();

  it.each(WINDOWS)("every endpoint, %s", (_name, from, to) => expectWindowMerged(history, from, to), 120_000);

  it("with the other filters, over a month", async () => {
    for (const filter of FILTERS.filter((f) => !FAST_FILTERS.includes(f))) await expectFilterMerged(history, filter, FILTER_WINDOW);
  }, 120_000);
});
