// `mq … | true`, `mq --help | head -1`: the reader of standard output may leave before mq has written
// anything. Found from outside: every short command then died of an unhandled EPIPE with a stack
// trace and exit 1, because the failed write is reported after run() has removed its handler.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/tmp.js";

const BIN = fileURLToPath(new URL("../../bin/mq.js", import.meta.url));

const COMMANDS = [
  "--help",
  "--version",
  "--offline auth status",
  "stats --help",
  "stats",
  "completion bash",
  "help exit-codes",
  "--offline logs --repo acme/web --limit 5",
];

describe("a reader that leaves before mq writes", () => {
  it.each(COMMANDS)("mq %s | true ends with 0 and nothing on stderr", (command) => {
    const r = spawnSync("bash", ["-c", `"${process.execPath}" "${BIN}" ${command} | true; exit \${PIPESTATUS[0]}`], {
      encoding: "utf8",
      env: { ...process.env, MQ_CONFIG_DIR: "/nonexistent-mq-config", NO_COLOR: "1" },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

// Found from outside: mq waits to attach its 'error' listeners until something reads
// process.stderr (process-streams.ts), but a NODE_OPTIONS=--require preload (a CI agent, a tracer)
// may have built and written to it already: its failed write then crashed the run with exit 1,
// and a data command printed nothing at all.
describe("standard error a closed pipe that a preload wrote to before mq ran", () => {
  const preload = join(tempDir("mq-preload-"), "preload.cjs");
  writeFileSync(preload, `process.stderr.write("from a preload\\n");\n`);

  it.each([
    "--help",
    "--offline auth status",
    "--offline logs --repo acme/web --since 2026-11-01T00:00:00Z --until 2026-11-01T06:00:00Z -o csv",
  ])(
    "mq %s writes all of its output and ends with 0",
    async (command) => {
      const env = { ...process.env, MQ_CONFIG_DIR: "/nonexistent-mq-config", NO_COLOR: "1" };
      const expected = spawnSync(process.execPath, [BIN, ...command.split(" ")], { encoding: "utf8", env });
      expect(expected.status).toBe(0);
      const child = spawn(process.execPath, ["--require", preload, BIN, ...command.split(" ")], { stdio: ["ignore", "pipe", "pipe"], env });
      // nobody reads standard error from before the preload runs: its write fails (EPIPE)
      child.stderr.destroy();
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
      const [status] = (await once(child, "close")) as [number | null];
      expect(stdout).toBe(expected.stdout);
      expect(status).toBe(0);
    },
    30_000,
  );
});

// Found from outside: bin/mq.js ends the process half a second after the run, for a library that
// leaves a handle open; a reader slower than that (`mq completion zsh | less`) got the first 64 KB
// (what the pipe holds) and nothing more, with exit 0.
describe("a reader that starts reading late", () => {
  it("gets every byte of mq completion zsh (132 KB: more than a pipe holds)", () => {
    const r = spawnSync("bash", ["-c", `"${process.execPath}" "${BIN}" completion zsh | { sleep 1.5; cat; }; exit \${PIPESTATUS[0]}`], {
      encoding: "utf8",
      env: { ...process.env, MQ_CONFIG_DIR: "/nonexistent-mq-config", NO_COLOR: "1" },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 30_000,
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(readFileSync(fileURLToPath(new URL("../../completions/_mq", import.meta.url)), "utf8"));
    expect(r.status).toBe(0);
  });
});
