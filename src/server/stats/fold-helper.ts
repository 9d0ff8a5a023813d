// A second thread for the statistics of long windows. A cold year-long query folds ~365 calendar
// days, each from the simulation of the days that reach into it (day-fold.ts): CPU work that one
// thread did alone, between the answers it gives other clients. With the helper, the server's
// thread folds the window's missing days from the front while the helper folds them from the back,
// each taking days from a shared count (Atomics: the server one at a time, the helper a block of
// BLOCK_DAYS), so they meet wherever their speeds put them and no day is folded twice. The helper sends each day's partials as it finishes it;
// they are the partials the server's thread would have made (same folder, same order of facts),
// and the window is merged in day order as before, so the answer is the same byte for byte.
//
// The helper is this same module run in a worker (`new Worker(import.meta.url)`), started with the
// server (idle: it folds nothing until a long window is asked for) and kept; its heap is capped
// (budget.ts: its share of the memory budget).
// Should it fail (out of memory, a crash), the days it took and did not send are folded by the
// server's thread, the failure is reported once, and the next long window starts a new helper;
// after MAX_FAILURES the server folds alone.
import { isMainThread, parentPort, Worker, workerData, type ResourceLimits } from "node:worker_threads";
import { DayFolder, foldAll, type DayFoldOptions } from "./day-fold.js";
import { PartialsPacker, PartialsUnpacker, type PackedPartials } from "./accumulate.js";
import type { Partials } from "./engine.js";

/** a window to fold: its calendar days (ascending, the helper takes them from the end) */
export interface FoldJob extends DayFoldOptions {
  days: number[];
}

type ToHelper = { job: number; spec: FoldJob; claims: SharedArrayBuffer };
type FromHelper =
  | { kind: "day"; job: number; day: number; partials: PackedPartials }
  | { kind: "done"; job: number; folded: number }
  | { kind: "failed"; job: number; message: string };

/**
 * the days the helper takes at a time: each block costs a simulated day or two before it (those
 * that reach its first day) that the next block's days do not share
 */
const BLOCK_DAYS = 12;

/** after this many failures the helper is not started again */
const MAX_FAILURES = 2;

/** One window being folded by both threads. */
export interface FoldRun {
  /** takes the next day from the front for the caller; false once every day is taken */
  claim(): boolean;
  /**
   * settles when the helper has sent every day it took (resolving with how many), or has failed
   * (resolving with its error: the caller folds what is missing itself)
   */
  readonly finished: Promise<{ folded: number } | { error: Error }>;
  /** no more days for the helper (the caller stops early): it finishes the day it is on */
  cancel(): void;
}

export interface FoldHelperOptions {
  /** the module to run in the worker: this one, or the same from another build (tests) */
  url?: URL;
  resourceLimits?: ResourceLimits;
  /** hears, once per failure, why the helper stopped */
  onFailure?: (reason: string) => void;
}

export class FoldHelper {
  private worker: Worker | undefined;
  private jobs = 0;
  private current:
    | { job: number; onDay: (day: number, packed: PackedPartials) => void; settle: (r: { folded: number } | { error: Error }) => void }
    | undefined;
  private failures = 0;
  private closed = false;

  constructor(private readonly options: FoldHelperOptions = {}) {}

  /** whether a run can start (not closed, not given up after repeated failures) */
  get available(): boolean {
    return !this.closed && this.failures < MAX_FAILURES;
  }

  /**
   * Starts folding `spec.days` from the back on the helper; `onDay` gets each day it folds. One
   * run at a time (the server folds one window at a time).
   */
  run(spec: FoldJob, onDay: (day: number, partials: Partials) => void): FoldRun {
    if (this.current) throw new Error("FoldHelper: a run is under way");
    const claims = new Int32Array(new SharedArrayBuffer(4));
    claims[0] = spec.days.length;
    const job = ++this.jobs;
    let settle!: (r: { folded: number } | { error: Error }) => void;
    const finished = new Promise<{ folded: number } | { error: Error }>((resolve) => (settle = resolve));
    if (!this.available) {
      settle({ error: new Error("the fold helper is not available") });
    } else {
      const worker = this.spawned();
      const unpacker = new PartialsUnpacker();
      // held while it works for someone: an idle helper does not keep the process alive
      worker.ref();
      this.current = {
        job,
        onDay: (day, packed) => onDay(day, unpacker.unpack(packed)),
        settle: (r) => {
          this.current = undefined;
          this.worker?.unref();
          settle(r);
        },
      };
      worker.postMessage({ job, spec, claims: claims.buffer as SharedArrayBuffer } satisfies ToHelper);
    }
    return {
      claim: () => Atomics.sub(claims, 0, 1) > 0,
      finished,
      cancel: () => void Atomics.store(claims, 0, -(2 ** 30)),
    };
  }

  /**
   * Starts the helper's thread ahead of its first run (mq serve, once listening): a thread and its
   * code loaded, nothing folded; a run then does not wait for Node to start a worker.
   */
  start(): void {
    if (this.available) this.spawned();
  }

  private spawned(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.url ?? new URL(import.meta.url), {
      workerData: { mqFoldHelper: true },
      resourceLimits: this.options.resourceLimits,
      stdout: false,
      stderr: false,
    });
    worker.unref();
    worker.on("message", (m: FromHelper) => {
      const run = this.current;
      if (!run || m.job !== run.job) return;
      if (m.kind === "day") run.onDay(m.day, m.partials);
      else if (m.kind === "done") run.settle({ folded: m.folded });
      else this.fail(worker, new Error(m.message));
    });
    worker.on("error", (err: Error) => this.fail(worker, err));
    worker.on("exit", (code) => {
      if (this.worker === worker && !this.closed) this.fail(worker, new Error(`the fold helper exited (code ${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private fail(worker: Worker, err: Error & { code?: string }): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    this.failures++;
    const reason = err.code === "ERR_WORKER_OUT_OF_MEMORY" ? "it ran out of its share of the memory budget" : err.message;
    this.options.onFailure?.(
      `the statistics helper thread stopped (${reason}); its days were folded on the server's thread` +
        (this.failures >= MAX_FAILURES ? ", which now folds every window alone" : ""),
    );
    this.current?.settle({ error: err });
  }

  /** stops the helper thread (the server closes) */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.current?.settle({ error: new Error("the server is closing") });
    if (worker) await worker.terminate();
  }
}

// the helper's side: this module, loaded by `new Worker(...)` above
if (!isMainThread && (workerData as { mqFoldHelper?: boolean } | null)?.mqFoldHelper) {
  const port = parentPort!;
  port.on("message", ({ job, spec, claims }: ToHelper) => {
    const counter = new Int32Array(claims);
    const packer = new PartialsPacker();
    let folded = 0;
    try {
      // blocks of days from the back, each folded from its start (a simulated day or two before
      // it are simulated for it alone), until the server's thread has taken the rest
      for (let end = spec.days.length; end > 0; ) {
        const left = Atomics.sub(counter, 0, BLOCK_DAYS);
        if (left <= 0) break;
        const block = spec.days.slice(end - Math.min(BLOCK_DAYS, left), end);
        end -= block.length;
        const folder = new DayFolder(spec, block);
        for (const day of block) {
          port.postMessage({ kind: "day", job, day, partials: packer.pack(foldAll(folder.fold(day))) } satisfies FromHelper);
          folded++;
        }
      }
      port.postMessage({ kind: "done", job, folded } satisfies FromHelper);
    } catch (err) {
      port.postMessage({ kind: "failed", job, message: err instanceof Error ? err.message : String(err) } satisfies FromHelper);
    }
  });
}
