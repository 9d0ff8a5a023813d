#!/usr/bin/env node
"use strict";
// Loads the esbuild bundle in dist/ (`npm run build`). CommonJS (bin/package.json), as is
// dist/main.cjs: a process that loads no ES module never starts Node's ES module loader, ~5 ms of
// CPU that `mq --help` and `mq auth status` would pay for nothing.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const argv = process.argv.slice(2);
// The first word without a dash names the command (or is a flag's value: main.cjs says which
// command ran). None: `mq`, `mq --help`, `mq -h` print the top-level help and run nothing.
const word = argv.find((a) => !a.startsWith("-"));
// V8's flags below only for a run that may do heavy work. `mq --help`, auth, config, completion
// and help make at most one request (auth login's check) and keep no data, nor does a help page
// (`mq logs --help`, `-h`), and node:v8 loads Node's stream modules: ~5 ms of CPU on Node 24, a
// tenth of starting Node. A code cache is made under the same flags as the runs that use it (V8
// refuses a cache made under other flags): these commands' runs always run without them, and a
// help page of another command has a cache of its own ("-help"). A flag's value that reads as
// help (`mq logs --since -h`) only runs that line without the flags.
const LIGHT_COMMANDS = new Set(["auth", "config", "completion", "help"]);
const helpPage = argv.includes("--help") || argv.includes("-h");
const heavy = word !== undefined && !LIGHT_COMMANDS.has(word) && !helpPage;
const setFlagsFromString = heavy ? require("node:v8").setFlagsFromString : () => {};

// First, before undici compiles its WebAssembly HTTP parser: keep WebAssembly on V8's baseline
// compiler. Otherwise V8 re-optimises the parser in the background and a short command waits for
// that work at exit: one-page `mq logs` took 1.45x the wall time, 1.5x the CPU and 35 MB more RSS
// (README, "Performance"). `--no-wasm-tier-up` measured no gain on Node 20 (dynamic tiering ignores it).
setFlagsFromString("--liftoff-only");

// A client's live data is a few pages (~10 MB), but V8 sizes its heap for throughput: a long
// `mq logs --all` let garbage pile up, peak RSS growing with the window (74 MB at 10k events, 133 MB
// at 300k, 159 MB at 1M). Two bounds keep it near flat (README, "Speed": ≤ 130 MB up to 1M events in
// every format): the young generation keeps its first size (V8 doubles it while objects survive a
// collection, as a page in flight does), and the old one may grow a fifth past what a full collection
// left. --optimize-for-size held RSS as flat and cost a third to a half more CPU: a 30-day walk ran
// 23 full collections under it, each compacting the heap to give memory back (the walk as CSV: 4.5
// against 2.9 CPU-s on Node 24, 4.5 against 2.9 on Node 20; bench/RESULTS.md, fifteenth session).
// Not for `mq serve`, whose heap is its store.
const boundHeap = !argv.includes("serve");
if (boundHeap) {
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--heap-growing-percent=20");
}
// `mq --version` is what scripts call to check the tool is there: answer it without loading the
// command tree, so it costs no more than starting Node.
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const { version } = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"));
  // `mq --version | true`: a reader that left is no crash (run() handles this for every other command)
  // a full disk is exit 74, as for every other command (OutputError in src/errors.ts)
  process.stdout.on("error", (err) => {
    if (err.code === "EPIPE") return;
    process.stderr.write(`mq: could not write the output: ${err.message}\n`);
    process.exitCode = 74;
  });
  process.stdout.write(`${version}\n`);
} else {
  // One code cache of main.cjs per command (bin/code-cache.js: it holds the functions the command
  // ran, not only the top level), the V8 flags set above being part of what a cache is valid for.
  // Written only by a run that succeeded: `mq lgos` leaves no cache behind. The name also tells the
  // flag sets apart (runs sharing a file under different flags each had V8 refuse the other's cache,
  // then compiled and rewrote it). A line that starts with a flag (`mq --repo acme/web logs`, `mq -o
  // json config list`) may have a flag's value for its first word, so this file cannot tell its
  // command: all such lines share one cache, "-flag-first" (a dash: no command name has one), whose
  // flags come from that word ("-light" when it names auth, config or completion), made by the first
  // that succeeds and used by the others (V8 compiles what it lacks). A first word that names no
  // command fails ("-other"); the word-less runs set no flags; a line that names serve without running
  // it (`mq logs --repo serve`) has no heap bounds: "-no-heap-bounds" more.
  const flagFirst = word !== undefined && argv[0].startsWith("-");
  const command = !flagFirst && word !== undefined && /^[a-z]{2,16}$/.test(word) ? word : undefined;
  const heapFlags = heavy && !boundHeap && command !== "serve" ? "-no-heap-bounds" : "";
  const named =
    command !== undefined ? `-${command}${helpPage && !LIGHT_COMMANDS.has(command) ? "-help" : ""}` : word === undefined ? "" : "-other";
  const variant = (flagFirst ? `-flag-first${heavy ? "" : "-light"}` : named) + heapFlags;
  const main = require("./code-cache.js").loadMain({ variant });
  main.exports.run(argv).then((code) => {
    process.exitCode = code;
    // a cache named after a word is kept only when that command ran, or none did (help); the
    // lines that start with a flag share theirs whatever ran
    const ran = main.exports.lastRun.command;
    if (code === 0 && (flagFirst || ran === undefined || ran === command)) main.save();
    // Exit when the work is done even if a library left a handle open (a keep-alive socket, a
    // timer): unref'd, so a clean process exits at once without waiting for it. Not before what
    // was written has gone out: a pipe's slow reader (`mq completion zsh | less`) left output in
    // the stream's buffer, and exiting dropped all but the first 64 KB (the pipe's own buffer).
    const unwritten = (s) => (s.destroyed ? 0 : s.writableLength);
    const exitWhenWritten = () => {
      // process.exitCode: a write that failed after the run (a full disk) changed it
      if (unwritten(process.stdout) + unwritten(process.stderr) === 0) process.exit();
      else setTimeout(exitWhenWritten, 50).unref();
    };
    setTimeout(exitWhenWritten, 500).unref();
  });
}
