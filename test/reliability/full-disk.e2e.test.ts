// `mq … > file` on a full disk: found from outside (`> /dev/full`), every command died with a line
// of the minified bundle and a stack trace, exit 1 (help and auth status: "internal error", 70).
// Now one line saying why, exit 74 (src/errors.ts), and a data command's resume hint.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/mq.js", import.meta.url));
const FULL = "mq: could not write the output: no space left on the device (ENOSPC)\n";

function toFullDisk(command: string) {
  const r = spawnSync("bash", ["-c", `"${process.execPath}" "${BIN}" ${command} > /dev/full`], {
    encoding: "utf8",
    env: { ...process.env, MQ_CONFIG_DIR: "/nonexistent-mq-config", MQ_TOKEN: "mqk_full_token_1234", NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: r.status, stderr: r.stderr };
}

describe.skipIf(!existsSync("/dev/full"))("standard output on a full disk", () => {
  it.each([
    "--help",
    "stats --help",
    "help exit-codes",
    "completion bash",
    "auth status",
    "auth token",
    "--offline logs --repo acme/web --limit 5",
    "--offline logs --repo acme/web --limit 5 -o csv",
    "--offline stats failure-rate --repo acme/web",
  ])("mq %s > /dev/full: one line, exit 74", (command) => {
    expect(toFullDisk(command)).toEqual({ code: 74, stderr: FULL });
  });

  it("mq --version > /dev/full: exit 74", () => {
    expect(toFullDisk("--version")).toEqual({
      code: 74,
      stderr: "mq: could not write the output: ENOSPC: no space left on device, write\n",
    });
  });

  it("mq logs --all > /dev/full stops at the first failed write: nothing reached the output, so no event is counted", () => {
    // before: "100 events were written before this" and a resume cursor past them, when none were
    expect(toFullDisk("--offline logs --repo acme/web --all -o ndjson")).toEqual({ code: 74, stderr: FULL });
  });
});
