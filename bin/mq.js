#!/usr/bin/env node
// Loads the esbuild bundle; see README "Development" for `npm run build`.
import { run } from "../dist/main.js";

const code = await run(process.argv.slice(2));
process.exitCode = code;
// Exit when the work is done even if a library left a handle open (a keep-alive socket, a timer):
// unref'd, so a clean process exits at once without waiting for it.
setTimeout(() => process.exit(code), 500).unref();
