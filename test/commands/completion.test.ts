import { describe, expect, it, vi } from "vitest";
import { Command } from "commander";
import { NewCmdCompletion, type CompletionOptions } from "../../src/commands/completion/index.js";
import { runCompletion } from "../../src/commands/completion/run.js";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";

describe("mq completion", () => {
  it.each(["bash", "zsh", "fish"])("parses %s", async (shell) => {
    const runF = vi.fn(async (_o: CompletionOptions) => {});
    const root = new Command("mq").exitOverride();
    root.addCommand(NewCmdCompletion(testContext(), runF).exitOverride());
    await root.parseAsync(["completion", shell], { from: "user" });
    expect(runF).toHaveBeenCalledTimes(1);
    expect(runF.mock.calls[0]![0].shell).toBe(shell);
    expect(runF.mock.calls[0]![0].root).toBe(root);
  });

  it("rejects an unknown shell with exit 2, naming the allowed shells", async () => {
    const ctx = testContext();
    expect(await main(["completion", "pwsh"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe(
      "mq: command-argument value 'pwsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n",
    );
    expect(ctx.stdoutText()).toBe("");
  });

  it("needs a shell", async () => {
    const ctx = testContext();
    expect(await main(["completion"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: missing required argument 'shell'\n");
  });

  it.each([
    ["bash", "# bash completion for mq\n", "complete -F _mq mq\n"],
    ["zsh", "#compdef mq\n", "  compdef _mq mq\nfi\n"],
    ["fish", "# fish completion for mq\n", "\n"],
  ])("prints the %s script to stdout", async (shell, head, tail) => {
    const ctx = testContext();
    expect(await main(["completion", shell], ctx)).toBe(0);
    expect(ctx.stdoutText().startsWith(head)).toBe(true);
    expect(ctx.stdoutText().endsWith(tail)).toBe(true);
    expect(ctx.stderrText()).toBe("");
  });

  it("writes nothing but the script", async () => {
    const ctx = testContext();
    await runCompletion({ shell: "bash", root: new Command("mq") }, ctx);
    expect(ctx.stdoutText()).toContain("_mq() {");
  });
});
