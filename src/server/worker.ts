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
import { heapLimitMb, youngMb } from "./budget.js";

export { heapLimitMb, youngMb };

type FromWorker =
  | { kind: "listening"; url: string }
  | { kind: "failed"; name: string; message: string; code?: string }
  | { kind: "closed" }
  | { kind: "notice"; message: string };

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
 * Starts the server in a worker with a heap cap derived from options.memoryBudgetMb, folding long
 * windows' statistics on a helper thread too (the worker's own, inside the same budget).
 * `onRestart` hears when the worker ran out of memory and was started again; `onNotice` what the
 * server reports besides (ServerOptions.onNotice).
 */
export async function startIsolatedServer(
  options: ServerOptions & { memoryBudgetMb: number },
  onRestart: (reason: string) => void,
  onNotice: (message: string) => void = () => {},
): Promise<IsolatedServer> {
  let worker: Worker;
  let closing = false;
  let closedResolve: (() => void) | undefined;
  const spawn = (port: number | undefined): Promise<string> =>
    new Promise((resolve, reject) => {
      worker = new Worker(new URL(import.meta.url), {
        workerData: { mqServeWorker: true, options: { foldHelper: true, ...options, port: port ?? options.port } },
        resourceLimits: {
          maxOldGenerationSizeMb: heapLimitMb(options.memoryBudgetMb),
          maxYoungGenerationSizeMb: youngMb(options.memoryBudgetMb),
        },
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
        } else if (m.kind === "notice") {
          onNotice(m.message);
        }
      });
      worker.on("error", (err: Error & { code?: string }) => {
        if (!started)
          return reject(new ServerStartError(outOfMemory(err) ? budgetMessage(options.memoryBudgetMb) : err.message, err.name, err.code));
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

/**
 * The server in a worker (startIsolatedServer); in this thread when mq runs from its TypeScript
 * sources (tests), which a worker cannot load.
 */
export async function startBudgetedServer(
  options: ServerOptions & { memoryBudgetMb: number },
  onRestart: (reason: string) => void,
  onNotice: (message: string) => void,
): Promise<IsolatedServer> {
  if (import.meta.url.endsWith(".ts")) return (await loadServer()).startServer(options);
  return startIsolatedServer(options, onRestart, onNotice);
}

/** The server itself, which the main thread of `mq serve` never loads: only its worker does. */
const loadServer = () => import("./index.js");

const outOfMemory = (err: { code?: string }) => err.code === "ERR_WORKER_OUT_OF_MEMORY";
const budgetMessage = (mb: number) => `the server ran out of its memory budget (${mb} MB) while starting: raise it with --memory-budget`;

// the worker's side: this same module, loaded by `new Worker(import.meta.url)`
if (!isMainThread && (workerData as { mqServeWorker?: boolean } | null)?.mqServeWorker) {
  const port = parentPort!;
  const { startServer } = await loadServer();
  try {
    const options = (workerData as { options: ServerOptions }).options;
    const server = await startServer({
      ...options,
      onNotice: (message) => port.postMessage({ kind: "notice", message } satisfies FromWorker),
    });
    port.on("message", (m) => {
      if (m === "close") void server.close().then(() => port.postMessage({ kind: "closed" } satisfies FromWorker));
    });
    port.postMessage({ kind: "listening", url: server.url } satisfies FromWorker);
  } catch (err) {
    const e = err as Error & { code?: string };
    port.postMessage({ kind: "failed", name: e.name, message: e.message, code: e.code } satisfies FromWorker);
  }
}
