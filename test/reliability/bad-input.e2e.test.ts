// Bad input through the real binary (bin/mq.js): exit 2, one line on stderr, nothing sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnMq } from "../helpers/spawn.js";
import { startFaultServer, type FaultServer, pageReply } from "../helpers/fault-server.js";
import { lines } from "./harness.js";

interface Case {
  args: string[];
  says: RegExp;
}

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => pageReply([]));
});
afterAll(async () => {
  // nothing may reach the server: verify() also fails on a request the script could not answer
  server.verify();
  await server.close();
});

describe("bad input through the real binary", () => {
  const BINARY: Case[] = [
    { args: ["logs", "--per-page", "101"], says: /--per-page must be an integer from 1 to 100, not "101"/ },
    { args: ["logs", "--since", "2026-11-19T00:00:00"], says: /--since "2026-11-19T00:00:00" has no timezone/ },
    { args: ["logs", "--all", "--limit", "5"], says: /--all and --limit cannot be used together/ },
    { args: ["logs", "--repo", "a_b/web"], says: /owner 'a_b' must be 1 to 40 letters, digits or hyphens/ },
    { args: ["stats", "failure-rate", "--fail-if", "nope > 1"], says: /--fail-if/ },
    { args: ["logs", "-o", "xml"], says: /Allowed choices are table, json, ndjson, csv/ },
  ];
  it.each(BINARY.map((c) => [c.args.join(" "), c] as const))("%s", async (_name, c) => {
    const before = server.requests.length;
    const r = await spawnMq(["--api-url", server.url, "--token", "tok-12345", "--repo", "acme/web", ...c.args]);
    expect({ code: r.code, signal: r.signal, stderr: lines(r.stderr) }).toEqual({
      code: 2,
      signal: null,
      stderr: [expect.stringMatching(c.says)],
    });
    expect(r.stdout).toBe("");
    expect(server.requests.length - before).toBe(0);
  });
});
