// Data to a terminal goes out a line at a time and stops at Ctrl-C (src/iostreams/write.ts); a pipe
// or a file gets each chunk whole. The terminal itself: test/iostreams/interrupt-terminal.e2e.test.ts.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createContext } from "../../src/context.js";
import { InterruptedError } from "../../src/errors.js";

/** A stream that records each write; `onWrite` runs after the nth write has been taken. */
function recorder(onWrite: (n: number) => void = () => undefined) {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      writes.push(chunk.toString("utf8"));
      onWrite(writes.length);
      done();
    },
  });
  return { writes, stream };
}

const TEXT = "row 1\nrow 2\nrow 3\nrow 4\n";

describe("writeData", () => {
  it("on a terminal: a line a write; Ctrl-C during a line leaves the rest unwritten (InterruptedError)", async () => {
    const controller = new AbortController();
    // the key comes while the second line is written
    const { writes, stream } = recorder((n) => n === 2 && controller.abort());
    const ctx = createContext({ io: { stdout: stream, stdoutIsTTY: true }, signal: controller.signal });
    await expect(ctx.io.writeData(TEXT)).rejects.toBeInstanceOf(InterruptedError);
    expect(writes).toEqual(["row 1\n", "row 2\n"]);
    // after the interrupt nothing more goes to the terminal
    await expect(ctx.io.writeData("late\n")).rejects.toBeInstanceOf(InterruptedError);
    expect(writes).toEqual(["row 1\n", "row 2\n"]);
  });

  it("in a pipe or a file: the chunk whole, interrupted or not (what was written stays valid)", async () => {
    const controller = new AbortController();
    const { writes, stream } = recorder();
    const ctx = createContext({ io: { stdout: stream, stdoutIsTTY: false }, signal: controller.signal });
    await ctx.io.writeData(TEXT);
    controller.abort();
    await ctx.io.writeData("]\n");
    expect(writes).toEqual([TEXT, "]\n"]);
  });
});
