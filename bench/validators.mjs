#!/usr/bin/env node
// The candidates for validating what the API sends, measured side by side (issue 27, item 5):
// the time to check the metadata of a page of 100 events against each dialect (the hot path of
// `mq logs --all`), and what loading the checking code adds to a process's start-up (the path of a
// one-page `mq logs`). Each candidate is bundled and minified by esbuild as the build does.
//   zod          zod's public API: schema.safeParse(metadata).success (the contract's zod schemas;
//                the OpenAPI's through the JSON-Schema-to-zod converter of BEFORE)
//   zod-compiled BEFORE's compileCheck (api/schema/check.ts, zod's private _zod)
//   predicates   BEFORE's generated predicates (*-checks.generated.ts, from zod's private _zod)
//   generated    the validators as committed (api/schema/check-source.ts, from the JSON Schemas of
//                both dialects: verdict and, on demand, the issues in zod's words)
//   ajv          ajv 8's standalone code from the same JSON Schemas, every error with its schema
//                node (allErrors + verbose: what wording the errors as zod did would need)
//   ajv-verdict  the same, compiled for the verdict alone (first error, no schema nodes)
// Usage: node bench/validators.mjs [--before DIR] [--runs N]   (DIR: a checkout of the code before
// the change, default /work/main at the branch `before-house`)
import * as esbuild from "esbuild";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? def : process.argv[i + 1];
};
const RUNS = Number(arg("--runs", "15"));
const work = mkdtempSync(join(tmpdir(), "mq-bench-validators-"));

/** a checkout of `before-house` to measure BEFORE's candidates from */
function beforeTree() {
  const given = arg("--before", undefined);
  if (given) return given;
  const dir = join(work, "before");
  mkdirSync(dir);
  execFileSync("sh", ["-c", `git -C "${ROOT}" archive before-house src docs | tar -x -C "${dir}"`]);
  return dir;
}

async function bundle(name, contents, resolveDir) {
  const outfile = join(work, `${name}.mjs`);
  await esbuild.build({
    stdin: { contents, resolveDir, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
    nodePaths: [join(ROOT, "node_modules")],
  });
  return outfile;
}

async function candidates() {
  const before = beforeTree();
  // ajv's standalone code from the committed generator's JSON Schemas (the metadata modules)
  const gen = await bundle(
    "gen",
    `export { CHECK_FILES } from "./src/api/schema/check-files.ts";\nexport { formats } from "./src/api/schema/json-schemas.ts";\nexport { DateTimeSchema, UuidSchema } from "./src/api/schema/common.ts";`,
    ROOT,
  );
  const { CHECK_FILES, formats, DateTimeSchema, UuidSchema } = await import(pathToFileURL(gen).href);
  const { default: Ajv, _ } = await import("ajv");
  const { default: standaloneCode } = await import("ajv/dist/standalone/index.js");
  const ajvModule = (mode) => {
    const ajv = new Ajv({
      ...mode,
      messages: false,
      unicodeRegExp: false,
      strict: false,
      formats: formats(DateTimeSchema, UuidSchema),
      code: { source: true, esm: true },
    });
    ajv.addKeyword({
      keyword: "x-int",
      type: "number",
      schemaType: "boolean",
      code: (cxt) => cxt.fail(_`!Number.isSafeInteger(${cxt.data})`),
    });
    ajv.addKeyword({ keyword: "x-record" });
    const exports = {};
    const tables = [];
    for (const [dialect, path] of [
      ["contract", "src/api/schema/contract-checks.generated.ts"],
      ["mergify", "src/api/dialects/mergify-checks.generated.ts"],
    ]) {
      const { schemas, resolve } = CHECK_FILES.find((f) => f.path === path).tables[0].schemas();
      const rows = [];
      for (const [key, schema] of schemas) {
        // every $ref of the schema placed at its JSON pointer inside the root
        const root = { ...schema };
        const place = (node) => {
          if (Array.isArray(node)) return node.forEach(place);
          if (node === null || typeof node !== "object") return;
          for (const [k, v] of Object.entries(node)) {
            if (k === "$ref" && typeof v === "string") {
              const segs = v.slice(2).split("/");
              let at = root;
              for (const seg of segs.slice(0, -1)) at = at[seg] ??= {};
              if (at[segs.at(-1)] === undefined) {
                at[segs.at(-1)] = resolve(v);
                place(at[segs.at(-1)]);
              }
            } else place(v);
          }
        };
        place(schema);
        const id = `v${Object.keys(exports).length}`;
        ajv.addSchema(root, id);
        exports[id] = id;
        rows.push(`${JSON.stringify(key)}: ${id}`);
      }
      tables.push(`export const ${dialect} = { ${rows.join(", ")} };`);
    }
    return `${standaloneCode(ajv, exports)}\n${tables.join("\n")}\n`;
  };
  const ajvFile = (name, mode) => {
    const file = join(work, `${name}-src.mjs`);
    writeFileSync(file, ajvModule(mode));
    return bundle(name, `export * from ${JSON.stringify(file)};`, ROOT);
  };
  const tables = (dir) =>
    `export { CONTRACT_METADATA_CHECKS as contract } from "${dir}/src/api/schema/contract-checks.generated.ts";\n` +
    `export { MERGIFY_METADATA_CHECKS as mergify } from "${dir}/src/api/dialects/mergify-checks.generated.ts";\n`;
  const zodTables = (wrap) => `import { EVENT_METADATA_SCHEMAS } from "./src/api/schema/events.ts";
import { MERGIFY_METADATA_SCHEMAS } from "./src/api/dialects/mergify-metadata.ts";
${wrap}
export const contract = Object.fromEntries(Object.entries(EVENT_METADATA_SCHEMAS).map(([k, s]) => [k, wrap(s)]));
export const mergify = Object.fromEntries([...MERGIFY_METADATA_SCHEMAS].map(([k, s]) => [k, wrap(s)]));
`;
  return {
    zod: await bundle("zod", zodTables("const wrap = (s) => (v) => s.safeParse(v).success;"), before),
    "zod-compiled": await bundle(
      "zod-compiled",
      `import { compileCheck } from "./src/api/schema/check.ts";\n${zodTables("const wrap = (s) => compileCheck(s);")}`,
      before,
    ),
    predicates: await bundle("predicates", tables(before), before),
    generated: await bundle("generated", tables(ROOT), ROOT),
    ajv: await ajvFile("ajv", { allErrors: true, verbose: true }),
    "ajv-verdict": await ajvFile("ajv-verdict", { allErrors: false, verbose: false }),
  };
}

/** pages of 100 events of each dialect, from the fixtures */
function pages() {
  const read = (p) => JSON.parse(readFileSync(join(ROOT, p), "utf8"));
  const page = (events) => Array.from({ length: 100 }, (_, i) => events[i % events.length]);
  return { contract: page(read("src/api/fixtures/events.json")), mergify: page(read("test/fixtures/mergify-events.json")) };
}

// run in a child: the time per page of each dialect, after a warm-up
const TIMER = `
import { readFileSync } from "node:fs";
const [file, pagesFile] = process.argv.slice(2);
const m = await import(file);
const pages = JSON.parse(readFileSync(pagesFile, "utf8"));
const out = {};
for (const dialect of ["contract", "mergify"]) {
  const table = m[dialect];
  const events = pages[dialect];
  const page = () => { let ok = 0; for (const e of events) { const c = table[e.type]; if (c === undefined || c(e.metadata)) ok++; } return ok; };
  if (page() !== events.length) throw new Error(dialect + ": a valid page was refused");
  for (let i = 0; i < 2000; i++) page();
  const samples = [];
  for (let s = 0; s < 7; s++) { const t = process.hrtime.bigint(); for (let i = 0; i < 1000; i++) page(); samples.push(Number(process.hrtime.bigint() - t) / 1e6); }
  samples.sort((a, b) => a - b);
  // ms for 1,000 pages: µs for one
  out[dialect] = samples[3] / 1000;
}
process.stdout.write(JSON.stringify(out));
`;

// run in a child: load the module and check one page (start-up), or only read the page (baseline)
const LOADER = `
import { readFileSync } from "node:fs";
const [file, pagesFile] = process.argv.slice(2);
const pages = JSON.parse(readFileSync(pagesFile, "utf8"));
if (file !== "-") { const m = await import(file); for (const e of pages.contract) m.contract[e.type]?.(e.metadata); }
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ wall: performance.now(), cpu: (cpu.user + cpu.system) / 1000 }));
`;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const fmt = (ms) => (Math.abs(ms) < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);
const signed = (ms) => (ms < 0 ? `−${fmt(-ms)}` : `+${fmt(ms)}`);

try {
  const files = await candidates();
  const pagesFile = join(work, "pages.json");
  writeFileSync(pagesFile, JSON.stringify(pages()));
  const timer = join(work, "timer.mjs");
  const loader = join(work, "loader.mjs");
  writeFileSync(timer, TIMER);
  writeFileSync(loader, LOADER);
  const rows = [];
  for (const [name, file] of Object.entries(files)) {
    const r = spawnSync(process.execPath, [timer, pathToFileURL(file).href, pagesFile], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
    rows.push({ name, ...JSON.parse(r.stdout), size: readFileSync(file).length });
  }
  // start-up: interleaved rounds, the baseline in each
  // start-up: interleaved rounds, the baseline in each; wall time from the process's start to the
  // end of the page, and the CPU time (steadier on a shared machine)
  const wall = Object.fromEntries(["-", ...Object.keys(files)].map((k) => [k, []]));
  const cpu = Object.fromEntries(Object.keys(wall).map((k) => [k, []]));
  for (let round = 0; round < RUNS + 2; round++) {
    for (const name of Object.keys(wall)) {
      const target = name === "-" ? "-" : pathToFileURL(files[name]).href;
      const r = spawnSync(process.execPath, [loader, target, pagesFile], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
      const t = JSON.parse(r.stdout);
      if (round >= 2) {
        wall[name].push(t.wall);
        cpu[name].push(t.cpu);
      }
    }
  }
  const base = { wall: median(wall["-"]), cpu: median(cpu["-"]) };
  console.log(
    `Node ${process.version} · load average ${(await import("node:os"))
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(", ")} · ${RUNS} start-up runs · baseline (read the page, no checking code): wall ${fmt(base.wall)}, CPU ${fmt(base.cpu)}`,
  );
  console.log("| candidate | contract: page of 100 | mergify: page of 100 | bundle (minified) | start-up over the baseline: wall | CPU |");
  console.log("|---|--:|--:|--:|--:|--:|");
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${fmt(r.contract)} | ${fmt(r.mergify)} | ${(r.size / 1024).toFixed(0)} KB | ${signed(median(wall[r.name]) - base.wall)} | ${signed(median(cpu[r.name]) - base.cpu)} |`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
