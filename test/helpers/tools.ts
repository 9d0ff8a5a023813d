// Whether a program the e2e tests drive (script, jq) is installed: a test that needs one is skipped,
// saying why, on a machine without it (.ci/run installs them).
import { execFileSync } from "node:child_process";

/** True when `command --version` runs. */
export function hasTool(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
