// `mq … | true`, `mq --help | head -1`: the reader of standard output may leave before mq has written
// anything. Found from outside: every short command then died of an unhandled EPIPE with a stack
// trace and exit 1, because the failed write is reported after run() has removed its handler.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/mq.js", import.meta.url));

const COMMANDS = ["--help", "--version", "--offline auth status", "stats --help", "stats", "completion bash", "help exit-codes", "--offline logs --repo acme/web --limit 5"];

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
