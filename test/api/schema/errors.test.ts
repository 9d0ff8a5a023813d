import { describe, expect, it } from "vitest";
import { ErrorBodySchema } from "../../../src/api/schema/errors.js";
import { formatErrorBody, parseErrorBody } from "../../../src/api/error-body.js";
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

  it.each([[null], [""], [42], [{}], [{ detail: [] }], [{ other: "x" }]])("undefined for %j", (body) =>
    expect(formatErrorBody(body)).toBeUndefined(),
  );

  it("outside the contract's shapes: a message, short text, a detail of another type, loose list items", () => {
    expect(formatErrorBody({ message: "y" })).toBe("y");
    expect(formatErrorBody("oops")).toBe("oops");
    expect(formatErrorBody({ detail: 3 })).toBe("3");
    expect(
      formatErrorBody({
        detail: [
          { loc: ["query", "a"], msg: "m1" },
          { loc: ["path", "owner"], msg: "m2" },
        ],
      }),
    ).toBe("query.a: m1; path.owner: m2");
    expect(formatErrorBody({ detail: ["plain", { msg: "no loc" }] })).toBe("plain; no loc");
  });

  it("reads a body as JSON, short text, or nothing for an HTML page", () => {
    expect(parseErrorBody("", "application/json")).toBeUndefined();
    expect(parseErrorBody('{"detail":"x"}', "application/json")).toEqual({ detail: "x" });
    expect(parseErrorBody("<html>busy</html>", "text/html")).toBeUndefined();
    expect(parseErrorBody("  over quota  ", "text/plain")).toBe("over quota");
    expect(parseErrorBody("x".repeat(300), undefined)).toBe("x".repeat(200));
  });
});
