// End-to-end tests spawn bin/mq.js, which loads dist/: bundle it once before any test runs.
// Without `npm run build`'s clean: chunk names are content hashes, so a test run started while
// another is spawning mq (two terminals, an editor's watcher) leaves it the chunks it loads.
import { execFileSync } from "node:child_process";

export default function setup(): void {
  execFileSync("npm", ["run", "--silent", "build:bundle"], { stdio: "inherit" });
}
