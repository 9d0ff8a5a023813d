// "Did you mean" for every name a user types: commands, flags' values, figure names, event types.

/** Levenshtein distance between two strings (one row of the table at a time). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/**
 * The closest candidates to `value`, nearest first: a candidate that contains the value or is
 * contained in it, or one within a third of its length (at least 2 edits), ignoring case.
 */
export function closestMatches(value: string, candidates: readonly string[], max = 3): string[] {
  const scored = candidates
    .map((c) => ({ c, d: editDistance(value.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)) || c.includes(value) || value.includes(c))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  return scored.slice(0, max).map((s) => s.c);
}
