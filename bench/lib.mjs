// Helpers of the benchmark harness: timed child processes, statistics, child servers.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RSS_HOOK = fileURLToPath(new URL("./rss-hook.mjs", import.meta.url));

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** nearest-rank percentile */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function summarize(xs) {
  return { n: xs.length, median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

/**
 * Runs a command to completion and times it (spawn to exit, wall clock). stdout is consumed as it
 * arrives and only its lines are counted (plus the first and last line kept), so the harness holds
 * nothing whatever the size. With `rssFile`, a Node child reports its peak RSS through ./rss-hook.mjs
 * (process.resourceUsage().maxRSS at exit); with `cpuFile`, its CPU time (user + system, ms): the
 * figure other processes on a shared machine disturb least. `node` must then be the command.
 */
export function timed(cmd, args, { env, rssFile, cpuFile, cwd = ROOT, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve, reject) => {
    const fullArgs = rssFile || cpuFile ? ["--import", RSS_HOOK, ...args] : args;
    const start = process.hrtime.bigint();
    const child = spawn(cmd, fullArgs, {
      cwd,
      env: {
        ...process.env,
        ...env,
        ...(rssFile ? { MQ_BENCH_RSS_FILE: rssFile } : {}),
        ...(cpuFile ? { MQ_BENCH_CPU_FILE: cpuFile } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let lines = 0;
    let head = "";
    let headDone = false;
    let tail = "";
    child.stdout.on("data", (chunk) => {
      let i = -1;
      while ((i = chunk.indexOf(10, i + 1)) !== -1) lines++;
      const s = chunk.toString("utf8");
      if (!headDone) {
        head += s;
        const nl = head.indexOf("\n");
        if (nl >= 0) {
          head = head.slice(0, nl);
          headDone = true;
        }
      }
      tail = (tail + s).slice(-8192);
    });
    let stderr = "";
    child.stderr.on("data", (c) => {
      if (stderr.length < 20_000) stderr += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      clearTimeout(timer);
      const trimmed = tail.endsWith("\n") ? tail.slice(0, -1) : tail;
      const last = trimmed.slice(trimmed.lastIndexOf("\n") + 1);
      let rssKB;
      if (rssFile) {
        try {
          rssKB = Number(readFileSync(rssFile, "utf8"));
          rmSync(rssFile, { force: true });
        } catch {
          rssKB = undefined;
        }
      }
      let cpuMs;
      if (cpuFile) {
        try {
          cpuMs = Number(readFileSync(cpuFile, "utf8"));
          rmSync(cpuFile, { force: true });
        } catch {
          cpuMs = undefined;
        }
      }
      resolve({ ms, code, signal, lines, first: head, last, stderr, rssKB, cpuMs });
    });
  });
}

/**
 * Starts a server process whose first stdout line is its base URL (and, for bench/server.mjs, a
 * second line of JSON about what it holds). Resolves once both are read.
 */
export function startChild(cmd, args, { infoLine = false, ipc = false, timeoutMs = 300_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe", ...(ipc ? ["ipc"] : [])] });
    let out = "";
    let err = "";
    const want = infoLine ? 2 : 1;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd} ${args.join(" ")}: no URL after ${timeoutMs} ms\n${err}`));
    }, timeoutMs);
    const onData = (c) => {
      out += c;
      const lines = out.split("\n");
      if (lines.length > want) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume();
        const stop = () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          });
        resolve({ child, url: lines[0].trim(), info: infoLine ? JSON.parse(lines[1]) : undefined, stop });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (c) => {
      if (err.length < 20_000) err += c;
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} ${args.join(" ")} exited with ${code} before printing its URL\n${err}`));
    });
  });
}

export function fmtMs(ms) {
  if (ms === undefined || Number.isNaN(ms)) return "–";
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function fmtMB(kb) {
  return kb === undefined || Number.isNaN(kb) ? "–" : `${(kb / 1024).toFixed(1)} MB`;
}

export function fmtRatio(r) {
  return r === undefined || !Number.isFinite(r) ? "–" : `${r.toFixed(2)}×`;
}

export function fmtInt(n) {
  return n.toLocaleString("en-US");
}

/**
 * The ratio of two contenders' medians, and the spread of the ratios paired round by round (a[i] /
 * b[i], both timed in round i): what a burst of load or a drift of the machine does to the figure.
 * Quartiles by nearest rank (with 7 rounds: the 2nd and 6th of the sorted ratios).
 */
export function pairedRatio(a, b) {
  const perRound = a.map((x, i) => x / b[i]);
  return {
    ratio: median(a) / median(b),
    perRound,
    q1: percentile(perRound, 25),
    q3: percentile(perRound, 75),
    min: Math.min(...perRound),
    max: Math.max(...perRound),
  };
}

/** "1.12× (rounds: IQR 1.08–1.15, range 1.05–1.20)"; one round: "1.12×" */
export function fmtPaired(p) {
  if (p.perRound.length < 2 || !p.perRound.every(Number.isFinite)) return fmtRatio(p.ratio);
  const f = (x) => x.toFixed(2);
  return `${fmtRatio(p.ratio)} (rounds: IQR ${f(p.q1)}–${f(p.q3)}, range ${f(p.min)}–${f(p.max)})`;
}

/** Said beside a target whose bound lies inside the rounds' IQR: the verdict is a coin toss. */
export function straddles(p, bound) {
  return p.perRound.length >= 2 && p.q1 <= bound && bound <= p.q3;
}
