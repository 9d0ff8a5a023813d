// Where the time goes in a `node --cpu-prof` profile: self time by file and by function.
// Usage: node bench/cpuprofile.mjs FILE.cpuprofile [TOP]
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const prof = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
for (let i = 0; i < prof.samples.length; i++) {
  const dt = prof.timeDeltas[i] ?? 0;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFile = new Map();
const byFn = new Map();
for (const [id, us] of self) {
  const cf = byId.get(id).callFrame;
  const f = cf.url ? cf.url.replace(/^file:\/\/.*?\/(node_modules|dist|src|bench)\//, "$1/") : `(${cf.functionName || "program"})`;
  byFile.set(f, (byFile.get(f) ?? 0) + us);
  const fn = `${cf.functionName || "(anonymous)"}  ${f}:${cf.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + us);
}
const show = (title, m) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(1)} ms)`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
};
show("self time by file", byFile);
show("self time by function", byFn);
