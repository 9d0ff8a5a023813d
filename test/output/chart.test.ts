import { describe, expect, it } from "vitest";
import { onTimeGrid, renderChart, resample, sparkline } from "../../src/output/chart.js";

describe("sparkline", () => {
  it("scales from min to max", () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7])).toBe("▁▂▃▄▅▆▇█");
    expect(sparkline([10, 20])).toBe("▁█");
  });
  it("draws flat series on one level and gaps as blanks", () => {
    expect(sparkline([0, 0, 0])).toBe("▁▁▁");
    expect(sparkline([5, 5])).toBe("▄▄");
    expect(sparkline([1, null, 3])).toBe("▁ █");
  });
  it("resamples to the width by averaging buckets", () => {
    expect(resample([1, 3, 5, 7], 2)).toEqual([2, 6]);
    expect(sparkline([1, 3, 5, 7, 9, 11], 3)).toBe("▁▅█");
  });
});

describe("renderChart", () => {
  it("prints title, sparkline with min and max, and the span", () => {
    const text = renderChart({
      title: "queue_name default",
      label: "entered",
      columns: 80,
      points: [
        { start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z", value: 2 },
        { start: "2026-11-20T11:00:00Z", end: "2026-11-20T12:00:00Z", value: 9 },
      ],
    });
    expect(text).toBe("queue_name default\n  entered  ▁█  min 2  max 9\n  2026-11-20 10:00:00Z → 2026-11-20 12:00:00Z · 2 intervals\n");
  });
  it("says when there is no data", () => {
    expect(renderChart({ title: "t", label: "x", columns: 80, points: [] })).toBe("t\n  x  (no data)\n");
  });
  it("fits a long series into the terminal width", () => {
    const points = Array.from({ length: 500 }, (_, i) => ({ start: "2026-11-20T00:00:00Z", end: "2026-11-20T01:00:00Z", value: i }));
    const line = renderChart({ title: "t", label: "x", columns: 60, points, format: (v) => v.toFixed(0) }).split("\n")[1]!;
    expect(line.length).toBeLessThanOrEqual(60);
  });
});

describe("onTimeGrid", () => {
  const at = (h: number) => `2026-11-20T${String(h).padStart(2, "0")}:00:00Z`;
  it("leaves a blank for each interval the API left out", () => {
    const points = [
      { start: at(10), end: at(11), value: 1 },
      { start: at(11), end: at(12), value: 5 },
      { start: at(15), end: at(16), value: 3 },
    ];
    expect(onTimeGrid(points)).toEqual({ values: [1, 5, undefined, undefined, undefined, 3], slots: 6 });
    const text = renderChart({ title: "queue default", label: "count", points, columns: 80 });
    expect(text).toBe(
      "queue default\n  count  ▁█   ▅  min 1  max 5\n  2026-11-20 10:00:00Z → 2026-11-20 16:00:00Z · 3 of 6 intervals with data\n",
    );
  });

  it("puts the count of intervals on a line of its own when the span line would not fit (70 columns at 60)", () => {
    const points = [
      { start: at(10), end: at(11), value: 1 },
      { start: at(15), end: at(16), value: 3 },
    ];
    const text = renderChart({ title: "queue default", label: "count", points, columns: 60 });
    expect(text.split("\n").slice(2)).toEqual(["  2026-11-20 10:00:00Z → 2026-11-20 16:00:00Z", "  2 of 6 intervals with data", ""]);
  });

  it("keeps a partial first interval in its place", () => {
    const points = [
      { start: "2026-11-20T09:37:12Z", end: at(10), value: 2 },
      { start: at(10), end: at(11), value: 4 },
      { start: at(11), end: at(12), value: 6 },
    ];
    expect(onTimeGrid(points)).toEqual({ values: [2, 4, 6], slots: 3 });
  });
});
