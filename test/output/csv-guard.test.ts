import { describe, expect, it } from "vitest";
import { guardCsvText } from "../../src/output/csv-guard.js";

describe("guardCsvText (OWASP CSV injection)", () => {
  it.each(["=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A2)", "\t=1", "\r=1", '=HYPERLINK("http://e.example","x")', "-", "+"])(
    "neutralises %j with a leading quote",
    (cell) => {
      expect(guardCsvText(cell)).toBe(`'${cell}`);
    },
  );

  it.each(["-3", "+1.5", "-2e3", "-0.25", "12", "main", "a=b", " =1", ""])("leaves %j alone", (cell) => {
    expect(guardCsvText(cell)).toBe(cell);
  });
});
