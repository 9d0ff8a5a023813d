// Writing a whole small file (the gate's --report, the step summary, $GITHUB_OUTPUT) without ever
// waiting for a reader: a FIFO is opened non-blocking, so one that nobody reads fails at once
// (ENXIO) where a plain open would wait forever; a FIFO with a reader, a device and a regular file
// are then written whole.
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";

/**
 * Writes TEXT to the file at PATH, replacing it or appended to it. Throws the system's error
 * (ENXIO: a FIFO nobody reads; ENOSPC, EACCES, ...).
 */
export function writeNow(path: string, text: string, how: "replace" | "append"): void {
  const mode = how === "append" ? constants.O_APPEND : constants.O_TRUNC;
  let fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | mode | constants.O_NONBLOCK, 0o666);
  try {
    if (fstatSync(fd).isFIFO()) {
      // a reader is there (the open above would have failed): a blocking descriptor waits for it
      // to take what does not fit in the pipe, where a non-blocking one would fail (EAGAIN)
      const blocking = openSync(path, constants.O_WRONLY | mode);
      closeSync(fd);
      fd = blocking;
    }
    const bytes = Buffer.from(text, "utf8");
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
}
