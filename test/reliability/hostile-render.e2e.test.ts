// Issue 14's "done when" through the real binary on real pseudo-terminals (stdout and stderr each on
// its own pty, 120 columns): against the hostile server, the terminal receives no raw control
// character but mq's own SGR colours (none with --color never) and, on stderr, the spinner's own
// cursor codes; no stderr line starts a CI workflow command.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHostileServer, type HostileServer } from "../helpers/hostile-server.js";
import { hasPython, runInPty } from "../helpers/pty.js";
import { codeCacheEnv, MQ_BIN } from "../helpers/spawn.js";
import { expectNoRawControls, expectNoWorkflowCommands } from "../helpers/terminal-assert.js";
import { tempDir } from "../helpers/tmp.js";

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

// ora's own sequences: synchronized output, hide and show the cursor, go to column 1, clear the line, move up.
const SPINNER = /\x1b\[\?(?:25|2026)[lh]|\x1b\[\d*G|\x1b\[\d*K|\x1b\[2K|\x1b\[\d*A|\r(?=\x1b\[)/g;

function env(): Record<string, string> {
  const dir = tempDir("mq-hostile-");
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, MQ_CONFIG_DIR: dir, TERM: "xterm-256color", ...codeCacheEnv() };
}

const CASES: Array<{ name: string; args: string[]; code: number }> = [
  { name: "logs table", args: ["--repo", "acme/web", "logs", "--all"], code: 0 },
  { name: "logs ndjson", args: ["--repo", "acme/web", "logs", "--all", "-o", "ndjson"], code: 0 },
  { name: "logs csv", args: ["--repo", "acme/web", "logs", "--limit", "200", "-o", "csv"], code: 0 },
  { name: "failure half-way with a resume hint", args: ["--repo", "acme/broken", "logs", "--all", "--per-page", "10"], code: 6 },
  { name: "403 detail", args: ["--repo", "acme/denied", "logs"], code: 4 },
  { name: "a Location header", args: ["--repo", "acme/redirect", "logs"], code: 6 },
  {
    name: "stats tables and --fail-if breaches",
    args: ["--repo", "acme/web", "stats", "failure-rate", "--fail-if", "failure_rate>0.01"],
    code: 1,
  },
  { name: "charts", args: ["--repo", "acme/web", "stats", "average-queue-time", "--chart"], code: 0 },
  { name: "queue names", args: ["--repo", "acme/web", "stats", "queues"], code: 0 },
  { name: "branch names", args: ["--repo", "acme/web", "stats", "branches"], code: 0 },
];

describe.skipIf(!hasPython)("hostile server on real terminals", () => {
  describe.each([
    { colour: "auto (on)", extra: [] as string[], sgr: true },
    { colour: "never", extra: ["--color", "never"], sgr: false },
  ])("--color $colour", ({ extra, sgr }) => {
    it.each(CASES)("$name", async ({ args, code }) => {
      const r = await runInPty([process.execPath, MQ_BIN, "--api-url", server.url, "--token", "tok-12345", ...extra, ...args], {
        env: env(),
        columns: 120,
      });
      expect(r.killed).toBe(false);
      expect(r.code, r.stderr).toBe(code);
      // csv rows end in CR LF (RFC 4180): mq's own
      expectNoRawControls(args.includes("csv") ? r.stdout.replace(/\r\n/g, "\n") : r.stdout, "stdout", sgr);
      if (!sgr) expect(r.stdout).not.toContain("\x1b");
      expectNoRawControls(r.stderr.replace(SPINNER, ""), "stderr", sgr);
      expectNoWorkflowCommands(r.stderr);
    });
  });
});
