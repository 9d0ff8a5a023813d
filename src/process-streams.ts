// process.stdout and process.stderr, built only when something writes to them. Node builds each on
// first read of the property, and on a pipe (the usual case under a script or a CI job) that is a
// net.Socket: it loads net and Node's stream modules, ~5 ms of `mq --help`, which needs neither
// (its text goes out in one blocking write: writeStdoutText). So the process's streams are never
// read just to attach a listener or to ask whether they are terminals: the listeners wait until
// the stream exists, and the facts come from what the file descriptor is.
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

const waiting: Record<Which, Set<Listener> | undefined> = { stdout: undefined, stderr: undefined };
/** built through the getter below: listeners go straight on (a stream may be built before any wait) */
const built: Record<Which, boolean> = { stdout: false, stderr: false };

/**
 * Node defines process.stdout/stderr as configurable getters that build the stream on first read:
 * this one runs the original once, attaches the listeners that waited, and puts the original back.
 * Whoever reads first (mq, a library, Node printing a warning) gets a stream with our listeners.
 */
function awaitBuild(which: Which): Set<Listener> | undefined {
  if (waiting[which] || built[which] || mayBeBuilt()) return waiting[which];
  const original = Object.getOwnPropertyDescriptor(process, which);
  if (original?.get === undefined || !original.configurable) return undefined;
  const listeners = new Set<Listener>();
  waiting[which] = listeners;
  Object.defineProperty(process, which, {
    configurable: true,
    enumerable: original.enumerable,
    get() {
      Object.defineProperty(process, which, original);
      waiting[which] = undefined;
      built[which] = true;
      const stream = original.get!.call(process) as NodeJS.WriteStream;
      for (const listener of listeners) stream.on("error", listener);
      return stream;
    },
  });
  return listeners;
}

/**
 * Has Node perhaps built a process stream already, before mq ran (a NODE_OPTIONS=--require preload
 * that wrote to stderr)? Its getter does not say, but building one loads the module of its kind:
 * net (a pipe, a socket), tty (a terminal), SyncWriteStream (a file). A stream built that way may
 * report a failed write (EPIPE) later, through the reference its writer kept: a listener waiting
 * for the getter would never be attached, and the 'error' would crash the run (exit 1, no output).
 */
function mayBeBuilt(): boolean {
  const loaded = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList;
  if (loaded === undefined) return true;
  return loaded.some((m) => m === "NativeModule net" || m === "NativeModule tty" || m === "NativeModule internal/fs/sync_write_stream");
}

/** Attaches an 'error' listener to process[WHICH] now if it exists, else when it is built. */
export function onProcessStreamError(which: Which, listener: Listener): void {
  const listeners = waiting[which] ?? awaitBuild(which);
  if (listeners) listeners.add(listener);
  else process[which].on("error", listener);
}

export function offProcessStreamError(which: Which, listener: Listener): void {
  const listeners = waiting[which];
  if (listeners) listeners.delete(listener);
  else process[which].off("error", listener);
}

/** Has nothing read process.stdout since a listener started waiting for it? */
function stdoutUnbuilt(): boolean {
  return waiting.stdout !== undefined;
}

/**
 * Writes TEXT (a help page: short, the command's only output) to the process's standard output.
 * On a pipe or a file not yet wrapped in a stream, one blocking write. Node's stream on a pipe is
 * not blocking (libuv sets O_NONBLOCK on the pipe, shared with whoever else holds it, and queues
 * what the pipe refuses), but a help page is smaller than a pipe's buffer (64 KB): the one write
 * takes it whole, unless the pipe is already full and non-blocking (an earlier Node process in
 * the pipeline made it so): what it refuses (EAGAIN) goes through the stream. A reader that left
 * (EPIPE) is no failure, as with the stream (run() ends quietly).
 */
export function writeStdoutText(text: string, kind: FdKind): void {
  if (!stdoutUnbuilt() || kind === "other") {
    process.stdout.write(text);
    return;
  }
  writeAllSync(1, Buffer.from(text, "utf8"), (rest) => process.stdout.write(rest));
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
