// fittedTable with a free-text last column (the outcome of mq insights' slowest stays, of mq prs):
// at 80 columns `mq --offline insights --since 1d --slowest 3` printed its slowest table in two
// parts, OUTCOME alone in the second, with IN QUEUE broken in the first although that part did
// not need it. A table whose other columns leave the outcome at least its header's width is one
// table, the outcome broken after its underscores; narrower, columns give way (never a row twice).
import { describe, expect, it } from "vitest";
import { fittedTable, notShown } from "../../src/output/fitted-table.js";
import { displayWidth } from "../../src/iostreams/terminal-width.js";

const HEAD = ["SLOWEST", "BASE", "QUEUE", "ENTERED", "IN QUEUE", "WAITING", "CI", "OUTCOME"];
const ALIGN: Array<"left" | "right"> = ["right", "left", "left", "left", "right", "right", "right", "left"];
const ROWS = [
  ["#3842", "main", "default", "2026-11-22 09:53:51Z", "45m 3s", "0s", "45m", "CHECKS_TIMEOUT"],
  ["#3913", "main", "default", "2026-11-22 18:05:21Z", "44m 56s", "11m 11s", "33m 31s", "merged"],
  ["#3897", "main", "default", "2026-11-22 16:32:40Z", "41m 48s", "0s", "41m 14s", "merged"],
];
const slowest = (columns: number, rows = ROWS) =>
  fittedTable({ head: HEAD, rows, columns, align: ALIGN, breakHeadsAt: / /g, freeLast: { min: 10 } });
const widest = (text: string) => Math.max(...text.split("\n").map(displayWidth));

describe("a table with a free-text last column", () => {
  it("at 80 columns: one table, the outcome broken after its underscore (it was split in two)", () => {
    expect(slowest(80)).toBe(
      [
        "SLOWEST  BASE  QUEUE    ENTERED                    IN  WAITING       CI  OUTCOME",
        "                                                QUEUE",
        "  #3842  main  default  2026-11-22 09:53:51Z   45m 3s       0s      45m  CHECKS_",
        "                                                                         TIMEOUT",
        "  #3913  main  default  2026-11-22 18:05:21Z  44m 56s  11m 11s  33m 31s  merged",
        "  #3897  main  default  2026-11-22 16:32:40Z  41m 48s       0s  41m 14s  merged",
        "",
      ].join("\n"),
    );
  });

  it("with room for the outcome's minimum, headers whole: one table, the outcome cut", () => {
    const text = slowest(84);
    expect(text.split("\n")[0]).toBe("SLOWEST  BASE  QUEUE    ENTERED               IN QUEUE  WAITING       CI  OUTCOME");
    expect(text).toContain("  45m  CHECKS_TI…\n");
    expect(widest(text)).toBeLessThanOrEqual(84);
  });

  it("at 60 columns: one table, columns left out from the right, the outcome last, and named under it (it printed every row twice, in two parts)", () => {
    expect(slowest(60)).toBe(
      [
        "SLOWEST  BASE  QUEUE    ENTERED               OUTCOME",
        "  #3842  main  default  2026-11-22 09:53:51Z  CHECKS_TIMEOUT",
        "  #3913  main  default  2026-11-22 18:05:21Z  merged",
        "  #3897  main  default  2026-11-22 16:32:40Z  merged",
        "not shown at 60 columns: IN QUEUE, WAITING, CI (a wider",
        "terminal or -o csv shows them)",
        "",
      ].join("\n"),
    );
  });

  it("drop names the order in which columns give way; the label columns never do", () => {
    const text = fittedTable({ head: HEAD, rows: ROWS, columns: 40, align: ALIGN, freeLast: { min: 10 }, drop: [3, 1, 2, 4, 5, 6, 7, 0] });
    expect(text.split("\n")[0]).toBe("SLOWEST  WAITING       CI  OUTCOME");
    expect(text.split("\n").filter((l) => l.startsWith("  #3842"))).toHaveLength(1);
    expect(text.replace(/\n/g, " ")).toContain(
      "not shown at 40 columns: BASE, QUEUE, ENTERED, IN QUEUE (a wider terminal or -o csv shows them)",
    );
    expect(widest(text)).toBeLessThanOrEqual(40);
  });

  it("the line under the table says them of several columns left out, it of one", () => {
    expect(notShown(80, ["IN QUEUE"])).toBe("not shown at 80 columns: IN QUEUE (a wider terminal or -o csv shows it)");
    expect(notShown(80, ["RUNS", "RETRIES"])).toBe("not shown at 80 columns: RUNS, RETRIES (a wider terminal or -o csv shows them)");
  });

  it("a line break a server slipped into the outcome stays escaped when the outcome is broken onto lines", () => {
    const rows = ROWS.map((r, i) => (i === 0 ? [...r.slice(0, 7), "CHECKS_\nFORGED"] : r));
    const text = slowest(80, rows);
    expect(text).not.toMatch(/^FORGED/m);
    expect(text).toContain("\\n");
    expect(widest(text)).toBeLessThanOrEqual(80);
  });
});
