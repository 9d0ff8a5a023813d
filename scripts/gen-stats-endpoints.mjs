// Writes what follows from the statistics endpoints' definitions and records: the table "How each
// figure is derived" of docs/server.md (from each server definition's `doc`), and the example
// answer of an endpoint that has none yet (the contract's, src/api/fixtures/stats.json, and the
// real service's, test/fixtures/mergify-stats.json), as the bundled server answers it for a fixed
// seed and clock. Example answers already there are kept as they are: tests know their figures.
// test/server/endpoint-pieces.test.ts says when to run this.
import * as esbuild from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NOW = "2026-11-20T12:00:00Z";
const FIXTURES = [
  { dialect: "spec", path: "src/api/fixtures/stats.json", key: (e) => e.name },
  { dialect: "mergify", path: "test/fixtures/mergify-stats.json", key: (e) => `stats/${e.path}` },
];

const work = mkdtempSync(join(tmpdir(), "mq-gen-stats-"));
try {
  const out = join(work, "gen.mjs");
  await esbuild.build({
    stdin: {
      contents: [
        'export { startServer } from "./src/server/index.ts";',
        'export { STATS_ENDPOINTS } from "./src/stats/endpoints.ts";',
        'export { DOCS_PATH, withDerivationTable } from "./src/server/endpoints/docs.ts";',
      ].join("\n"),
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "warning",
  });
  const { startServer, STATS_ENDPOINTS, DOCS_PATH, withDerivationTable } = await import(pathToFileURL(out).href);

  const docs = join(ROOT, DOCS_PATH);
  const page = readFileSync(docs, "utf8");
  const next = withDerivationTable(page);
  if (next !== page) {
    writeFileSync(docs, next);
    process.stderr.write(`wrote ${docs}\n`);
  }

  for (const fixture of FIXTURES) {
    const file = join(ROOT, fixture.path);
    let text = readFileSync(file, "utf8");
    const have = JSON.parse(text);
    const missing = STATS_ENDPOINTS.filter((e) => e.dialects.includes(fixture.dialect) && have[fixture.key(e)] === undefined);
    if (missing.length === 0) continue;
    const server = await startServer({ seed: 0, days: 30, now: new Date(NOW), dialect: fixture.dialect, repos: ["acme/web"] });
    try {
      // appended as text, so that the answers already there keep their exact form
      const indent = /\n( +)"/.exec(text)?.[1] ?? "  ";
      text = text.replace(/\s*}\s*$/, "");
      for (const e of missing) {
        const end = Date.parse(NOW);
        const query = e.params === "time-to-merge" ? `at=${NOW}` : `start_at=${new Date(end - 86_400_000).toISOString()}&end_at=${NOW}`;
        const res = await fetch(`${server.url}/v1/repos/acme/web/stats/${e.path}?${query}`, {
          headers: { authorization: "Bearer fixture-token" },
        });
        if (!res.ok) throw new Error(`${e.path}: the bundled server answered ${res.status}: ${await res.text()}`);
        const body = JSON.stringify(await res.json(), null, indent).replace(/\n/g, `\n${indent}`);
        text += `,\n${indent}${JSON.stringify(fixture.key(e))}: ${body}`;
        process.stderr.write(`${fixture.path}: added ${fixture.key(e)}\n`);
      }
      writeFileSync(file, `${text}\n}\n`);
    } finally {
      await server.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
