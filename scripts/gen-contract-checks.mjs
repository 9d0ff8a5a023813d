// Writes src/api/schema/contract-checks.generated.ts from the contract's zod schemas (see
// src/api/schema/contract-checks.ts). Run it after changing a metadata shape; a test says when.
import * as esbuild from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "mq-gen-checks-"));
try {
  const out = join(work, "gen.mjs");
  await esbuild.build({ entryPoints: [join(ROOT, "src/api/schema/contract-checks.ts")], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "warning" });
  const { contractChecksFile } = await import(pathToFileURL(out).href);
  const target = join(ROOT, "src/api/schema/contract-checks.generated.ts");
  writeFileSync(target, contractChecksFile());
  process.stderr.write(`wrote ${target}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
