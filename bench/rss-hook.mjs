// Loaded with `node --import` into a benchmarked Node process: at exit it writes the process's peak
// resident set size (KiB, as getrusage reports it) to $MQ_BENCH_RSS_FILE, and its CPU time (user +
// system, ms) to $MQ_BENCH_CPU_FILE, for whichever of the two is set.
import { writeFileSync } from "node:fs";

const rssFile = process.env.MQ_BENCH_RSS_FILE;
const cpuFile = process.env.MQ_BENCH_CPU_FILE;
if (rssFile || cpuFile) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    if (rssFile) writeFileSync(rssFile, String(usage.maxRSS));
    if (cpuFile) writeFileSync(cpuFile, String((usage.userCPUTime + usage.systemCPUTime) / 1000));
  });
}
