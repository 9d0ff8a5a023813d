// End-to-end tests spawn bin/mq.js, which loads dist/: build it once before any test runs.
import { execFileSync } from "node:child_process";

export default function setup(): void {
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "inherit" });
}
