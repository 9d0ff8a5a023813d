// What a person sees, captured from a real pseudo-terminal (`script`, with `stty cols`) at 80 and
// 120 columns, on fixed data: `mq serve --now ... --seed 0` and the client's clock pinned to the
// same instant (test/golden/mq-at.mjs). The captures are kept in test/golden/*.txt, so a change of
// layout is a visible diff; MQ_UPDATE_GOLDEN=1 rewrites them. stdout is the terminal; stderr goes
// to a file (no spinner frames) and is kept above it. The issue's "done when" is checked here too.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tmp.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));
const NOW = "2026-11-20T12:00:00Z";

const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

let served = "";
let server: ChildProcess | undefined;

beforeAll(async () => {
  if (!hasScript) return;
  const child = spawn("node", [join(root, "bin/mq.js"), "serve", "--port", "0", "--now", NOW, "--seed", "0", "--days", "10"], { stdio: ["ignore", "pipe", "inherit"] });
  server = child;
  served = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    child.on("exit", (code) => reject(new Error(`mq serve exited with ${code}`)));
  });
}, 60_000);

afterAll(() => void server?.kill("SIGINT"));

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs mq in a pseudo-terminal `columns` wide: stdout is the terminal, stderr a file. */
function capture(args: string[], columns: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = tempDir("mq-golden-");
  const errFile = join(dir, "stderr");
  const mq = [process.execPath, join(here, "mq-at.mjs"), "--api-url", served, "--token", "golden", "--repo", "acme/web", ...args].map(shellQuote).join(" ");
  const inner = `stty cols ${columns} rows 300; ${mq} 2>${shellQuote(errFile)}`;
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", inner, "/dev/null"], {
      env: { PATH: process.env.PATH, HOME: dir, MQ_CONFIG_DIR: dir, NO_COLOR: "1", TZ: "UTC", LANG: "C.UTF-8", MQ_GOLDEN_NOW: NOW },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout: out.replace(/\r\n/g, "\n"), stderr: existsSync(errFile) ? readFileSync(errFile, "utf8") : "" }),
    );
  });
}

/**
 * name, arguments, the exit code when it is not 0 (a --fail-if check that fails exits 1), and the
 * widths when not 80 and 120
 */
const CAPTURES: ReadonlyArray<[string, string[], number?, number[]?]> = [
  ["logs", ["logs"]],
  ["logs-pr", ["logs", "--pr", "319114", "--since", "7d"]],
  ["stats-failure-rate", ["stats", "failure-rate"]],
  ["stats-failure-rate-intervals", ["stats", "failure-rate", "--intervals", "--since", "6h", "--queue", "hotfix"]],
  ["stats-checks-retries", ["stats", "checks-retries", "--since", "7d"]],
  ["stats-exit-reasons", ["stats", "queues-pr-exit-reasons", "--since", "7d"]],
  ["stats-batch-bisection", ["stats", "batch-bisection", "--since", "7d"]],
  ["stats-summary", ["stats", "summary", "--since", "7d"]],
  ["stats-chart", ["stats", "queues-entered-count", "--since", "7d", "--chart", "--queue", "hotfix"]],
  // several repositories: a row each and the total; the gate's verdicts per repository and on the total
  ["stats-many-failure-rate", ["stats", "failure-rate", "--repo", "acme/web,acme/api", "--since", "7d"]],
  ["stats-many-summary", ["stats", "summary", "--repo", "acme/web,acme/api", "--since", "7d"]],
  ["stats-many-gate", ["stats", "checks-retries", "--repo", "acme/web,acme/api", "--since", "7d", "--fail-if", "recovery_rate < 95%", "--fail-if-scope", "both"], 1],
  ["insights-many-gate", ["insights", "--repo", "acme/web,acme/api", "--since", "7d", "-o", "none", "--fail-if", "p95(queue_time) > 1h", "--fail-if", "merged < 10", "--fail-if-scope", "both"], 1],
  // the analyses of the log, at 60 columns too: every table fits (parts one under the other)
  ["insights", ["insights", "--since", "7d"], 0, [60, 80, 120]],
  ["prs", ["prs", "--since", "1d", "--limit", "12"], 0, [60, 80, 120]],
  ["pr", ["pr", "316403", "--since", "10d"], 0, [60, 80, 120]],
];

const widest = (text: string) => Math.max(...text.split("\n").map((l) => l.length));

describe.skipIf(!hasScript)("golden captures at 80 and 120 columns (and 60) (skipped: `script` from util-linux is missing)", () => {
  for (const [name, args, code = 0, widths = [80, 120]] of CAPTURES) {
    for (const columns of widths) {
      it(`${name} at ${columns}: mq ${args.join(" ")}`, async () => {
        const r = await capture(args, columns);
        expect(r.code, r.stderr).toBe(code);
        const text = `$ mq ${args.join(" ")}    # ${columns} columns\n--- stderr\n${r.stderr}--- stdout\n${r.stdout}`;
        const file = join(here, `${name}.${columns}.txt`);
        if (process.env.MQ_UPDATE_GOLDEN === "1" || !existsSync(file)) writeFileSync(file, text);
        expect(text).toBe(readFileSync(file, "utf8"));
        expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(columns);
        // the lines on stderr too (summaries, notes, --fail-if verdicts): they go to the same screen
        expect(widest(r.stderr), r.stderr).toBeLessThanOrEqual(columns);
      }, 60_000);
    }
  }
});

describe.skipIf(!hasScript)("issue 17, done when (in a pseudo-terminal, skipped without `script`)", () => {
  it("mq stats failure-rate at 80 columns: one screen, no line wider than 80, the all-groups figure", async () => {
    const r = await capture(["stats", "failure-rate"], 80);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(widest(r.stdout)).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/^all groups +\d+ +\d+ +\d+\.\d%$/m);
  }, 60_000);

  it("--intervals shows every interval of the window", async () => {
    const r = await capture(["stats", "failure-rate", "--intervals", "--queue", "hotfix", "--base-ref", "main", "--partition", "api"], 80);
    // the day before 12:00 in hourly intervals, each shown whatever it holds
    const starts = r.stdout.split("\n").filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ /.test(l));
    expect(starts.length).toBe(24);
    expect(widest(r.stdout)).toBeLessThanOrEqual(80);
  }, 60_000);

  it("mq logs at 80 columns shows at least 40 characters of SUMMARY; at 60 no line is wider than 60", async () => {
    const at80 = await capture(["logs"], 80);
    const head = at80.stdout.split("\n")[0]!;
    expect(80 - head.indexOf("SUMMARY")).toBeGreaterThanOrEqual(40);
    expect(widest(at80.stdout)).toBeLessThanOrEqual(80);
    const at60 = await capture(["logs"], 60);
    expect(widest(at60.stdout)).toBeLessThanOrEqual(60);
    expect(at60.stdout.split("\n").length).toBeGreaterThan(30);
  }, 60_000);
});
