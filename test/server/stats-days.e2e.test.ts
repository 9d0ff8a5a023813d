// The windows and filters of stats-days.test.ts's sweep that it leaves to the end-to-end half: the
// merged per-day partials give exactly the one-pass figures over them too.
import { describe, it } from "vitest";
import { expectFilterMerged, expectWindowMerged, FAST_FILTERS, FAST_WINDOWS, FILTER_WINDOW, FILTERS, historyAndOracle, WINDOWS } from "./stats-days-checks.js";

describe("per-day partials give exactly the one-pass figures, the whole sweep", () => {
  const history = historyAndOracle();

  it.each(WINDOWS.filter((w) => !FAST_WINDOWS.includes(w)))("every endpoint, %s", (_name, from, to) => expectWindowMerged(history, from, to), 120_000);

  it("with the other filters, over a month", async () => {
    for (const filter of FILTERS.filter((f) => !FAST_FILTERS.includes(f))) await expectFilterMerged(history, filter, FILTER_WINDOW);
  }, 120_000);
});
