// `mq serve` runs the server in a worker thread whose heap is capped by the memory budget.
//
// Node cannot lower a running isolate's heap limit, and without one V8 lets garbage pile up far
// past the data the server holds (simulation allocates much and keeps little: 644 MB of RSS for a
// 512 MB budget, 200 clients over 40 repositories). A worker's `resourceLimits` is that limit: the
// collector works harder as the heap nears it, so the process stays near its budget. The data
// held is accounted separately (repositories.ts) and kept well below the cap; should the worker
// still run out (a replayed log heavier than its estimate), it is started again on the same port
// and the process lives on.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { ServerOptions } from "./index.js";

/**
 * The worker's young generation: a quarter of the budget, at most 128 MB. A simulated day's
 * objects are short-lived; with a young generation of 48 MB (the main thread's default) too many
 * survived into the old one, and a cold year-long query cost 15-17 s of CPU under a 512 MB budget,
 * against 6.6-11 s with 128 MB (paired runs, load average 10-12).
 */
export function youngMb(budgetMb: number): number {
  return Math.min(128, Math.max(16, Math.floor(budgetMb / 4)));
}

/** what the main thread's isolate and the code take besides the worker's heap */
const OUTSIDE_HEAP_MB = 64;

/** The worker's old-generation cap for a budget (MB). */
export function heapLimitMb(budgetMb: number): number {
  return Math.max(64, budgetMb - youngMb(budgetMb) - OUTSIDE_HEAP_MB);
}

type FromWorker =
  | { kind: "listening"; url: string }
  | { kind: "failed"; name: string; message: string; code?: string }
  | { kind: "closed" };

export interface IsolatedServer {
  url: string;
  close(): Promise<void>;
}

export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "ServerStartError";
  }
}

/**
 * Starts the server in a worker with a heap cap derived from options.memoryBudgetMb. `onRestart`
 * hears when the worker ran out of memory and was started again.
 */
export async function startIsolatedServer(options: ServerOptions & { memoryBudgetMb: number }, onRestart: (reason: string) => void): Promise<IsolatedServer> {
  let worker: Worker;
  let closing = false;
  let closedResolve: (() => void) | undefined;
  const spawn = (port: number | undefined): Promise<string> =>
    new Promise((resolve, reject) => {
      worker = new Worker(new URL(import.meta.url), {
        workerData: { mqServeWorker: true, options: { ...options, port: port ?? options.port } },
        resourceLimits: { maxOldGenerationSizeMb: heapLimitMb(options.memoryBudgetMb), maxYoungGenerationSizeMb: youngMb(options.memoryBudgetMb) },
        stdout: false,
        stderr: false,
      });
      let started = false;
      worker.on("message", (m: FromWorker) => {
        if (m.kind === "listening") {
          started = true;
          resolve(m.url);
        } else if (m.kind === "failed") {
          reject(new ServerStartError(m.message, m.name, m.code));
        } else if (m.kind === "closed") {
          void worker.terminate();
        }
      });
      worker.on("error", (err: Error & { code?: string }) => {
        if (!started) return reject(new ServerStartError(outOfMemory(err) ? budgetMessage(options.memoryBudgetMb) : err.message, err.name, err.code));
        if (closing) return;
        // the data is deterministic: a new worker answers as the old one did
        onRestart(outOfMemory(err) ? `it ran out of its ${options.memoryBudgetMb} MB memory budget` : err.message);
        void spawn(Number(new URL(url).port)).catch((e: Error) => onRestart(`could not start again: ${e.message}`));
      });
      worker.on("exit", () => {
        if (closing) closedResolve?.();
      });
    });
  const url = await spawn(undefined);
  return {
    url,
    close() {
      if (closing) return Promise.resolve();
      closing = true;
      return new Promise<void>((resolve) => {
        closedResolve = resolve;
        worker.postMessage("close");
        // a worker stuck in a long step still goes
        setTimeout(() => void worker.terminate(), 5_000).unref();
      });
    },
  };
}

const outOfMemory = (err: { code?: string }) => err.code === "ERR_WORKER_OUT_OF_MEMORY";
const budgetMessage = (mb: number) => `the server ran out of its memory budget (${mb} MB) while starting: raise it with --memory-budget`;

// the worker's side: this same module, loaded by `new Worker(import.meta.url)`
if (!isMainThread && (workerData as { mqServeWorker?: boolean } | null)?.mqServeWorker) {
  const port = parentPort!;
  const { startServer } = await import("./index.js");
  try {
    const server = await startServer((workerData as { options: ServerOptions }).options);
    port.on("message", (m) => {
      if (m === "close") void server.close().then(() => port.postMessage({ kind: "closed" } satisfies FromWorker));
    });
    port.postMessage({ kind: "listening", url: server.url } satisfies FromWorker);
  } catch (err) {
    const e = err as Error & { code?: string };
    port.postMessage({ kind: "failed", name: e.name, message: e.message, code: e.code } satisfies FromWorker);
  }
}
