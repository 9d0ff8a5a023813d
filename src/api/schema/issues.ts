// What a generated validator says of an invalid value, as mq's errors have always read:
// `metadata.size: Invalid input: expected number, received string`. No zod: the validators record
// their issues in zod's words (check-helpers.ts), and this module only picks and formats them.
import { recordIssues, type Check, type Path } from "./check-helpers.js";

export type { Check } from "./check-helpers.js";

export interface Issue {
  path: Path;
  message: string;
}

/** `metadata.queued_at: expected ...`: one issue as a readable path and message. */
export function formatIssue(issue: Issue, prefix = ""): string {
  let path = prefix;
  for (const seg of issue.path) {
    if (typeof seg === "number") path += `[${seg}]`;
    else path += path === "" ? seg : `.${seg}`;
  }
  return path === "" ? issue.message : `${path}: ${issue.message}`;
}

/** The first `max` issues of `value` against `check`, undefined when it matches. */
export function issuesOf(check: Check, value: unknown, max = 3): Issue[] | undefined {
  return recordIssues(check, value)
    ?.slice(0, max)
    .map(({ path, message }) => ({ path, message }));
}

/** The first issues of `value` against `check` as one line (`a: …; b: …`), undefined when it matches. */
export function issuesText(check: Check, value: unknown, prefix = "", max = 3): string | undefined {
  return issuesOf(check, value, max)
    ?.map((i) => formatIssue(i, prefix))
    .join("; ");
}
