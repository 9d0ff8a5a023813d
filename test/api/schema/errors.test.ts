import { describe, expect, it } from "vitest";
import { ErrorBodySchema, formatErrorBody } from "../../../src/api/schema/errors.js";
import { decodeQuery, LogsQuerySchema } from "../../../src/api/schema/params.js";

describe("error bodies", () => {
  it("a plain detail", () => {
    expect(formatErrorBody({ detail: "Not Found" })).toBe("Not Found");
  });

  it("a FastAPI validation detail", () => {
    expect(
      formatErrorBody({
        detail: [{ loc: ["query", "per_page"], msg: "Input should be less than or equal to 100", type: "less_than_equal", input: "101" }],
      }),
    ).toBe("query.per_page: Input should be less than or equal to 100");
  });

  it("several details, one line", () => {
    const r = decodeQuery(new URLSearchParams("per_page=0&event_type=nope"), LogsQuerySchema);
    expect(r.ok).toBe(false);
    const body = { detail: r.ok ? [] : r.detail };
    expect(ErrorBodySchema.safeParse(body).success).toBe(true);
    expect(formatErrorBody(body)).toMatch(
      /^query\.event_type\.0: Input should be 'action\.assign', .*; query\.per_page: Input should be greater than or equal to 1$/,
    );
  });

  it.each([[null], ["oops"], [{}], [{ detail: 3 }], [{ detail: "" }], [{ detail: [] }], [{ message: "x" }]])(
    "undefined for %j",
    (body) => expect(formatErrorBody(body)).toBeUndefined(),
  );
});
