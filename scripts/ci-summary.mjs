#!/usr/bin/env node
// The closing lines of `bash .ci/run`: a count per test run, then what failed, read from the files
// each run leaves in the reports folder. CI shows only the last ~100 lines of its output, so what
// failed must be readable there, compact and bounded:
//   NAME.json            vitest's JSON report: the counts (test/vitest.config.ts, with MQ_TEST_REPORT)
//   NAME.failures.json   each failed test, file and error outside tests (test/helpers/ci-reporter.ts)
//   NAME.leftovers.json  what the run left in its temporary root (test/helpers/global-setup.ts)
//   NAME.log             the run's whole output (for a run that wrote no report: it could not start)
// Usage: node scripts/ci-summary.mjs REPORTS_DIR NAME... (prints; exits 0: .ci/run decides the status)
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/** At most this many lines of failure detail in all, whatever failed. */
export const MAX_DETAIL_LINES = 60;
/** Lines of a failure's message kept (the stack's first frame in the repository comes after them). */
const MESSAGE_LINES = 4;
const LINE_WIDTH = 200;
const FILE_HEAD = "(the file itself: it did not load, or a hook failed)";

// ANSI colour and cursor sequences (CSI and OSC)
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

const clip = (line) => (line.length > LINE_WIDTH ? `${line.slice(0, LINE_WIDTH - 1)}…` : line);
const plainLines = (text) => String(text).replace(ANSI, "").replace(/\r/g, "").split("\n");

/**
 * The first lines of an error's text, ANSI stripped, without the stack but for its first frame in
 * the repository (outside node_modules), with paths relative to `root`.
 */
export function briefMessage(text, root) {
  const message = [];
  let frame;
  for (const line of plainLines(text)) {
    if (/^\s+at /.test(line)) {
      if (frame === undefined && !line.includes("node_modules") && !line.includes("node:")) frame = line.trim();
      continue;
    }
    if (message.length < MESSAGE_LINES && line.trim() !== "") message.push(clip(line.trimEnd()));
  }
  if (frame !== undefined) message.push(frame);
  const prefix = `${root.replace(/\/$/, "")}/`;
  return message.map((l) => l.split(`file://${prefix}`).join("").split(prefix).join(""));
}

/** briefMessage of the first of `errors` ({ name, message, stack }): its message, then its stack's frames. */
export function briefErrors(errors, root) {
  const [first] = errors ?? [];
  if (first === undefined) return ["(no error recorded)"];
  const frames = plainLines(first.stack ?? "").filter((l) => /^\s+at /.test(l));
  const text = [`${first.name ?? "Error"}: ${first.message ?? ""}`, ...frames].join("\n");
  return [...briefMessage(text, root), ...(errors.length > 1 ? [`(and ${errors.length - 1} more errors)`] : [])];
}

function read(path, parse) {
  try {
    const text = readFileSync(path, "utf8");
    return parse ? JSON.parse(text) : text;
  } catch {
    return undefined;
  }
}

/**
 * The summary's lines for the runs `names` whose files are in `dir`: one count line per run, the
 * total, then the failures, each once with the runs it failed in, bounded by MAX_DETAIL_LINES.
 */
export function summarize(dir, names, root = process.cwd()) {
  const counts = [];
  const problems = []; // { runs: [name], head, body: [lines] }, in the order found
  const byKey = new Map();
  const add = (run, key, head, body) => {
    const known = byKey.get(key);
    if (known) known.runs.push(run);
    else {
      byKey.set(key, { runs: [run], head, body });
      problems.push(byKey.get(key));
    }
  };
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const name of names) {
    const report = read(join(dir, `${name}.json`), true);
    if (report === undefined) {
      counts.push(`${name}: no report (the run could not start)`);
      const tail = plainLines(read(join(dir, `${name}.log`)) ?? "")
        .filter((l) => l.trim() !== "")
        .slice(-8)
        .map(clip);
      add(name, `nostart:${name}`, "the run could not start; the end of its output:", tail.length > 0 ? tail : ["(no output)"]);
    } else {
      const skipped = report.numPendingTests + report.numTodoTests;
      counts.push(`${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
      total.passed += report.numPassedTests;
      total.failed += report.numFailedTests;
      total.skipped += skipped;
    }
    const failures = read(join(dir, `${name}.failures.json`), true);
    for (const test of failures?.tests ?? []) {
      const path = relative(root, test.file);
      add(name, `test:${path}:${test.name}`, `${path} > ${test.name}`, briefErrors(test.errors, root));
    }
    for (const file of failures?.files ?? []) {
      const path = relative(root, file.file);
      add(name, `file:${path}`, `${path} ${FILE_HEAD}`, briefErrors(file.errors, root));
    }
    for (const error of failures?.unhandled ?? []) {
      const body = briefErrors([error], root);
      add(name, `unhandled:${body[0]}`, "an error outside any test (vitest's Unhandled Errors)", body);
    }
    const left = read(join(dir, `${name}.leftovers.json`), true) ?? [];
    if (left.length > 0) {
      const more = left.length > 5 ? `, … ${left.length - 5} more` : "";
      add(name, `leftovers:${name}`, `left ${left.length} entries in the temporary directory`, [`${left.slice(0, 5).join(", ")}${more}`]);
    }
  }
  const lines = [...counts, `vitest: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`];
  if (problems.length === 0) return lines;
  lines.push(`what failed (${problems.length}; the first lines of each, the run's whole output is above):`);
  let used = 1;
  let shown = 0;
  for (const problem of problems) {
    const block = [`-- [${problem.runs.join(", ")}] ${problem.head}`, ...problem.body.map((l) => `   ${l}`)].map(clip);
    // a line stays free for the "and N more" note unless this is the last problem
    const reserve = shown < problems.length - 1 ? 1 : 0;
    if (used + block.length + reserve > MAX_DETAIL_LINES) break;
    lines.push(...block);
    used += block.length;
    shown++;
  }
  if (shown < problems.length) {
    const rest = problems.slice(shown);
    const where = [...new Set(rest.map((p) => p.head.split(" > ")[0].replace(` ${FILE_HEAD}`, "")))].join(", ");
    lines.push(clip(`... and ${rest.length} more: ${where}`));
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [dir, ...names] = process.argv.slice(2);
  for (const line of summarize(dir, names)) console.log(line);
}
