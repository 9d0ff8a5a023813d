// One run of a command's own code (the run function a plain call uses) with its output caught
// instead of written: what a watch of `mq stats` or `mq insights` redraws or compares at each poll is
// then exactly what the command prints once, rendered by its own renderers. The caught run sees the
// terminal's facts (width, colour) but never spins and never touches a file stdout; its stderr is
// handed back with its stdout.
import { Writable } from "node:stream";
import type { Context, OutputFormat } from "../context.js";
import type { IOStreams } from "../iostreams/iostreams.js";
import { writeChunk } from "../iostreams/write.js";

export interface CaughtRun {
  stdout: string;
  stderr: string;
  /** what the run threw, if anything */
  error?: unknown;
}

class TextSink extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    done();
  }
}

/** Runs RUN with a Context whose stdout and stderr are caught, the output format FORMAT. */
export async function catchRun(ctx: Context, format: OutputFormat, run: (caught: Context) => Promise<void>): Promise<CaughtRun> {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const io: IOStreams = Object.create(ctx.io, {
    stdout: { value: stdout },
    stderr: { value: stderr },
    stdoutFile: { value: undefined },
    stdoutIsPipe: { value: false },
    writeText: { value: (text: string) => void stdout.write(text) },
    // caught, not written to a terminal: nothing to cut short
    writeData: { value: (text: string | Uint8Array) => writeChunk(stdout, text) },
    spinnerAllowed: { value: () => false },
  });
  const caught: Context = { ...ctx, io, globals: { ...ctx.globals, output: format } };
  let error: unknown;
  try {
    await run(caught);
  } catch (err) {
    error = err;
  }
  return { stdout: stdout.text, stderr: stderr.text, ...(error !== undefined ? { error } : {}) };
}
