// `npm run build:bundle`: src/main.ts bundled into dist/ for bin/mq.js, by esbuild's public options.
//
// - dist/main.cjs: what start-up runs, as ONE CommonJS file: every module that src/main.ts reaches
//   through static imports. That is all `mq`, `mq --help` and the global options need. A process
//   that loads only CommonJS never starts Node's ES module loader (a resolve, a read, a compile and
//   a link per module: ~5 ms for the loader and ~0.3 ms a module on Node 20), and one file is what
//   a code cache holds (bin/code-cache.js).
// - dist/commands.cjs: the commands' code that is not heavy, as ONE CommonJS file with a code cache
//   of its own: every import() target of start-up's modules whose static imports reach no heavy
//   dependency (HEAVY_PACKAGES, HEAVY_FOLDERS), with what they import that main.cjs does not hold.
//   main.cjs loads it at the first import() of one of them (__mqCommands): a run that imports none
//   (`mq --help`) neither reads nor deserialises the commands' code. Its modules are evaluated on
//   their first import, as esbuild's own import() of a bundled module is.
// - dist/flags.cjs: the part of those that the commands' flag modules (FLAGS_TABLE's import()
//   targets) import, in a file of its own loaded the same way (__mqFlags): a help page (`mq logs
//   --help`) builds a command's flags and runs nothing, and reading and deserialising the whole
//   commands' file (700 KB) was a third of what it cost over bare Node on Node 24.
// - dist/chunks/*.js: the rest (undici, zod, the server, ora), ES modules split by esbuild
//   (`splitting`), reached only through import(). The server's worker needs an ES module of its own
//   (`new Worker(import.meta.url)`, with top-level await).
//
// Which import() is lazy, and in which file, is decided from the import graph esbuild reports (its
// metafile), by the rule HEAVY_*: no list of source files, so files may move and commands may be
// added. A module held by main.cjs, flags.cjs or commands.cjs is bundled once: main.cjs registers
// what others read of it (MODULES_KEY) and the other files read it from there (mainModule), so there
// is one instance of every module (one MqError class, one config cache) whichever file loaded it.
import * as esbuild from "esbuild";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// MQ_BUILD_OUT: another folder (a test builds into a fresh one to see every file a build writes)
const OUT = process.env.MQ_BUILD_OUT ? resolve(process.env.MQ_BUILD_OUT) : join(ROOT, "dist");
const ENTRY = "src/main.ts";
/** the start-up module whose import() targets are the commands' flag modules (flags.cjs) */
const FLAGS_TABLE = "src/command-flags.ts";

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
/**
 * An import() target of start-up that adds at most this much source is held by main.cjs: reading
 * the commands' file and its code cache costs more than carrying it (`mq auth status`: ~8 ms of
 * CPU on Node 24 to read and deserialise it for auth's flags and run, 5 and 8 KB), and what is
 * larger costs every `mq --help` its reading and deserialising (serve's flags, 12 KB: ~1 ms).
 */
const SMALL_TARGET_BYTES = 8 * 1024;
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

/**
 * mq reads one field of its package.json, the version (commander's `mq -V` and the User-Agent): the
 * bundles hold that field alone, not the whole manifest built as an object at every start. An
 * import of another field fails the build (esbuild: no such export).
 */
function packageVersion() {
  const manifest = join(ROOT, "package.json");
  return {
    name: "package-version",
    setup(build) {
      build.onLoad({ filter: /[\\/]package\.json$/ }, (args) =>
        resolve(args.path) === manifest
          ? { contents: JSON.stringify({ version: JSON.parse(readFileSync(manifest, "utf8")).version }), loader: "json" }
          : undefined,
      );
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
        bytes: input.bytes,
        statics: input.imports.filter((i) => i.kind !== "dynamic-import").map((i) => posix(i.path)),
        dynamics: input.imports.filter((i) => i.kind === "dynamic-import" && !i.external).map((i) => posix(i.path)),
      });
    }
    return graph;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Start-up's modules (main.cjs: src/main.ts's static imports), the flag modules with what they
 * import (flags.cjs), the other commands' modules (commands.cjs: the import() targets that reach
 * nothing heavy, with their static imports), and the import() targets that stay chunks.
 */
function partition(graph) {
  const closure = (start) => {
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length)
      for (const dep of graph.get(stack.pop())?.statics ?? []) if (!seen.has(dep) && (seen.add(dep), true)) stack.push(dep);
    return seen;
  };
  // a module of a heavy folder that imports nothing (a flag's default: the server's memory budget)
  // pulls nothing in: a flag module that reaches it stays in commands.cjs
  const leafOfFolder = (m) => HEAVY_FOLDERS.some((f) => m.startsWith(f)) && (graph.get(m)?.statics.length ?? 0) === 0;
  const startup = closure(ENTRY);
  const reachesHeavy = (modules) => modules.some((t) => heavy(t) && !leafOfFolder(t));
  // a small import() target of start-up (what it adds to main.cjs, SMALL_TARGET_BYTES of source at
  // most) is held by main.cjs, evaluated on its first import
  for (let grown = true; grown; ) {
    grown = false;
    for (const m of [...startup])
      for (const target of graph.get(m)?.dynamics ?? []) {
        if (startup.has(target)) continue;
        const reach = [...closure(target)].filter((t) => !startup.has(t));
        if (reachesHeavy(reach) || reach.reduce((sum, t) => sum + (graph.get(t)?.bytes ?? 0), 0) > SMALL_TARGET_BYTES) continue;
        for (const t of reach) startup.add(t);
        grown = true;
      }
  }
  const commands = new Set();
  const lazy = new Set();
  const held = (m) => startup.has(m) || commands.has(m);
  const visit = (modules) => {
    for (const m of modules)
      for (const target of graph.get(m)?.dynamics ?? []) {
        if (held(target) || lazy.has(target)) continue;
        const reach = [...closure(target)].filter((t) => !held(t));
        if (reachesHeavy(reach)) lazy.add(target);
        else {
          for (const t of reach) commands.add(t);
          visit(reach);
        }
      }
  };
  visit([...startup]);
  // a small module of the server's folder (its memory budget's default) may be a flag's; a package never
  for (const m of [...startup, ...commands])
    if (heavy(m) && !HEAVY_FOLDERS.some((f) => m.startsWith(f)))
      throw new Error(`scripts/build.mjs: start-up or a command loads ${m} by a static import`);
  // the commands' modules that a flag module reaches: flags.cjs
  if (!startup.has(FLAGS_TABLE)) throw new Error(`scripts/build.mjs: ${FLAGS_TABLE} is not a module of start-up`);
  const flags = new Set();
  for (const target of graph.get(FLAGS_TABLE).dynamics) for (const m of closure(target)) if (commands.has(m)) flags.add(m);
  for (const m of flags) {
    commands.delete(m);
    // flags.cjs has no loader of the other files' modules by import()
    if (graph.get(m).dynamics.length > 0) throw new Error(`scripts/build.mjs: the flag module ${m} has an import()`);
  }
  return { startup, flags, commands, lazy: [...lazy] };
}

/**
 * In the chunks, flags.cjs and commands.cjs, a module that another file holds (HELD) is read from
 * main.cjs's registry (one instance), and its key goes into SHARED: main.cjs registers it, or the
 * file that holds it exports it (FILE_OF the key: "flags.cjs" or "commands.cjs", an entry of the
 * registry that loads that file: one entry a file, not one a module, in every start's main.cjs).
 * MAIN: main.cjs from the output file. PACKAGES: a package main.cjs holds is read from it too
 * (commands.cjs: commander); a chunk bundles the packages it imports, as an ES module package
 * read through the registry (CommonJS-shaped) reached an ES module importer in Node's interop,
 * whose default import is the whole exports object (ora's chalk.default).
 */
function mainModule(held, shared, { main, packages, fileOf }) {
  const registry = `globalThis[Symbol.for(${JSON.stringify(MODULES_KEY)})]`;
  // a worker thread (mq serve's server) has no main.cjs loaded: the chunk loads it there
  const ensure = `if (${registry} === undefined) require(${JSON.stringify(main)});\n`;
  return {
    name: "main-module",
    setup(build) {
      build.onResolve({ filter: /\.cjs$/, namespace: "mq-main" }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /\.cjs$/, namespace: "mq-main-import" }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace.startsWith("mq-main") || args.kind === "entry-point") return undefined;
        const key = await bundledPath(build, args);
        if (key === undefined || !held.has(key) || (!packages && /(^|\/)node_modules\//.test(key))) return undefined;
        shared.add(key);
        // import() of a module main.cjs holds: esbuild makes such a target an entry of its own, and a
        // CommonJS entry exports only `default`; a `then` export hands the caller main's exports
        // (the key in pluginData: a stand-in named like commander's esm.mjs would be taken for an ES module)
        return { path: `${key}#registry`, namespace: args.kind === "dynamic-import" ? "mq-main-import" : "mq-main", pluginData: key };
      });
      const read = (key) => `${registry}${fileOf(key) ? `[${JSON.stringify(fileOf(key))}]` : ""}[${JSON.stringify(key)}]`;
      build.onLoad({ filter: /.*/, namespace: "mq-main-import" }, (args) => ({
        contents: `${ensure}export const then = (resolve) => resolve(${read(args.pluginData)});`,
        loader: "js",
      }));
      build.onLoad({ filter: /.*/, namespace: "mq-main" }, (args) => ({
        contents: `${ensure}module.exports = ${read(args.pluginData)};`,
        loader: "js",
      }));
    },
  };
}

/**
 * The module (a path from ROOT) an import in the bundle names, as esbuild resolves it; undefined for
 * a package left out of the bundle, a path esbuild cannot resolve (it then reports that itself) or
 * the plugins' own question: esbuild is asked again with a mark, so a plugin does not answer itself.
 */
async function bundledPath(build, args) {
  if (args.pluginData === "mq-resolving") return undefined;
  const found = await build.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: args.resolveDir,
    pluginData: "mq-resolving",
  });
  if (found.errors.length > 0 || found.external) return undefined;
  return posix(relative(ROOT, found.path));
}

/** The module an import() in the bundle names (bundledPath); undefined for any other import. */
function importTarget(build, args) {
  return args.kind === "dynamic-import" ? bundledPath(build, args) : Promise.resolve(undefined);
}

/**
 * In main.cjs, an import() of a module flags.cjs or commands.cjs holds reads it from that file's
 * exports, loading the file first (LOADER_OF: the module's loader, __mqFlags or __mqCommands,
 * bundleLoader), through the same `then` as lazyChunks.
 */
function lazyBundles(loaderOf) {
  return {
    name: "lazy-bundles",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        const key = await importTarget(build, args);
        const loader = key === undefined ? undefined : loaderOf(key);
        return loader === undefined ? undefined : { path: key, namespace: "mq-bundle", pluginData: loader };
      });
      build.onLoad({ filter: /.*/, namespace: "mq-bundle" }, (args) => ({
        contents: `export const then = (resolve, reject) => { let m; try { m = ${args.pluginData}()[${JSON.stringify(args.path)}]; } catch (err) { return reject(err); } resolve(m); };`,
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
        const key = await importTarget(build, args);
        const chunk = key === undefined ? undefined : chunkOf.get(key);
        return chunk === undefined ? undefined : { path: `./${chunk}`, namespace: "mq-chunk" };
      });
      build.onLoad({ filter: /.*/, namespace: "mq-chunk" }, (args) => ({
        contents: `export const then = (resolve, reject) => __mqImport(${JSON.stringify(args.path)}).then(resolve, reject);`,
        loader: "js",
      }));
    },
  };
}

/**
 * import.meta.url of the bundled modules, made when one reads it (a file URL's first making costs
 * ~0.3 ms of CPU, and no module of main.cjs reads it); __mqImport: the import() of a chunk,
 * relative to the file. Code restored from a code cache has no import() of its own:
 * bin/code-cache.js hands one in.
 */
const CJS_BANNER =
  `"use strict";var __mqMeta={get url(){return require("node:url").pathToFileURL(__filename).href}};` +
  `var __mqImport=globalThis[Symbol.for("mq.import")]??((specifier)=>import(specifier));`;

/**
 * A CommonJS bundle is also, evaluated as a script, the function Node's CommonJS wrapper makes of
 * it: bin/code-cache.js compiles the file as it is read. A wrapper joined to the text there made a
 * copy of it (150 KB of main.cjs) on the young heap, and with it `mq --help` ran a garbage
 * collection before it ended. Required by Node (a worker thread, a test), the file runs that
 * function at once; evaluated as a script, whose `this` is the global object (in a module it is
 * the module's exports), it is the script's value.
 */
const SCRIPT_FUNCTION = {
  banner:
    "((bundle) => (this === globalThis ? bundle : bundle.call(exports, exports, require, module, __filename, __dirname)))" +
    "(function (exports, require, module, __filename, __dirname) {",
  footer: "\n})",
};

/**
 * main.cjs's LOADER (__mqFlags, __mqCommands): FILE's exports, the file loaded on first use through
 * bin/code-cache.js's loader (its own code cache) or, without it (a worker thread, a test that
 * requires main.cjs), Node's require.
 */
const bundleLoader = (loader, file) =>
  `var ${loader}Exports;var ${loader}=()=>${loader}Exports??=(globalThis[Symbol.for("mq.require")]??require)(require("node:path").join(__dirname,${JSON.stringify(file)}));`;

// a chunk's CommonJS dependencies (undici) need require(), which an ES module lacks
const CHUNK_BANNER =
  "import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(import.meta.url);";

/** TEXT of a CommonJS bundle with its build id (bin/code-cache.js names its code cache with it). */
function withBuildId(text) {
  const buildId = createHash("sha256").update(text).digest("hex").slice(0, 16);
  return { buildId, text: `//mq-build ${buildId}\n${text}` };
}

/** A registry entry: KEY's exports, read on first use (require() of a module esbuild wrapped is its lazy init). */
const getter = (target, key, load) =>
  `{ let m; Object.defineProperty(${target}, ${JSON.stringify(key)}, { enumerable: true, get: () => (m ??= ${load}) }); }`;

const cjs = {
  ...common,
  format: "cjs",
  define: { ...common.define, "import.meta.url": "__mqMeta.url" },
  // import() of one of Node's modules as a require(): code restored from a code cache has no import()
  supported: { "dynamic-import": false },
  write: false,
  metafile: true,
};

/** The inputs of a CommonJS build that are mq's or a package's modules (not a plugin's stand-ins). */
const inputsOf = (result) =>
  Object.keys(result.metafile.inputs)
    .filter((m) => !m.includes(":"))
    .map(posix);

const work = mkdtempSync(join(tmpdir(), "mq-build-"));
try {
  const graph = await importGraph();
  const { startup, flags, commands, lazy } = partition(graph);
  const fileOf = (key) => (flags.has(key) ? "flags.cjs" : commands.has(key) ? "commands.cjs" : undefined);

  // the chunks
  const fromChunks = new Set();
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
    plugins: [
      packageVersion(),
      mainModule(new Set([...startup, ...flags, ...commands]), fromChunks, { main: "../main.cjs", packages: false, fileOf }),
    ],
  });
  const chunkOf = new Map(
    Object.entries(chunks.metafile.outputs).flatMap(([file, o]) =>
      o.entryPoint ? [[posix(o.entryPoint), posix(relative(work, resolve(ROOT, file)))]] : [],
    ),
  );

  // commands.cjs and flags.cjs: what main.cjs imports of each, and what the chunks and commands.cjs
  // read of each through main.cjs (a flag module imports no module of commands.cjs: partition)
  const targets = new Set([...startup].flatMap((m) => graph.get(m)?.dynamics ?? []));
  const bundle = async (name, modules, held, read, shared) => {
    const exported = [...new Set([...targets, ...read].filter((k) => modules.has(k)))].sort();
    const result = await esbuild.build({
      ...cjs,
      stdin: {
        contents: exported.map((key) => getter("module.exports", key, `require(${JSON.stringify(`./${key}`)})`)).join("\n"),
        resolveDir: ROOT,
        sourcefile: `${name}-entry.js`,
        loader: "js",
      },
      outfile: join(work, `${name}.cjs`),
      banner: { js: SCRIPT_FUNCTION.banner + CJS_BANNER },
      footer: { js: SCRIPT_FUNCTION.footer },
      plugins: [packageVersion(), lazyChunks(chunkOf), mainModule(held, shared, { main: "./main.cjs", packages: true, fileOf })],
    });
    const strays = inputsOf(result).filter((m) => !modules.has(m) && m !== `${name}-entry.js`);
    if (strays.length > 0) throw new Error(`scripts/build.mjs: ${name}.cjs holds modules of another file: ${strays.join(", ")}`);
    const file = withBuildId(result.outputFiles[0].text);
    const fileName = `${name}-${file.buildId}.cjs`;
    writeFileSync(join(work, fileName), file.text);
    return fileName;
  };
  const fromCommands = new Set();
  const commandsName = await bundle("commands", commands, new Set([...startup, ...flags]), fromChunks, fromCommands);
  const fromFlags = new Set();
  const flagsName = await bundle("flags", flags, startup, [...fromChunks, ...fromCommands], fromFlags);

  // main.cjs: src/main.ts, and the registry of the modules the chunks, flags.cjs and commands.cjs read
  const loaderOf = (key) => ({ "flags.cjs": "__mqFlags", "commands.cjs": "__mqCommands" })[fileOf(key)];
  const entry = [
    `export * from ${JSON.stringify(`./${ENTRY}`)};`,
    `const modules = (globalThis[Symbol.for(${JSON.stringify(MODULES_KEY)})] = {});`,
    ...[...new Set([...fromChunks, ...fromCommands, ...fromFlags])]
      .filter((key) => startup.has(key))
      .sort()
      .map((key) => getter("modules", key, `require(${JSON.stringify(`./${key}`)})`)),
    getter("modules", "flags.cjs", "__mqFlags()"),
    getter("modules", "commands.cjs", "__mqCommands()"),
  ].join("\n");
  const main = await esbuild.build({
    ...cjs,
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: "main-entry.js", loader: "js" },
    outfile: join(work, "main.cjs"),
    banner: { js: SCRIPT_FUNCTION.banner + CJS_BANNER + bundleLoader("__mqFlags", flagsName) + bundleLoader("__mqCommands", commandsName) },
    footer: { js: SCRIPT_FUNCTION.footer },
    plugins: [packageVersion(), lazyChildProcess(), lazyChunks(chunkOf), lazyBundles(loaderOf)],
  });
  const inMain = inputsOf(main).filter((m) => !startup.has(m) && m !== "main-entry.js");
  if (inMain.length > 0) throw new Error(`scripts/build.mjs: main.cjs holds modules that are not start-up's: ${inMain.join(", ")}`);
  writeFileSync(join(work, "main.cjs"), withBuildId(main.outputFiles[0].text).text);

  // into dist/ without removing what is there (a test run may be spawning mq from it, and an mq
  // that started before may yet load its commands file): chunks, flags and commands first, main.cjs last
  mkdirSync(join(OUT, "chunks"), { recursive: true });
  cpSync(join(work, "chunks"), join(OUT, "chunks"), { recursive: true });
  cpSync(join(work, flagsName), join(OUT, flagsName));
  cpSync(join(work, commandsName), join(OUT, commandsName));
  const tmp = join(OUT, `.main.cjs-${process.pid}`);
  cpSync(join(work, "main.cjs"), tmp);
  renameSync(tmp, join(OUT, "main.cjs"));
} finally {
  rmSync(work, { recursive: true, force: true });
}
