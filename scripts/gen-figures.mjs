// Writes docs/figures.md from the catalogue of figures (src/figures/catalogue.ts), so the page and
// `mq help figures` say the same. test/figures/catalogue.test.ts fails when the page is stale.
import * as esbuild from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "mq-gen-figures-"));
try {
  const out = join(work, "gen.mjs");
  await esbuild.build({
    stdin: { contents: 'export { catalogueMarkdown } from "./src/figures/catalogue-text.ts";', resolveDir: ROOT, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "warning",
  });
  const { catalogueMarkdown } = await import(pathToFileURL(out).href);
  writeFileSync(join(ROOT, "docs/figures.md"), catalogueMarkdown());
  console.log("wrote docs/figures.md");
} finally {
  rmSync(work, { recursive: true, force: true });
}
