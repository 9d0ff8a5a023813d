// With MQ_TEST_CPU=FILE, each test file appends one line to FILE: its CPU seconds (the worker's own,
// threads included, and its finished child processes', from /proc) and its path. vitest's durations
// are wall time, which on a shared machine says little; CPU seconds hold under load.
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";

const TICKS = 100;

/** this process's CPU seconds: its own, and its waited-for children's */
function cpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime, cutime, cstime: fields 14-17 of proc(5), 12-15 after the name
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / TICKS;
}

const out = process.env.MQ_TEST_CPU;
if (out) {
  let started = 0;
  beforeAll(() => {
    started = cpuSeconds();
  });
  afterAll(() => {
    const file = expect.getState().testPath ?? "?";
    appendFileSync(out, `${(cpuSeconds() - started).toFixed(2)} ${file}\n`);
  });
}
