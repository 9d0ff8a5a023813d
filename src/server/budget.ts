// The memory budget of `mq serve`: its one default and bounds, apart from the server's code so
// that parsing the flag loads nothing else.

/** The default memory budget of `mq serve` (--memory-budget), in MB: the default 30-day history of one repository fits. */
export const DEFAULT_MEMORY_BUDGET_MB = 1024;

/** the bounds of --memory-budget, MB: below 128 a two-week statistics window no longer fits */
export const MEMORY_BUDGET_MB = { min: 128, max: 65_536, default: DEFAULT_MEMORY_BUDGET_MB } as const;
