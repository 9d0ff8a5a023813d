// A lock file for the few milliseconds of a config write, shared by every mq process on the machine.
//
// The lock is a file created with O_EXCL (only one process can create it) holding the owner's pid,
// host and a random nonce. A lock whose owner is gone (same host, pid no longer running) or that is
// older than STALE_MS (a hung or remote owner) is broken: renamed away under a name of our own,
// checked to be the very lock judged stale (nonce), then deleted; a live lock renamed by mistake is
// put back. Waiting is a synchronous sleep: the store's API is synchronous and the wait is short.
//
// Why not proper-lockfile: its last release is from 2021, it has no synchronous lock with retries,
// and it pulls graceful-fs, retry and signal-exit (which installs its own signal handlers, and mq
// handles SIGINT, SIGTERM and SIGHUP itself). This is the part of it mq needs.
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { ConfigError } from "../errors.js";

/** A lock this old is taken over whatever its owner: a config write takes milliseconds. */
export const STALE_MS = 10_000;
/** How long a writer waits for a live lock before giving up with a ConfigError. */
export const WAIT_MS = 15_000;

interface Owner {
  pid: number;
  host: string;
  nonce: string;
}

export interface LockOptions {
  staleMs?: number;
  waitMs?: number;
  /** for tests: is PID running on this host */
  isAlive?: (pid: number) => boolean;
}

/** Runs FN while holding the lock file LOCKPATH. */
export function withLock<T>(lockPath: string, fn: () => T, options: LockOptions = {}): T {
  const nonce = acquire(lockPath, options);
  try {
    return fn();
  } finally {
    release(lockPath, nonce);
  }
}

function acquire(lockPath: string, options: LockOptions): string {
  const staleMs = options.staleMs ?? STALE_MS;
  const waitMs = options.waitMs ?? WAIT_MS;
  const isAlive = options.isAlive ?? pidIsAlive;
  const me: Owner = {
    pid: process.pid,
    // node:os when a config is written, not at every start (~0.5 ms of CPU to load)
    host: process.getBuiltinModule("node:os").hostname(),
    nonce: `${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`,
  };
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      return me.nonce;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const held = readOwner(lockPath);
    if (held !== "gone" && isStale(lockPath, held, me.host, staleMs, isAlive)) {
      breakStale(lockPath, held, me.nonce);
      continue;
    }
    if (held === "gone") continue;
    if (Date.now() >= deadline) {
      const who = held ? `process ${held.pid} on ${held.host}` : "another process";
      throw new ConfigError(`the config file is locked by ${who} (${lockPath})`, `if no mq is running, remove ${lockPath} and try again`);
    }
    // 2 ms, growing to 50 ms, with jitter so that waiting writers do not wake in step
    sleepSync(Math.min(50, 2 << Math.min(attempt, 5)) * (0.5 + Math.random()));
  }
}

/** The lock's owner; undefined while its creator has not written it yet; "gone" if there is no lock. */
function readOwner(lockPath: string): Owner | undefined | "gone" {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    return undefined;
  }
  try {
    const o = JSON.parse(text) as Owner;
    return typeof o?.pid === "number" && typeof o.nonce === "string" ? o : undefined;
  } catch {
    return undefined;
  }
}

function isStale(lockPath: string, owner: Owner | undefined, host: string, staleMs: number, isAlive: (pid: number) => boolean): boolean {
  if (owner && owner.host === host && !isAlive(owner.pid)) return true;
  try {
    return Date.now() - statSync(lockPath).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

function breakStale(lockPath: string, judged: Owner | undefined, myNonce: string): void {
  const aside = `${lockPath}.${myNonce}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // someone else broke it first
  }
  const taken = readOwner(aside);
  const same = judged === undefined ? taken === undefined : taken !== "gone" && taken?.nonce === judged.nonce;
  if (!same) {
    // between our look and our rename its owner released it and a live writer took it: put it back
    try {
      linkSync(aside, lockPath);
    } catch {
      // a third writer holds the lock now; the one we moved finishes its write unaware
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // nothing to clean
  }
}

function release(lockPath: string, nonce: string): void {
  const owner = readOwner(lockPath);
  // a lock taken over as stale (we were stopped longer than STALE_MS) is someone else's now
  if (owner === "gone" || owner?.nonce !== nonce) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // already gone
  }
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}
