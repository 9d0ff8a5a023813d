// An output that runs out of room after `room` bytes, as a file on a full disk does: the write that
// crosses the limit puts its first bytes in and fails with ENOSPC, or (`shortWrite`, as Node's file
// stream behaves: fs.writeSync's short count is not checked) reports success and the next write
// fails. With `file`, it also offers what a regular file offers (its size, ftruncate).
import { Writable } from "node:stream";
import type { StdoutFile } from "../../src/iostreams/iostreams.js";

export interface FullDisk {
  stream: Writable;
  /** what reached the "disk" */
  text(): string;
  /** set as io.stdoutFile when the output is to behave as a regular file */
  file: StdoutFile;
}

export function fullDisk(room: number, opts: { shortWrite?: boolean } = {}): FullDisk {
  let data = Buffer.alloc(0);
  let full = false;
  const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (full) return done(enospc());
      const fits = Math.max(0, room - data.length);
      data = Buffer.concat([data, chunk.subarray(0, fits)]);
      if (fits >= chunk.length) return done();
      full = true;
      done(opts.shortWrite ? undefined : enospc());
    },
  });
  // the error also goes to the 'error' event, as process.stdout's does (main.ts listens there)
  stream.on("error", () => undefined);
  return {
    stream,
    text: () => data.toString("utf8"),
    file: {
      size: () => data.length,
      truncate: (bytes) => {
        data = data.subarray(0, bytes);
      },
    },
  };
}
