// The pool of parallel time slices (api/slices.ts): its bounds, apart so that flag parsing does not
// load the walker.
export const DEFAULT_PARALLEL = 6;
export const MAX_PARALLEL = 16;
