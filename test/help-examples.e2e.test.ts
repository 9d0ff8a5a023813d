// Every example of every command's help really runs, and a data command's example prints data;
// so does every command line of the code blocks of the README and of docs/*.md (a few are skipped, saying why). Each line runs in bash (examples may use
// `<`, `|`, `$(...)` and `&&`) with `mq` on PATH standing for node bin/mq.js, in a temp folder
// with its own config (MQ_CONFIG_DIR, HOME) and a token.txt. `--offline` is inserted where a line
// lacks it, except for commands that never query the API (auth, config, completion, help, serve:
// `mq auth login` refuses --offline), and MQ_API_URL points at a closed loopback port so that
// nothing can reach the network anyway. Long-running examples (serve, --follow) must still be
// running once they have printed something, and stop cleanly on Ctrl-C.
//
// --offline builds the simulated history in each process (seconds of CPU), so only mq's own
// top-level examples and the lines of docs/server.md run with it as written; the others run
// without --offline against one `mq serve` started here, which serves the same simulated history
// over the same HTTP, its URL and a token in MQ_API_URL and MQ_TOKEN (as a page's line without
// --offline runs). The environment, not --api-url and --token: an mq whose first word is a flag's
// value keeps no code cache (bin/mq.js), and the lines' processes share one (MQ_TEST_CODE_CACHE). An `mq queue` line shows the queue at an instant,
// and at the real present it may rightly be empty (a Sunday, a night): those lines run against a
// server pinned to a present where every queue they name is busy (QUEUE_PRESENT), with mq's clock
// there too (Debian's faketime), and must print data like any other.
// The same script in the same environment runs once: its result is the same (runOnce).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES } from "../src/help/examples.js";
import { codeCacheEnv } from "./helpers/spawn.js";
import { tempDir } from "./helpers/tmp.js";
import { hasTool } from "./helpers/tools.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const shimDir = tempDir("mq-examples-bin-");
writeFileSync(join(shimDir, "mq"), `#!/bin/sh\nexec node ${JSON.stringify(join(root, "bin/mq.js"))} "$@"\n`);
chmodSync(join(shimDir, "mq"), 0o755);

/** What must exist before an example of this command can run. */
const SETUP: Record<string, string> = {
  "auth status": "mq auth login --with-token < token.txt",
  "auth logout": "mq auth login --with-token < token.txt",
  "auth token": "mq auth login --with-token < token.txt",
  auth: "mq auth login --with-token < token.txt",
};

/** Commands that never query the API. */
const NO_OFFLINE = /(^|\s)(auth|config|completion|help|serve)(\s|$)/;

function withOffline(line: string): string {
  if (line.includes("--offline") || NO_OFFLINE.test(line)) return line;
  return line.replace(/(^|[\s;&|(])mq /g, "$1mq --offline ");
}

const isLongRunning = (path: string, line: string) =>
  path === "serve" || path === "exporter" || line.includes("--follow") || line.includes("--watch");

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** for long-running examples: it was still running when interrupted */
  interrupted: boolean;
}

let served = "";
/** the same, speaking the real service's dialect, for examples that say --dialect mergify */
let servedMergify = "";
/** the one whose present is QUEUE_PRESENT, for the `mq queue` lines */
let servedQueue = "";
const servers: ChildProcess[] = [];

/**
 * A present where the queues and partitions the `mq queue` lines name all hold pull requests (a
 * Thursday afternoon; the simulation's days do not depend on when it runs). The server is frozen
 * there (--now), and the lines run under faketime started at the same instant, so that mq's clock
 * (the default --until, the lookback) agrees with the server's.
 */
const QUEUE_PRESENT = "2026-11-26T14:00:00Z";
const isQueueLine = (line: string) => /^mq (?:--offline )?queue(?:\s|$)/.test(line);
/** an mq queue line's output holds pull requests: more than a CSV header, more than an empty JSON array */
const holdsRows = (line: string, stdout: string) =>
  /-o csv\b/.test(line) ? stdout.trim().split("\n").length > 1 : !/^\[\s*\]$/.test(stdout.trim());
const hasFaketime = (() => {
  try {
    execFileSync("faketime", ["2026-11-26 14:00:00 UTC", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const NO_FAKETIME = "faketime (Debian's package) is not installed: an mq queue line needs mq's clock at the pinned present";

// stopped and waited for: a server's CPU is the file's, as its examples' is (MQ_TEST_CPU)
afterAll(() => Promise.all(servers.map(stop)));

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGINT");
  });
}

function serve(args: string[]): Promise<string> {
  const child = spawn("node", [join(root, "bin/mq.js"), "serve", "--port", "0", ...args], {
    env: { ...process.env, ...codeCacheEnv() },
    stdio: ["ignore", "pipe", "inherit"],
  });
  servers.push(child);
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    child.on("exit", (code) => reject(new Error(`mq serve exited with ${code}`)));
  });
}

beforeAll(async () => {
  // the examples run at once against the spec server: 30-day windows side by side need more than
  // the default memory budget
  [served, servedMergify, servedQueue] = await Promise.all([
    serve(["--memory-budget", "3072"]),
    serve(["--dialect", "mergify"]),
    // a week of lookback (mq queue's default) and the days that reach into it
    serve(["--now", QUEUE_PRESENT, "--days", "8"]),
  ]);
}, 60_000);

/** `prepare` fills the example's fresh folder before the example runs (a copy of an archive synced earlier) */
function runExample(
  script: string,
  longRunning: boolean,
  extraEnv: NodeJS.ProcessEnv = {},
  prepare?: (dir: string) => void,
  clockAt?: string,
): Promise<Result> {
  const dir = tempDir("mq-example-");
  prepare?.(dir);
  mkdirSync(join(dir, "config"), { recursive: true });
  writeFileSync(join(dir, "token.txt"), "mqk_example_token_abcd\n");
  const env: NodeJS.ProcessEnv = {
    ...(clockAt ? { FAKETIME_DONT_FAKE_MONOTONIC: "1" } : {}),
    PATH: `${shimDir}:${process.env.PATH ?? ""}`,
    HOME: dir,
    MQ_CONFIG_DIR: join(dir, "config"),
    MQ_API_URL: "http://127.0.0.1:9",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    ...codeCacheEnv(),
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    const bash = ["bash", "--norc", "--noprofile", "-e", "-c", script];
    // faketime's clock runs from that instant (timers keep the real one: FAKETIME_DONT_FAKE_MONOTONIC)
    const argv = clockAt ? ["faketime", clockAt.replace("T", " ").replace("Z", " UTC"), ...bash] : bash;
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: dir,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    let timer: NodeJS.Timeout | undefined;
    const interrupt = () => {
      if (interrupted || child.exitCode !== null) return;
      interrupted = true;
      process.kill(-child.pid!, "SIGINT");
    };
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      // a long-running example has shown it works once it prints: then Ctrl-C
      if (longRunning) timer ??= setTimeout(interrupt, 300);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // a bound for a hung example, not a slow machine: at load 14 (a CI run niced beside other work)
    // the first poll of `mq queue --watch` took over 15 s to print
    if (longRunning) setTimeout(interrupt, 60_000).unref();
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, interrupted });
    });
  });
}

/**
 * runExample for a script that needs no prepared folder and stops by itself: the same script in
 * the same environment (a README line that is also a help example, a set-up line) runs once.
 */
const once = new Map<string, Promise<Result>>();
function runOnce(script: string, env: NodeJS.ProcessEnv = {}, clockAt?: string): Promise<Result> {
  const key = `${JSON.stringify(env)}\n${clockAt}\n${script}`;
  let run = once.get(key);
  if (!run) {
    run = runExample(script, false, env, undefined, clockAt);
    once.set(key, run);
  }
  return run;
}

const cases = Object.entries(EXAMPLES).flatMap(([path, lines]) => lines.map((line) => [path || "mq", line, path] as const));

describe("every help example runs", () => {
  for (const [label, line, path] of cases) {
    const skip = isQueueLine(line) && !hasFaketime;
    it.skipIf(skip).concurrent(
      `${label}: ${line}${skip ? ` (skipped: ${NO_FAKETIME})` : ""}`,
      async () => {
        const setup = SETUP[path] ?? "";
        let command = withOffline(line);
        const queue = isQueueLine(line);
        const url = queue ? servedQueue : /--dialect mergify/.test(line) ? servedMergify : served;
        // a line that queries the API: its server and the token in the environment
        const viaServer = path !== "" && command.includes(" --offline");
        if (viaServer) command = command.replace(/ --offline( |$)/g, "$1");
        const script = [setup, command].filter(Boolean).join("\n");
        const long = isLongRunning(path, line);
        // `mq archive sync ... && the rest`: the sync once for every example that starts with it
        const sync = /^(mq (?:[^&|;$]* )?archive sync --repo acme\/web --since \d+d)(?: && (.*))?$/.exec(script);
        const lineEnv = {
          ...(viaServer ? { MQ_API_URL: url, MQ_TOKEN: "mqk_example_token_abcd" } : {}),
          // mq auth login checks the token on the repository in effect (as a git checkout's remote
          // would name it): here the one mq serve started above, which accepts any token
          ...(/auth login/.test(script) ? { MQ_API_URL: served, MQ_REPO: "acme/web" } : {}),
        };
        const clockAt = queue ? QUEUE_PRESENT : undefined;
        const r = sync
          ? sync[2]
            ? await afterSync(sync[1]!, sync[2], lineEnv)
            : await syncOnce(sync[1]!, lineEnv)
          : long
            ? await runExample(script, long, lineEnv, undefined, clockAt)
            : await runOnce(script, lineEnv, clockAt);
        const report = `$ ${command}\nexit ${r.code ?? r.signal}\nstderr: ${r.stderr.slice(-2000)}`;
        if (long) {
          expect(r.interrupted, `${report}\n(it stopped by itself before Ctrl-C)`).toBe(true);
          expect(r.code === 0 || r.code === 130 || r.signal === "SIGINT", report).toBe(true);
        } else {
          expect(r.code, report).toBe(0);
        }
        // a data command's example shows data on the bundled history, as the help promises
        // (-o none prints nothing by design: its answer is the exit code)
        if (isDataCommand(path, line) && !/-o none\b/.test(line)) expect(r.stdout.trim(), `${report}\n(no data on stdout)`).not.toBe("");
        if (queue) expect(holdsRows(line, r.stdout), `${report}\nstdout: ${r.stdout}\n(no pull request in the queue)`).toBe(true);
        // as the pages' examples: five at once beside another file's work, a sync among them
      },
      180_000,
    );
  }
});

/** Commands that print data from the API (the others print help, settings or scripts). */
function isDataCommand(path: string, line: string): boolean {
  return path === ""
    ? /\s(logs|stats)(\s|$)/.test(line)
    : path === "logs" || path === "stats" || path.startsWith("stats ") || path === "queue";
}

// ---------------------------------------------------------------------------------------------
// the examples of the README and of docs/*.md

/** The command lines of a page's code blocks: `mq ...` or `$ mq ...`, continuation lines joined. */
export function readmeExamples(text: string): Array<{ line: number; command: string }> {
  const out: Array<{ line: number; command: string }> = [];
  const lines = text.split("\n");
  let inBlock = false;
  let lang = "";
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.startsWith("```")) {
      inBlock = !inBlock;
      lang = raw.slice(3).trim();
      continue;
    }
    // yaml is a workflow, text is what mq prints: neither holds command lines
    if (!inBlock || lang === "yaml" || lang === "text") continue;
    const m = /^(?:\$ )?(mq .*)$/.exec(raw);
    if (!m) continue;
    let command = m[1]!;
    while (command.endsWith("\\") && i + 1 < lines.length) command = command.slice(0, -1) + lines[++i]!.trim();
    // a trailing comment explains the line; it is not part of it
    out.push({ line: i + 1, command: command.replace(/\s+#\s.*$/, "") });
  }
  return out;
}

/** README lines that are not runnable as written, and why (each is covered elsewhere). */
const README_SKIPS: ReadonlyArray<[RegExp, string]> = [
  [
    /--cursor bi4xNzYz\.\.\./,
    "shows the shape of a resume command; the cursor is a placeholder (resume is tested in test/commands/logs.test.ts)",
  ],
  [/^mq serve /, "runs until stopped; the help examples run mq serve"],
  [/ --watch( |$)/, "runs until stopped; the same lines are help examples, run until their first output"],
  [/^mq (--offline )?exporter /, "runs until stopped; the help examples run mq exporter, test/commands/exporter scrapes it"],
  [/^mq auth login$/, "prompts on a terminal (tested in test/commands/auth.e2e.test.ts)"],
  [/^mq auth (status|token|logout)/, "reads the stored token; the help examples run them after a login"],
  [/^mq auth login --with-token/, "not a data command; the help examples run it"],
  [/\/var\/lib\//, "writes into a system folder (node_exporter's); -o openmetrics is tested in test/output"],
  [/127\.0\.0\.1:8080/, "needs the mq serve --port 8080 shown above it running; --api-url is what every other line here uses"],
];

/** README lines that show a refusal: exit 2, the one line the README prints under them, nothing on stdout. */
const README_REFUSALS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^mq --offline logs --repo acme\/web --outcome failure$/, /^mq: --outcome is not available with the spec dialect: .*\n$/],
];

/** What must exist before a README line can run: the README's own earlier lines (each case runs in a fresh folder). */
const README_SETUP: ReadonlyArray<[RegExp, string]> = [
  [/^mq (archive (status|query|export)|logs --archive)/, "mq --offline archive sync --repo acme/web --since 7d"],
  // insights compare with the window before, so the archive holds twice the window (the pages' are 3 days)
  [/^mq (insights|prs|pr) .*--archive/, "mq --offline archive sync --repo acme/web --since 7d"],
  // the file of repositories the README's --repo @FILE example names
  [/--repo @repositories\.txt/, "printf '# the team\\nacme/web\\nacme/api\\n' | tee repositories.txt"],
  // a later sync continues from the first; without one it would fetch the 90 days the service keeps
  [/^mq --offline archive sync --repo acme\/web$/, "mq --offline archive sync --repo acme/web --since 7d"],
];

/** The environment of the README's and docs' examples: the demo repository, the archive in ./data. */
const PAGE_ENV = { MQ_REPO: "acme/web", MQ_DATA_DIR: "data" };

/**
 * `mq archive sync` takes seconds of CPU (tens of thousands of events into DuckDB over 7 or 14
 * days), and two dozen examples sync the same window, as their setup, as the first command of
 * their line (`sync && query`) or as the whole line. Each such sync runs once, as written, in a
 * fresh folder; an example it sets up starts from a copy of that folder (what the same sync run in
 * its own folder a moment earlier leaves there), and an example that is that sync gets its result.
 */
const syncs = new Map<string, Promise<Result & { dir: string }>>();
function syncOnce(script: string, env: NodeJS.ProcessEnv = {}): Promise<Result & { dir: string }> {
  const key = `${JSON.stringify(env)}\n${script}`;
  let run = syncs.get(key);
  if (!run) {
    let dir = "";
    run = runExample(script, false, env, (d) => (dir = d)).then((r) => ({ ...r, dir }));
    syncs.set(key, run);
  }
  return run;
}

/** runs `then` in a copy of the folder `sync` (run once, see syncOnce) left, if it exited 0 */
async function afterSync(sync: string, then: string, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  const synced = await syncOnce(sync, env);
  expect(synced.code, `$ ${sync}\nexit ${synced.code ?? synced.signal}\nstderr: ${synced.stderr.slice(-2000)}`).toBe(0);
  return runExample(then, false, env, (dir) => cpSync(synced.dir, dir, { recursive: true }));
}

const isSync = (command: string) => README_SETUP.some(([, setup]) => setup === command);

/**
 * A page's line as it runs: against the mq serve started above (`--offline` builds the simulated
 * history in each process: seconds of CPU for each of some 30 lines), its --offline dropped, the
 * server in MQ_API_URL (pageEnv), as a line without --offline runs as written. Only the lines of
 * docs/server.md, the page about --offline, run with it as written (so do mq's own examples, above).
 */
function pageScript(label: string, command: string): string {
  if (!command.includes("--offline") || label.startsWith("docs/server.md:")) return command;
  return command.replace(/ --offline( |$)/g, "$1");
}

/**
 * The environment of a page's line: PAGE_ENV, the server (pinned for an mq queue line, in the real
 * service's dialect where the line says --dialect mergify) and a token.
 */
const pageEnv = (command: string): NodeJS.ProcessEnv => ({
  ...PAGE_ENV,
  MQ_API_URL: isQueueLine(command) ? servedQueue : /--dialect mergify/.test(command) ? servedMergify : served,
  MQ_TOKEN: "mqk_example_token_abcd",
});

/** The pages whose examples run: the README and every page of docs/. */
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const readmeCases = pages.flatMap((page) =>
  readmeExamples(readFileSync(join(root, page), "utf8")).map(({ line, command }) => {
    const skip = README_SKIPS.find(([re]) => re.test(command));
    return [`${page}:${line}`, command, skip?.[1]] as const;
  }),
);
const hasJq = hasTool("jq");

describe("every example of the README and docs/ returns data on the bundled history", () => {
  it("finds the examples of the README and docs/", () => {
    expect(readmeCases.filter(([, , skip]) => !skip).length).toBeGreaterThanOrEqual(10);
  });

  for (const [label, command, skip] of readmeCases) {
    const needsJq = /\|\s*jq /.test(command) && !hasJq;
    const reason = skip ?? (needsJq ? "jq is not installed" : isQueueLine(command) && !hasFaketime ? NO_FAKETIME : undefined);
    it.skipIf(reason !== undefined).concurrent(
      `${label}: ${command}${reason ? ` (skipped: ${reason})` : ""}`,
      async () => {
        let script = pageScript(label, command);
        // output sent to a file must be there (a quoted `> 20%'` of a --fail-if is no redirection)
        const file = /\s>>?\s*([^\s'"]+)\s*$/.exec(command)?.[1];
        if (file) script += `\ntest -s ${file} && head -c 300 ${file}`;
        // so must the files of an export
        const folder = /--parquet\s+(\S+)/.exec(command)?.[1];
        if (folder) script += `\nfind ${folder} -type f | head -3`;
        const written = README_SETUP.find(([re]) => re.test(command))?.[1];
        const setup = written === undefined ? undefined : pageScript(label, written);
        const sync = written?.startsWith("mq --offline archive sync ");
        if (setup && !sync) script = `${setup} > /dev/null\n${script}`;
        script = `set -o pipefail\n${script}`;
        const env = pageEnv(command);
        const r = isSync(command)
          ? await syncOnce(script, env)
          : sync
            ? await afterSync(`set -o pipefail\n${setup}`, script, env)
            : await runOnce(script, env, isQueueLine(command) ? QUEUE_PRESENT : undefined);
        const report = `$ ${script}\nexit ${r.code ?? r.signal}\nstderr: ${r.stderr.slice(-2000)}`;
        const refusal = README_REFUSALS.find(([re]) => re.test(command))?.[1];
        if (refusal) {
          expect(r.code, report).toBe(2);
          expect(r.stderr, report).toMatch(refusal);
          expect(r.stdout, report).toBe("");
          return;
        }
        expect(r.code, report).toBe(0);
        expect(r.stdout.trim(), `${report}\n(no data on stdout)`).not.toBe("");
        if (isQueueLine(command))
          expect(holdsRows(command, r.stdout), `${report}\nstdout: ${r.stdout}\n(no pull request in the queue)`).toBe(true);
      },
      180_000,
    );
  }
});
