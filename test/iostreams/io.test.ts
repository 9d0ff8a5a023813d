// The terminal rules of the I/O object (ctx.io): the one place commands ask about the terminal.
import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { createContext } from "../../src/context.js";
import { defaultOutputFormat } from "../../src/iostreams/iostreams.js";
import { testContext } from "../helpers/context.js";

describe("I/O object", () => {
  it("is a terminal as the streams say; tables fit the width only on a terminal", () => {
    const tty = testContext({ tty: true, columns: 72 });
    expect([tty.io.isStdoutTerminal(), tty.io.isStderrTerminal(), tty.io.canPrompt(), tty.io.width(), tty.io.tableWidth()]).toEqual([
      true,
      true,
      true,
      72,
      72,
    ]);
    expect(defaultOutputFormat(tty.io)).toBe("table");
    const pipe = testContext({ columns: 72 });
    expect([pipe.io.isStdoutTerminal(), pipe.io.isStderrTerminal(), pipe.io.canPrompt(), pipe.io.width(), pipe.io.tableWidth()]).toEqual([
      false,
      false,
      false,
      72,
      undefined,
    ]);
    expect(defaultOutputFormat(pipe.io)).toBe("ndjson");
  });

  it("colour: --color first, then NO_COLOR, then FORCE_COLOR, then the terminal", () => {
    const on = (init: Parameters<typeof testContext>[0], color?: "always" | "never" | "auto") => {
      const ctx = testContext(init);
      ctx.globals.color = color;
      return [ctx.io.colorEnabled("stdout"), ctx.io.colorEnabled("stderr")];
    };
    expect(on({ stdoutIsTTY: true })).toEqual([true, false]);
    expect(on({ stderrIsTTY: true })).toEqual([false, true]);
    expect(on({ tty: true, env: { NO_COLOR: "1" } })).toEqual([false, false]);
    expect(on({ tty: true, env: { NO_COLOR: "" } })).toEqual([true, true]);
    expect(on({ env: { FORCE_COLOR: "1" } })).toEqual([true, true]);
    expect(on({ tty: true, env: { FORCE_COLOR: "0" } })).toEqual([false, false]);
    expect(on({ env: { NO_COLOR: "1" } }, "always")).toEqual([true, true]);
    expect(on({ tty: true }, "never")).toEqual([false, false]);
  });

  it("a spinner only on a sized terminal stderr, and not while data streams to a terminal stdout", () => {
    expect(testContext({ stderrIsTTY: true }).io.spinnerAllowed()).toBe(true);
    expect(testContext({ stderrIsTTY: true }).io.spinnerAllowed({ stdoutStreams: true })).toBe(true);
    expect(testContext({ tty: true }).io.spinnerAllowed()).toBe(true);
    expect(testContext({ tty: true }).io.spinnerAllowed({ stdoutStreams: true })).toBe(false);
    expect(testContext({ stdoutIsTTY: true }).io.spinnerAllowed()).toBe(false);
    const sizeless = Object.assign(new PassThrough(), { columns: 0 });
    const ctx = createContext({ io: { stderr: sizeless, stderrIsTTY: true, stdout: new PassThrough(), stdoutIsTTY: false } });
    expect(ctx.io.spinnerAllowed()).toBe(false);
  });

  it("no spinner while stdout is a pipe: the reader (jq, head, less) writes to the same terminal; a file keeps it", () => {
    const io = (stdoutIsPipe: boolean) =>
      createContext({
        io: {
          stderr: Object.assign(new PassThrough(), { columns: 80 }),
          stderrIsTTY: true,
          stdout: new PassThrough(),
          stdoutIsTTY: false,
          stdoutIsPipe,
        },
      }).io;
    expect(io(true).spinnerAllowed()).toBe(false);
    expect(io(false).spinnerAllowed()).toBe(true);
  });
});
