// The memory budget of `mq serve`: its one default and bounds (apart from the server's code, so
// that parsing the flag loads nothing else), how it is shared between threads and data, and the
// error of a window that needs more than all of it.

/** The default memory budget of `mq serve` (--memory-budget), in MB: the default 30-day history of one repository fits. */
export const DEFAULT_MEMORY_BUDGET_MB = 1024;

/** the bounds of --memory-budget, MB: below 128 a two-week statistics window no longer fits */
export const MEMORY_BUDGET_MB = { min: 128, max: 65_536, default: DEFAULT_MEMORY_BUDGET_MB } as const;

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

/**
 * The fold helper's heap (stats/fold-helper.ts), MB: it holds a few simulated days' facts and one day's
 * partials at a time. Under HELPER_MIN_BUDGET_MB the server folds on one thread.
 */
const HELPER = { old: 48, young: 16, min: 512 } as const;

/** what the helper thread takes of a budget (MB): its heap caps and its isolate; 0 without one */
function helperMb(budgetMb: number): number {
  return budgetMb >= HELPER.min ? HELPER.old + HELPER.young + 16 : 0;
}

/** the helper thread's heap caps for a budget, or undefined when the budget has no room for one */
export function helperLimits(budgetMb: number): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } | undefined {
  return budgetMb >= HELPER.min ? { maxOldGenerationSizeMb: HELPER.old, maxYoungGenerationSizeMb: HELPER.young } : undefined;
}

/** The worker's old-generation cap for a budget (MB): what the main thread, the code and the helper thread leave. */
export function heapLimitMb(budgetMb: number): number {
  return Math.max(64, budgetMb - youngMb(budgetMb) - OUTSIDE_HEAP_MB - helperMb(budgetMb));
}

/**
 * What one held event costs, in bytes: the object (its metadata is mostly shared), its place in
 * the store's arrays and indexes, and its JSON once served. Measured about 450 + 500 + 60; the
 * rest is headroom for the garbage collector, since the budget is meant to bound the RSS.
 */
export const EVENT_BYTES = 1_400;

/**
 * The share of the budget the held data may take, or of the worker's old-generation cap
 * (worker.ts) when that is smaller. Measured under churn (200 clients over 40 repositories, each
 * asking for days the others' pushed out): peak RSS was about three times the data held, the rest
 * Node itself and garbage the collector had not reached yet (simulation allocates much and keeps
 * little). Against the cap: with held data at 60% of it (77 of 128 MB, a 256 MB budget, --days 365)
 * the third cold year took 110 s of CPU instead of 8 and the fourth ran out of memory; at 30% each
 * takes its 8 s.
 */
export const DATA_SHARE = 0.3;

/** the bytes of simulated data a budget (bytes) may hold */
export function dataBytesFor(budgetBytes: number): number {
  return Math.floor(Math.min(budgetBytes, heapLimitMb(budgetBytes / 1048576) * 1048576) * DATA_SHARE);
}

/** A request's window needs more than the whole budget. */
export class BudgetError extends Error {
  constructor(
    readonly neededBytes: number,
    readonly budgetBytes: number,
  ) {
    super(
      `this window needs about ${Math.ceil(neededBytes / 1048576)} MB of simulated events, more than the server's memory budget ` +
        `(${Math.round(budgetBytes / 1048576)} MB, mq serve --memory-budget): narrow the window or raise the budget`,
    );
    this.name = "BudgetError";
  }
}
