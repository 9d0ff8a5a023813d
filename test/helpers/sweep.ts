// Exhaustive sweeps (every event type, every endpoint × every format, every window) run whole in
// the end-to-end half (`npm run test:e2e`, files named *.e2e.test.ts); the fast half (`npm test`)
// runs the same check on a sample spread over the list, so each kind of check still runs there.

/** `n` items spread evenly over `xs`, the first and the last included, in order. */
export function spread<T>(xs: readonly T[], n: number): T[] {
  if (n >= xs.length) return [...xs];
  if (n <= 1) return xs.slice(0, n);
  const picked = new Set<number>();
  for (let i = 0; i < n; i++) picked.add(Math.round((i * (xs.length - 1)) / (n - 1)));
  return [...picked].map((i) => xs[i]!);
}

/** The items of `xs` that `spread(xs, n)` leaves out: what the end-to-end companion adds. */
export function rest<T>(xs: readonly T[], n: number): T[] {
  const sample = new Set(spread(xs, n));
  return xs.filter((x) => !sample.has(x));
}
