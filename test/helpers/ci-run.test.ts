// .ci/run's own exit status: CI reads it, so its cleanup on exit must never turn a green run red.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./tmp.js";

const script = readFileSync(new URL("../../.ci/run", import.meta.url), "utf8");
const cleanup = script.split("\n").find((line) => line.startsWith("trap "));

describe(".ci/run's cleanup on exit", () => {
  it("keeps the run's exit status 0 when the background jobs it would stop have already ended", () => {
    expect(cleanup).toBeDefined();
    const dir = tempDir();
    const nodes = join(dir, "nodes");
    const reports = join(dir, "reports");
    mkdirSync(nodes);
    mkdirSync(reports);
    // the same shell options as .ci/run, one background job that has ended, then a green exit
    const body = `set -euo pipefail; nodes='${nodes}'; reports='${reports}'; installs=(); true & installs+=($!); wait; ${cleanup}; exit 0`;
    const run = spawnSync("bash", ["-c", body], { encoding: "utf8" });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect([existsSync(nodes), existsSync(reports)]).toEqual([false, false]);
  });
});
