// Every example of every command's help really runs. Each line runs in bash (examples may use
// `<`, `|`, `$(...)` and `&&`) with `mq` on PATH standing for node bin/mq.js, in a temp folder
// with its own config (MQ_CONFIG_DIR, HOME) and a token.txt. `--offline` is inserted where a line
// lacks it, except for commands that never query the API (auth, config, completion, help, serve:
// `mq auth login` refuses --offline), and MQ_API_URL points at a closed loopback port so that
// nothing can reach the network anyway. Long-running examples (serve, --follow) must still be
// running once they have printed something, and stop cleanly on Ctrl-C.
//
// --offline builds the simulated history in each process (seconds of CPU), so only mq's own
// examples run with it as written; the others have --offline replaced by --api-url of one
// `mq serve` started here, which serves the same simulated history over the same HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES } from "../src/commands/examples.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const shimDir = mkdtempSync(join(tmpdir(), "mq-examples-bin-"));
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

const isLongRunning = (path: string, line: string) => path === "serve" || line.includes("--follow");

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
const servers: ChildProcess[] = [];

afterAll(() => void servers.forEach((s) => s.kill("SIGINT")));

function serve(args: string[]): Promise<string> {
  const child = spawn("node", [join(root, "bin/mq.js"), "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
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
  [served, servedMergify] = await Promise.all([serve([]), serve(["--dialect", "mergify"])]);
}, 60_000);

function runExample(script: string, longRunning: boolean): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), "mq-example-"));
  mkdirSync(join(dir, "config"));
  writeFileSync(join(dir, "token.txt"), "mqk_example_token_abcd\n");
  const env: NodeJS.ProcessEnv = {
    PATH: `${shimDir}:${process.env.PATH ?? ""}`,
    HOME: dir,
    MQ_CONFIG_DIR: join(dir, "config"),
    MQ_API_URL: "http://127.0.0.1:9",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
  };
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--norc", "--noprofile", "-e", "-c", script], { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
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
    if (longRunning) setTimeout(interrupt, 15_000).unref();
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, interrupted });
    });
  });
}

const cases = Object.entries(EXAMPLES).flatMap(([path, lines]) => lines.map((line) => [path || "mq", line, path] as const));

describe("every help example runs", () => {
  it.concurrent.each(cases)("%s: %s", async (_label, line, path) => {
    const setup = SETUP[path] ?? "";
    let command = withOffline(line);
    const url = /--dialect mergify/.test(line) ? servedMergify : served;
    if (path !== "") command = command.replace(/ --offline( |$)/g, ` --api-url ${url} --token mqk_example_token_abcd$1`);
    const script = [setup, command].filter(Boolean).join("\n");
    const long = isLongRunning(path, line);
    const r = await runExample(script, long);
    const report = `$ ${command}\nexit ${r.code ?? r.signal}\nstderr: ${r.stderr.slice(-2000)}`;
    if (long) {
      expect(r.interrupted, `${report}\n(it stopped by itself before Ctrl-C)`).toBe(true);
      expect(r.code === 0 || r.code === 130 || r.signal === "SIGINT", report).toBe(true);
    } else {
      expect(r.code, report).toBe(0);
    }
  });
});
