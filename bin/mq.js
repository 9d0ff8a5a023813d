#!/usr/bin/env node
// Loads the esbuild bundle in dist/ (`npm run build`).
import { readFileSync } from "node:fs";

const argv = process.argv.slice(2);
// `mq --version` is what scripts call to check the tool is there: answer it without loading the
// command tree, so it costs no more than starting Node.
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${version}\n`);
} else {
  const { run } = await import("../dist/main.js");
  const code = await run(argv);
  process.exitCode = code;
  // Exit when the work is done even if a library left a handle open (a keep-alive socket, a
  // timer): unref'd, so a clean process exits at once without waiting for it.
  setTimeout(() => process.exit(code), 500).unref();
}
