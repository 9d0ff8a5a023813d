import { describe, expect, it } from "vitest";
import { Chalk } from "chalk";
import { fitColumnWidths, renderTable } from "../../src/output/table.js";

describe("renderTable", () => {
  it("renders a borderless table with two spaces between columns", () => {
    expect(renderTable({ head: ["ID", "NAME"], rows: [["1", "alpha"], ["22", "b"]] })).toBe(
      "ID  NAME\n1   alpha\n22  b\n",
    );
  });

  it("right-aligns the columns asked for", () => {
    expect(renderTable({ head: ["N", "COUNT"], rows: [["a", "5"], ["b", "1,200"]], align: ["left", "right"] })).toBe(
      "N  COUNT\na      5\nb  1,200\n",
    );
  });

  it("truncates the last column with an ellipsis to fit the terminal", () => {
    const out = renderTable({ head: ["ID", "SUMMARY"], rows: [["1", "a very long summary that does not fit"]], columns: 20 });
    expect(out).toBe("ID  SUMMARY\n1   a very long sum…\n");
    for (const line of out.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(20);
  });

  it("measures coloured cells by their visible width", () => {
    const c = new Chalk({ level: 1 });
    const out = renderTable({ head: ["A", "B"], rows: [[c.red("red"), "x"]], colors: c });
    expect(out).toBe(`${c.bold("A")}    ${c.bold("B")}\n${c.red("red")}  x\n`);
  });

  it("shrinks the widest column once the last is at its minimum", () => {
    expect(fitColumnWidths([30, 10, 10], 40)).toEqual([18, 10, 8]);
    expect(fitColumnWidths([5, 5], 100)).toEqual([5, 5]);
  });
});

describe("renderTable with untrusted cells", () => {
  it("escapes what a renderer let through, keeping mq's colours", () => {
    const c = new Chalk({ level: 1 });
    const out = renderTable({ head: ["A", "B"], rows: [[c.red("x\x1b]0;t\x07"), "y\r\nz"]], colors: c });
    expect(out).toBe(`${c.bold("A")}              ${c.bold("B")}\n${c.red("x\\x1b]0;t\\x07")}  y\\r\\nz\n`);
  });

  it("measures wide characters as two columns and cuts between whole characters", () => {
    const out = renderTable({ head: ["A", "B"], rows: [["中文", "x"], ["ab", "👨‍👩‍👧".repeat(6)]], columns: 12 });
    expect(out).toBe("A     B\n中文  x\nab    👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧…\n");
  });
});
