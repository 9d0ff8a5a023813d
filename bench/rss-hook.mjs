// Loaded with `node --import` into a benchmarked Node process: at exit it writes the process's peak
// resident set size (KiB, as getrusage reports it) to $MQ_BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

const file = process.env.MQ_BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
