"use strict";
// mq with its clock pinned at $MQ_GOLDEN_NOW: the golden captures need the client's "now" (ages,
// the default window) to be the bundled server's `--now`. Test-only: the CLI has no such switch.
// main.cjs is loaded as bin/mq.js loads it (CommonJS, no ES module loader), through its code cache
// (bin/code-cache.js, one per command), saved after a run that succeeded.
const { loadMain } = require("../../bin/code-cache.js");

const argv = process.argv.slice(2);
const word = argv.find((a) => !a.startsWith("-"));
const main = loadMain({ variant: `-golden-${argv[0]?.startsWith("-") ? "flag-first" : word}` });
const now = new Date(process.env.MQ_GOLDEN_NOW);
main.exports.run(argv, { now: () => now }).then((code) => {
  if (code === 0) main.save();
  process.exitCode = code;
  setTimeout(() => process.exit(code), 500).unref();
});
