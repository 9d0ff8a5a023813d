// `npm run build:bundle`: src/main.ts bundled into dist/ for bin/mq.js, in two passes.
//
// 1. esbuild with code splitting: every command's heavy code (undici, zod, the server, DuckDB's
//    wrapper, cli-table3, ora) in chunks that load only through import().
// 2. The start-up path as ONE module. Splitting leaves dist/main.js with ~20 small shared chunks it
//    imports statically (errors, flags, dialects...), and Node 20's ESM loader pays for each module
//    (resolve, an async read, compile, link): `mq --help` spent a fifth of its CPU there. This pass
//    re-bundles main.js with those chunks inlined and exporting their bindings; the lazy chunks'
//    imports of those bindings are pointed at main.js itself, so the chunks loaded later share
//    main's one instance of every module (one MqError class, one config cache): no module is ever
//    duplicated. The inlined chunks are then not written out (a one-line module re-exporting from
//    main.js is written only for one a file still names).
//
// One patch of a dependency, at bundle time: undici's HTTP/2 client requires node:http2 on load to
// read ten header-name constants, and node:http2 pulls in tls and crypto: ~25 ms of CPU for every
// networked command, which never speaks HTTP/2 (undici's allowH2 is off). The constants are inlined
// from this Node's own node:http2 and the module is required only when a session is opened.
import * as esbuild from "esbuild";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, cpSync } from "node:fs";
import { createHash } from "node:crypto";
import { constants as H2 } from "node:http2";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// MQ_BUILD_OUT: another folder (a test builds into a fresh one to see every file a build writes)
const OUT = process.env.MQ_BUILD_OUT ? resolve(process.env.MQ_BUILD_OUT) : join(ROOT, "dist");
// esbuild's CommonJS shim under ESM cannot require; child_process stays lazy (its load shows at start-up)
const BANNER =
  "import { createRequire as __mqCreateRequire } from 'node:module'; const __mqRequire = __mqCreateRequire(import.meta.url); " +
  "const require = (id) => id === 'node:child_process' ? new Proxy({}, { get: (_, key) => __mqRequire(id)[key] }) : __mqRequire(id);";

const H2_REQUIRE = "http2 = require('node:http2')";
const lazyHttp2 = {
  name: "lazy-http2",
  setup(build) {
    build.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes(H2_REQUIRE)) throw new Error(`${args.path}: "${H2_REQUIRE}" not found: update scripts/build.mjs for this undici`);
      const names = [...new Set(text.match(/\b(HTTP2_HEADER_[A-Z_]+|NGHTTP2_[A-Z_]+)\b/g))];
      const constants = Object.fromEntries(names.map((n) => [n, H2[n]]));
      const stub = `http2 = { constants: ${JSON.stringify(constants)}, connect: (...args) => require('node:http2').connect(...args) }`;
      return { contents: text.replace(H2_REQUIRE, stub), loader: "js" };
    });
  },
};

// The archive's engine: @duckdb/node-api's JavaScript (124 CommonJS files, ~30 ms for Node's loader
// to resolve, read and compile one by one) is bundled into the archive's lazy chunk; its native
// addon cannot be, and stays where npm installed it. @duckdb/node-bindings' duckdb.js, which picks
// the addon for this platform, has its require() calls pointed at its installed copy, found as
// Node finds it from the installed @duckdb/node-api (hoisted or nested, wherever npm put it).
// archive/db.ts checks first that the installed package is there and of the bundled version.
// (__mqRequire is BANNER's require of the chunk's own URL: import.meta would make esbuild take
// this CommonJS file for an ES module.)
const BINDINGS_REQUIRE =
  "const __mqBindingsRequire = (() => { const { createRequire } = require('node:module'); " +
  "const api = createRequire(__mqRequire.resolve('@duckdb/node-api/package.json')); " +
  "return createRequire(api.resolve('@duckdb/node-bindings/package.json')); })();\n";
const bundledDuckDb = {
  name: "bundled-duckdb",
  setup(build) {
    build.onLoad({ filter: /@duckdb[\\/]node-bindings[\\/]duckdb\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("require('@duckdb/node-bindings-linux-x64/duckdb.node')")) {
        throw new Error(`${args.path}: the platform's require of its addon not found: update scripts/build.mjs for this @duckdb/node-bindings`);
      }
      return { contents: BINDINGS_REQUIRE + text.replace(/\brequire\(/g, "__mqBindingsRequire("), loader: "js" };
    });
  },
};

// What every networked command runs (config, the API client, one page through node:http, its
// checks for either dialect, the exporter), though the source loads it with import(): inlined into main.cjs, whose code is
// cached, so that a one-page `mq logs` or `mq auth status` loads no ES module at all. Starting
// Node's ES module loader and loading a dozen small modules through it cost a one-page `mq logs`
// ~15 ms. Never undici, zod, the server or DuckDB (test/e2e/startup.e2e.test.ts).
// node:http (with net, the HTTP parser, the agent: ~4 ms) for a command that sends a request, not
// for `mq --help` or `mq auth status`
const LAZY_BUILTINS = ["node:http"];
const START_UP_MODULES = ["src/config/resolve.ts", "src/archive/choose.ts", "src/archive/sync.ts", "src/context/api-client.ts", "src/api/node-wire.ts", "src/api/client.ts", "src/api/schema/page-check.ts", "src/api/dialects/mergify-checks.generated.ts", "src/api/pagination.ts", "src/api/raw-json.ts", "src/iostreams/spinner.ts", "src/output/format.ts", "src/output/exporter.ts"];

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minifyWhitespace: true,
  minifySyntax: true,
  define: { MQ_BUNDLED_DUCKDB: "true" },
  logLevel: "warning",
};

const work = mkdtempSync(join(tmpdir(), "mq-build-"));
try {
  // pass 1: split
  const split = join(work, "split");
  const first = await esbuild.build({
    ...common,
    entryPoints: [join(ROOT, "src/main.ts")],
    splitting: true,
    outdir: split,
    chunkNames: "chunks/[name]-[hash]",
    banner: { js: BANNER },
    metafile: true,
    plugins: [lazyHttp2, bundledDuckDb],
  });
  const outputs = first.metafile.outputs;
  const key = (abs) => relative(process.cwd(), abs).split("\\").join("/");
  const abs = (k) => resolve(process.cwd(), k);
  const mainKey = Object.keys(outputs).find((k) => abs(k) === join(split, "main.js"));
  // main's static closure: the chunks start-up loads whatever the command; and the modules of
  // START_UP_MODULES, with theirs
  const startUp = START_UP_MODULES.map((m) => {
    const k = Object.keys(outputs).find((o) => outputs[o].entryPoint === m);
    if (k === undefined) throw new Error(`START_UP_MODULES: ${m} is not loaded by import(): update scripts/build.mjs`);
    return k;
  });
  const closure = (starts) => {
    const found = new Set(starts.filter((k) => k !== mainKey));
    const stack = [...starts];
    while (stack.length) {
      const k = stack.pop();
      for (const imp of outputs[k].imports) {
        if (imp.kind !== "import-statement" || imp.external) continue;
        const dep = Object.keys(outputs).find((o) => abs(o) === abs(imp.path)) ?? key(abs(imp.path));
        if (!found.has(dep) && dep !== mainKey) {
          found.add(dep);
          stack.push(dep);
        }
      }
    }
    return found;
  };
  const mainClosure = closure([mainKey]);
  const eager = new Set([...mainClosure, ...closure(startUp)]);
  // pass 2: main.js with its static chunks inlined; it also exports their bindings under unique names
  const eagerFiles = [...eager].map(abs);
  const alias = new Map(eagerFiles.map((f, i) => [f, `__mqChunk${i}_`]));
  const exportsOf = (f) => outputs[key(f)]?.exports ?? outputs[[...eager].find((k) => abs(k) === f)].exports;
  // START_UP_MODULES and what only they import run when first imported, not at start-up (`mq
  // --help` has no use for them): main.cjs exports a loader for each, which main.js awaits
  const onDemand = eagerFiles.filter((f) => ![...mainClosure].some((k) => abs(k) === f));
  const entry = [
    `export * from ${JSON.stringify("./main.js")};`,
    ...eagerFiles.map((f) => {
      const names = exportsOf(f);
      const spec = JSON.stringify("./" + relative(split, f).split("\\").join("/"));
      if (onDemand.includes(f)) return `export const __mqLoad${onDemand.indexOf(f)} = () => import(${spec});`;
      return names.length ? `export { ${names.map((n) => `${n} as ${alias.get(f)}${n}`).join(", ")} } from ${spec};` : `import ${spec};`;
    }),
  ].join("\n");
  const one = join(work, "one");
  await esbuild.build({
    ...common,
    // CommonJS: bin/mq.js compiles it with V8's code cache (bin/load-main.js), and a process that
    // loads no ES module never starts Node's ES module loader (~5 ms of every command)
    format: "cjs",
    supported: { "dynamic-import": true },
    define: { ...common.define, "import.meta.url": "__mqMetaUrl" },
    // the one instance of every start-up module, for main.js to hand to the lazy chunks
    footer: { js: `globalThis[Symbol.for("mq.main")]=module.exports;` },
    stdin: { contents: entry, resolveDir: split, sourcefile: "main-entry.js", loader: "js" },
    outfile: join(one, "main.cjs"),
    // the names esbuild gives the modules it wraps (START_UP_MODULES) are paths from here: no
    // temporary folder's name in the bundle, the same bundle (and build id) from the same sources
    absWorkingDir: split,
    plugins: [
      {
        // the lazy chunks stay files of their own, reached by the same relative path from dist/
        name: "lazy-chunks",
        setup(build) {
          build.onResolve({ filter: /^\./ }, (args) => {
            if (args.kind !== "dynamic-import") return undefined;
            const target = resolve(args.resolveDir, args.path);
            // a START_UP_MODULES chunk: in main.cjs, its import() a resolved promise
            if (eagerFiles.includes(target)) return undefined;
            return { path: "./" + relative(split, target).split("\\").join("/"), external: true };
          });
        },
      },
    ],
  });
  // bin/load-main.js keys its code cache by this line: V8 checks its version, its flags and the
  // source's length, not the source itself
  // Its import() calls go through __mqImport: code that V8 restores from a code cache has no
  // dynamic import callback (Node 20), so bin/load-main.js passes one in (__mqLoaderImport);
  // loaded by require() (main.js does), main.cjs's own import() serves.
  const bundled = readFileSync(join(one, "main.cjs"), "utf8");
  const dynamic = /(?<![\w$.])import\((?=")/g;
  const imports = bundled.match(/(?<![\w$.])import\(/g)?.length ?? 0;
  if (imports === 0 || imports !== bundled.match(dynamic).length) throw new Error("main.cjs: an import() of something other than a string literal: update scripts/build.mjs");
  // Node's modules that only some runs use are required on first use (LAZY_BUILTINS); import() of
  // one of Node's modules is a require(): no ES module loader for it
  // each inlined chunk's BANNER made its own require from main's URL: main.cjs has one already
  // (47 createRequire calls: ~1 ms of every run)
  let lazy = bundled.replace(/\(0,import_node_module\d*\.createRequire\)\(__mqMetaUrl\)/g, "require");
  for (const id of LAZY_BUILTINS) lazy = lazy.replaceAll(`require(${JSON.stringify(id)})`, `__mqLazyRequire(${JSON.stringify(id)})`);
  if (/__toESM\(__mqLazyRequire\(/.test(lazy)) throw new Error("main.cjs: a default or namespace import of a LAZY_BUILTINS module: import its names instead");
  const cjs =
    // strict, as the ES modules it was bundled from
    `"use strict";var __mqMetaUrl=require("node:url").pathToFileURL(__filename).href;` +
    `var __mqChunkImport=typeof __mqLoaderImport=="function"?__mqLoaderImport:(s)=>import(s);` +
    `var __mqImport=(s)=>s.startsWith("node:")?Promise.resolve().then(()=>{const m=require(s);return{...m,default:m}}):__mqChunkImport(s);` +
    `var __mqLazyRequire=(id)=>{let m;return new Proxy({},{get:(_,k)=>(m??=require(id))[k]})};\n` +
    lazy.replace(dynamic, "__mqImport(");
  const buildId = createHash("sha256").update(cjs).digest("hex").slice(0, 16);
  writeFileSync(join(split, "main.cjs"), `//mq-build ${buildId}\n${cjs}`);
  // dist/main.js: main.cjs as an ES module, for the lazy chunks (and tests) to import from. Its
  // exports are copies of main.cjs's bindings taken once main.cjs has run: sound because no module
  // exports a binding it later reassigns (`export let`: test/e2e/startup.e2e.test.ts checks src/).
  const mainNames = [
    ...outputs[mainKey].exports,
    ...eagerFiles.filter((f) => !onDemand.includes(f)).flatMap((f) => exportsOf(f).map((n) => `${alias.get(f)}${n}`)),
    ...onDemand.map((_, i) => `__mqLoad${i}`),
  ];
  writeFileSync(
    join(split, "main.js"),
    `// generated by scripts/build.mjs: the ES module face of main.cjs (one instance, loaded by bin/mq.js or here)
import { createRequire } from "node:module";
const mqMain = globalThis[Symbol.for("mq.main")] ?? createRequire(import.meta.url)("./main.cjs");
export const { ${mainNames.join(", ")} } = mqMain;
const onDemand = await Promise.all([${onDemand.map((_, i) => `mqMain.__mqLoad${i}()`).join(", ")}]);
${onDemand
  .map((f, i) => (exportsOf(f).length ? `export const { ${exportsOf(f).map((n) => `${n}: ${alias.get(f)}${n}`).join(", ")} } = onDemand[${i}];` : ""))
  .filter(Boolean)
  .join("\n")}
`,
  );

  // The lazy chunks import main's bindings from main.js itself, not through those one-line
  // modules: each module is a resolve, a read and a link for Node's ESM loader, and `mq auth
  // status` loaded ten of them, a one-page `mq logs` about twenty.
  const eagerSet = new Set(eagerFiles);
  const fromEager = /\b(import|export)\s*\{([^}]*)\}\s*from\s*"(\.{1,2}\/[^"]+)"|\bimport\s*"(\.{1,2}\/[^"]+)"/g;
  for (const k of Object.keys(outputs)) {
    const f = abs(k);
    if (!f.endsWith(".js") || eagerSet.has(f) || f === join(split, "main.js")) continue;
    const text = readFileSync(f, "utf8");
    const toMain = relative(dirname(f), join(split, "main.js")).split("\\").join("/");
    const mainSpec = JSON.stringify(toMain.startsWith(".") ? toMain : `./${toMain}`);
    const rewritten = text.replace(fromEager, (all, kw, list, spec, bare) => {
      const target = resolve(dirname(f), spec ?? bare);
      if (!eagerSet.has(target)) return all;
      if (bare !== undefined) return `import ${mainSpec}`;
      const items = list.split(",").map((item) => item.trim()).filter(Boolean).map((item) => {
        const [name, as] = item.split(/\s+as\s+/);
        return `${alias.get(target)}${name} as ${as ?? name}`;
      });
      return `${kw}{${items.join(",")}}from${mainSpec}`;
    });
    if (rewritten !== text) writeFileSync(f, rewritten);
  }

  // A static chunk still named by a file (a dynamic import() of a module start-up already holds)
  // becomes a module that re-exports main's bindings (live, as ESM exports are); the others, none
  // today, are not written out at all.
  const others = [join(split, "main.cjs"), ...Object.keys(outputs).map(abs).filter((f) => f.endsWith(".js") && !eagerSet.has(f) && f !== join(split, "main.js"))];
  const named = others.map((f) => readFileSync(f, "utf8")).join("\n");
  for (const f of eagerFiles) {
    const base = f.slice(f.lastIndexOf("/") + 1);
    if (!named.includes(`"./chunks/${base}"`) && !named.includes(`"./${base}"`)) {
      rmSync(f);
      continue;
    }
    const names = exportsOf(f);
    const toMain = relative(dirname(f), join(split, "main.js")).split("\\").join("/");
    const spec = JSON.stringify(toMain.startsWith(".") ? toMain : `./${toMain}`);
    writeFileSync(f, names.length ? `export { ${names.map((n) => `${alias.get(f)}${n} as ${n}`).join(", ")} } from ${spec};\n` : `import ${spec};\n`);
  }

  // into dist/ without removing what is there (a test run may be spawning mq from it): chunks
  // first, main.cjs and main.js last
  mkdirSync(join(OUT, "chunks"), { recursive: true });
  cpSync(join(split, "chunks"), join(OUT, "chunks"), { recursive: true });
  for (const name of ["main.cjs", "main.js"]) {
    const tmp = join(OUT, `.${name}-${process.pid}`);
    cpSync(join(split, name), tmp);
    renameSync(tmp, join(OUT, name));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
