// writeAllSync is how `mq --help` writes without building process.stdout: checked on a real FIFO,
// made non-blocking and full, as a pipe another program set up may be.
import { spawnSync } from "node:child_process";
import { closeSync, constants, openSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeAllSync } from "../src/process-streams.js";
import { tempDir } from "./helpers/tmp.js";

/** a FIFO opened both ways, non-blocking (Linux allows O_RDWR on a FIFO), filled until it refuses */
function fullPipe(): { fd: number; filled: number } {
  const path = join(tempDir("mq-fifo-"), "fifo");
  expect(spawnSync("mkfifo", [path]).status).toBe(0);
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  const chunk = Buffer.alloc(4096, 0x2e);
  let filled = 0;
  for (;;) {
    try {
      filled += writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      return { fd, filled };
    }
  }
}

function drain(fd: number, n: number): Buffer {
  const out = Buffer.alloc(n);
  let got = 0;
  while (got < n) got += readSync(fd, out, got, n - got, null);
  return out;
}

describe.skipIf(process.platform === "win32")("writeAllSync", () => {
  it("hands what a full non-blocking pipe refuses to the stream, every byte once, in order", () => {
    const { fd, filled } = fullPipe();
    try {
      const text = Buffer.from(Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join(""));
      // room for part of it: 8 KB read out of the full pipe
      drain(fd, 8192);
      const rest: Uint8Array[] = [];
      writeAllSync(fd, text, (bytes) => rest.push(Buffer.from(bytes)));
      expect(rest).toHaveLength(1);
      const written = text.length - rest[0]!.length;
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(text.length);
      drain(fd, filled - 8192);
      expect(Buffer.concat([drain(fd, written), rest[0]!]).equals(text)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it("writes everything when the pipe has room, and hands nothing on", () => {
    const { fd, filled } = fullPipe();
    try {
      drain(fd, filled);
      const rest: Uint8Array[] = [];
      writeAllSync(fd, Buffer.from("Usage: mq [options] [command]\n"), (bytes) => rest.push(bytes));
      expect(rest).toEqual([]);
      expect(drain(fd, 30).toString()).toBe("Usage: mq [options] [command]\n");
    } finally {
      closeSync(fd);
    }
  });

  it("throws what is not a full pipe or a reader that left (a closed descriptor)", () => {
    const { fd } = fullPipe();
    closeSync(fd);
    expect(() => writeAllSync(fd, Buffer.from("x"), () => {})).toThrow(/EBADF/);
  });
});
