// A benchmark server in its own process, from an esbuild bundle of src/server (options `mq serve` does
// not expose: a fixed delay per request, one million events). Prints its base URL, then a JSON line
// describing what it holds. Usage: server.mjs BUNDLE.mjs OPTIONS_JSON
//   {"mode": "simulate", "days": 30, "now": ISO, "delayMs": 0}            one simulated repository per name
//   {"mode": "store", "repo": "bench/million", "count": 1000000, "now": ISO, "emptyFile": PATH}
//       exactly `count` simulated events (the newest ones of as many days as it takes) in one repository
import { writeFileSync } from "node:fs";

const [bundle, optionsJson] = process.argv.slice(2);
const { startServer, simulateRepository } = await import(bundle);
const o = JSON.parse(optionsJson);
const now = new Date(o.now);

let server;
if (o.mode === "simulate") {
  server = await startServer({ port: 0, now, days: o.days, seed: 0, delayMs: o.delayMs ?? 0 });
  process.stdout.write(`${server.url}\n${JSON.stringify({ days: o.days, delayMs: o.delayMs ?? 0 })}\n`);
} else {
  // startServer only takes a simulation of `days` or a file; a store of an exact size is built by
  // replaying an (almost) empty file and appending the simulated events, which the server indexes.
  const t0 = performance.now();
  // about 2,900 events a day over whole weeks: one simulation is usually enough
  let days = Math.max(1, Math.ceil(o.count / 2900));
  let events = [];
  for (;;) {
    events = simulateRepository({ repo: o.repo, seed: 0, now, days });
    if (events.length >= o.count) break;
    days = Math.ceil(days * (o.count / Math.max(events.length, 1)) * 1.05);
  }
  events.sort((a, b) => Date.parse(a.received_at) - Date.parse(b.received_at) || a.id - b.id);
  events = events.slice(events.length - o.count);
  const placeholder = {
    id: 1,
    received_at: now.toISOString(),
    trigger: "bench",
    repository: "bench/placeholder",
    pull_request: null,
    base_ref: null,
    type: "action.comment",
    metadata: { message: "placeholder" },
  };
  writeFileSync(o.emptyFile, JSON.stringify(placeholder) + "\n");
  server = await startServer({ port: 0, now, eventsFile: o.emptyFile });
  server.appendEvents(o.repo, events);
  const info = {
    count: events.length,
    days,
    oldest: events[0].received_at,
    newest: events[events.length - 1].received_at,
    buildMs: Math.round(performance.now() - t0),
  };
  events = undefined;
  process.stdout.write(`${server.url}\n${JSON.stringify(info)}\n`);
}
// the harness asks (over IPC) which requests the server saw, and ends this process with SIGTERM
process.on("message", (m) => {
  if (m === "requests") process.send(server.requests.map((r) => r.url));
});
process.on("SIGTERM", () => process.exit(0));
