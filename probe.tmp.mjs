import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
await c.run("SET TimeZone='UTC'");
const r = await c.runAndReadAll(`SELECT '{"a":{"b":"x"}}'->>'$.a.b' AS v, current_setting('TimeZone') tz, date_trunc('week', TIMESTAMPTZ '2026-11-20 12:00:00+00') w, (SELECT list(extension_name) FROM duckdb_extensions() WHERE loaded) ex`);
console.log(r.getRowObjectsJS());
await c.run(`COPY (SELECT 'a/b' AS repository, DATE '2026-11-20' AS date, 1 AS x) TO '/tmp/ddb/pq' (FORMAT parquet, PARTITION_BY (repository, date), OVERWRITE_OR_IGNORE)`);
