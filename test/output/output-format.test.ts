import { describe, expect, it } from "vitest";
import { testContext } from "../helpers/context.js";
import { resolveOutputFormat } from "../../src/cmdutil/output.js";

describe("resolveOutputFormat", () => {
  it("is a table on a terminal and ndjson otherwise", () => {
    expect(resolveOutputFormat(testContext({ stdoutIsTTY: true }))).toBe("table");
    expect(resolveOutputFormat(testContext({ stdoutIsTTY: false }))).toBe("ndjson");
  });
  it("honours --output", () => {
    const ctx = testContext({ stdoutIsTTY: true });
    ctx.globals.output = "csv";
    expect(resolveOutputFormat(ctx)).toBe("csv");
  });
});
