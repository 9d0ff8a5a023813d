// Spawns the real binary (bin/mq.js, which loads dist/) with a clean environment and a temp config
// folder, collects stdout and stderr, and kills it if it outlives a bound: a hang fails the test
// instead of the suite.
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { beforeTempRemoval, tempDir } from "./tmp.js";

export const MQ_BIN = resolve(import.meta.dirname, "../../bin/mq.js");

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** true when the bound ran out and the process was killed */
  killed: boolean;
}

export interface SpawnOptions {
  env?: Record<string, string>;
  stdin?: string;
  /** kill after this many ms (default 15 s) */
  killAfterMs?: number;
  /** leave stdin open for the test to write to (child.stdin) */
  keepStdin?: boolean;
}

export interface Running {
  child: ChildProcess;
  /** stdout so far */
  stdout(): string;
  stderr(): string;
  /** resolves once stdout holds `pattern` */
  waitForStdout(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  done: Promise<SpawnResult>;
}

/** the run's shared code cache for a spawned mq (global-setup.ts), when there is one */
export const codeCacheEnv = (): Record<string, string> =>
  process.env.MQ_TEST_CODE_CACHE ? { XDG_CACHE_HOME: process.env.MQ_TEST_CODE_CACHE } : {};

export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const configDir = tempDir("mq-rel-config-");
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    // the run's own temp root (global-setup.ts), checked empty at the end
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    HOME: configDir,
    MQ_CONFIG_DIR: configDir,
    NO_COLOR: "1",
    ...codeCacheEnv(),
    ...extra,
  };
}

export function startMq(args: string[], opts: SpawnOptions = {}): Running {
  const child = spawn(process.execPath, [MQ_BIN, ...args], {
    env: cleanEnv(opts.env),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  return track(child, opts);
}

/** `bash -c SCRIPT` with mq available as "$NODE" "$MQ_BIN" (pipefail off: a pipeline's status is its last command's). */
export function startShell(script: string, opts: SpawnOptions = {}): Running {
  const child = spawn("bash", ["-c", script], {
    env: cleanEnv({ NODE: process.execPath, MQ_BIN, ...opts.env }),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  return track(child, opts);
}

function track(child: ChildProcess, opts: SpawnOptions): Running {
  let out = "";
  let err = "";
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding("utf8").on("data", (s: string) => {
    out += s;
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.setEncoding("utf8").on("data", (s: string) => (err += s));
  child.stdin!.on("error", () => undefined);
  if (opts.stdin !== undefined) child.stdin!.write(opts.stdin);
  if (!opts.keepStdin) child.stdin!.end();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    killGroup(child);
  }, opts.killAfterMs ?? 15_000);
  // what a test left running is killed before the file's temp folders go: it could write into them
  // (its config folder, its code cache under HOME) after they were removed. `close` comes once every
  // process holding the pipes (a shell's mq too) is gone.
  const closed = new Promise<void>((res) => child.once("close", () => res()));
  let open = true;
  const unregister = beforeTempRemoval(async () => {
    if (open) killGroup(child);
    await closed;
  });
  const done = new Promise<SpawnResult>((resolveDone) => {
    child.on("close", (code, signal) => {
      open = false;
      clearTimeout(timer);
      unregister();
      resolveDone({ code, signal, stdout: out, stderr: err, killed });
    });
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForStdout(pattern, timeoutMs = 10_000) {
      const test = () => (typeof pattern === "string" ? out.includes(pattern) : pattern.test(out));
      return new Promise<void>((res, rej) => {
        if (test()) return res();
        const t = setTimeout(
          () => rej(new Error(`stdout never matched ${String(pattern)}; stdout: ${out.slice(-500)}; stderr: ${err.slice(-500)}`)),
          timeoutMs,
        );
        const check = () => {
          if (test()) {
            clearTimeout(t);
            res();
          } else waiters.push(check);
        };
        waiters.push(check);
      });
    },
    done,
  };
}

/**
 * Kills the child and what it started: each child leads a process group of its own (detached), so a
 * shell's mq dies with the shell instead of holding the pipes (and writing into its HOME) after it.
 */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

export function spawnMq(args: string[], opts: SpawnOptions = {}): Promise<SpawnResult> {
  return startMq(args, opts).done;
}
