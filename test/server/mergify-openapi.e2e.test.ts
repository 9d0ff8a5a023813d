// The rest of the sweeps of mergify-openapi.test.ts (which runs a sample of each in the fast half):
// every other event type of the OpenAPI, and every other filter of every statistics endpoint.
import { describe, test } from "vitest";
import { MERGIFY_DIALECT } from "../../src/api/dialects/index.js";
import { rest } from "../helpers/sweep.js";
import { expectTypeServed, mergifyServer, MONTH_AGO, OPENAPI_SAMPLE, otherStatsQueries } from "./mergify-openapi-checks.js";

const served = mergifyServer();

describe("mq serve --dialect mergify, the whole sweep", () => {
  test("every other event type of the OpenAPI is served, and every event validates", async () => {
    for (const type of rest(MERGIFY_DIALECT.eventTypes, OPENAPI_SAMPLE.types)) await expectTypeServed(served, type, MONTH_AGO);
  });

  test("every other filter of every statistics endpoint validates", async () => {
    for (const { path, query } of otherStatsQueries()) await served.valid(path, query);
  });
});
