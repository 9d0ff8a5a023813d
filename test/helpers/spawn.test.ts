// The spawn helpers leave nothing running once a test file's temp folders are removed: a process
// still running then could recreate its HOME (a `mq-rel-config-*` folder) in the run's temp root.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startShell } from "./spawn.js";
import { removeTempDirs } from "./tmp.js";

/** true while the process runs (a zombie waiting to be reaped has stopped running) */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe.skipIf(!existsSync("/proc/self/stat"))("spawned processes and the temp folders", () => {
  it("a shell's child still running is killed with the shell before the folders go", async () => {
    // the shell waits on a node that prints its pid and runs on: killing only the shell left it behind
    const run = startShell(`"$NODE" -e 'console.log(process.pid); setInterval(() => {}, 1000)'; echo done`, { killAfterMs: 60_000 });
    await run.waitForStdout(/^\d+\n/);
    const pid = Number(run.stdout().trim());
    expect(running(pid)).toBe(true);
    await removeTempDirs();
    expect(running(pid)).toBe(false);
    const r = await run.done;
    expect(r.stdout).toBe(`${pid}\n`);
  });
});
