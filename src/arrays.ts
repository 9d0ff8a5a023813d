// Arrays whose length a server or a file decides: loops, not spreads. `Math.max(...xs)` and
// `a.push(...xs)` pass every item as an argument, and past about 120,000 items V8 throws "Maximum
// call stack size exceeded" (a statistics answer with 130,000 intervals ended in exit 70).

/** The largest number of `xs` (-Infinity when empty, as Math.max()). */
export function maxOf(xs: Iterable<number>): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const x of xs) {
    if (Number.isNaN(x)) return Number.NaN;
    if (x > max) max = x;
  }
  return max;
}

/** The smallest number of `xs` (Infinity when empty, as Math.min()). */
export function minOf(xs: Iterable<number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const x of xs) {
    if (Number.isNaN(x)) return Number.NaN;
    if (x < min) min = x;
  }
  return min;
}

/** Appends every item of `items` to `target` (as target.push(...items), for any length). */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
