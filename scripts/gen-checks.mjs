#!/usr/bin/env node
// Writes the generated validators (src/api/schema/check-files.ts lists them: the contract's and the
// real service's metadata shapes and statistics answers, as ajv's standalone code). Run it after
// changing a schema of the contract (src/api/schema/{events,stats,common}.ts), the endpoint records
// or the OpenAPI (after scripts/gen-mergify-dialect.mjs); test/api/schema/check-files.test.ts says when.
// Usage: node scripts/gen-checks.mjs [--check]   (--check: exit 1 naming the stale files, write nothing)
import * as esbuild from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const check = process.argv.includes("--check");
const work = mkdtempSync(join(tmpdir(), "mq-gen-checks-"));
try {
  const out = join(work, "gen.mjs");
  await esbuild.build({
    entryPoints: [join(ROOT, "src/api/schema/check-files.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "warning",
  });
  const { CHECK_FILES, checksFileText } = await import(pathToFileURL(out).href);
  const stale = [];
  for (const file of CHECK_FILES) {
    const target = join(ROOT, file.path);
    const text = checksFileText(file);
    let committed;
    try {
      committed = readFileSync(target, "utf8");
    } catch {
      committed = undefined;
    }
    if (committed === text) continue;
    stale.push(file.path);
    if (!check) {
      writeFileSync(target, text);
      process.stderr.write(`wrote ${file.path}\n`);
    }
  }
  if (check && stale.length > 0) {
    process.stderr.write(`stale: ${stale.join(", ")}; run node scripts/gen-checks.mjs\n`);
    process.exitCode = 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
