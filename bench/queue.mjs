// Issue 30's rows (`--only queue`), against `mq serve` at a fixed present through a counting proxy
// (each request's response bytes and time as mq receives them):
//   queue   `mq queue` (the 7-day lookback of queue events, rebuilt) against one-page `mq logs`,
//           interleaved round by round: wall time, requests and bytes
//   wait    one poll of `mq wait N` for a pull request in the queue (nothing moves at a fixed
//           present, so every poll after the first read asks for its new events and gets none):
//           the bytes and time of a poll's request, against one-page `mq logs`'s
import http from "node:http";
import { fmtInt, fmtMs, fmtRatio, median, startChild, timed } from "./lib.mjs";

/** A reverse proxy in front of TARGET that records each request's path, response bytes and time. */
function countingProxy(target) {
  const seen = [];
  const server = http.createServer((req, res) => {
    const started = performance.now();
    const up = http.request(
      new URL(req.url, target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (r) => {
        let bytes = 0;
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.on("data", (c) => {
          bytes += c.length;
          res.write(c);
        });
        r.on("end", () => {
          res.end();
          seen.push({ url: req.url, bytes, ms: performance.now() - started });
        });
      },
    );
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        take: () => seen.splice(0),
        stop: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

export async function queueRows(h) {
  const runs = h.CFG.queueRuns;
  // 8 days hold the 7-day lookback; --quick's 2 hold the same queue at NOW
  const days = String(h.CFG.queueDays);
  const server = await startChild("node", [h.BIN, "serve", "--port", "0", "--now", h.NOW, "--days", days, "--token", h.TOKEN]);
  h.cleanups.push(server.stop);
  const proxy = await countingProxy(server.url);
  h.cleanups.push(proxy.stop);
  const base = [h.BIN, "--api-url", proxy.url, "--token", h.TOKEN, "--repo", "acme/web"];
  const env = { ...h.ENV };
  const once = async (args) => {
    const r = await timed("node", [...base, ...args], { env });
    if (r.code !== 0) throw new Error(`mq ${args.join(" ")}: exit ${r.code}\n${r.stderr ?? ""}`);
    return { ms: r.ms, requests: proxy.take(), first: r.first };
  };
  const logsArgs = ["logs", "--until", h.NOW, "-o", "ndjson", "--limit", "100"];
  const queueArgs = ["queue", "--until", h.NOW, "-o", "ndjson"];
  for (let i = 0; i < h.CFG.queueWarmup; i++) {
    await once(logsArgs);
    await once(queueArgs);
  }
  const logs = [];
  const queue = [];
  for (let i = 0; i < runs; i++) {
    logs.push(await once(logsArgs));
    queue.push(await once(queueArgs));
  }
  const logsMs = median(logs.map((r) => r.ms));
  const queueMs = median(queue.map((r) => r.ms));
  h.row(
    "queue",
    "one-page `mq logs` (floor)",
    logs.map((r) => r.ms),
    { baseline: "—", ratio: "baseline" },
  );
  h.row(
    "queue",
    "`mq queue` (7-day lookback, one repository)",
    queue.map((r) => r.ms),
    {
      baseline: "one-page logs",
      ratio: fmtRatio(queueMs / logsMs),
    },
  );
  const q = queue.at(-1).requests;
  const l = logs.at(-1).requests;
  h.notes.push(
    `mq queue read ${fmtInt(q.length)} pages, ${fmtInt(sum(q.map((r) => r.bytes)))} bytes (one-page mq logs: ${fmtInt(l.length)} request, ${fmtInt(sum(l.map((r) => r.bytes)))} bytes); ${fmtMs(queueMs)} against ${fmtMs(logsMs)}`,
  );

  // a pull request in the queue at NOW (the first `mq queue` printed), waited for until --max-wait: its polls find nothing new
  const pr = JSON.parse(queue.at(-1).first).pull_request;
  const since = new Date(Date.parse(h.NOW) - 7 * 86_400_000).toISOString();
  const waitArgs = ["wait", String(pr), "--since", since, "--interval", "0.2", "--max-wait", `${h.CFG.waitSeconds}s`, "-o", "ndjson"];
  const r = await timed("node", [...base, ...waitArgs], { env });
  if (r.code !== 124) throw new Error(`mq wait: exit ${r.code} (124 expected)\n${r.stderr ?? ""}`);
  const requests = proxy.take();
  // the first read asks from --since; each poll from the newest event seen
  const from = (x) => new URL(x.url, "http://x").searchParams.get("received_from");
  const polls = requests.filter((x) => from(x) !== from(requests[0]));
  if (polls.length === 0) throw new Error("mq wait: no poll seen");
  const floor = logs.map((x) => x.requests[0].ms);
  h.row(
    "queue",
    "a `mq wait` poll: its one request, at the proxy",
    polls.map((x) => x.ms),
    {
      baseline: "one-page logs' request",
      ratio: fmtRatio(median(polls.map((x) => x.ms)) / median(floor)),
    },
  );
  h.row("queue", "one-page `mq logs`' request, at the proxy (floor)", floor, { baseline: "—", ratio: "baseline" });
  h.notes.push(
    `a mq wait poll (#${pr}, queued at ${h.NOW}): ${fmtInt(median(polls.map((x) => x.bytes)))} bytes, one request (median of ${fmtInt(polls.length)} polls; its first read ${fmtInt(sum(requests.filter((x) => !polls.includes(x)).map((x) => x.bytes)))} bytes; a one-page mq logs ${fmtInt(sum(l.map((x) => x.bytes)))} bytes)`,
  );
}
