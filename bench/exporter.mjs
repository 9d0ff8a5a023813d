// Issue 31's rows: `mq exporter` over many repositories (`--only exporter`).
//   fleet   1,000 repositories (--quick: 5), each replaying the queue events of the last hours of
//           one simulated repository (the same history under 1,000 names), behind a server
//           answering every request after 20 ms: time from spawn to /readyz 200 (the backfill of
//           the queue's 7-day lookback), the exporter's peak RSS, requests per repository for
//           the backfill and per poll after it, and a scrape of /metrics in both formats
//   sim40   40 simulated repositories (--quick: 1, --days 1) behind `mq serve --latency 20 --days 8`, the
//           issue's scale target: caught up within 150 s, peak RSS <= 250 MB, a scrape < 1 s
// Run as `node bench/exporter.mjs serve BUNDLE OPTIONS_JSON`, this file is the fleet's server: an
// esbuild bundle of src/server holding exactly the events it builds, keeping the requests it
// receives (asked for over IPC).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fmtInt, fmtMB, fmtMs, median, ROOT, startChild } from "./lib.mjs";

const HOUR = 3_600_000;

if (process.argv[2] === "serve") await serveFleet(process.argv[3], JSON.parse(process.argv[4]));

/** The fleet's server (a child process): `repos` copies of the queue events of `hours` hours of one simulated repository. */
async function serveFleet(bundle, o) {
  const { startServer, simulateRepository } = await import(bundle);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const from = now.getTime() - o.hours * HOUR;
  const one = simulateRepository({ repo: "acme/web", seed: 0, days: 1, now })
    .filter((e) => e.type.startsWith("action.queue.") && Date.parse(e.received_at) >= from)
    .sort((a, b) => Date.parse(a.received_at) - Date.parse(b.received_at) || a.id - b.id);
  const events = {};
  for (let i = 0; i < o.repos; i++) {
    const repository = `fleet/r${String(i).padStart(4, "0")}`;
    events[repository] = one.map((e, k) => ({ ...e, id: (i + 1) * 1_000_000 + k, repository }));
  }
  const server = await startServer({ port: 0, events, delayMs: o.delayMs });
  process.stdout.write(`${server.url}\n${JSON.stringify({ perRepository: one.length, now: now.toISOString() })}\n`);
  // the harness asks how many requests came, and how many began a poll (no cursor), since it last asked
  process.on("message", (m) => {
    if (m !== "requests") return;
    const urls = server.requests.map((r) => r.url);
    server.requests.length = 0;
    process.send({ requests: urls.length, polls: urls.filter((u) => !u.includes("cursor=")).length });
  });
  process.on("SIGTERM", () => process.exit(0));
}

/** CPU seconds a process has used so far, user + system, its threads and waited-for children (Linux) */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime, stime, cutime, cstime: fields 14 to 17 of proc(5), in clock ticks (100 a second)
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

const loadNow = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");

/** peak resident memory of a process (VmHWM, Linux), in KB */
function peakRssKb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function status(url) {
  try {
    const res = await fetch(url);
    await res.text();
    return res.status;
  } catch {
    return 0;
  }
}

/** Starts `mq exporter` over REPOS against API; resolves with its URL once it prints it. */
async function startExporter(h, api, repos, extra = []) {
  const file = join(h.tmp, `exporter-repos-${repos.length}.txt`);
  writeFileSync(file, `${repos.join("\n")}\n`);
  const child = spawn(
    "node",
    [h.BIN, "--api-url", api, "--token", h.TOKEN, "exporter", "--repo", `@${file}`, "--listen", "127.0.0.1:0", "--since", "1h", ...extra],
    { cwd: ROOT, env: { ...process.env, ...h.ENV }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr.on("data", (c) => {
    if (err.length < 20_000) err += c;
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = /^(http:\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`mq exporter exited with ${code}\n${err}`)));
  });
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
    });
  h.cleanups.push(stop);
  return { child, url, stop, stderr: () => err };
}

/** Waits for /readyz 200 (at most LIMIT ms): the time from START, or NaN. */
async function caughtUp(url, start, limit) {
  while (performance.now() - start < limit) {
    if ((await status(`${url}/readyz`)) === 200) return performance.now() - start;
    await sleep(250);
  }
  return NaN;
}

/** Scrapes /metrics RUNS times in each format: the times (ms) and the size of the text. */
async function scrapes(url, runs) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    for (const accept of ["text/plain;version=0.0.4", "application/openmetrics-text;version=1.0.0"]) {
      const t = performance.now();
      const res = await fetch(`${url}/metrics`, { headers: { accept } });
      const body = await res.text();
      times.push(performance.now() - t);
      bytes = Math.max(bytes, Buffer.byteLength(body));
    }
  }
  return { times, bytes };
}

const ask = (child) =>
  new Promise((resolve) => {
    child.once("message", resolve);
    child.send("requests");
  });

export async function fleet(h) {
  if (!h.bundle) throw new Error("the exporter rows need the server bundle");
  const quick = h.CFG.exporterRepos < 1_000;
  const count = h.CFG.exporterRepos;
  const hours = quick ? 2 : 1;
  h.log(`exporter: a server of ${fmtInt(count)} repositories, ${hours} h of queue events each`);
  const server = await startChild(
    "node",
    [
      "--max-old-space-size=4096",
      join(ROOT, "bench", "exporter.mjs"),
      "serve",
      h.bundle,
      JSON.stringify({ repos: count, hours, delayMs: 20 }),
    ],
    { infoLine: true, ipc: true },
  );
  h.cleanups.push(server.stop);
  try {
    const repos = Array.from({ length: count }, (_, i) => `fleet/r${String(i).padStart(4, "0")}`);
    await ask(server.child);
    const loadBefore = loadNow();
    const serverBefore = cpuSeconds(server.child.pid);
    const start = performance.now();
    const exp = await startExporter(h, server.url, repos, ["--interval", quick ? "1" : "5"]);
    const ms = await caughtUp(exp.url, start, 1_800_000);
    const cpu = { exporter: cpuSeconds(exp.child.pid), server: cpuSeconds(server.child.pid) - serverBefore };
    const loadAfter = loadNow();
    const backfill = await ask(server.child);
    // three rounds after the backfill (--quick: one): what a poll costs
    let polls = { requests: 0, polls: 0 };
    while (polls.polls < (quick ? 1 : 3) * count) {
      await sleep(quick ? 500 : 2_000);
      const more = await ask(server.child);
      polls = { requests: polls.requests + more.requests, polls: polls.polls + more.polls };
    }
    const scrape = await scrapes(exp.url, quick ? 2 : 10);
    const rss = peakRssKb(exp.child.pid);
    await exp.stop();
    const name = `${fmtInt(count)} repositories (${fmtInt(server.info.perRepository)} queue events each, 20 ms a request)`;
    h.row("exporter", `${name}: caught up (/readyz 200)`, [ms]);
    h.row("exporter", `${name}: peak RSS`, [rss], { unit: "KB" });
    h.row("exporter", `${name}: scrape of /metrics (${fmtMB(scrape.bytes / 1024)} of text), both formats`, scrape.times);
    h.notes.push(
      `exporter, ${name}: ${(backfill.requests / count).toFixed(1)} requests per repository for the backfill ` +
        `(${(backfill.polls / count).toFixed(1)} time slices), then ${(polls.requests / polls.polls).toFixed(2)} per repository per poll ` +
        `(${fmtInt(polls.polls)} polls counted); caught up in ${fmtMs(ms)} (load ${loadBefore} before, ${loadAfter} after; CPU until then: ` +
        `the exporter ${cpu.exporter.toFixed(1)} s, the server ${cpu.server.toFixed(1)} s), peak RSS ${fmtMB(rss)}, scrape median ${fmtMs(median(scrape.times))}`,
    );
  } finally {
    await server.stop();
  }
}

export async function sim40(h) {
  const count = h.CFG.exporterSimRepos;
  const repos = Array.from({ length: count }, (_, i) => `sim/r${String(i).padStart(2, "0")}`);
  const days = h.CFG.exporterSimDays;
  h.log(`exporter: ${count} simulated repositories behind mq serve --latency 20 --days ${days}`);
  const server = await startChild("node", [
    h.BIN,
    "serve",
    "--port",
    "0",
    "--latency",
    "20",
    "--days",
    String(days),
    "--repos",
    repos.join(","),
  ]);
  h.cleanups.push(server.stop);
  try {
    const loadBefore = loadNow();
    const serverBefore = cpuSeconds(server.child.pid);
    const start = performance.now();
    const exp = await startExporter(h, server.url, repos, ["--interval", "30"]);
    const ms = await caughtUp(exp.url, start, 900_000);
    // CPU seconds hold on a shared machine where wall seconds do not: the two processes share the
    // cores, so on two quiet ones the catch-up takes about the larger of the two, or their sum / 2
    const cpu = { exporter: cpuSeconds(exp.child.pid), server: cpuSeconds(server.child.pid) - serverBefore };
    const loadAfter = loadNow();
    const scrape = await scrapes(exp.url, 5);
    const rss = peakRssKb(exp.child.pid);
    await exp.stop();
    const name = `${count} simulated repositories (mq serve --latency 20 --days ${days})`;
    h.row("exporter", `${name}: caught up (/readyz 200)`, [ms]);
    h.row("exporter", `${name}: peak RSS`, [rss], { unit: "KB" });
    h.row("exporter", `${name}: scrape of /metrics (${fmtMB(scrape.bytes / 1024)}), both formats`, scrape.times);
    h.notes.push(
      `exporter, ${name}: caught up in ${fmtMs(ms)} at a load of ${loadBefore} (1, 5, 15 min) before and ${loadAfter} after; ` +
        `CPU until then: the exporter ${cpu.exporter.toFixed(1)} s (from its start), the server ${cpu.server.toFixed(1)} s (from the exporter's start); ` +
        `a floor on two quiet cores of ${fmtMs(1000 * Math.max(cpu.exporter, cpu.server, (cpu.exporter + cpu.server) / 2))} (the larger CPU time, or their sum / 2)`,
    );
    h.target(`exporter: ${count} repositories caught up within 150 s`, ms <= 150_000, fmtMs(ms));
    h.target(`exporter: peak RSS <= 250 MB`, rss <= 250 * 1024, fmtMB(rss));
    h.target(`exporter: a scrape in under 1 s`, Math.max(...scrape.times) < 1000, `slowest ${fmtMs(Math.max(...scrape.times))}`);
  } finally {
    await server.stop();
  }
}
