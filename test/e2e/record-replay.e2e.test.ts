// Record and replay through the real binary, as a user would: `mq logs --all -o ndjson` from one
// `mq serve`, then `mq serve --events` on the file, and every statistic the same on both. The
// statistics are asked in-process (main(), what the binary runs): what they compare is the two
// servers' answers, which a process per question would not change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/main.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { testContext } from "../helpers/context.js";
import { spawnMq, startMq, type Running } from "../helpers/spawn.js";
import { tempDir } from "../helpers/tmp.js";

const WINDOW = ["--since", "2026-11-19T00:00:00Z", "--until", "2026-11-20T00:00:00Z"];
let simulated: Running;
let replayed: Running;
let simulatedUrl: string;
let replayedUrl: string;
let recordedLines: number;

/** mq in-process, its clock the simulated server's --now */
async function mq(args: string[]) {
  const ctx = testContext({ env: { NO_COLOR: "1" } });
  const code = await main(args, ctx);
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText() };
}

async function serve(args: string[]): Promise<[Running, string]> {
  const server = startMq(["serve", "--port", "0", ...args], { killAfterMs: 120_000 });
  await server.waitForStdout(/^http:\/\/\S+\n/);
  return [server, server.stdout().split("\n")[0]!];
}

beforeAll(async () => {
  [simulated, simulatedUrl] = await serve(["--now", "2026-11-20T12:00:00Z", "--days", "3", "--seed", "9"]);
  const recorded = await spawnMq(
    [
      "logs",
      "--api-url",
      simulatedUrl,
      "--token",
      "t",
      "--repo",
      "acme/web",
      "--all",
      "-o",
      "ndjson",
      "--since",
      "2026-11-18T00:00:00Z",
      "--until",
      "2026-11-20T12:00:00Z",
    ],
    { killAfterMs: 60_000 },
  );
  expect(recorded.code).toBe(0);
  recordedLines = recorded.stdout.split("\n").filter(Boolean).length;
  const file = join(tempDir("mq-replay-"), "acme.ndjson");
  writeFileSync(file, recorded.stdout);
  [replayed, replayedUrl] = await serve(["--events", file]);
});

afterAll(async () => {
  for (const server of [simulated, replayed]) {
    server?.child.kill("SIGTERM");
    await server?.done;
  }
});

describe("record with mq logs, replay with mq serve --events", () => {
  it("recorded a realistic history", () => {
    expect(recordedLines).toBeGreaterThan(1000);
  });

  it("replays the same events, page for page", async () => {
    const args = ["logs", "--token", "t", "--repo", "acme/web", "--all", "-o", "ndjson", ...WINDOW];
    const [a, b] = await Promise.all([
      spawnMq(["--api-url", simulatedUrl, ...args], { killAfterMs: 60_000 }),
      spawnMq(["--api-url", replayedUrl, ...args], { killAfterMs: 60_000 }),
    ]);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  // time-to-merge looks back 7 days from --at, past the start of the recording
  it.each(STATS_ENDPOINTS.filter((e) => e.params !== "time-to-merge" && e.dialects.includes("spec")).map((e) => e.name))(
    "mq stats %s gives the same figures from the replayed log",
    async (name) => {
      const args = ["stats", name, "--token", "t", "--repo", "acme/web", "-o", "json", ...WINDOW];
      const [a, b] = await Promise.all([mq(["--api-url", simulatedUrl, ...args]), mq(["--api-url", replayedUrl, ...args])]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(b.stdout).toBe(a.stdout);
    },
  );
});
