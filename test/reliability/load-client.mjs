// A load generator in its own process (so the test's own latency probe does not share an event
// loop with it): CLIENTS connections, each sending its share of REQUESTS one after another, the
// paths taken in turn. Prints one JSON line: statuses, errors, wall time. Loopback only.
import { Pool } from "undici";

const { url, clients, requests, paths, token } = JSON.parse(process.argv[2]);
if (!/^http:\/\/(127\.0\.0\.1|\[::1\]|localhost):\d+$/.test(url)) throw new Error(`loopback only, not ${url}`);
const pool = new Pool(url, { connections: clients, pipelining: 1 });
const statuses = {};
const failures = [];
let next = 0;
const started = performance.now();
async function client() {
  for (;;) {
    const i = next++;
    if (i >= requests) return;
    const path = paths[i % paths.length];
    try {
      const res = await pool.request({
        method: "GET",
        path,
        headers: { authorization: `Bearer ${token}` },
        headersTimeout: 600_000,
        bodyTimeout: 600_000,
      });
      const text = await res.body.text();
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode !== 200) failures.push(`${res.statusCode} ${path} ${text.slice(0, 200)}`);
      else JSON.parse(text);
    } catch (err) {
      failures.push(`${path}: ${err.code ?? err.message}`);
    }
  }
}
await Promise.all(Array.from({ length: clients }, client));
await pool.close();
process.stdout.write(
  `${JSON.stringify({ statuses, failures: failures.slice(0, 20), errors: failures.length, wallMs: Math.round(performance.now() - started) })}\n`,
);
