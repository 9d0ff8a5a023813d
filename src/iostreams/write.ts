// Writing data to stdout. In a pipe or a file a chunk goes out whole (a reader sees whole records).
// On a terminal Ctrl-C stops the output at once: a write to a terminal blocks until the terminal
// has taken it, and Node runs the SIGINT handler only between callbacks, so a page of rows written
// in one call came out whole after the key was pressed (a 100-row page, a whole table at its end).
// Text for a terminal therefore goes out a line at a time with a turn of the event loop between
// (where the handler runs), and once the run is interrupted the rest is dropped: the write ends
// with InterruptedError, which a command reports as any Ctrl-C (exit 130, how to resume). What can
// still appear after the key is the line being written when it came.
import { InterruptedError, OutputError } from "../errors.js";

/** the next turn of the event loop (node:timers/promises would be one more of Node's modules to load at every start) */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes one chunk and waits until the stream has taken it (its callback): a failed write (a full
 * disk) rejects with an OutputError for this chunk, not for a later one, so a caller counts only
 * what the output accepted. A reader that left (EPIPE) or a stream already destroyed is no failure
 * here: the run ends quietly through the stream's 'error' (main.ts).
 */
export async function writeChunk(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  const s = stream as NodeJS.WritableStream & { destroyed?: boolean };
  if (s.destroyed) return;
  // plain listeners, removed once the chunk is settled: events.once with an AbortController costs
  // two abort errors, stack traces and all, per chunk (a fifth of ndjson's CPU over a long walk)
  let closed = () => {};
  // an 'error' is this chunk's callback's to report: the listener only keeps it from being thrown
  const ignoreError = () => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      stream.write(text, (err?: Error | null) => {
        const code = (err as NodeJS.ErrnoException | null | undefined)?.code;
        if (!err || code === "EPIPE" || code === "ERR_STREAM_DESTROYED") resolve();
        else reject(new OutputError(err as NodeJS.ErrnoException));
      });
      // a stream closed without calling back (a test's, a socket torn down)
      closed = () => resolve();
      stream.once("close", closed);
      stream.once("error", ignoreError);
    });
  } finally {
    stream.removeListener("close", closed);
    stream.removeListener("error", ignoreError);
  }
}

/**
 * Writes TEXT to a terminal a line at a time, letting the event loop turn between lines; throws
 * InterruptedError, leaving the rest unwritten, once `interrupted()` says the run was interrupted
 * (before the first line too).
 */
export async function writeToTerminal(stream: NodeJS.WritableStream, text: string | Uint8Array, interrupted: () => boolean): Promise<void> {
  if (interrupted()) throw new InterruptedError();
  const whole = typeof text === "string" ? text : Buffer.from(text).toString("utf8");
  for (let at = 0; at < whole.length; ) {
    const end = whole.indexOf("\n", at) + 1 || whole.length;
    await writeChunk(stream, whole.slice(at, end));
    at = end;
    if (at < whole.length) {
      // the SIGINT handler runs in this turn if the key was pressed during the line
      await nextTurn();
      if (interrupted()) throw new InterruptedError();
    }
  }
}
