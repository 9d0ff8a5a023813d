// --report FILE and the gate's step summary, where they cannot be written: a path that can never be
// a file is a usage error before any request (exit 2), a file that cannot be written is exit 74
// (before any request when that is known then), and a FIFO nobody reads is never waited for.
// Before: `--report` under a file and `--report /dev/full` were internal errors (exit 70) after
// every request, and a FIFO with no reader, as --report or GITHUB_STEP_SUMMARY, hung forever.
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { testContext } from "../../helpers/context.js";
import { tempDir } from "../../helpers/tmp.js";
import { startFixtureServer, type FixtureServer } from "./fixture-server.js";

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

const GATE = ["stats", "failure-rate", "-o", "none", "--fail-if", "failure_rate > 20%"];

async function mq(args: string[], env: Record<string, string> = {}) {
  const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234", ...env } });
  const before = server.requests.length;
  const code = await main([...args, "--api-url", server.url, "--repo", "acme/web"], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText(), requests: server.requests.length - before };
}

const fifoIn = (dir: string) => {
  const fifo = join(dir, "fifo");
  execFileSync("mkfifo", [fifo]);
  return fifo;
};

describe("--report FILE that cannot be written", () => {
  it("under a file (not a folder): exit 2 before any request", async () => {
    const dir = tempDir("mq-report-");
    writeFileSync(join(dir, "notes.txt"), "x");
    const path = join(dir, "notes.txt", "report.json");
    const r = await mq([...GATE, "--report", path]);
    expect([r.code, r.out, r.err, r.requests]).toEqual([
      2,
      "",
      `mq: --report ${path}: ${join(dir, "notes.txt")} is not a folder; give the path of a file in a folder.\n`,
      0,
    ]);
  });

  it("an existing file mq may not write: exit 74 before any request", async () => {
    if (process.getuid?.() === 0) return; // root writes any file
    const dir = tempDir("mq-report-");
    const path = join(dir, "report.json");
    writeFileSync(path, "old");
    chmodSync(path, 0o444);
    const r = await mq([...GATE, "--report", path]);
    expect([r.code, r.out, r.err, r.requests]).toEqual([
      74,
      "",
      `mq: --report ${path}: could not write the output: permission denied (EACCES)\n`,
      0,
    ]);
    expect(readFileSync(path, "utf8")).toBe("old");
  });

  it("/dev/full: exit 74 naming the flag, after the verdict lines", async () => {
    if (!existsSync("/dev/full")) return;
    const r = await mq([...GATE, "--report", "/dev/full"]);
    expect(r.code).toBe(74);
    expect(r.err).toBe(
      "ok    failure_rate 13.2% <= 20% (9/68 checks, all groups)\n" +
        "mq: --report /dev/full: could not write the output: no space left on the device (ENOSPC)\n",
    );
  });

  it("a FIFO nobody reads: exit 74 at once, never a hang", { timeout: 10_000 }, async () => {
    const fifo = fifoIn(tempDir("mq-report-"));
    const r = await mq([...GATE, "--report", fifo]);
    expect(r.code).toBe(74);
    expect(r.err).toBe(
      "ok    failure_rate 13.2% <= 20% (9/68 checks, all groups)\n" +
        `mq: --report ${fifo}: could not write the output: nothing reads this FIFO (ENXIO)\n`,
    );
  });

  it("a FIFO with a reader gets the whole report", { timeout: 10_000 }, async () => {
    const fifo = fifoIn(tempDir("mq-report-"));
    // the reader: this process, holding the FIFO open (a report fits in the pipe's buffer)
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const r = await mq([...GATE, "--report", fifo]);
      expect(r.code, r.err).toBe(0);
      const buffer = Buffer.alloc(1 << 16);
      const n = readSync(reader, buffer);
      expect(JSON.parse(buffer.subarray(0, n).toString())).toMatchObject({ command: "mq stats failure-rate", pass: true });
      // mq closed its end: the reader is at the end of the stream
      expect(readSync(reader, buffer)).toBe(0);
    } finally {
      closeSync(reader);
    }
  });
});

describe("the gate's step summary", () => {
  it("a FIFO nobody reads: a warning, the verdict stands, never a hang", { timeout: 10_000 }, async () => {
    const fifo = fifoIn(tempDir("mq-summary-"));
    const r = await mq([...GATE, "--since", "1d"], { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: fifo });
    expect(r.code).toBe(0);
    expect(r.err).toContain(`mq: warning: cannot append the step summary to ${fifo}: nothing reads this FIFO (ENXIO)\n`);
  });
});
