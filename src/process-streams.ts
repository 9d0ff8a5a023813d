// process.stdout and process.stderr, built only when mq first uses them (processStream). Node
// builds each on first read of the property, and on a pipe (the usual case under a script or a CI
// job) that is a net.Socket: it loads net and Node's stream modules, ~5 ms of `mq --help`, which
// needs neither (its text goes out in one blocking write: writeStdoutText). So mq reads them only
// through processStream, which attaches the 'error' listeners that waited for the stream; what
// they are (a terminal?) comes from the file descriptor where it can (fdKind).
import { fstatSync, writeSync } from "node:fs";
import { OutputError } from "./errors.js";

type Which = "stdout" | "stderr";
type Listener = (err: NodeJS.ErrnoException) => void;

/** What a file descriptor is: a pipe or socket, a regular file, or other (a terminal, /dev/null). */
export type FdKind = "pipe" | "file" | "other";

export function fdKind(fd: number): FdKind {
  try {
    const st = fstatSync(fd);
    if (st.isFIFO() || st.isSocket()) return "pipe";
    return st.isFile() ? "file" : "other";
  } catch {
    return "other";
  }
}

const listeners: Record<Which, Set<Listener>> = { stdout: new Set(), stderr: new Set() };
/** read through processStream: the listeners are on it */
const built: Record<Which, boolean> = { stdout: false, stderr: false };

/** process[WHICH], built now if it was not, with the 'error' listeners registered for it. */
export function processStream(which: Which): NodeJS.WriteStream {
  const stream = process[which];
  if (!built[which]) {
    built[which] = true;
    for (const listener of listeners[which]) stream.on("error", listener);
  }
  return stream;
}

/**
 * Did code run in this process before mq, which may have built and written to a process stream
 * (a NODE_OPTIONS=--require preload that wrote to stderr, or Node printing a warning for a flag)?
 * A stream built that way may report a failed write (EPIPE) later, through the reference its
 * writer kept: a listener waiting for processStream would never be attached, and the 'error'
 * would crash the run (exit 1, no output). Node says nothing of which streams it built, but it
 * says what it was started with: with any option besides the script, mq takes its streams at once.
 */
function othersMayHaveWritten(): boolean {
  return process.execArgv.length > 0 || Boolean(process.env.NODE_OPTIONS?.trim());
}

/** Attaches an 'error' listener to process[WHICH] now if mq has read it, else when it does. */
export function onProcessStreamError(which: Which, listener: Listener): void {
  listeners[which].add(listener);
  if (built[which]) process[which].on("error", listener);
  else if (othersMayHaveWritten()) processStream(which);
}

export function offProcessStreamError(which: Which, listener: Listener): void {
  listeners[which].delete(listener);
  if (built[which]) process[which].off("error", listener);
}

/**
 * Writes TEXT (a help page: short, the command's only output) to the process's standard output.
 * On a pipe or a file mq has not wrapped in a stream, one blocking write. Node's stream on a pipe is
 * not blocking (libuv sets O_NONBLOCK on the pipe, shared with whoever else holds it, and queues
 * what the pipe refuses), but a help page is smaller than a pipe's buffer (64 KB): the one write
 * takes it whole, unless the pipe is already full and non-blocking (an earlier Node process in
 * the pipeline made it so): what it refuses (EAGAIN) goes through the stream. A reader that left
 * (EPIPE) is no failure, as with the stream (run() ends quietly).
 */
export function writeStdoutText(text: string, kind: FdKind): void {
  if (built.stdout || kind === "other") {
    processStream("stdout").write(text);
    return;
  }
  writeAllSync(1, Buffer.from(text, "utf8"), (rest) => processStream("stdout").write(rest));
}

/**
 * Writes BYTES to FD in blocking writes. What a non-blocking FD refuses (EAGAIN) goes to REST, to be
 * written when it can; a reader that left (EPIPE) ends it quietly; any other failure is thrown as an
 * OutputError (a full disk: exit 74).
 */
export function writeAllSync(fd: number, bytes: Uint8Array, rest: (bytes: Uint8Array) => void): void {
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EPIPE") return;
    if (code !== "EAGAIN") throw new OutputError(err as NodeJS.ErrnoException);
    rest(bytes.subarray(done));
  }
}
