// Is anyone still reading our standard output? `mq logs --follow | head -1`: head leaves after one
// line, but a writer only learns that at its next write (EPIPE), and --follow may write nothing for
// hours while bash waits for both ends of the pipeline. Node offers no poll() on a write-only fd
// (libuv refuses to watch it, a zero-byte write succeeds without readers, and reopening the pipe
// through /proc does not fail with ENXIO for an anonymous pipe), so on Linux this looks for the
// pipe's readers in /proc: a process holding the same pipe inode open for reading.
//
// It errs on the side of "still read": the verdict "gone" needs a reader seen at start (a reader in
// another PID namespace, such as a container runtime's, is never seen) and every process of our
// session to be inspectable (a `| sudo tee log` reader is root's and hidden from us).
// Processes outside the session cannot have inherited the pipe. The lookup starts with the
// processes nearest to our pid (a shell starts a pipeline's commands together), so while the
// reader is alive a check usually stops after a few processes; later checks look at that reader first.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export type ReaderState = "reading" | "gone" | "unknown";

/** The pipe inode behind FD ("pipe:[1234]"), or undefined when FD is not a pipe or /proc is absent. */
export function pipeOf(fd: number, proc = "/proc"): string | undefined {
  try {
    const target = readlinkSync(`${proc}/self/fd/${fd}`);
    return target.startsWith("pipe:[") ? target : undefined;
  } catch {
    return undefined;
  }
}

function sessionOf(pid: string, proc: string): number | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, "utf8");
    // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[3]);
  } catch {
    return undefined;
  }
}

/** Whether PID holds PIPE open for reading. */
function readsPipe(pid: string, pipe: string, proc: string): boolean | "hidden" {
  let fds: string[];
  try {
    fds = readdirSync(`${proc}/${pid}/fd`);
  } catch (err) {
    // EACCES: another user's process; ENOENT: it just ended
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? false : "hidden";
  }
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`${proc}/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== pipe) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`${proc}/${pid}/fdinfo/${fd}`, "utf8"))?.[1];
      // O_WRONLY is 1: any other access mode reads
      if (flags === undefined || (parseInt(flags, 8) & 3) !== 1) return true;
    } catch {
      return true;
    }
  }
  return false;
}

export interface ReaderLookup {
  state: ReaderState;
  /** the reader found, to look at first next time */
  pid?: string;
}

/** Whether a process other than us holds PIPE open for reading; HINT (a pid) is looked at first. */
export function findPipeReader(pipe: string, proc = "/proc", self = process.pid, hint?: string): ReaderLookup {
  if (hint !== undefined && readsPipe(hint, pipe, proc) === true) return { state: "reading", pid: hint };
  let pids: string[];
  try {
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name) && Number(name) !== self && name !== hint);
  } catch {
    return { state: "unknown" };
  }
  pids.sort((a, b) => Math.abs(Number(a) - self) - Math.abs(Number(b) - self));
  const mySession = sessionOf(String(self), proc);
  let hidden = false;
  for (const pid of pids) {
    const reads = readsPipe(pid, pipe, proc);
    if (reads === true) return { state: "reading", pid };
    if (reads === "hidden" && (mySession === undefined || sessionOf(pid, proc) === mySession)) hidden = true;
  }
  return { state: hidden ? "unknown" : "gone" };
}

export function pipeReaderState(pipe: string, proc = "/proc", self = process.pid): ReaderState {
  return findPipeReader(pipe, proc, self).state;
}

/**
 * Calls ONGONE once when stdout is a pipe and its last reader has left, checking every INTERVALMS.
 * Returns a stop function. Only a reader seen at start can be seen leaving: in a container, the
 * reader of stdout (the runtime) is in another PID namespace, invisible in /proc, and a pipe with
 * no visible reader must not read as "nobody is reading".
 */
export function watchStdoutReader(
  onGone: () => void,
  { intervalMs = 1000, proc = "/proc", self = process.pid }: { intervalMs?: number; proc?: string; self?: number } = {},
): () => void {
  if (process.platform !== "linux") return () => undefined;
  const pipe = pipeOf(1, proc);
  if (pipe === undefined) return () => undefined;
  let last = findPipeReader(pipe, proc, self);
  if (last.state !== "reading") return () => undefined;
  // a check costs a few system calls while the reader found last still reads; a whole /proc scan
  // (tens of ms on a busy machine) only when it left
  const timer = setInterval(() => {
    last = findPipeReader(pipe, proc, self, last.pid);
    if (last.state === "reading") return;
    clearInterval(timer);
    // "unknown": a hidden process of the session may read; scanning again would not tell more
    if (last.state === "gone") onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
