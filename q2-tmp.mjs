import { DuckDBInstance } from "@duckdb/node-api";
const t0 = performance.now();
const inst = await DuckDBInstance.create("/tmp/a2/data/archive.duckdb", { access_mode: "READ_ONLY" });
const conn = await inst.connect();
await conn.run("SET TimeZone = 'UTC'");
const t1 = performance.now();
const types = ["action.queue.enter","action.queue.checks_not_started","action.queue.checks_start","action.queue.checks_end","action.queue.batch_bisection_start","action.queue.batch_bisection_end","action.queue.merged","action.queue.leave"];
const where = `repository = ? AND received_at >= ?::TIMESTAMPTZ AND received_at <= ?::TIMESTAMPTZ AND type IN (${types.map(()=>"?").join(",")})`;
const vals = ["acme/web", "2026-10-21T12:00:00Z", "2026-11-20T12:00:00Z", ...types];
const B = Number(process.argv[2] ?? 1000);
const sql = `SELECT '[' || string_agg(raw, ',' ORDER BY received_at DESC, id DESC) || ']' FROM (SELECT raw, received_at, id, (row_number() OVER (ORDER BY received_at DESC, id DESC) - 1) // ${B} AS b FROM events WHERE ${where}) GROUP BY b ORDER BY b`;
let n = 0;
const res = await conn.stream(sql, vals);
for (;;) { const c = await res.fetchChunk(); if (!c || c.rowCount === 0) break; const v = c.getColumnVector(0); for (let i = 0; i < c.rowCount; i++) { const arr = JSON.parse(v.getItem(i)); n += arr.length; } }
const t2 = performance.now();
console.log("agg", B, n, "open", (t1-t0).toFixed(0), "read+parse", (t2-t1).toFixed(0));
