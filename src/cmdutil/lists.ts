// Repeatable, comma-separated flag values: `--type a --type b,c` gives [a, b, c]. Values that may
// hold a comma themselves (a trigger: "Rule: a, b") repeat without splitting; a flag that takes
// one value refuses a second one instead of keeping the last silently.
import { InvalidArgumentError } from "commander";
import { UsageError } from "../errors.js";

/** commander argParser for a repeatable flag that also accepts comma-separated values. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  const items = value.split(",").map((s) => s.trim());
  return [...(previous ?? []), ...items];
}

/** commander argParser for a repeatable flag whose values are taken whole (no comma splitting). */
export function collectWhole(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * commander argParser for a flag that takes one value: given twice, it is a usage error (exit 2)
 * naming both values, where commander would keep the last one silently. PARSE checks the value.
 */
export function singleValue<T = string>(flag: string, parse: (value: string) => T = (v) => v as T) {
  // commander hands the value parsed so far as `previous` (undefined the first time: no default)
  return (value: string, previous: T | undefined): T => {
    if (previous !== undefined)
      throw new InvalidArgumentError(`${flag} takes one value; it was given twice ('${String(previous)}', then '${value}').`);
    return parse(value);
  };
}

/** Checks that no item is empty (`--queue a,,b`, `--queue ""`); `flag` names the flag in the error. */
export function requireNonEmptyItems(flag: string, items: readonly string[], maxLength = 255): string[] {
  for (const item of items) {
    if (item.length === 0) throw new UsageError(`${flag} has an empty value: give 1 to ${maxLength} characters.`);
    if (item.length > maxLength) {
      throw new UsageError(`${flag} value of ${item.length} characters is too long: give 1 to ${maxLength} characters.`);
    }
  }
  return [...new Set(items)];
}

/** Parses an integer flag within [min, max]; the message names the flag and the range. */
export function parseIntFlag(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, not "${value}".`);
  }
  return n;
}

/** The closest candidates to `value` by edit distance, for "did you mean" hints. */
export function closestMatches(value: string, candidates: readonly string[], max = 3): string[] {
  const scored = candidates
    .map((c) => ({ c, d: editDistance(value.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)) || c.includes(value) || value.includes(c))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  return scored.slice(0, max).map((s) => s.c);
}

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
