// One fixture server per test file (started before its tests, its expectations checked after each)
// and `mq` run in-process against it, for the files that test `mq stats` on the fixtures.
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { main } from "../../../src/main.js";
import { testContext, type TestContext } from "../../helpers/context.js";
import { startFixtureServer, type FixtureServer } from "./fixture-server.js";

export interface FixtureMq {
  /** the file's server, once its tests run */
  server: FixtureServer;
  /** `mq ARGS --api-url <the server> --repo acme/web`: its exit code, stdout, stderr and context */
  mq(
    args: string[],
    init?: { tty?: boolean; columns?: number; url?: string },
  ): Promise<{ code: number; out: string; err: string; ctx: TestContext }>;
  /** `mq ARGS` is refused before any request: exit 2, `mq: MESSAGE` alone on stderr, nothing on stdout */
  refuses(args: string[], message: string): Promise<void>;
}

/** Registers the file's hooks: call it once, at the top of a test file. */
export function useFixtureServer(): FixtureMq {
  const fixture: FixtureMq = {
    server: undefined as unknown as FixtureServer,
    async mq(args, init = {}) {
      const ctx = testContext({ tty: init.tty, columns: init.columns, env: { MQ_TOKEN: "test-token-1234" } });
      const code = await main([...args, "--api-url", init.url ?? fixture.server.url, "--repo", "acme/web"], ctx);
      return { code, out: ctx.stdoutText(), err: ctx.stderrText(), ctx };
    },
    async refuses(args, message) {
      const before = fixture.server.requests.length;
      const { code, out, err } = await fixture.mq(args);
      expect(err).toBe(`mq: ${message}\n`);
      expect(code).toBe(2);
      expect(out).toBe("");
      expect(fixture.server.requests.length).toBe(before);
    },
  };
  beforeAll(async () => {
    fixture.server = await startFixtureServer();
  });
  afterAll(async () => {
    await fixture.server?.close();
  });
  afterEach(() => fixture.server.verify());
  return fixture;
}
