// The fake servers' own check (gh's httpmock `reg.Verify`): a test that leaves a scripted reply
// unused, or sends a request nothing was scripted for, fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageReply, startFaultServer, type FaultServer } from "./fault-server.js";
import { FIXTURES, startFixtureServer } from "../commands/stats/fixture-server.js";

describe("fault server verify()", () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer(() => pageReply([]));
  });
  afterAll(() => server.close());
  const get = async (path = "/v1/repos/acme/web/logs") => (await fetch(server.url + path)).status;

  it("passes when every scripted reply was consumed", async () => {
    server.expect({ status: 503, body: {} }, pageReply([]));
    expect([await get(), await get()]).toEqual([503, 200]);
    expect(() => server.verify()).not.toThrow();
  });

  it("fails on a reply never requested", async () => {
    server.expect(pageReply([]), pageReply([]));
    await get();
    expect(() => server.verify()).toThrow("fault server: 1 scripted reply was never requested");
  });

  it("fails on a request beyond the script, and the request gets a 599", async () => {
    server.expect(pageReply([]));
    await get();
    expect(await get("/v1/extra")).toBe(599);
    expect(() => server.verify()).toThrow("fault server: request 5 (/v1/extra): no reply was scripted for this request");
    // verify() reports once: the next test starts clean
    expect(() => server.verify()).not.toThrow();
  });
});

describe("stats fixture server verify()", () => {
  it("fails when a scripted body is never requested, or a path is no statistics endpoint", async () => {
    const server = await startFixtureServer({ bodies: { ...FIXTURES, "failure-rate": { groups: [] } } });
    try {
      expect(() => server.verify()).toThrow("fixture server: scripted bodies never requested: failure-rate");
      expect((await fetch(`${server.url}/v1/repos/acme/web/stats/failure_rate`)).status).toBe(200);
      expect((await fetch(`${server.url}/v1/repos/acme/web/nope`)).status).toBe(404);
      expect(() => server.verify()).toThrow("fixture server: requests to no statistics endpoint: /v1/repos/acme/web/nope");
      expect(() => server.verify()).not.toThrow();
    } finally {
      await server.close();
    }
  });
});
