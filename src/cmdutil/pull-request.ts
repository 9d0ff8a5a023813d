// A pull request number as a command's argument takes it: "42" or "#42", 1 to the API's maximum.
import { UsageError } from "../errors.js";
import { MAX_PULL_REQUEST } from "./logs-filters.js";

/** A pull request number as the commands take it ("42" or "#42"). */
export function parsePullRequestArgument(number: string): number {
  const text = number.trim().replace(/^#/, "");
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_PULL_REQUEST) {
    throw new UsageError(`pull request number must be an integer from 1 to ${MAX_PULL_REQUEST}, not "${number}".`);
  }
  return n;
}
