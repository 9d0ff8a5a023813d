// The generated validators are committed; they must be what the generator makes of the schemas and
// the OpenAPI today. Regenerated here in memory and compared, file by file.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_FILES, checksFileText } from "../../../src/api/schema/check-files.js";

describe("the generated validators (src/api/schema/check-files.ts)", () => {
  it.each(CHECK_FILES.map((f) => [f.path, f] as const))("%s is what the generator makes now", (path, file) => {
    const committed = readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
    if (committed !== checksFileText(file)) {
      throw new Error(
        `${path} is stale: run node scripts/gen-checks.mjs (after node scripts/gen-mergify-dialect.mjs when the OpenAPI changed)`,
      );
    }
    expect(committed.length).toBeGreaterThan(0);
  });

  it("the generated code needs no zod and no ajv", () => {
    for (const { path } of CHECK_FILES) {
      const text = readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
      expect(text, path).not.toMatch(/from "(zod|ajv)/);
    }
  });
});
