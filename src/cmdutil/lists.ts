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
