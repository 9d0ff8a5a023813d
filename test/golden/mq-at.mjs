// mq with its clock pinned at $MQ_GOLDEN_NOW: the golden captures need the client's "now" (ages,
// the default window) to be the bundled server's `--now`. Test-only: the CLI has no such switch.
import { run } from "../../dist/main.cjs";

const now = new Date(process.env.MQ_GOLDEN_NOW);
const code = await run(process.argv.slice(2), { now: () => now });
process.exitCode = code;
setTimeout(() => process.exit(code), 500).unref();
