// `npm run build:bundle`: src/main.ts bundled into dist/ for bin/mq.js, by esbuild's public options.
//
// - dist/main.cjs: what start-up runs, as ONE CommonJS file: every module that src/main.ts reaches
//   through static imports, and through the import() calls whose target never reaches a heavy
//   dependency (HEAVY_PACKAGES, HEAVY_FOLDERS). A process that loads only main.cjs never starts Node's ES module loader (a
//   resolve, a read, a compile and a link per module: ~5 ms for the loader and ~0.3 ms a module on
//   Node 20), and one file is what a code cache holds (bin/code-cache.js). import() of a module in
//   main.cjs is esbuild's own: the module is evaluated on its first import, not at start-up.
// - dist/chunks/*.js: the rest (undici, zod, the server, ora), ES modules split by
//   esbuild (`splitting`), reached only through import() from main.cjs. The server's worker needs
//   an ES module of its own (`new Worker(import.meta.url)`, with top-level await).
//
// Which import() is lazy is decided from the import graph esbuild reports (its metafile), by the
// rule HEAVY_*: no list of source files, so files may move and commands may be added. A module the
// chunks import that main.cjs holds is not bundled twice: main.cjs registers it (MODULES_KEY) and
// the chunks read it from there (mainModule), so there is one instance of every module (one
// MqError class, one config cache) whichever file loaded it.
import * as esbuild from "esbuild";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// MQ_BUILD_OUT: another folder (a test builds into a fresh one to see every file a build writes)
const OUT = process.env.MQ_BUILD_OUT ? resolve(process.env.MQ_BUILD_OUT) : join(ROOT, "dist");
const ENTRY = "src/main.ts";

/**
 * What start-up never loads: an import() whose target reaches one of these (by static imports)
 * stays an import() of a chunk. Packages by name, and the bundled server's folder.
 */
const HEAVY_PACKAGES = ["undici", "zod", "ora", "@duckdb/node-api"];
const HEAVY_FOLDERS = ["src/server/"];
/** PATH (from the root, or a package an import names when it is not bundled) is heavy */
const heavy = (path) =>
  HEAVY_FOLDERS.some((f) => path.startsWith(f)) ||
  HEAVY_PACKAGES.some((p) => path === p || path.startsWith(`${p}/`) || path.includes(`node_modules/${p}/`));
/** Not bundled: DuckDB's JavaScript is loaded from the installed package with its native addon. */
const EXTERNAL = ["@duckdb/node-api"];
/** where main.cjs registers the modules the chunks share with it */
const MODULES_KEY = "mq.modules";

const common = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: "node",
  target: "node20",
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL,
  // archive/db.ts: in dist/, the engine is required from the installed package after a version check
  define: { MQ_BUNDLED_DUCKDB: "true" },
  logLevel: "warning",
};

const posix = (p) => p.split("\\").join("/");

/**
 * commander requires node:child_process when it loads, for a feature mq does not use (stand-alone
 * executable subcommands): child_process loads net, dgram and Node's stream modules, ~3 ms of
 * every start. This gives commander a stand-in that requires the real module on first use. The
 * build fails if commander stops requiring it (the stand-in is then useless: remove this).
 */
function lazyChildProcess() {
  let used = false;
  return {
    name: "lazy-child-process",
    setup(build) {
      build.onResolve({ filter: /^(node:)?child_process$/ }, (args) => {
        if (!/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)) return undefined;
        used = true;
        return { path: "child_process", namespace: "mq-lazy-builtin" };
      });
      build.onLoad({ filter: /.*/, namespace: "mq-lazy-builtin" }, () => ({
        contents: `let m; module.exports = new Proxy({}, { get: (_, key) => (m ??= require("node:child_process"))[key] });`,
        loader: "js",
      }));
      build.onEnd((result) => {
        if (result.errors.length === 0 && !used)
          throw new Error("scripts/build.mjs: commander no longer requires node:child_process: remove lazyChildProcess");
      });
    },
  };
}

/** The import graph: for each input (a path from ROOT), its static and its dynamic imports. */
async function importGraph() {
  const work = mkdtempSync(join(tmpdir(), "mq-build-"));
  try {
    const { metafile } = await esbuild.build({
      ...common,
      format: "esm",
      splitting: true,
      entryPoints: [ENTRY],
      outdir: work,
      write: false,
      metafile: true,
    });
    const graph = new Map();
    for (const [path, input] of Object.entries(metafile.inputs)) {
      // a package left out of the bundle (EXTERNAL) is in the graph by its name
      graph.set(posix(path), {
        statics: input.imports.filter((i) => i.kind !== "dynamic-import").map((i) => posix(i.path)),
        dynamics: input.imports.filter((i) => i.kind === "dynamic-import" && !i.external).map((i) => posix(i.path)),
      });
    }
    return graph;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Start-up's modules (main.cjs) and the import() targets that stay lazy (the chunks' entries). */
function partition(graph) {
  const closure = (start) => {
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length)
      for (const dep of graph.get(stack.pop())?.statics ?? []) if (!seen.has(dep) && (seen.add(dep), true)) stack.push(dep);
    return seen;
  };
  // a module of a heavy folder that imports nothing (a flag's default: the server's memory budget)
  // pulls nothing in: a flag module that reaches it stays in main.cjs
  const leafOfFolder = (m) => HEAVY_FOLDERS.some((f) => m.startsWith(f)) && (graph.get(m)?.statics.length ?? 0) === 0;
  const eager = new Set();
  const lazy = new Set();
  const visit = (start) => {
    for (const m of closure(start)) {
      if (eager.has(m)) continue;
      eager.add(m);
      for (const target of graph.get(m)?.dynamics ?? []) {
        if (eager.has(target) || lazy.has(target)) continue;
        if ([...closure(target)].some((t) => !eager.has(t) && heavy(t) && !leafOfFolder(t))) lazy.add(target);
        else visit(target);
      }
    }
  };
  visit(ENTRY);
  // a small module of the server's folder (its memory budget's default) may be a flag's; a package never
  for (const m of eager)
    if (heavy(m) && !HEAVY_FOLDERS.some((f) => m.startsWith(f)))
      throw new Error(`scripts/build.mjs: start-up loads ${m} by a static import`);
  return { eager, lazy: [...lazy].filter((m) => !eager.has(m)) };
}

/** In the chunks, a module main.cjs holds is main's, read from its registry (one instance). */
function mainModule(eager, shared) {
  return {
    name: "main-module",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/main\.cjs$/, namespace: "mq-main" }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === "mq-resolving" || args.namespace === "mq-main" || args.kind === "entry-point") return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: "mq-resolving",
        });
        if (found.errors.length > 0 || found.external) return undefined;
        const key = posix(relative(ROOT, found.path));
        // mq's own modules only: a package a chunk imports is bundled into the chunk. An ES module
        // package read through the registry (CommonJS-shaped) reached an ES module importer in
        // Node's interop, whose default import is the whole exports object (ora's chalk.default)
        if (!eager.has(key) || /(^|\/)node_modules\//.test(key)) return undefined;
        shared.add(key);
        // import() of a module main.cjs holds: esbuild makes such a target an entry of its own, and a
        // CommonJS entry exports only `default`; a `then` export hands the caller main's exports
        return { path: key, namespace: args.kind === "dynamic-import" ? "mq-main-import" : "mq-main" };
      });
      build.onResolve({ filter: /^\.\.\/main\.cjs$/, namespace: "mq-main-import" }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: "mq-main-import" }, (args) => ({
        contents:
          `if (globalThis[Symbol.for(${JSON.stringify(MODULES_KEY)})] === undefined) require("../main.cjs");\n` +
          `const exports = globalThis[Symbol.for(${JSON.stringify(MODULES_KEY)})][${JSON.stringify(args.path)}];\n` +
          `export const then = (resolve) => resolve(exports);`,
        loader: "js",
      }));
      build.onLoad({ filter: /.*/, namespace: "mq-main" }, (args) => ({
        // a worker thread (mq serve's server) has no main.cjs loaded: the chunk loads it there
        contents:
          `if (globalThis[Symbol.for(${JSON.stringify(MODULES_KEY)})] === undefined) require("../main.cjs");\n` +
          `module.exports = globalThis[Symbol.for(${JSON.stringify(MODULES_KEY)})][${JSON.stringify(args.path)}];`,
        loader: "js",
      }));
    },
  };
}

/**
 * In main.cjs, an import() of a lazy module loads its chunk through __mqImport (MAIN_BANNER): V8
 * restores code from a code cache without Node's import() callback (bin/code-cache.js on Node 20),
 * so the loader hands one in. esbuild inlines an import() of a module it bundles as "a promise of
 * that module's exports": the stand-in module it bundles here exports `then`, and that promise
 * takes the chunk's exports (a thenable is followed, as `await` follows it).
 */
function lazyChunks(chunkOf) {
  return {
    name: "lazy-chunks",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === "mq-resolving") return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: "mq-resolving",
        });
        if (found.errors.length > 0 || found.external) return undefined;
        const chunk = chunkOf.get(posix(relative(ROOT, found.path)));
        return chunk === undefined ? undefined : { path: `./${chunk}`, namespace: "mq-chunk" };
      });
      build.onLoad({ filter: /.*/, namespace: "mq-chunk" }, (args) => ({
        contents: `export const then = (resolve, reject) => __mqImport(${JSON.stringify(args.path)}).then(resolve, reject);`,
        loader: "js",
      }));
    },
  };
}

/** import.meta.url of the bundled modules; __mqImport: the import() of a chunk, relative to main.cjs */
const MAIN_BANNER =
  `"use strict";var __mqMetaUrl=require("node:url").pathToFileURL(__filename).href;` +
  `var __mqImport=globalThis[Symbol.for("mq.import")]??((specifier)=>import(specifier));`;

// a chunk's CommonJS dependencies (undici) need require(), which an ES module lacks
const CHUNK_BANNER =
  "import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(import.meta.url);";

const work = mkdtempSync(join(tmpdir(), "mq-build-"));
try {
  const graph = await importGraph();
  const { eager, lazy } = partition(graph);

  // the chunks
  const shared = new Set();
  const chunks = await esbuild.build({
    ...common,
    format: "esm",
    splitting: true,
    entryPoints: lazy,
    outdir: work,
    outbase: ROOT,
    entryNames: "chunks/[name]-[hash]",
    chunkNames: "chunks/[name]-[hash]",
    banner: { js: CHUNK_BANNER },
    metafile: true,
    plugins: [mainModule(eager, shared)],
  });
  const chunkOf = new Map(
    Object.entries(chunks.metafile.outputs).flatMap(([file, o]) =>
      o.entryPoint ? [[posix(o.entryPoint), posix(relative(work, resolve(ROOT, file)))]] : [],
    ),
  );

  // main.cjs: src/main.ts, and the registry of the modules the chunks share with it; each is
  // evaluated when a chunk first reads it (require() of a module esbuild wrapped is its lazy init)
  const entry = [
    `export * from ${JSON.stringify(`./${ENTRY}`)};`,
    `const modules = (globalThis[Symbol.for(${JSON.stringify(MODULES_KEY)})] = {});`,
    ...[...shared]
      .sort()
      .map(
        (key) =>
          `{ let m; Object.defineProperty(modules, ${JSON.stringify(key)}, { enumerable: true, get: () => (m ??= require(${JSON.stringify(`./${key}`)})) }); }`,
      ),
  ].join("\n");
  const main = await esbuild.build({
    ...common,
    format: "cjs",
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: "main-entry.js", loader: "js" },
    outfile: join(work, "main.cjs"),
    define: { ...common.define, "import.meta.url": "__mqMetaUrl" },
    // import() of one of Node's modules as a require(): code restored from a code cache has no import()
    supported: { "dynamic-import": false },
    banner: { js: MAIN_BANNER },
    write: false,
    metafile: true,
    plugins: [lazyChildProcess(), lazyChunks(chunkOf)],
  });
  const inMain = Object.keys(main.metafile.inputs)
    .map(posix)
    .filter((m) => heavy(m) && !HEAVY_FOLDERS.some((f) => m.startsWith(f)));
  if (inMain.length > 0) throw new Error(`scripts/build.mjs: main.cjs holds ${inMain.join(", ")}`);
  const text = main.outputFiles[0].text;
  // the build id names the code cache (bin/code-cache.js): the same sources, the same id
  const buildId = createHash("sha256").update(text).digest("hex").slice(0, 16);
  writeFileSync(join(work, "main.cjs"), `//mq-build ${buildId}\n${text}`);

  // into dist/ without removing what is there (a test run may be spawning mq from it): chunks
  // first, main.cjs last
  mkdirSync(join(OUT, "chunks"), { recursive: true });
  cpSync(join(work, "chunks"), join(OUT, "chunks"), { recursive: true });
  const tmp = join(OUT, `.main.cjs-${process.pid}`);
  cpSync(join(work, "main.cjs"), tmp);
  renameSync(tmp, join(OUT, "main.cjs"));
} finally {
  rmSync(work, { recursive: true, force: true });
}
