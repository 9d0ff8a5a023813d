// The dialect data is the OpenAPI's, not a copy that can drift: the generated files are what the
// generator makes of docs/mergify-openapi.json today, and that file is the shared reference.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
// @ts-expect-error -- a plain .mjs script without types
import { generate, OUTPUTS } from "../../scripts/gen-mergify-dialect.mjs";
import { DIALECTS, dialectForUrl, MERGIFY_DIALECT, SPEC_DIALECT } from "../../src/api/dialects/index.js";
import { LogsQuerySchema } from "../../src/api/schema/params.js";
import { EVENT_TYPES } from "../../src/api/dialects/spec.js";
import { MERGIFY_METADATA_SCHEMAS } from "./mergify-zod.js";
import { OPENAPI_PATH, REFERENCE_PATH, openapi } from "../helpers/openapi.js";
import realEvent from "../../src/api/fixtures/real-service-event.json";

describe("generated from the OpenAPI", () => {
  test("src/api/dialects/*.generated.ts are what scripts/gen-mergify-dialect.mjs makes now", () => {
    const { data, schemas } = generate();
    expect(readFileSync(OUTPUTS.data, "utf8")).toBe(data);
    expect(readFileSync(OUTPUTS.schemas, "utf8")).toBe(schemas);
  });

  test.skipIf(!existsSync(REFERENCE_PATH))("docs/mergify-openapi.json is the shared reference, byte for byte", () => {
    expect(readFileSync(OPENAPI_PATH, "utf8")).toBe(readFileSync(REFERENCE_PATH, "utf8"));
  });

  test("the mergify record: the file's types, outcomes, endpoints; facts it does not state are marked", () => {
    expect(MERGIFY_DIALECT.eventTypes).toEqual(openapi.components.schemas.EventType.enum);
    expect(MERGIFY_DIALECT.outcomes).toEqual(["success", "failure", "pending", "neutral"]);
    expect(Object.keys(MERGIFY_DIALECT.endpoints).sort()).toEqual(
      Object.keys(openapi.paths)
        .map((p) => p.replace("/repos/{owner}/{repository}/", ""))
        .sort(),
    );
    expect(MERGIFY_DIALECT.endpoints["stats/average_queue_time"]).toBeUndefined();
    expect(MERGIFY_DIALECT.defaultPerPage).toBe(10);
    expect(MERGIFY_DIALECT.maxWindowDays).toBe(93);
    expect(MERGIFY_DIALECT.linkRels).toEqual(["next", "prev", "first", "last"]);
    expect(MERGIFY_DIALECT.abortCodes).toContain("CHECKS_INTERRUPTED");
    const logs = Object.fromEntries(MERGIFY_DIALECT.endpoints.logs!.map((p) => [p.name, p]));
    expect(logs.pull_request).toMatchObject({ array: true, type: "integer", exclusiveMaximum: 2147483647 });
    expect(logs.not_outcome).toMatchObject({ array: true, enum: MERGIFY_DIALECT.outcomes, exclusiveWith: "outcome" });
    expect(logs.not_event_type!.enum).toEqual(MERGIFY_DIALECT.eventTypes);
  });

  test("the spec record says what the contract's schemas say", () => {
    expect(SPEC_DIALECT.eventTypes).toEqual(EVENT_TYPES);
    expect(SPEC_DIALECT.endpoints.logs!.map((p) => p.name).sort()).toEqual(Object.keys(LogsQuerySchema.shape).sort());
    expect(SPEC_DIALECT.outcomes).toEqual([]);
    expect(DIALECTS.spec.partitions).toBe(true);
  });

  test("the eleven contract types the service refuses and the ten it adds", () => {
    const spec = new Set(SPEC_DIALECT.eventTypes);
    const real = new Set(MERGIFY_DIALECT.eventTypes);
    expect([...spec].filter((t) => !real.has(t))).toHaveLength(11);
    expect([...real].filter((t) => !spec.has(t))).toHaveLength(10);
    expect(MERGIFY_DIALECT.eventTypes.filter((t) => t.startsWith("action.queue."))).toContain("action.queue.conflict_deferred");
  });

  test("metadata shapes come from the file: a real event validates, nullable and nested fields as the service sends them", () => {
    expect(MERGIFY_METADATA_SCHEMAS.get(realEvent.type)!.safeParse(realEvent.metadata).success).toBe(true);
    const postCheck = MERGIFY_METADATA_SCHEMAS.get("action.post_check")!;
    expect(postCheck.safeParse({ conclusion: null, title: "t", summary: "s" }).success).toBe(true);
    const enter = MERGIFY_METADATA_SCHEMAS.get("action.queue.enter")!;
    // no partition_name is required; unknown fields are kept (loose), never a failure
    expect(enter.safeParse({ ...realEvent.metadata, brand_new: 1 }).success).toBe(true);
    expect(enter.safeParse({ ...realEvent.metadata, queued_at: "yesterday" }).success).toBe(false);
  });
});

describe("how mq decides", () => {
  test.each([
    ["https://api.mergify.com", "mergify"],
    ["https://API.mergify.com/", "mergify"],
    ["http://127.0.0.1:8080", "spec"],
    ["https://mq.example.com", "spec"],
    ["not a url", "spec"],
  ])("%s speaks %s", (url, dialect) => {
    expect(dialectForUrl(url)).toBe(dialect);
  });
});

describe("resolveDialect: --dialect, MQ_DIALECT, the config key, then the API URL", async () => {
  const { testContext } = await import("../helpers/context.js");
  const { resolveDialect } = await import("../../src/config/dialect.js");
  const { UsageError } = await import("../../src/errors.js");
  const choice = async (setup: (ctx: ReturnType<typeof testContext>) => void | Promise<void>, env: Record<string, string> = {}) => {
    const ctx = testContext({ env });
    await setup(ctx);
    const c = await resolveDialect(ctx);
    return `${c.dialect.name} (${c.source})`;
  };

  test("in order", async () => {
    expect(await choice(() => {})).toBe("mergify (API URL https://api.mergify.com)");
    expect(await choice((c) => void (c.globals.apiUrl = "http://127.0.0.1:9"))).toBe("spec (API URL http://127.0.0.1:9)");
    expect(await choice((c) => void (c.globals.offline = true))).toBe("spec (--offline)");
    expect(await choice(async (c) => (await c.config()).set("dialect", "mergify"))).toBe("mergify (config)");
    expect(await choice(async (c) => void (c.globals.apiUrl = "http://127.0.0.1:9"), { MQ_DIALECT: "mergify" })).toBe(
      "mergify (MQ_DIALECT)",
    );
    expect(await choice((c) => void (c.globals.dialect = "spec"), { MQ_DIALECT: "mergify" })).toBe("spec (--dialect)");
  });

  test("a bad MQ_DIALECT is a usage error naming the allowed values", async () => {
    await expect(choice(() => {}, { MQ_DIALECT: "real" })).rejects.toThrow(
      new UsageError("MQ_DIALECT: 'real' is not allowed; allowed values: spec, mergify"),
    );
  });
});
