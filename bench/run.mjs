#!/usr/bin/env node
// `npm run bench`: the figures that say whether mq is fast, each as a ratio to a baseline measured in
// the same run (the machine may be shared and noisy: medians of repeated, interleaved runs).
//
//   node bench/run.mjs            full run; prints the report (--out FILE writes it there too)
//   node bench/run.mjs --quick    every measurement once, small sizes (a smoke test)
//   options: --no-build  --out FILE  --only startup,stream,concurrency,server,insights,archive,serve,oneshot,formats,slices,exporter,exporter40,queue
//
// It runs the built CLI (npm run build, then bin/mq.js) and, for what `mq serve` does not expose
// (a fixed delay per request, a store of exactly one million events), bench/server.mjs over an
// esbuild bundle of src/server.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { writeEventsFile } from "./events.mjs";
import * as exporter from "./exporter.mjs";
import * as feel from "./feel.mjs";
import * as queue from "./queue.mjs";
import { fmtInt, fmtMB, fmtMs, fmtRatio, median, percentile, ROOT, startChild, summarize, timed } from "./lib.mjs";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const value = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const QUICK = flag("--quick");
const ONLY = value("--only")?.split(",");
// a file only when asked for: bench/RESULTS.md keeps the history of runs, never one run's table
const OUT = value("--out");
const want = (section) => !ONLY || ONLY.includes(section);

// --quick: each measurement once at the smallest size that runs its code, and no warm-up run
const CFG = QUICK
  ? {
      warmUp: false,
      startupRuns: 1,
      startupWarmup: 0,
      streamEvents: 500,
      smallEvents: 200,
      streamRuns: 1,
      formatRuns: 1,
      curlRuns: 1,
      curlBudgetMs: 0,
      delayMs: 50,
      summaryRuns: 1,
      simDays: 1,
      storeEvents: 5_000,
      storeBaseline: 2_000,
      latencyRequests: 10,
      rssSizes: [200, 500],
      sliceDays: 1,
      sliceDelayMs: 100,
      sliceRuns: 1,
      archiveDays: 1,
      archiveRuns: 1,
      apiLatencyMs: 20,
      exporterRepos: 5,
      exporterSimRepos: 1,
      exporterSimDays: 1,
      queueRuns: 1,
      queueWarmup: 0,
      queueDays: 2,
      waitSeconds: 1,
    }
  : {
      warmUp: true,
      startupRuns: 20,
      startupWarmup: 3,
      streamEvents: 100_000,
      smallEvents: 1_000,
      streamRuns: 3,
      formatRuns: 7,
      curlRuns: 3,
      curlBudgetMs: 45_000,
      delayMs: 200,
      summaryRuns: 3,
      simDays: 30,
      storeEvents: 1_000_000,
      storeBaseline: 100_000,
      latencyRequests: 200,
      rssSizes: [10_000, 100_000, 1_000_000],
      sliceDays: 30,
      sliceDelayMs: 100,
      sliceRuns: 1,
      archiveDays: 30,
      archiveRuns: 3,
      apiLatencyMs: 100,
      exporterRepos: 1_000,
      exporterSimRepos: 40,
      exporterSimDays: 8,
      queueRuns: 7,
      queueWarmup: 1,
      queueDays: 8,
      waitSeconds: 5,
    };

const tmpRoot = mkdtempSync(join(os.tmpdir(), "mq-bench-"));
// the CLI under test: a snapshot of bin/ and dist/ taken right after the build, so that another
// `npm run build` in the same checkout during the run cannot swap chunks under it
const BIN = join(tmpRoot, "app", "bin", "mq.js");
const TOKEN = "bench-token";
const NOW = "2026-11-20T12:00:00Z";
const tmp = tmpRoot;
// mq must not read the user's configuration (a token, an API URL, a default repository)
// its own code-cache folder: the warm-up rounds write mq's caches there, not in the user's
const ENV = { MQ_CONFIG_DIR: join(tmp, "config"), XDG_CACHE_HOME: join(tmp, "cache"), NO_COLOR: "1" };
for (const k of ["MQ_API_URL", "MQ_TOKEN", "MQ_REPO", "MERGIFY_TOKEN", "GITHUB_REPOSITORY"]) delete process.env[k];

const rows = [];
const targets = [];
const notes = [];
const cleanups = [];
const log = (msg) => process.stderr.write(`bench: ${msg}\n`);

/** a table row; `unit` "ms" or "KB" */
function row(section, name, xs, { unit = "ms", p99, baseline, ratio } = {}) {
  const s = summarize(xs);
  const r = { section, name, ...s, unit, p99, baseline, ratio };
  rows.push(r);
  return r;
}

function target(name, met, detail) {
  targets.push({ name, met, detail });
}

// ---------------------------------------------------------------------------------------------
// set-up

function build() {
  if (flag("--no-build")) return;
  log("npm run build");
  const r = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) throw new Error("npm run build failed");
}

function snapshot() {
  const app = join(tmp, "app");
  for (const d of ["bin", "dist"]) cpSync(join(ROOT, d), join(app, d), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(app, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"), "dir");
}

/** src/server (and the endpoint table) bundled for bench/server.mjs */
async function bundleServer() {
  const esbuild = await import("esbuild");
  const outfile = join(tmp, "server-bundle.mjs");
  await esbuild.build({
    stdin: {
      contents: 'export * from "./src/server/index.ts";\nexport { STATS_ENDPOINTS } from "./src/stats/endpoints.ts";\n',
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "warning",
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
  });
  return outfile;
}

function haveTool(name) {
  return spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

/** curl and jq for baseline (a), from Debian when missing */
function ensureCurlJq() {
  if (haveTool("curl") && haveTool("jq")) return true;
  if (process.getuid?.() === 0 && haveTool("apt-get")) {
    log("installing curl and jq with apt-get");
    let r = spawnSync("apt-get", ["install", "-y", "-qq", "curl", "jq"], { stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) {
      spawnSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"] });
      r = spawnSync("apt-get", ["install", "-y", "-qq", "curl", "jq"], { stdio: ["ignore", "ignore", "inherit"] });
    }
  }
  return haveTool("curl") && haveTool("jq");
}

function check(result, what, expectLines, firstId, lastId) {
  const fail = (why) => {
    throw new Error(`${what}: ${why} (exit ${result.code}${result.signal ? `, ${result.signal}` : ""})\n${result.stderr.slice(0, 2000)}`);
  };
  if (result.code !== 0) fail("failed");
  if (expectLines !== undefined && result.lines !== expectLines) fail(`printed ${result.lines} lines, expected ${expectLines}`);
  if (firstId !== undefined) {
    const a = JSON.parse(result.first).id;
    const b = JSON.parse(result.last).id;
    if (a !== firstId || b !== lastId) fail(`events ${a}..${b}, expected ${firstId}..${lastId}`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// 1. start-up

async function startup() {
  log("start-up");
  // `auth status` reads a config file holding a token: the path every networked command takes
  const authConfig = join(tmp, "auth-config");
  mkdirSync(authConfig, { recursive: true, mode: 0o700 });
  writeFileSync(join(authConfig, "config.json"), JSON.stringify({ tokens: { "https://api.mergify.com": "mqk_bench_token_1234" } }), {
    mode: 0o600,
  });
  const cmds = [
    { name: 'node -e ""', args: ["-e", ""] },
    { name: "mq --version", args: [BIN, "--version"], bound: 1.35 },
    { name: "mq --help", args: [BIN, "--help"], bound: 1.35 },
    { name: "mq auth status", args: [BIN, "auth", "status"], bound: 1.35, env: { MQ_CONFIG_DIR: authConfig } },
    { name: "mq logs --help", args: [BIN, "logs", "--help"], bound: 1.5 },
  ];
  const times = cmds.map(() => []);
  // interleaved rounds: a burst of load on the shared machine hits every command alike
  for (let round = 0; round < CFG.startupWarmup + CFG.startupRuns; round++) {
    for (let i = 0; i < cmds.length; i++) {
      const r = check(await timed("node", cmds[i].args, { env: { ...ENV, ...cmds[i].env } }), cmds[i].name);
      if (round >= CFG.startupWarmup) times[i].push(r.ms);
    }
  }
  const base = median(times[0]);
  row("start-up", 'node -e "" (baseline)', times[0], { baseline: "—", ratio: "1.00×" });
  for (let i = 1; i < cmds.length; i++) {
    const ratio = median(times[i]) / base;
    row("start-up", cmds[i].name, times[i], { baseline: 'node -e ""', ratio: fmtRatio(ratio) });
    const bound = cmds[i].bound;
    target(
      `start-up: ${cmds[i].name} ≤ ${bound}× bare Node`,
      ratio <= bound,
      `${fmtRatio(ratio)} (${fmtMs(median(times[i]))} vs ${fmtMs(base)})`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// 2. streaming and 3. memory

async function streaming() {
  const n = CFG.streamEvents;
  const small = CFG.smallEvents;
  const repo = "bench/stream";
  const file = join(tmp, "events.ndjson");
  log(`streaming: writing ${fmtInt(n)} events`);
  const startMs = Date.parse("2026-11-01T00:00:00Z");
  await writeEventsFile(file, { count: n, repo, startMs });
  const iso = (ms) => new Date(ms).toISOString().replace(".000Z", "Z");
  const since = iso(startMs);
  const until = iso(startMs + (n - 1) * 1000);
  const untilSmall = iso(startMs + (small - 1) * 1000);

  const server = await startChild("node", [BIN, "serve", "--events", file, "--port", "0", "--token", TOKEN]);
  cleanups.push(server.stop);
  const firstUrl = (to) =>
    `${server.url}/v1/repos/${repo}/logs?received_from=${encodeURIComponent(since)}&received_to=${encodeURIComponent(to)}&per_page=100`;
  const mqArgs = (to) => [
    BIN,
    "logs",
    "--repo",
    repo,
    "--all",
    "-o",
    "ndjson",
    "--per-page",
    "100",
    "--since",
    since,
    "--until",
    to,
    "--api-url",
    server.url,
    "--token",
    TOKEN,
  ];
  const rss = () => join(tmp, `rss-${Math.random().toString(36).slice(2)}`);

  const runMq = async (to, count) => check(await timed("node", mqArgs(to), { env: ENV, rssFile: rss() }), "mq logs", count, count, 1);
  const runFloor = async () =>
    check(await timed("node", ["bench/floor.mjs", firstUrl(until), TOKEN], { rssFile: rss() }), "undici loop", n, n, 1);
  const runCurl = async () => check(await timed("bash", ["bench/curl-loop.sh", firstUrl(until), TOKEN]), "curl+jq loop", n, n, 1);

  // the server serialises each event once, on first use: every contender then sees a warm server
  if (CFG.warmUp) {
    log("streaming: warm-up");
    await runFloor();
    await runMq(untilSmall, small);
  }

  const mq = [];
  const floor = [];
  const mqSmall = [];
  for (let i = 0; i < CFG.streamRuns; i++) {
    log(`streaming: round ${i + 1}/${CFG.streamRuns}`);
    mq.push(await runMq(until, n));
    floor.push(await runFloor());
    mqSmall.push(await runMq(untilSmall, small));
  }
  const curl = [];
  if (ensureCurlJq()) {
    const started = Date.now();
    for (let i = 0; i < CFG.curlRuns; i++) {
      if (i > 0 && Date.now() - started > CFG.curlBudgetMs) break;
      log(`streaming: curl+jq loop, run ${i + 1}`);
      curl.push(await runCurl());
    }
  } else {
    notes.push("curl or jq is missing and could not be installed: baseline (a) was not measured.");
  }

  const ms = (rs) => rs.map((r) => r.ms);
  const pages = Math.ceil(n / 100);
  const mqMed = median(ms(mq));
  const floorMed = median(ms(floor));
  const label = `${fmtInt(n)} events, ${fmtInt(pages)} pages`;
  if (curl.length)
    row("streaming", `(a) bash loop: curl + jq -c '.events[]', ${label}`, ms(curl), { baseline: "—", ratio: "baseline (a)" });
  row("streaming", `(b) bare undici loop in Node, ${label}`, ms(floor), { baseline: "—", ratio: "baseline (b)" });
  const vsA = curl.length ? median(ms(curl)) / mqMed : undefined;
  const vsB = mqMed / floorMed;
  row("streaming", `mq logs --all -o ndjson, ${label}`, ms(mq), {
    baseline: curl.length ? "(a), (b)" : "(b)",
    ratio: `${vsA !== undefined ? `${vsA.toFixed(1)}× faster than (a); ` : ""}${fmtRatio(vsB)} of (b)`,
  });
  if (vsA !== undefined)
    target(
      "streaming: mq ≥ 2× faster than the curl + jq loop",
      vsA >= 2,
      `${vsA.toFixed(1)}× (${fmtMs(mqMed)} vs ${fmtMs(median(ms(curl)))})`,
    );
  else target("streaming: mq ≥ 2× faster than the curl + jq loop", undefined, "not measured (no curl/jq)");
  target("streaming: mq within 1.5× of the bare undici loop", vsB <= 1.5, `${fmtRatio(vsB)} (${fmtMs(mqMed)} vs ${fmtMs(floorMed)})`);
  notes.push(
    `Streaming: ${fmtInt(n)} synthetic events (the shapes of src/api/fixtures/events.json, distinct ids, one a second) served by \`mq serve --events\`; ` +
      `every run's output was checked: exactly ${fmtInt(n)} lines, newest id first, id 1 last. ` +
      `The curl + jq loop (two processes a page) is slow, so it runs at most ${CFG.curlRuns} times and no new run starts after ${fmtMs(CFG.curlBudgetMs)}.`,
  );

  // 3. memory: peak RSS of the same command over a small and the large window
  const rssSmall = mqSmall.map((r) => r.rssKB);
  const rssLarge = mq.map((r) => r.rssKB);
  const floorRss = floor.map((r) => r.rssKB);
  const small0 = median(rssSmall);
  const large0 = median(rssLarge);
  row("memory", `mq logs --all -o ndjson, ${fmtInt(small)} events: peak RSS`, rssSmall, { unit: "KB", baseline: "—", ratio: "baseline" });
  row("memory", `mq logs --all -o ndjson, ${fmtInt(n)} events: peak RSS`, rssLarge, {
    unit: "KB",
    baseline: `${fmtInt(small)} events`,
    ratio: fmtRatio(large0 / small0),
  });
  row("memory", `(b) bare undici loop, ${fmtInt(n)} events: peak RSS (for reference)`, floorRss, { unit: "KB", baseline: "—", ratio: "–" });
  target(`memory: peak RSS over ${fmtInt(n)} events < 150 MB`, large0 < 150 * 1024, fmtMB(large0));
  target(
    `memory: ${fmtInt(n)} events within 20% of ${fmtInt(small)} events`,
    large0 <= small0 * 1.2,
    `${fmtRatio(large0 / small0)} (${fmtMB(large0)} vs ${fmtMB(small0)})`,
  );
  await server.stop();
}

// ---------------------------------------------------------------------------------------------
// 4. concurrency

function askRequests(server) {
  return new Promise((resolve) => {
    server.child.once("message", resolve);
    server.child.send("requests");
  });
}

async function concurrency(bundle, endpoints) {
  log("concurrency");
  const server = await startChild(
    "node",
    ["bench/server.mjs", bundle, JSON.stringify({ mode: "simulate", days: CFG.simDays, now: NOW, delayMs: CFG.delayMs })],
    {
      infoLine: true,
      ipc: true,
    },
  );
  cleanups.push(server.stop);
  const repo = "acme/web";
  const until = NOW;
  const since = new Date(Date.parse(NOW) - 7 * 86_400_000).toISOString().replace(".000Z", "Z");
  const common = ["--repo", repo, "--since", since, "--until", until, "-o", "json", "--api-url", server.url, "--token", TOKEN];
  const summaryArgs = [BIN, "stats", "summary", ...common];

  // warm-up: the first request simulates the repository; it also tells which requests summary makes
  // (without warm-up runs, this run is the first round's summary)
  const before = (await askRequests(server)).length;
  const first = check(await timed("node", summaryArgs, { env: ENV }), "mq stats summary");
  const seen = (await askRequests(server)).slice(before);
  const byPath = new Map(endpoints.map((e) => [e.path, e.name]));
  const names = [...new Set(seen.map((u) => byPath.get(u.split("?")[0].split("/").pop())).filter(Boolean))];
  if (names.length === 0) throw new Error(`mq stats summary made no statistics request the harness recognises: ${seen.join(", ")}`);
  const singles = names.map((name) => ({ name, args: [BIN, "stats", name, ...common], times: [] }));
  if (CFG.warmUp) for (const s of singles) check(await timed("node", s.args, { env: ENV }), `mq stats ${s.name}`);

  const summary = [];
  for (let i = 0; i < CFG.summaryRuns; i++) {
    log(`concurrency: round ${i + 1}/${CFG.summaryRuns}`);
    summary.push(i === 0 && !CFG.warmUp ? first.ms : check(await timed("node", summaryArgs, { env: ENV }), "mq stats summary").ms);
    for (const s of singles) s.times.push(check(await timed("node", s.args, { env: ENV }), `mq stats ${s.name}`).ms);
  }
  const slowest = singles.reduce((a, b) => (median(b.times) > median(a.times) ? b : a));
  const slowMed = median(slowest.times);
  const ratio = median(summary) / slowMed;
  row("concurrency", `slowest single request: mq stats ${slowest.name} (+${CFG.delayMs} ms server delay)`, slowest.times, {
    baseline: "—",
    ratio: "baseline",
  });
  row("concurrency", `mq stats summary (${names.length} requests, +${CFG.delayMs} ms each)`, summary, {
    baseline: `mq stats ${slowest.name}`,
    ratio: fmtRatio(ratio),
  });
  target(
    "concurrency: mq stats summary ≤ 1.3× its slowest single request",
    ratio <= 1.3,
    `${fmtRatio(ratio)} (${fmtMs(median(summary))} vs ${fmtMs(slowMed)})`,
  );
  notes.push(
    `Concurrency: \`mq stats summary\` over 7 days of a ${CFG.simDays}-day simulation, the server waiting ${CFG.delayMs} ms before each answer; it made ${names.length} requests ` +
      `(${names.join(", ")}), each also timed alone as \`mq stats NAME\` with the same flags (both include the CLI's start-up); one after the other, the ${names.length} requests alone would wait ${fmtInt(names.length * CFG.delayMs)} ms.`,
  );
  await server.stop();
}

// ---------------------------------------------------------------------------------------------
// 6. insights over a long window

async function insights() {
  const days = CFG.simDays;
  const span = days === 1 ? "1 day" : `${days} days`;
  log(`insights: ${span} of the bundled server's history`);
  const server = await startChild("node", [BIN, "serve", "--port", "0", "--token", TOKEN, "--now", NOW, "--days", String(days)]);
  cleanups.push(server.stop);
  const since = new Date(Date.parse(NOW) - days * 86_400_000).toISOString().replace(".000Z", "Z");
  const common = ["--repo", "acme/web", "--since", since, "--until", NOW, "--api-url", server.url, "--token", TOKEN];
  const logsArgs = [BIN, "logs", ...common, "--all", "-o", "ndjson"];
  const insightsArgs = [BIN, "insights", ...common, "--compare", "none", "-o", "ndjson"];
  const rss = () => join(tmp, `rss-${Math.random().toString(36).slice(2)}`);
  // warm-up: the server simulates the history on the first request; every run prints what the first did
  let first = CFG.warmUp ? check(await timed("node", logsArgs, { env: ENV }), "mq logs --all") : undefined;
  let figures = CFG.warmUp ? check(await timed("node", insightsArgs, { env: ENV }), "mq insights") : undefined;
  const logs = [];
  const ins = [];
  for (let i = 0; i < CFG.streamRuns; i++) {
    log(`insights: round ${i + 1}/${CFG.streamRuns}`);
    logs.push(check(await timed("node", logsArgs, { env: ENV, rssFile: rss() }), "mq logs --all", first?.lines));
    ins.push(check(await timed("node", insightsArgs, { env: ENV, rssFile: rss() }), "mq insights", figures?.lines));
    first ??= logs[0];
    figures ??= ins[0];
  }
  const ms = (rs) => rs.map((r) => r.ms);
  const ratio = median(ms(ins)) / median(ms(logs));
  row("insights", `(c) mq logs --all -o ndjson, ${span}, ${fmtInt(first.lines)} events`, ms(logs), {
    baseline: "—",
    ratio: "baseline (c)",
  });
  row("insights", `mq insights --since ${days}d --compare none (same window)`, ms(ins), { baseline: "(c)", ratio: fmtRatio(ratio) });
  row(
    "insights",
    `mq insights --since ${days}d: peak RSS`,
    ins.map((r) => r.rssKB),
    { unit: "KB", baseline: "—", ratio: "–" },
  );
  row(
    "insights",
    `(c) mq logs --all over the same window: peak RSS`,
    logs.map((r) => r.rssKB),
    { unit: "KB", baseline: "—", ratio: "–" },
  );
  target(
    `insights: ${span} of history no slower than a plain mq logs --all over the same window`,
    ratio <= 1,
    `${fmtRatio(ratio)} (${fmtMs(median(ms(ins)))} vs ${fmtMs(median(ms(logs)))})`,
  );
  const peak = median(ins.map((r) => r.rssKB));
  target(`insights: peak RSS over ${span} < 150 MB`, peak < 150 * 1024, fmtMB(peak));
  notes.push(
    `Insights: \`mq insights\` over the ${days}-day history of acme/web served by \`mq serve --now ${NOW}\`, against \`mq logs --all -o ndjson\` of the same window ` +
      `(${fmtInt(first.lines)} events). Insights walks the log once, asking only for the 8 queue event types, and rebuilds the stays as pages arrive.`,
  );
  await server.stop();
}

// ---------------------------------------------------------------------------------------------
// 7. insights read from the archive
//
// The baseline that matters is the API as users meet it: a hosted service, a round trip away. (d)
// models that with `mq serve --latency 100`: every answer 100 ms after its request, about a
// transatlantic round trip (80-90 ms) plus the service's time for a page; a laptop or a CI runner
// far from the service sees more, never less. (e), the same API on loopback with no latency at all,
// is the floor of floors: there the API path costs only CPU, and the archive can at best match it
// (both parse every event and rebuild every stay). The target applies to (d); both are reported.
// (f), one `mq archive query "SELECT 1"`, is the archive's fixed cost (start-up, loading DuckDB,
// opening the file): the rest of an archive run is the cost per event.

/** the event types a queue stay is built from (src/insights/dialects.ts QUEUE_EVENT_TYPES): what insights reads */
const QUEUE_TYPES = [
  "enter",
  "checks_not_started",
  "checks_start",
  "checks_end",
  "batch_bisection_start",
  "batch_bisection_end",
  "merged",
  "leave",
].map((t) => `action.queue.${t}`);

async function archiveInsights() {
  const days = CFG.archiveDays;
  const latency = CFG.apiLatencyMs;
  const span = days === 1 ? "1 day" : `${days} days`;
  log(`archive: ${span} synced, then insights from the archive and over the API`);
  // the default memory budget (512 MB) refuses the pages of a 30-day window once the simulation is cached
  const serveArgs = [BIN, "serve", "--port", "0", "--token", TOKEN, "--now", NOW, "--days", String(days + 1), "--memory-budget", "4096"];
  // the API as mq sees it on a loopback: every page answered at once
  const local = await startChild("node", serveArgs);
  cleanups.push(local.stop);
  // the API at a distance: the same history, each answer after a round trip of `latency` ms
  const remote = await startChild("node", [...serveArgs, "--latency", String(latency)]);
  cleanups.push(remote.stop);
  const env = { ...ENV, MQ_DATA_DIR: join(tmp, "archive-data") };
  const since = new Date(Date.parse(NOW) - days * 86_400_000).toISOString().replace(".000Z", "Z");
  const window = ["--repo", "acme/web", "--since", since, "--until", NOW, "--compare", "none", "--token", TOKEN];
  const sync = check(
    await timed(
      "node",
      [
        BIN,
        "archive",
        "sync",
        "--repo",
        "acme/web",
        "--since",
        since,
        "--until",
        NOW,
        "--api-url",
        local.url,
        "--token",
        TOKEN,
        "-o",
        "ndjson",
      ],
      { env },
    ),
    "mq archive sync",
  );
  const synced = JSON.parse(sync.first);
  // same output, exactly, or the timing means nothing; --debug counts the API's pages
  const once = (args) => {
    const r = spawnSync("node", args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`${args.slice(1).join(" ")}: exit ${r.status}\n${r.stderr.slice(0, 2000)}`);
    return r;
  };
  const viaApi = once([BIN, "--debug", "insights", ...window, "--api-url", local.url, "--no-archive", "-o", "json"]);
  const viaArchive = once([BIN, "insights", ...window, "--api-url", local.url, "--archive", "-o", "json"]);
  if (viaApi.stdout !== viaArchive.stdout) throw new Error("mq insights --archive differs from mq insights over the API");
  const pages = viaApi.stderr.split("\n").filter((l) => l.includes(" GET ")).length;
  const apiArgs = (server) => [BIN, "insights", ...window, "--api-url", server.url, "--no-archive", "-o", "ndjson"];
  const archiveArgs = [BIN, "insights", ...window, "--api-url", remote.url, "--archive", "-o", "ndjson"];
  // every run prints what the first did (a warm-up run, or the first round's)
  let lines = CFG.warmUp ? check(await timed("node", archiveArgs, { env }), "mq insights --archive").lines : undefined;
  const far = [];
  const near = [];
  const archived = [];
  const fixed = [];
  // interleaved, so that a change in the machine's load falls on all three alike
  for (let i = 0; i < CFG.archiveRuns; i++) {
    log(`archive: round ${i + 1}/${CFG.archiveRuns}`);
    const viaRemote = check(await timed("node", apiArgs(remote), { env }), "mq insights over the API", lines);
    lines ??= viaRemote.lines;
    far.push(viaRemote.ms);
    archived.push(check(await timed("node", archiveArgs, { env }), "mq insights --archive", lines).ms);
    near.push(check(await timed("node", apiArgs(local), { env }), "mq insights over the loopback API", lines).ms);
    fixed.push(
      check(await timed("node", [BIN, "archive", "query", "SELECT 1 AS one", "-o", "ndjson"], { env }), "mq archive query SELECT 1").ms,
    );
  }
  const events = Number(
    JSON.parse(
      once([
        BIN,
        "archive",
        "query",
        `SELECT count(*) AS n FROM events WHERE type IN (${QUEUE_TYPES.map((t) => `'${t}'`).join(", ")}) AND received_at >= '${since}'::TIMESTAMPTZ AND received_at <= '${NOW}'::TIMESTAMPTZ`,
        "-o",
        "json",
      ]).stdout,
    )[0].n,
  );
  const perEventUs = ((median(archived) - median(fixed)) * 1000) / Math.max(1, events);
  const vsFar = median(far) / median(archived);
  const vsNear = median(near) / median(archived);
  row("archive", `mq archive sync --parallel 6 (the default), ${span}, ${fmtInt(synced.added)} events, loopback (once)`, [sync.ms], {
    baseline: "—",
    ratio: "–",
  });
  row("archive", `(d) mq insights over the API, ${span}, ${fmtInt(pages)} pages, +${latency} ms per page`, far, {
    baseline: "—",
    ratio: "baseline (d)",
  });
  row("archive", `(e) mq insights over the API, ${span}, loopback (no latency)`, near, { baseline: "—", ratio: "baseline (e)" });
  row("archive", `(f) mq archive query "SELECT 1": start-up, DuckDB loaded, archive opened`, fixed, {
    baseline: "—",
    ratio: "baseline (f)",
  });
  row("archive", `insights --archive vs over the API, ${span}`, archived, {
    baseline: "(d), (e), (f)",
    ratio: `${fmtRatio(vsFar)} faster than (d); ${fmtRatio(vsNear)} faster than (e); (f) + ${perEventUs.toFixed(1)} µs per queue event`,
  });
  target(
    `archive: insights --archive over ${span} ≥ 10× faster than over the API (+${latency} ms per page)`,
    vsFar >= 10,
    `${fmtRatio(vsFar)} (${fmtMs(median(archived))} vs ${fmtMs(median(far))}); for reference ${fmtRatio(vsNear)} against the loopback API with no latency (${fmtMs(median(near))}), and the archive's fixed cost ${fmtMs(median(fixed))} + ${perEventUs.toFixed(1)} µs for each of the ${fmtInt(events)} queue events`,
  );
  notes.push(
    `Archive: \`mq archive sync\` copied ${span} of acme/web (${fmtInt(synced.added)} events) from \`mq serve --now ${NOW}\` once; then \`mq insights --compare none\` ` +
      `over that window from the archive (\`--archive\`), over the API of \`mq serve --latency ${latency}\` (d: each of the ${fmtInt(pages)} pages answered after ${latency} ms, ` +
      `a round trip to a hosted API: about a transatlantic round trip plus the service's time for a page, the baseline the target applies to) and over the same API on loopback ` +
      `without latency (e: the floor of floors, where the API path costs only CPU), interleaved, ${CFG.archiveRuns} rounds, with (f) \`mq archive query "SELECT 1"\` (start-up, DuckDB, ` +
      `opening the archive: the fixed cost of any archive run). The outputs were checked identical first.`,
  );
  await remote.stop();
  await local.stop();
}

// ---------------------------------------------------------------------------------------------
// 5. server latency

/** deterministic pseudo-random numbers in [0, 1) (mulberry32) */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function latencies(bundle, endpoints, count) {
  const { Client } = await import("undici");
  const repo = "bench/million";
  const server = await startChild(
    "node",
    [
      "--max-old-space-size=4096",
      "bench/server.mjs",
      bundle,
      JSON.stringify({ mode: "store", repo, count, now: NOW, emptyFile: join(tmp, `placeholder-${count}.ndjson`) }),
    ],
    { infoLine: true },
  );
  cleanups.push(server.stop);
  const info = server.info;
  const client = new Client(server.url, { pipelining: 1, keepAliveTimeout: 60_000 });
  const headers = { authorization: `Bearer ${TOKEN}` };
  const get = async (path) => {
    const t = process.hrtime.bigint();
    const res = await client.request({ method: "GET", path, headers });
    const body = await res.body.text();
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${body.slice(0, 300)}`);
    return { ms, body };
  };
  const DAY = 86_400_000;
  const oldest = Date.parse(info.oldest);
  const newest = Date.parse(info.newest);
  const isoZ = (ms) => new Date(ms).toISOString();
  const random = rng(42);
  const logsPath = () => {
    // a 30-day window ending anywhere in the history: the page is found by binary search, not a scan
    const to = oldest + DAY + random() * (newest - oldest - DAY);
    return `/v1/repos/${repo}/logs?received_from=${encodeURIComponent(isoZ(to - 30 * DAY))}&received_to=${encodeURIComponent(isoZ(to))}&per_page=100`;
  };
  const statsEndpoints = endpoints.filter((e) => e.params !== "time-to-merge" && e.dialects.includes("spec"));
  const end = newest + 1000;
  const statsPath = (i) =>
    `/v1/repos/${repo}/stats/${statsEndpoints[i % statsEndpoints.length].path}?start_at=${encodeURIComponent(isoZ(end - 30 * DAY))}&end_at=${encodeURIComponent(isoZ(end))}`;

  const indexMs = (await get(logsPath())).ms;
  for (let i = 0; i < Math.min(50, CFG.latencyRequests); i++) await get(logsPath());
  for (let i = 0; i < statsEndpoints.length; i++) await get(statsPath(i));
  const logs = [];
  for (let i = 0; i < CFG.latencyRequests; i++) {
    const r = await get(logsPath());
    if (JSON.parse(r.body).events.length !== 100) throw new Error("a /logs page did not hold 100 events");
    logs.push(r.ms);
  }
  const stats = [];
  const perEndpoint = new Map();
  const n = Math.ceil(CFG.latencyRequests / statsEndpoints.length) * statsEndpoints.length;
  for (let i = 0; i < n; i++) {
    const r = await get(statsPath(i));
    stats.push(r.ms);
    const name = statsEndpoints[i % statsEndpoints.length].name;
    perEndpoint.set(name, [...(perEndpoint.get(name) ?? []), r.ms]);
  }
  await client.close();
  await server.stop();
  const slowest = [...perEndpoint].map(([name, xs]) => [name, median(xs)]).sort((a, b) => b[1] - a[1])[0];
  return { info, indexMs, logs, stats, slowest, endpoints: statsEndpoints.length };
}

async function serverLatency(bundle, endpoints) {
  log(`server: ${fmtInt(CFG.storeBaseline)} events`);
  const small = await latencies(bundle, endpoints, CFG.storeBaseline);
  log(`server: ${fmtInt(CFG.storeEvents)} events (building the store takes a while)`);
  const large = await latencies(bundle, endpoints, CFG.storeEvents);
  const L = fmtInt(CFG.storeEvents);
  const S = fmtInt(CFG.storeBaseline);
  row("server", `/logs page of 100, ${S} events (baseline)`, small.logs, {
    p99: percentile(small.logs, 99),
    baseline: "—",
    ratio: "baseline",
  });
  const rLogs = median(large.logs) / median(small.logs);
  row("server", `/logs page of 100, ${L} events`, large.logs, {
    p99: percentile(large.logs, 99),
    baseline: `${S} events`,
    ratio: fmtRatio(rLogs),
  });
  row("server", `30-day statistics query, ${S} events (baseline)`, small.stats, {
    p99: percentile(small.stats, 99),
    baseline: "—",
    ratio: "baseline",
  });
  const rStats = median(large.stats) / median(small.stats);
  row("server", `30-day statistics query, ${L} events`, large.stats, {
    p99: percentile(large.stats, 99),
    baseline: `${S} events`,
    ratio: fmtRatio(rStats),
  });
  const medLogs = median(large.logs);
  const medStats = median(large.stats);
  // "answers in milliseconds": medians, since a p99 of a few hundred requests on a shared machine
  // mostly measures the machine (the p99 is in the table)
  target(
    `server: /logs page of 100 with ${L} events, median < 10 ms`,
    medLogs < 10,
    `median ${fmtMs(medLogs)}, p99 ${fmtMs(percentile(large.logs, 99))}`,
  );
  target(`server: /logs page time does not grow with the store (≤ 1.5× the ${S}-event store)`, rLogs <= 1.5, fmtRatio(rLogs));
  target(
    `server: 30-day statistics query with ${L} events, median < 50 ms`,
    medStats < 50,
    `median ${fmtMs(medStats)}, p99 ${fmtMs(percentile(large.stats, 99))}`,
  );
  notes.push(
    `Server: bench/server.mjs holds exactly ${fmtInt(large.info.count)} simulated events of one repository (the newest of a ${large.info.days}-day simulation, ` +
      `${large.info.oldest.slice(0, 10)} to ${large.info.newest.slice(0, 10)}; built in ${fmtMs(large.info.buildMs)}, indexed by the first request in ${fmtMs(large.indexMs)}). ` +
      `Requests one at a time over one keep-alive connection: ${fmtInt(large.logs.length)} first pages of 30-day windows ending at random times, and ` +
      `${fmtInt(large.stats.length)} statistics queries over the last 30 days, round-robin over the ${large.endpoints} endpoints that take a range ` +
      `(slowest: ${large.slowest[0]}, median ${fmtMs(large.slowest[1])}). The baseline is the same load on a ${S}-event store.`,
  );
}

// ---------------------------------------------------------------------------------------------
// the real `mq serve --days 365`: year-long statistics cold and warm, and its peak RSS

/** peak resident memory of a process (VmHWM, Linux), in KB */
function peakRssKb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** CPU time a process has used so far (user + system), ms, from /proc (Linux) */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

async function getTimed(url) {
  const t = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  await res.text();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - t;
}

async function serveYear(shared) {
  const days = QUICK ? 2 : 365;
  const runs = QUICK ? 1 : 3;
  const warmRuns = QUICK ? 3 : 50;
  const start = new Date(Date.parse(NOW) - days * 86_400_000).toISOString();
  const cold = [];
  const warm = [];
  const floor = [];
  const rss = [];
  for (let run = 0; run < runs; run++) {
    log(`serve: --days ${days}, run ${run + 1}/${runs} (the cold query simulates the whole history)`);
    const server =
      shared ??
      (await startChild("node", [BIN, "serve", "--port", "0", "--days", String(days), "--now", NOW, "--memory-budget", "512"], {
        timeoutMs: 60_000,
      }));
    cleanups.push(server.stop);
    const base = `${server.url}/v1/repos/bench/year${run}`;
    const stats = `${base}/stats/failure_rate?start_at=${start}&end_at=${NOW}`;
    // the floor: a warm page of 10 events (after the history's last days are simulated)
    await getTimed(`${base}/logs?per_page=10`);
    for (let i = 0; i < 5; i++) await getTimed(`${base}/logs?per_page=10`);
    cold.push(await getTimed(stats));
    for (let i = 0; i < warmRuns; i++) {
      floor.push(await getTimed(`${base}/logs?per_page=10`));
      warm.push(await getTimed(stats));
    }
    // every other endpoint over the same window, from the same cached days
    for (const name of ["queues_pr_exit_reasons", "average_queue_time", "checks_retries", "branches", "queues"]) {
      await getTimed(stats.replace("failure_rate", name));
    }
    rss.push(peakRssKb(server.child.pid));
    if (!shared) await server.stop();
  }
  const f = median(floor);
  row("serve", `mq serve --days ${days}: warm /logs page of 10 (floor)`, floor, {
    p99: percentile(floor, 99),
    baseline: "—",
    ratio: "baseline",
  });
  row("serve", `whole-window failure_rate (${days} days), cold: first query of a fresh server`, cold, {
    baseline: "floor",
    ratio: fmtRatio(median(cold) / f),
  });
  row("serve", `whole-window failure_rate (${days} days), warm`, warm, {
    p99: percentile(warm, 99),
    baseline: "floor",
    ratio: fmtRatio(median(warm) / f),
  });
  row("serve", `mq serve --days ${days} --memory-budget 512: peak RSS after every endpoint over the window`, rss, {
    unit: "KB",
    baseline: "—",
    ratio: "–",
  });
  target(
    `serve: --days ${days} whole-window statistics query ≤ 1 s cold`,
    median(cold) <= 1000,
    `median ${fmtMs(median(cold))} (${runs} fresh servers)`,
  );
  target(
    `serve: --days ${days} whole-window statistics query ≤ 20 ms warm`,
    median(warm) <= 20,
    `median ${fmtMs(median(warm))}, p99 ${fmtMs(percentile(warm, 99))}`,
  );
  target(`serve: --days ${days} peak RSS ≤ 600 MB`, Math.max(...rss) <= 600 * 1024, `max ${fmtMB(Math.max(...rss))}`);
  notes.push(
    `serve: the real \`mq serve --days ${days} --now ${NOW}\`, one repository per fresh server; the cold query simulates every day of the history ` +
      `as queue facts (no event objects) and folds them into per-day partials, the server's thread from the front (about a millisecond per event-loop turn) and its helper thread (started idle with the server) from the back; warm queries merge ~${days} of them. Floor: a warm first page of 10 events on the same server.`,
  );
}

/** test/reliability/load-client.mjs in its own process: many keep-alive clients, statuses counted */
function runLoadClient(config) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "test", "reliability", "load-client.mjs"), JSON.stringify({ ...config, token: TOKEN })],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load client exited with ${code}`))));
  });
}

// issue 15: many concurrent clients over many cold repositories while one warm repository is probed
async function serveLoad(shared) {
  const clients = QUICK ? 10 : 200;
  const repos = QUICK ? 2 : 40;
  const requests = QUICK ? 20 : 800;
  // (the server's default 30 days; --quick: 2, each cold repository simulated in a fraction of the time)
  const days = QUICK ? 2 : 30;
  const budget = 512;
  log(`serve: ${clients} clients over ${repos} repositories (--days ${days}, --memory-budget ${budget})`);
  const server =
    shared ??
    (await startChild(
      "node",
      [
        BIN,
        "serve",
        "--port",
        "0",
        "--token",
        TOKEN,
        "--now",
        NOW,
        "--memory-budget",
        String(budget),
        ...(QUICK ? ["--days", String(days)] : []),
      ],
      { timeoutMs: 60_000 },
    ));
  cleanups.push(server.stop);
  const warm = `${server.url}/v1/repos/acme/warm/logs?per_page=10`;
  for (let i = 0; i < 20; i++) await getTimed(warm);
  const idle = [];
  for (let i = 0; i < 50; i++) idle.push(await getTimed(warm));
  const since = new Date(Date.parse(NOW) - days * 86_400_000).toISOString();
  const paths = [];
  for (let r = 0; r < repos; r++) {
    const repo = `/v1/repos/load/r${r}`;
    paths.push(
      `${repo}/logs?per_page=100`,
      `${repo}/stats/failure_rate?start_at=${since}`,
      `${repo}/logs?per_page=100&received_from=${since}`,
      `${repo}/stats/queues`,
      `${repo}/stats/average_queue_time?start_at=${since}`,
    );
  }
  let loading = true;
  const load = runLoadClient({ url: server.url, clients, requests, paths }).finally(() => (loading = false));
  const busy = [];
  while (loading) busy.push(await getTimed(warm));
  const result = await load;
  const peak = peakRssKb(server.child.pid);
  if (!shared) await server.stop();
  const ratio = median(busy) / median(idle);
  row("serve", `warm /logs page of 10, idle (baseline)`, idle, { p99: percentile(idle, 99), baseline: "—", ratio: "baseline" });
  row("serve", `warm /logs page of 10 while ${clients} clients ask ${requests} cold requests over ${repos} repositories`, busy, {
    p99: percentile(busy, 99),
    baseline: "idle",
    ratio: fmtRatio(ratio),
  });
  row("serve", `${clients} clients x ${repos} repositories: the whole load (${requests} requests)`, [result.wallMs], {
    baseline: "—",
    ratio: "–",
  });
  row("serve", `mq serve --memory-budget ${budget}: peak RSS under that load`, [peak], { unit: "KB", baseline: "—", ratio: "–" });
  target(
    `serve: ${clients} clients over ${repos} repositories, zero errors`,
    result.errors === 0,
    `${result.errors} errors, statuses ${JSON.stringify(result.statuses)}`,
  );
  target(`serve: a warm repository's median under that load within 10x its idle median`, ratio <= 10, fmtRatio(ratio));
  target(`serve: peak RSS under the ${budget} MB budget under that load`, peak <= budget * 1024, fmtMB(peak));
}

// issue 15: --days 365, many repositories with windows back to 2000, within the budget
async function serveYearMany(shared) {
  const count = QUICK ? 2 : 20;
  const days = QUICK ? 2 : 365;
  const budget = 512;
  log(`serve: --days ${days}, ${count} repositories back to 2000 (--memory-budget ${budget})`);
  const server =
    shared ??
    (await startChild(
      "node",
      [BIN, "serve", "--port", "0", "--token", TOKEN, "--now", NOW, "--days", String(days), "--memory-budget", String(budget)],
      { timeoutMs: 60_000 },
    ));
  cleanups.push(server.stop);
  // a server shared with the parts before: its CPU time from here
  const cpuBefore = shared ? cpuMsOf(server.child.pid) : 0;
  const from = "2000-01-01T00:00:00Z";
  const perRepo = [];
  for (let r = 0; r < count; r++) {
    const base = `${server.url}/v1/repos/year/r${r}`;
    const t = performance.now();
    for (const p of [
      `stats/failure_rate?start_at=${from}`,
      `stats/queues_pr_exit_reasons?start_at=${from}`,
      `stats/average_queue_time?start_at=${from}&base_ref=main`,
      `stats/branches?start_at=${from}`,
      `logs?per_page=100&received_from=${from}`,
      `logs?per_page=100&received_from=${from}&cursor=bA`,
    ])
      await getTimed(`${base}/${p}`);
    perRepo.push(performance.now() - t);
  }
  const peak = peakRssKb(server.child.pid);
  const cpuMs = cpuMsOf(server.child.pid) - cpuBefore;
  if (!shared) await server.stop();
  row(
    "serve",
    `--days ${days}: one repository's 4 statistics back to 2000 and its newest and oldest pages (each repository cold)`,
    perRepo,
    { baseline: "—", ratio: "–" },
  );
  row(
    "serve",
    `--days ${days}: the server's CPU time over the ${count} repositories (wall: ${fmtMs(perRepo.reduce((a, b) => a + b, 0))})`,
    [cpuMs],
    { baseline: "—", ratio: "–" },
  );
  row("serve", `--days ${days} --memory-budget ${budget}: peak RSS after ${count} repositories`, [peak], {
    unit: "KB",
    baseline: "—",
    ratio: "–",
  });
  target(`serve: --days ${days}, ${count} repositories back to 2000 under the ${budget} MB budget`, peak <= budget * 1024, fmtMB(peak));
}

// ---------------------------------------------------------------------------------------------
// report

function cell(r, v) {
  return r.unit === "KB" ? fmtMB(v) : fmtMs(v);
}

function report(totalMs) {
  const cpus = os.cpus();
  const lines = [];
  lines.push(`# mq benchmark results${QUICK ? " (--quick: one run each, small sizes; not a measurement)" : ""}`);
  lines.push("");
  lines.push(
    `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus.length} CPU${cpus.length === 1 ? "" : "s"} (${cpus[0]?.model?.trim() ?? "unknown"}) · ` +
      `${os.platform()} ${os.release()} · load average at start ${startLoad} · whole run ${fmtMs(totalMs)}`,
  );
  lines.push("");
  lines.push("Times are wall clock from spawn to exit (server rows: one request); ratios compare medians measured in the same run.");
  lines.push("");
  lines.push("| Section | Measurement | n | median | min | max | p99 | vs. | ratio |");
  lines.push("|---|---|--:|--:|--:|--:|--:|---|---|");
  for (const r of rows) {
    lines.push(
      `| ${r.section} | ${r.name} | ${r.n} | ${cell(r, r.median)} | ${cell(r, r.min)} | ${cell(r, r.max)} | ${r.p99 !== undefined ? cell(r, r.p99) : "–"} | ${r.baseline ?? "—"} | ${r.ratio ?? "–"} |`,
    );
  }
  lines.push("");
  lines.push("## Targets");
  lines.push("");
  for (const t of targets) lines.push(`- **${t.met === undefined ? "not measured" : t.met ? "met" : "NOT met"}** — ${t.name}: ${t.detail}`);
  if (notes.length) {
    lines.push("");
    lines.push("## Notes");
    lines.push("");
    for (const n of notes) lines.push(`- ${n}`);
  }
  return lines.join("\n") + "\n";
}

const startLoad = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(", ");
const began = Date.now();
let failed = false;
try {
  build();
  snapshot();
  const bundle = want("concurrency") || want("server") || want("slices") || want("exporter") ? await bundleServer() : undefined;
  const endpoints = bundle ? (await import(bundle)).STATS_ENDPOINTS : [];
  if (want("startup")) await startup();
  if (want("stream")) await streaming();
  if (want("concurrency")) await concurrency(bundle, endpoints);
  if (want("server")) await serverLatency(bundle, endpoints);
  if (want("insights")) await insights();
  if (want("archive")) await archiveInsights();
  if (want("serve")) {
    // --quick: the three parts ask for the same server (--days 2, --memory-budget 512): one serves
    // them all, fresh for serveYear's cold query; its peak RSS is then the largest so far
    const sharedArgs = ["serve", "--port", "0", "--token", TOKEN, "--now", NOW, "--days", "2", "--memory-budget", "512"];
    const shared = QUICK ? await startChild("node", [BIN, ...sharedArgs], { timeoutMs: 60_000 }) : undefined;
    if (shared) cleanups.push(shared.stop);
    await serveYear(shared);
    await serveLoad(shared);
    await serveYearMany(shared);
    await shared?.stop();
  }
  // issue 18's rows (bench/feel.mjs)
  const h = { BIN, ENV, TOKEN, NOW, tmp, CFG, row, target, notes, cleanups, log, bundle };
  // --quick: one server for both (the formats' events; each its own in the full run, 1,000 and 1,000,000 events)
  const feelServer = QUICK && want("oneshot") && want("formats") ? await feel.formatsServer(h) : undefined;
  if (want("oneshot")) await feel.oneshot(h, feelServer);
  if (want("formats")) await feel.formatsAndRss(h, feelServer);
  await feelServer?.server.stop();
  if (want("slices")) await feel.slices(h);
  // issue 31's rows (bench/exporter.mjs)
  if (want("exporter")) await exporter.fleet(h);
  // exporter40: the 40-repository target alone (a few minutes), without the 1,000-repository row
  if (want("exporter") || want("exporter40")) await exporter.sim40(h);
  // issue 30's rows (bench/queue.mjs)
  if (want("queue")) await queue.queueRows(h);
} catch (err) {
  failed = true;
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
} finally {
  for (const stop of cleanups) await stop().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
}
const text = report(Date.now() - began);
process.stdout.write(text);
if (OUT && !failed) {
  writeFileSync(OUT, text);
  log(`written to ${OUT}`);
}
process.exitCode = failed ? 1 : 0;
// the harness's own keep-alive sockets must not hold it open
setTimeout(() => process.exit(process.exitCode), 200).unref();
