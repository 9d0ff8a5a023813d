import { describe, expect, it } from "vitest";
import { testContext } from "../helpers/context.js";
import { startSpinner } from "../../src/iostreams/spinner.js";

describe("startSpinner", () => {
  it("writes nothing when stderr is not a terminal", async () => {
    const ctx = testContext({ stderrIsTTY: false });
    const s = await startSpinner(ctx, "loading");
    s.update("1 page");
    s.stop();
    await new Promise((r) => setTimeout(r, 10));
    expect(ctx.stderrText()).toBe("");
  });

  it("draws on stderr when it is a terminal and clears the line on stop", async () => {
    const ctx = testContext({ stderrIsTTY: true });
    const s = await startSpinner(ctx, "loading");
    s.update("12 events, 1 page");
    s.stop();
    s.stop();
    expect(ctx.stderrText()).toContain("loading");
    expect(ctx.stdoutText()).toBe("");
  });
});
