// The real service's OpenAPI types pull-request numbers as int64 (maximum 2^63-1): an array of them
// beyond 2^53 is a valid page, which --strict must accept (it failed with "Too big: expected int to
// be <=9007199254740991"), while a number past 2^63, a fraction or a negative one stays a breach.
import { describe, expect, it } from "vitest";
import { MERGIFY_METADATA_CHECKS } from "../../../src/api/dialects/mergify-checks.generated.js";
import { issuesText } from "../../../src/api/schema/issues.js";

const check = MERGIFY_METADATA_CHECKS["action.queue.batch_bisection_start"]!;
const metadata = (numbers: unknown[]) => ({
  queue_name: "default",
  priority_rule_name: null,
  original_batch_pr_numbers: numbers,
  number_of_sub_batches: 2,
  session_id: "3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6c",
  batch_id: null,
  train_car_id: null,
  batch_name: null,
});
const prIssues = (numbers: unknown[]) =>
  (issuesText(check, metadata(numbers), "", 20) ?? "")
    .split("; ")
    .filter((i) => i.startsWith("original_batch_pr_numbers"))
    .join("; ");

describe("int64 integer arrays of the real service (--strict)", () => {
  it("accept integers beyond 2^53 up to 2^63-1", () => {
    // as JSON.parse reads them off the wire
    expect(prIssues(JSON.parse("[1, 9007199254740993, 4611686018427387904, 9223372036854775807]"))).toBe("");
  });

  it("refuse a fraction, a negative number and a number past 2^63", () => {
    expect(prIssues([1.5])).toBe("original_batch_pr_numbers[0]: Invalid input: expected int, received number");
    expect(prIssues([-1])).toBe("original_batch_pr_numbers[0]: Too small: expected number to be >=0");
    expect(prIssues([1e19])).toBe("original_batch_pr_numbers[0]: Too big: expected int to be <=9223372036854775807");
  });
});
