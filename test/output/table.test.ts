import { describe, expect, it } from "vitest";
import { Chalk } from "chalk";
import fc from "fast-check";
import { fitColumnWidths, fixedWidthRows, renderTable } from "../../src/output/table.js";

describe("renderTable", () => {
  it("renders a borderless table with two spaces between columns", () => {
    expect(
      renderTable({
        head: ["ID", "NAME"],
        rows: [
          ["1", "alpha"],
          ["22", "b"],
        ],
      }),
    ).toBe("ID  NAME\n1   alpha\n22  b\n");
  });

  it("right-aligns the columns asked for", () => {
    expect(
      renderTable({
        head: ["N", "COUNT"],
        rows: [
          ["a", "5"],
          ["b", "1,200"],
        ],
        align: ["left", "right"],
      }),
    ).toBe("N  COUNT\na      5\nb  1,200\n");
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

describe("fixedWidthRows (the streaming path of a long table)", () => {
  const c = new Chalk({ level: 1 });
  // what renderTable gives for the same rows and widths, without its header line
  const viaRenderTable = (rows: string[][], widths: number[], align?: ("left" | "right")[]) => {
    const text = renderTable({ head: widths.map(() => "H"), rows, widths, align });
    return text.slice(text.indexOf("\n") + 1);
  };

  it("pads, cuts with an ellipsis and trims the line end as renderTable does", () => {
    const rows = [
      ["1", "a very long summary", "x"],
      ["22", "b", ""],
      ["333333", "é…→", "tail  "],
    ];
    const out = fixedWidthRows([4, 8, 3])(rows);
    expect(out).toBe("1     a very …  x\n22    b\n333…  é…→       ta…\n");
    expect(out).toBe(viaRenderTable(rows, [4, 8, 3]));
  });

  it("keeps colour codes and measures coloured cells by their visible width", () => {
    const rows = [[c.cyan("queue.enter"), "#12", c.bold("x")]];
    const out = fixedWidthRows([12, 5, 2], ["left", "right", "left"])(rows);
    expect(out).toBe(`${c.cyan("queue.enter")}     #12  ${c.bold("x")}\n`);
    expect(out).toBe(viaRenderTable(rows, [12, 5, 2], ["left", "right", "left"]));
  });

  // the plain alphabet exercises the writer's own path; the full one, the rows it leaves to renderTable's drawing
  it.each([
    // with escapes terminalText wrote (`\x1b`): a cut keeps one whole or drops it
    ["plain", ["a", "Z", " ", "~", "-", "é", "ÿ", "…", "→", "—", "\\x1b", "\\u202e", "\\"]],
    [
      "any",
      [
        "a",
        "Z",
        " ",
        "~",
        "-",
        "é",
        "ÿ",
        "\u00ad",
        "\u00a0",
        "…",
        "→",
        "中",
        "😀",
        "e\u0301",
        "\n",
        "\t",
        "\u001b",
        "\u200b",
        "\u202e",
        "กี่",
        "कि",
        "\u1100\u1161\u11a8",
        "👨‍👩‍👧",
        "ש",
      ],
    ],
  ])("gives byte for byte the text of renderTable for any cells and widths (%s characters)", (_, pieces) => {
    const plain = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((xs) => xs.join(""));
    const painted = fc
      .tuple(plain, fc.constantFrom("none", "red", "bold", "cyanBold"))
      .map(([s, how]) => (how === "none" ? s : how === "red" ? c.red(s) : how === "bold" ? c.bold(s) : c.cyan(c.bold(s))));
    const cellText = fc.array(painted, { minLength: 1, maxLength: 3 }).map((xs) => xs.join(""));
    fc.assert(
      fc.property(
        fc
          .array(fc.integer({ min: 1, max: 14 }), { minLength: 1, maxLength: 5 })
          .chain((widths) =>
            fc.tuple(
              fc.constant(widths),
              fc.array(fc.constantFrom<"left" | "right">("left", "right"), { minLength: widths.length, maxLength: widths.length }),
              fc.array(fc.array(cellText, { minLength: widths.length, maxLength: widths.length }), { minLength: 1, maxLength: 4 }),
            ),
          ),
        ([widths, align, rows]) => {
          expect(fixedWidthRows(widths, align)(rows)).toBe(viaRenderTable(rows, widths, align));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("renderTable with untrusted cells", () => {
  it("escapes what a renderer let through, keeping mq's colours", () => {
    const c = new Chalk({ level: 1 });
    const out = renderTable({ head: ["A", "B"], rows: [[c.red("x\x1b]0;t\x07"), "y\r\nz"]], colors: c });
    expect(out).toBe(`${c.bold("A")}              ${c.bold("B")}\n${c.red("x\\x1b]0;t\\x07")}  y\\r\\nz\n`);
  });

  it("measures wide characters as two columns and cuts between whole characters", () => {
    const out = renderTable({
      head: ["A", "B"],
      rows: [
        ["中文", "x"],
        ["ab", "👨‍👩‍👧".repeat(6)],
      ],
      columns: 12,
    });
    expect(out).toBe("A     B\n中文  x\nab    👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧…\n");
  });
});

describe("renderTable lines up text in any script", () => {
  it("starts every column at the same place on every line, whatever the cells hold", async () => {
    const { displayWidth } = await import("../../src/iostreams/terminal-width.js");
    const pieces = ["a", " ", "é", "e\u0301", "中", "กี่", "नमस्ते", "\u1100\u1161\u11a8", "👨‍👩‍👧", "🇫🇷", "שׁ", "مر", "…", "\u202e"];
    const cellText = fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((xs) => xs.join(""));
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.array(cellText, { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (widths, cells, wrap) => {
          // a last column of "|" marks where the fixed columns end
          const rows = cells.map((r) => [...r.slice(0, widths.length), "|"]);
          const out = renderTable({ head: [...widths.map(() => "H"), "|"], rows, widths: [...widths, 1], wrap });
          const edge = widths.reduce((a, b) => a + b + 2, 0);
          for (const line of out.trimEnd().split("\n")) {
            const bar = line.lastIndexOf("|");
            if (bar >= 0) expect(displayWidth(line.slice(0, bar)), line).toBe(edge);
            else expect(displayWidth(line), line).toBeLessThanOrEqual(edge);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
