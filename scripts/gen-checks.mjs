// Writes the generated check modules (src/api/schema/check-files.ts lists them: the contract's and
// the real service's metadata shapes and statistics answers as plain predicates). Run it after
// changing a schema or the OpenAPI; a test says when.
import * as esbuild from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "mq-gen-checks-"));
try {
  const out = join(work, "gen.mjs");
  await esbuild.build({ entryPoints: [join(ROOT, "src/api/schema/check-files.ts")], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "warning" });
  const { CHECK_FILES, checksFileText } = await import(pathToFileURL(out).href);
  for (const file of CHECK_FILES) {
    const target = join(ROOT, file.path);
    writeFileSync(target, checksFileText(file));
    process.stderr.write(`wrote ${target}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
