// The benchmark rows of issue 18, "fast where users feel it", each a ratio to a floor measured in
// the same run, contenders interleaved round by round (a burst of load on the shared machine hits
// them alike):
//   oneshot   one-page `mq logs` against a bare node:http one-page fetch (bench/http-one-page.mjs)
//   formats   ndjson, json, csv and table over 100k events against the bare undici loop (floor.mjs)
//             and a bare node:http loop (floor-http.mjs), page after page as the loops
//             (--parallel 1), and ndjson with mq's defaults (slices); 7 rotated rounds, medians,
//             and the spread of each ratio round by round
//   rss       peak RSS of every format from 10k to 1M events
//   slices    `mq logs --all` over 30 days, the server waiting 100 ms a request: parallel time slices
//             against the sequential walk (--parallel 1), outputs compared byte for byte (sha256)
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { writeEventsFile } from "./events.mjs";
import { fmtInt, fmtMB, fmtMs, fmtPaired, fmtRatio, median, pairedRatio, ROOT, startChild, straddles, timed } from "./lib.mjs";

const iso = (ms) => new Date(ms).toISOString().replace(".000Z", "Z");

/** Runs a command to completion: wall time, exit code, and the sha256 and size of its stdout. */
function hashed(cmd, args, { env, timeoutMs = 900_000 } = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const hash = createHash("sha256");
    let bytes = 0;
    let stderr = "";
    child.stdout.on("data", (c) => {
      hash.update(c);
      bytes += c.length;
    });
    child.stderr.on("data", (c) => {
      if (stderr.length < 20_000) stderr += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, sha: hash.digest("hex"), bytes, stderr });
    });
  });
}

function ok(r, what) {
  if (r.code !== 0) throw new Error(`${what}: exit ${r.code}\n${(r.stderr ?? "").slice(0, 2000)}`);
  return r;
}

/** One server over a file of `max` events, one a second from START: window [START, START + n - 1 s] holds n. */
async function eventServer(h, max) {
  const file = join(h.tmp, `feel-${max}.ndjson`);
  const repo = "bench/feel";
  const startMs = Date.parse("2026-01-01T00:00:00Z");
  h.log(`feel: writing ${fmtInt(max)} events`);
  await writeEventsFile(file, { count: max, repo, startMs });
  const server = await startChild("node", [
    "--max-old-space-size=6144",
    h.BIN,
    "serve",
    "--events",
    file,
    "--memory-budget",
    "4096",
    "--port",
    "0",
    "--token",
    h.TOKEN,
  ]);
  h.cleanups.push(server.stop);
  const since = iso(startMs);
  const untilFor = (n) => iso(startMs + (n - 1) * 1000);
  const mqArgs = (n, format, extra = []) => [
    h.BIN,
    "logs",
    "--repo",
    repo,
    "--all",
    "-o",
    format,
    "--per-page",
    "100",
    "--since",
    since,
    "--until",
    untilFor(n),
    "--api-url",
    server.url,
    "--token",
    h.TOKEN,
    ...extra,
  ];
  const firstUrl = (n) =>
    `${server.url}/v1/repos/${repo}/logs?received_from=${encodeURIComponent(since)}&received_to=${encodeURIComponent(untilFor(n))}&per_page=100`;
  return { server, repo, since, untilFor, mqArgs, firstUrl };
}

const rssFile = (h) => join(h.tmp, `rss-${Math.random().toString(36).slice(2)}`);

// ---------------------------------------------------------------------------------------------

/** formatsAndRss's server: as many events as its largest window */
export function formatsServer(h) {
  return eventServer(h, Math.max(h.CFG.streamEvents, ...h.CFG.rssSizes));
}

/** `shared`: a server of at least 100 events kept for the next section (--quick); otherwise one of 1,000, stopped after */
export async function oneshot(h, shared) {
  h.log("feel: one-page mq logs");
  const s = shared ?? (await eventServer(h, 1000));
  const runs = h.CFG.startupRuns;
  const mq = [];
  const bare = [];
  const contenders = [
    { xs: mq, run: () => timed("node", s.mqArgs(100, "ndjson", ["--parallel", "1"]), { env: h.ENV }), name: "mq logs" },
    { xs: bare, run: () => timed("node", ["bench/http-one-page.mjs", s.firstUrl(100), h.TOKEN]), name: "node:http one page" },
  ];
  for (let round = 0; round < h.CFG.startupWarmup + runs; round++) {
    for (const c of round % 2 ? [...contenders].reverse() : contenders) {
      const r = ok(await c.run(), c.name);
      if (r.lines !== 100) throw new Error(`${c.name}: ${r.lines} lines, expected 100`);
      if (round >= h.CFG.startupWarmup) c.xs.push(r.ms);
    }
  }
  const ratio = median(mq) / median(bare);
  h.row("feel", "bare node:http one-page fetch, 100 events (floor)", bare, { baseline: "—", ratio: "baseline" });
  h.row("feel", "mq logs, one page of 100 events -o ndjson", mq, { baseline: "node:http one page", ratio: fmtRatio(ratio) });
  h.target(
    "one-page mq logs ≤ 1.5× a bare node:http one-page fetch",
    ratio <= 1.5,
    `${fmtRatio(ratio)} (${fmtMs(median(mq))} vs ${fmtMs(median(bare))})`,
  );
  if (!shared) await s.server.stop();
}

/** `shared`: formatsServer(h), started before (--quick: for oneshot too) */
export async function formatsAndRss(h, shared) {
  const n = h.CFG.streamEvents;
  const sizes = h.CFG.rssSizes;
  const max = Math.max(n, ...sizes);
  const s = shared ?? (await formatsServer(h));
  // the server turns each event into JSON once, on first use: warm every event before timing
  if (h.CFG.warmUp) {
    h.log("feel: warm-up");
    ok(await timed("node", ["bench/floor.mjs", s.firstUrl(max), h.TOKEN]), "warm-up");
  }

  const formats = ["ndjson", "json", "csv", "table"];
  // The floors walk page after page, so the format ratios compare mq page after page too
  // (--parallel 1: the cost per event); one more contender is mq as users run it (parallel slices).
  // Two floors: (b) the bare undici loop the target names, and (h) the same loop on node:http, the
  // transport mq uses by default (what is left above it is mq's own work).
  const order = ["floor", "floorHttp", ...formats, "default"];
  const times = Object.fromEntries(order.map((f) => [f, []]));
  // CPU time beside the wall time: on a machine shared with other work, the steadier figure
  const cpu = Object.fromEntries(order.map((f) => [f, []]));
  const cpuFile = () => join(h.tmp, `cpu-${Math.random().toString(36).slice(2)}`);
  const run = {
    floor: () => timed("node", ["bench/floor.mjs", s.firstUrl(n), h.TOKEN], { cpuFile: cpuFile() }),
    floorHttp: () => timed("node", ["bench/floor-http.mjs", s.firstUrl(n), h.TOKEN], { cpuFile: cpuFile() }),
    ...Object.fromEntries(
      formats.map((f) => [f, () => timed("node", s.mqArgs(n, f, ["--parallel", "1"]), { env: h.ENV, cpuFile: cpuFile() })]),
    ),
    default: () => timed("node", s.mqArgs(n, "ndjson"), { env: h.ENV, cpuFile: cpuFile() }),
  };
  // every contender once a round, the order rotated a step each round: with as many rounds as
  // contenders (7), each runs once in every position, so a drift of the machine's speed over the
  // section (the floor moved 1.81 → 1.27 s between two runs) hits all of them alike
  const rounds = h.CFG.formatRuns;
  for (let round = 0; round < rounds; round++) {
    h.log(`feel: formats, round ${round + 1}/${rounds}`);
    const rotated = order.slice(round % order.length).concat(order.slice(0, round % order.length));
    for (const f of rotated) {
      const r = ok(await run[f](), f);
      if (r.lines < n) throw new Error(`${f}: ${r.lines} lines for ${n} events`);
      times[f].push(r.ms);
      cpu[f].push(r.cpuMs);
    }
  }
  const med = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
  const vs = (a, b) => pairedRatio(times[a], times[b]);
  const cpuVs = (a, b) => pairedRatio(cpu[a], cpu[b]);
  const label = `${fmtInt(n)} events`;
  h.row("feel", `(b) bare undici loop, ${label} (floor)`, times.floor, { baseline: "—", ratio: "baseline" });
  h.row("feel", `(h) bare node:http loop, ${label} (floor on mq's transport)`, times.floorHttp, {
    baseline: "(b)",
    ratio: fmtPaired(vs("floorHttp", "floor")),
  });
  const ndjsonVsB = vs("ndjson", "floor");
  h.row("feel", `mq logs --all -o ndjson --parallel 1, ${label}`, times.ndjson, {
    baseline: "(b); (h)",
    ratio: `${fmtPaired(ndjsonVsB)}; ${fmtPaired(vs("ndjson", "floorHttp"))}`,
  });
  for (const f of ["json", "csv", "table"]) {
    h.row("feel", `mq logs --all -o ${f} --parallel 1, ${label}`, times[f], {
      baseline: "ndjson; (b)",
      ratio: `${fmtPaired(vs(f, "ndjson"))}; ${fmtRatio(med[f] / med.floor)}`,
    });
  }
  h.row("feel", `mq logs --all -o ndjson (default: parallel slices), ${label}`, times.default, {
    baseline: "(b)",
    ratio: fmtPaired(vs("default", "floor")),
  });
  const bounded = (name, p, bound, a, b) => {
    const coin = straddles(p, bound) ? `; the bound lies within the rounds' IQR (${p.q1.toFixed(2)}–${p.q3.toFixed(2)}): not decisive` : "";
    const c = cpuVs(a, b);
    h.target(
      name,
      p.ratio <= bound,
      `${fmtRatio(p.ratio)} (${fmtMs(med[a])} vs ${fmtMs(med[b])}, ${rounds} rounds${coin}); CPU time ${fmtPaired(c)} (${fmtMs(median(cpu[a]))} vs ${fmtMs(median(cpu[b]))})`,
    );
  };
  bounded(`NDJSON ≤ 1.15× the bare loop over ${label}`, ndjsonVsB, 1.15, "ndjson", "floor");
  bounded(`table ≤ 1.5× NDJSON over ${label}`, vs("table", "ndjson"), 1.5, "table", "ndjson");
  bounded(`CSV ≤ 1.3× NDJSON over ${label}`, vs("csv", "ndjson"), 1.3, "csv", "ndjson");

  // peak RSS, every format, from the smallest to the largest window (one run each: RSS is steady)
  const worst = {};
  for (const f of formats) {
    const peaks = [];
    for (const size of sizes) {
      h.log(`feel: peak RSS, -o ${f}, ${fmtInt(size)} events`);
      const r = ok(await timed("node", s.mqArgs(size, f), { env: h.ENV, rssFile: rssFile(h) }), `${f} ${size}`);
      peaks.push(r.rssKB);
    }
    worst[f] = Math.max(...peaks);
    h.row("feel", `peak RSS -o ${f}: ${sizes.map(fmtInt).join(" → ")} events`, peaks, {
      unit: "KB",
      baseline: `${fmtInt(sizes[0])} events`,
      ratio: `${peaks.map(fmtMB).join(" → ")}; ${fmtRatio(peaks[peaks.length - 1] / peaks[0])}`,
    });
  }
  const peak = Math.max(...Object.values(worst));
  h.target(
    `peak RSS ≤ 130 MB from ${fmtInt(sizes[0])} to ${fmtInt(sizes[sizes.length - 1])} events in every format`,
    peak <= 130 * 1024,
    formats.map((f) => `${f} ${fmtMB(worst[f])}`).join(", "),
  );
  h.notes.push(
    `Formats: the same ${fmtInt(n)}-event window of \`mq serve --events\` (synthetic events, one a second), ${rounds} rounds, every contender once a round, the order rotated a step each round; medians, and beside each ratio the spread of that ratio taken round by round (the two contenders of a pair timed in the same round); ` +
      `-o table off a terminal (RFC 3339 times, no colour); the loops walk page after page ((b) on undici, as the target names; (h) on node:http, as mq does by default), and so does mq for the format ratios (\`--parallel 1\`: the cost per event); one row is mq with its defaults (parallel time slices, 6 requests in flight). Peak RSS (mq's defaults): windows of ${sizes.map(fmtInt).join(", ")} events of one ${fmtInt(max)}-event server, one run each.`,
  );
  await s.server.stop();
}

export async function slices(h) {
  const days = h.CFG.sliceDays;
  const delayMs = h.CFG.sliceDelayMs;
  h.log(`feel: ${days}-day walk with ${delayMs} ms a request`);
  const server = await startChild(
    "node",
    ["bench/server.mjs", h.bundle, JSON.stringify({ mode: "simulate", days: days + 1, now: h.NOW, delayMs })],
    { infoLine: true },
  );
  h.cleanups.push(server.stop);
  const since = iso(Date.parse(h.NOW) - days * 86_400_000);
  const args = (parallel) => [
    h.BIN,
    "logs",
    "--repo",
    "acme/web",
    "--all",
    "-o",
    "ndjson",
    "--per-page",
    "100",
    "--since",
    since,
    "--until",
    h.NOW,
    "--api-url",
    server.url,
    "--token",
    h.TOKEN,
    "--parallel",
    String(parallel),
  ];
  // warm-up: the server simulates the repository on the first request
  if (h.CFG.warmUp)
    ok(
      await hashed(
        "node",
        [...args(6)].map((a) => (a === since ? iso(Date.parse(h.NOW) - 3600_000) : a)),
        { env: h.ENV },
      ),
      "warm-up",
    );
  const par = [];
  const seq = [];
  let shaPar;
  let shaSeq;
  let bytes = 0;
  for (let round = 0; round < h.CFG.sliceRuns; round++) {
    h.log(`feel: slices, round ${round + 1}/${h.CFG.sliceRuns}`);
    const p = ok(await hashed("node", args(6), { env: h.ENV }), "--parallel 6");
    const q = ok(await hashed("node", args(1), { env: h.ENV }), "--parallel 1");
    par.push(p.ms);
    seq.push(q.ms);
    shaPar ??= p.sha;
    shaSeq ??= q.sha;
    bytes = q.bytes;
    if (p.sha !== shaPar || q.sha !== shaSeq) throw new Error("the output of a walk changed between rounds");
  }
  const identical = shaPar === shaSeq;
  const speedup = median(seq) / median(par);
  h.row("feel", `mq logs --all, ${days} day${days === 1 ? "" : "s"}, +${delayMs} ms a request: sequential (--parallel 1)`, seq, {
    baseline: "—",
    ratio: "baseline",
  });
  h.row("feel", `mq logs --all, ${days} day${days === 1 ? "" : "s"}, +${delayMs} ms a request: parallel slices (--parallel 6)`, par, {
    baseline: "sequential",
    ratio: `${speedup.toFixed(2)}× faster; output ${identical ? "byte-identical" : "DIFFERENT"}`,
  });
  h.target(
    `${days}-day walk with ${delayMs} ms latency: parallel ≥ 4× the sequential walk, byte-identical`,
    speedup >= 4 && identical,
    `${speedup.toFixed(2)}× (${fmtMs(median(par))} vs ${fmtMs(median(seq))}), ${identical ? "identical" : "DIFFERENT"} output (${fmtInt(bytes)} bytes, sha256 ${shaSeq.slice(0, 12)}…)`,
  );
  await server.stop();
}
