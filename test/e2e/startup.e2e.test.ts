// What start-up relies on, checked on the built binary. bin/mq.js keeps WebAssembly on V8's
// baseline compiler (Liftoff): without it V8 re-optimises undici's WebAssembly HTTP parser in the
// background and every short networked command pays for it at exit; checked on the Node running
// the tests: a hot WebAssembly function ends in TurboFan in a plain process, and stays in Liftoff
// once bin/mq.js has been loaded. And the command tree loads without child_process (and the net,
// dgram and stream modules it pulls in), which commander requires but mq never uses. What a run
// loaded is what Node's inspector saw it compile (a public API; no internals of Node's).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MQ_BIN } from "../helpers/spawn.js";
import { startServer } from "../../src/server/index.js";
import { tempDir } from "../helpers/tmp.js";

// (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
const ADD_WASM = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 97, 100, 100, 0, 0, 10, 9, 1, 7, 0, 32, 0, 32, 1,
  106, 11,
];

const PROBE = `
// \`mq stats\` (the list of its subcommands): a run of a data command, the kind bin/mq.js sets its
// flags for (a help page or --version sets none); its exit timer must not end the probe
process.exit = () => {};
if (process.env.MQ_BIN_UNDER_TEST) await import(process.env.MQ_BIN_UNDER_TEST);
const { instance } = await WebAssembly.instantiate(new Uint8Array(${JSON.stringify(ADD_WASM)}));
const add = instance.exports.add;
let s = 0;
// hot enough for dynamic tiering to send it to TurboFan, with pauses for the background compile
for (let round = 0; round < 50 && !%IsTurboFanFunction(add); round++) {
  for (let i = 0; i < 100000; i++) s = add(s, i) | 0;
  await new Promise((r) => setTimeout(r, 2));
}
process.stdout.write(JSON.stringify({ liftoff: %IsLiftoffFunction(add), turbofan: %IsTurboFanFunction(add) }) + "\\n");
`;

function probe(withMq: boolean): { liftoff: boolean; turbofan: boolean } {
  const file = join(tempDir("mq-wasm-tier-"), "probe.mjs");
  writeFileSync(file, PROBE);
  const r = spawnSync(process.execPath, ["--allow-natives-syntax", file, "stats"], {
    env: { PATH: process.env.PATH ?? "", ...(withMq ? { MQ_BIN_UNDER_TEST: MQ_BIN } : {}) },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const last = r.stdout.trimEnd().split("\n").pop()!;
  return JSON.parse(last) as { liftoff: boolean; turbofan: boolean };
}

describe("WebAssembly tier-up", () => {
  it("is on in a plain Node (the control: the probe can see a tier-up)", () => {
    expect(probe(false)).toEqual({ liftoff: false, turbofan: true });
  });

  // V8 13 (Node 24) reads --liftoff-only when WebAssembly starts, not when it is set at run time:
  // there WebAssembly tiers up whatever bin/mq.js sets. mq's default wire (node:http) compiles no
  // WebAssembly; only undici's parser does, for a request through a proxy.
  it.skipIf(Number(process.versions.node.split(".")[0]) >= 24)("is off once bin/mq.js has run (--liftoff-only)", () => {
    expect(probe(true)).toEqual({ liftoff: true, turbofan: false });
  });
});

/**
 * A probe that runs bin/mq.js with MQ_ARGS and prints, at exit, what the process compiled after
 * it started: Node's own modules (node:net, node:tty...) and files (dist/main.cjs, a chunk), as
 * Node's inspector reports them (Debugger.scriptParsed). CommonJS, as bin/mq.js. The inspector
 * itself loads node:stream and node:worker_threads: those are not seen. BEFORE_MQ runs first
 * (it must not build a process stream).
 */
function loadProbe(prefix: string, { beforeMq = "", exitLine = "" }: { beforeMq?: string; exitLine?: string } = {}): string {
  const probe = join(tempDir(prefix), "probe.cjs");
  writeFileSync(
    probe,
    `const session = new (require("node:inspector").Session)();
session.connect();
const scripts = [];
session.on("Debugger.scriptParsed", (m) => scripts.push(m.params.url));
session.post("Debugger.enable");
const before = new Set(scripts);
${beforeMq}
process.argv.splice(2, 0, ...JSON.parse(process.env.MQ_ARGS));
// written with fs: process.stderr would load net itself
process.on("exit", () => { const loaded = [...new Set(scripts)].filter((u) => !before.has(u) && !u.startsWith("node:internal/") && (u.startsWith("node:") || u.startsWith("file:"))).map((u) => (u.startsWith("file:") && u.includes("/dist/") ? u.slice(u.lastIndexOf("/dist/") + 1) : u)); require("node:fs").writeSync(2, "\\nloaded: " + JSON.stringify(loaded)${exitLine} + "\\n"); });
require(${JSON.stringify(MQ_BIN)});`,
  );
  return probe;
}

/** What the probe's run loaded, from its stderr; and the stderr before that line. */
function loadedBy(stderr: string): { loaded: string[]; rest: string; tail: string } {
  const m = /\nloaded: (\[.*?\])(.*)\n$/s.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return { loaded: JSON.parse(m![1]!) as string[], rest: stderr.slice(0, m!.index), tail: m![2]! };
}

describe("what start-up loads", () => {
  it("mq auth status, mq --help and a command's help page load no child_process, no node:http, no chunk (no ES module), no node:v8, no command's run code, and build no Intl format (ICU data: 7 MB)", () => {
    // counts Intl formats built, runs bin/mq.js, then prints what was loaded (http: node:http, for
    // requests only; a chunk of dist/: an ES module, and Node's ES module loader for it)
    const probe = loadProbe("mq-modules-", {
      beforeMq: `let formats = 0;
for (const name of ["NumberFormat", "DateTimeFormat", "Collator", "PluralRules", "RelativeTimeFormat"]) {
  const Original = Intl[name];
  Intl[name] = new Proxy(Original, { construct: (target, args) => (formats++, Reflect.construct(target, args)), apply: (target, self, args) => (formats++, Reflect.apply(target, self, args)) });
}`,
      exitLine: ` + "; Intl formats: " + formats`,
    });
    // the bundles each reads: a command's help page builds its flags from the flags' file and reads
    // no command's run code (the commands' file: 500 KB), as \`mq help logs\` does for help's run
    const bundlesRead: Record<string, string[]> = {
      "--help": ["dist/main.cjs"],
      "auth status": ["dist/main.cjs"],
      "logs --help": ["dist/main.cjs", "dist/flags.cjs"],
      "help logs": ["dist/main.cjs", "dist/flags.cjs", "dist/commands.cjs"],
    };
    for (const args of [["--help"], ["auth", "status"], ["logs", "--help"], ["help", "logs"]]) {
      const r = spawnSync(process.execPath, [probe], {
        env: {
          PATH: process.env.PATH ?? "",
          MQ_ARGS: JSON.stringify(args),
          MQ_TOKEN: "mqk_probe_token_1234",
          MQ_CONFIG_DIR: tempDir("mq-modules-config-"),
        },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const { loaded, tail } = loadedBy(r.stderr);
      expect(
        loaded.filter((u) => /^node:(child_process|dgram|https?)$/.test(u) || u.startsWith("dist/chunks/")),
        args.join(" "),
      ).toEqual([]);
      expect(loaded, args.join(" ")).toContain("dist/main.cjs");
      // a help page sets no V8 flag (bin/mq.js): node:v8 loads Node's stream modules
      expect(
        loaded.filter((u) => u === "node:v8"),
        args.join(" "),
      ).toEqual([]);
      const bundles = loaded.filter((u) => u.startsWith("dist/")).map((u) => u.replace(/-[0-9a-f]{16}\.cjs$/, ".cjs"));
      expect(bundles, args.join(" ")).toEqual(bundlesRead[args.join(" ")]);
      expect(tail).toBe("; Intl formats: 0");
    }
  });
});

describe("what mq --help and mq auth status do not make", () => {
  it("load neither node:os nor node:module, make no AbortController and make no file URL", () => {
    // node:os is asked for only without $HOME (config/dir.ts) or to write the config (config/lock.ts);
    // node:module only to require a file relative to a bundle (bin/code-cache.js); the run's signal
    // only when something asks for it (context.ts); import.meta.url only when a module reads it
    const probe = loadProbe("mq-light-", {
      beforeMq: `let controllers = 0;
const Original = AbortController;
globalThis.AbortController = new Proxy(Original, { construct: (target, args) => (controllers++, Reflect.construct(target, args)) });
const url = require("node:url");
const pathToFileURL = url.pathToFileURL;
let urls = 0;
url.pathToFileURL = (...args) => (urls++, pathToFileURL(...args));`,
      exitLine: ` + "; AbortController: " + controllers + "; file URLs: " + urls`,
    });
    const cacheHome = tempDir("mq-light-cache-");
    for (const args of [["--help"], ["auth", "status"]]) {
      // twice: without a code cache, then with the one the first run wrote
      for (const round of [1, 2]) {
        const r = spawnSync(process.execPath, [probe], {
          env: {
            PATH: process.env.PATH ?? "",
            HOME: tempDir("mq-light-home-"),
            MQ_ARGS: JSON.stringify(args),
            MQ_TOKEN: "mqk_probe_token_1234",
            MQ_CONFIG_DIR: tempDir("mq-light-config-"),
            XDG_CACHE_HOME: cacheHome,
          },
          encoding: "utf8",
          timeout: 30_000,
        });
        expect(r.status, r.stderr).toBe(0);
        const { loaded, tail } = loadedBy(r.stderr);
        expect(
          loaded.filter((u) => /^node:(os|module)$/.test(u)),
          `${args.join(" ")} round ${round}`,
        ).toEqual([]);
        expect(tail, `${args.join(" ")} round ${round}`).toBe("; AbortController: 0; file URLs: 0");
      }
    }
  });
});

describe("mq --help on pipes (a script's, a CI job's)", () => {
  it("builds neither process.stdout nor process.stderr and sets no V8 flag: no net, no tty, no zlib, no v8", () => {
    const probe = loadProbe("mq-help-modules-");
    const env = { PATH: process.env.PATH ?? "", MQ_CONFIG_DIR: tempDir("mq-help-config-"), XDG_CACHE_HOME: tempDir("mq-help-cache-") };
    const plain = spawnSync(process.execPath, [MQ_BIN, "--help"], { env, encoding: "utf8" });
    for (const args of [["--help"], ["-h"]]) {
      // twice: without a code cache, then with the one the first run wrote
      for (const round of [1, 2]) {
        const r = spawnSync(process.execPath, [probe], {
          env: { ...env, MQ_ARGS: JSON.stringify(args) },
          encoding: "utf8",
          timeout: 30_000,
        });
        expect(r.status, `${args.join(" ")} round ${round}: ${r.stderr}`).toBe(0);
        const { loaded, rest } = loadedBy(r.stderr);
        expect(rest).toBe("");
        expect(loaded.filter((u) => /^node:(net|tty|zlib|v8)$/.test(u))).toEqual([]);
        expect(r.stdout).toBe(plain.stdout);
      }
    }
    expect(plain.stdout).toMatch(/^Usage: mq \[options\] \[command\]\n/);
  });

  it("mq auth status sets no V8 flag and builds no stream for its answer: no net, no tty, no zlib, no v8", () => {
    const probe = loadProbe("mq-auth-modules-");
    const env = {
      PATH: process.env.PATH ?? "",
      MQ_ARGS: JSON.stringify(["auth", "status"]),
      MQ_TOKEN: "mqk_probe_token_1234",
      MQ_CONFIG_DIR: tempDir("mq-auth-config-"),
      XDG_CACHE_HOME: tempDir("mq-auth-cache-"),
    };
    const r = spawnSync(process.execPath, [probe], { env, encoding: "utf8", timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const { loaded, rest } = loadedBy(r.stderr);
    expect(rest).toBe("");
    expect(loaded.filter((u) => /^node:(net|zlib|tty|v8)$/.test(u))).toEqual([]);
    expect(r.stdout).toBe("API URL: https://api.mergify.com (default)\nToken:   mqk_****1234 (from $MQ_TOKEN)\n");
  });
});

describe("what a one-page command against the bundled server loads", () => {
  /** runs bin/mq.js with `args`: its stdout and stderr, and whether zod was loaded */
  async function zodLoaded(args: string[]): Promise<{ stdout: string; stderr: string; zod: boolean }> {
    const probe = join(tempDir("mq-zod-"), "probe.mjs");
    writeFileSync(
      probe,
      `process.argv.splice(2, 0, ...JSON.parse(process.env.MQ_ARGS));
await import(${JSON.stringify(MQ_BIN)});
process.on("exit", () => process.stderr.write("\\nzod: " + ("__zod_globalConfig" in globalThis) + "\\n"));`,
    );
    const child = spawn(process.execPath, [probe], {
      env: {
        PATH: process.env.PATH ?? "",
        MQ_ARGS: JSON.stringify(args),
        MQ_TOKEN: "mqk_probe_token_1234",
        MQ_CONFIG_DIR: tempDir("mq-zod-config-"),
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const code = await new Promise((r) => child.on("close", r));
    expect(code, stderr).toBe(0);
    const m = /\nzod: (true|false)\n$/.exec(stderr);
    expect(m, stderr).not.toBeNull();
    return { stdout, stderr: stderr.slice(0, m!.index), zod: m![1] === "true" };
  }

  it.each(["mergify", "spec"] as const)(
    "--dialect %s: a valid page of mq logs and a valid answer of mq stats are written without zod",
    async (dialect) => {
      const server = await startServer({ dialect, days: 2, now: new Date("2026-11-20T12:00:00Z"), recordRequests: false });
      try {
        const common = ["--repo", "acme/web", "--api-url", server.url, "--dialect", dialect, "-o", "ndjson"];
        const logs = await zodLoaded(["logs", "--limit", "20", "--since", "2026-11-19T12:00:00Z", ...common]);
        expect(logs.stdout.trimEnd().split("\n")).toHaveLength(20);
        // no warning: the page was valid as it came, and zod was not needed to say so
        expect(logs.stderr).toBe("");
        expect(logs.zod).toBe(false);
        for (const name of ["failure-rate", "queue-size", "batch-bisection", "queues"]) {
          const stats = await zodLoaded(["stats", name, "--since", "2026-11-19T12:00:00Z", "--until", "2026-11-20T12:00:00Z", ...common]);
          expect(stats.stdout.length, name).toBeGreaterThan(0);
          expect(stats.stderr, name).toBe("");
          expect(stats.zod, name).toBe(false);
        }
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it("a page that differs from the dialect is worded by the generated validators, without zod, and warns as before", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          events: [
            {
              id: 1,
              received_at: "2026-11-20T11:59:00Z",
              trigger: "t",
              repository: "a/b",
              pull_request: null,
              base_ref: null,
              outcome: "neutral",
              type: "action.queue.change",
              metadata: { queue_name: "default", size: "2" },
            },
          ],
          per_page: 1,
          size: 1,
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await zodLoaded(["logs", "--repo", "a/b", "--api-url", url, "--dialect", "mergify", "--limit", "1", "-o", "ndjson"]);
      expect(r.stdout).toMatch(/^\{"id":1,/);
      expect(r.stderr).toMatch(
        /^mq: warning: action.queue.change event 1 does not match the service's OpenAPI \(metadata.priority_rule_name: .*metadata.size: /,
      );
      // zod is the contract's definition language, not a validator: an invalid page needs it no more than a valid one
      expect(r.zod).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe("the bundle's start-up path (scripts/build.mjs)", () => {
  const dist = join(dirname(MQ_BIN), "..", "dist");

  it("dist/main.cjs is one module: it requires Node's modules only, and reaches the chunks through __mqImport", () => {
    const text = readFileSync(join(dist, "main.cjs"), "utf8");
    const requires = [...text.matchAll(/(?<![\w$.])require\(["']([^"']+)["']\)/g)].map((m) => m[1]!);
    expect(requires.length).toBeGreaterThan(0);
    expect(requires.filter((s) => !s.startsWith("node:"))).toEqual([]);
    // every import() of a chunk goes through __mqImport: a code-cached script has no import() of its own
    expect(text).toMatch(/__mqImport\("\.\/chunks\//);
    expect(text.match(/(?<![\w$.])import\(/g)).toEqual(["import("]);
  });

  it("dist/main.cjs holds what mq --help and mq auth status run, not the commands' code, the dialect tables, the stats endpoints, the figure catalogue or the help topics' texts", () => {
    const text = readFileSync(join(dist, "main.cjs"), "utf8");
    const modules = [...text.matchAll(/"((?:src|node_modules)\/[\w./-]+)"\(\)\{/g)].map((m) => m[1]!);
    expect(modules).toEqual(expect.arrayContaining(["src/context.ts", "src/commands/auth/run.ts", "src/commands/auth/status.ts"]));
    for (const held of [
      "src/commands/logs/index.ts",
      "src/api/dialects/spec.ts",
      "src/stats/endpoints.ts",
      "src/figures/catalogue.ts",
      "src/help/topics.ts",
    ])
      expect(modules).not.toContain(held);
    // the flag modules and what they import: the flags' file; the commands' runs: the commands' file
    const flags = readFileSync(bundleOf(join(dist, "main.cjs"), "flags"), "utf8");
    const commands = readFileSync(bundleOf(join(dist, "main.cjs"), "commands"), "utf8");
    for (const held of ["src/commands/logs/index.ts", "src/stats/endpoints.ts", "src/figures/catalogue.ts"]) {
      expect(flags).toContain(`"${held}"(){`);
      expect(commands).not.toContain(`"${held}"(){`);
    }
    for (const held of ["src/commands/stats/run.ts", "src/help/topics.ts"]) {
      expect(commands).toContain(`"${held}"(){`);
      expect(flags).not.toContain(`"${held}"(){`);
    }
  });

  it("each CommonJS bundle, evaluated as a script as bin/code-cache.js compiles it, is the function Node's wrapper makes of it; main.cjs holds package.json's version alone", () => {
    // the loader compiles the file as it is: a wrapper joined to the text made a copy of it on the young heap
    const main = join(dist, "main.cjs");
    for (const file of [main, bundleOf(main, "flags"), bundleOf(main, "commands")]) {
      const r = spawnSync(
        process.execPath,
        [
          "-e",
          `const f = new (require("node:vm").Script)(require("node:fs").readFileSync(${JSON.stringify(file)}, "utf8")).runInThisContext(); process.stdout.write(typeof f + " " + f.length)`,
        ],
        { encoding: "utf8" },
      );
      expect(r.stderr, file).toBe("");
      expect(r.stdout, file).toBe("function 5");
    }
    expect(readFileSync(main, "utf8")).toMatch(/"package\.json"\(exports\d*,module\d*\)\{module\d*\.exports=\{version:"[^"]+"\}\}/);
  });

  /** The flags' or the commands' file `main` loads (dist/flags-*.cjs, dist/commands-*.cjs). */
  const bundleOf = (main: string, kind: "flags" | "commands"): string => {
    const name = new RegExp(`join\\(__dirname,"(${kind}-[0-9a-f]+\\.cjs)"\\)`).exec(readFileSync(main, "utf8"))?.[1];
    expect(name).toBeDefined();
    return join(dirname(main), name!);
  };

  /** The chunks `main`, its flags' and its commands' file reach through static and dynamic imports. */
  const reachable = (main: string): string[] => {
    const chunks = join(dirname(main), "chunks");
    const seen = new Set<string>();
    const visit = (file: string) => {
      for (const m of readFileSync(file, "utf8").matchAll(/(?:from\s*|import\s*\(?\s*|__mqImport\()"(\.{1,2}\/[^"]+)"/g)) {
        const target = join(dirname(file), m[1]!);
        if (target.startsWith(chunks) && !seen.has(target)) {
          seen.add(target);
          visit(target);
        }
      }
    };
    visit(main);
    visit(bundleOf(main, "flags"));
    visit(bundleOf(main, "commands"));
    return [...seen].map((f) => f.slice(chunks.length + 1)).sort();
  };

  it("a build writes no module nothing imports", () => {
    // into a fresh folder: dist/ keeps the chunks of earlier builds (a running mq may load them)
    const out = tempDir("mq-build-out-");
    try {
      execFileSync(process.execPath, [fileURLToPath(new URL("../../scripts/build.mjs", import.meta.url))], {
        env: { ...process.env, MQ_BUILD_OUT: out },
        stdio: "pipe",
      });
      const written = readdirSync(join(out, "chunks")).sort();
      expect(written.length).toBeGreaterThan(5);
      expect(reachable(join(out, "main.cjs"))).toEqual(written);
      const main = join(out, "main.cjs");
      expect(readdirSync(out).sort()).toEqual(
        ["chunks", basename(bundleOf(main, "flags")), basename(bundleOf(main, "commands")), "main.cjs"].sort(),
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  it("a chunk takes the modules main.cjs holds from main.cjs (one instance of every module: one MqError class)", () => {
    const files = reachable(join(dist, "main.cjs"));
    const wanted = new Set<string>();
    // a module of the flags' or the commands' file is read through that file's entry: ["flags.cjs"]["src/..."]
    const inFiles = new Set<string>();
    for (const f of files)
      for (const [, entry, module] of readFileSync(join(dist, "chunks", f), "utf8").matchAll(
        /\[Symbol\.for\("mq\.modules"\)\]\["([^"]+)"\](?:\["([^"]+)"\])?/g,
      )) {
        wanted.add(entry!);
        if (module !== undefined) inFiles.add(`${entry}:${module}`);
      }
    expect(inFiles.size).toBeGreaterThan(0);
    expect(wanted.size + inFiles.size).toBeGreaterThan(5);
    expect(wanted).toContain("src/errors.ts");
    // what main.cjs registers, each evaluated on first read: every key a chunk reads is there
    const r = spawnSync(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(join(dist, "main.cjs"))}); const m = globalThis[Symbol.for("mq.modules")]; process.stdout.write(JSON.stringify(Object.keys(m)) + "\\n" + typeof m["src/errors.ts"].MqError + "\\n" + JSON.stringify(${JSON.stringify([...inFiles])}.filter((k) => { const [file, key] = k.split(":"); return m[file][key] === undefined; })))`,
      ],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    const [keys, type, missing] = r.stdout.split("\n");
    expect(JSON.parse(keys!)).toEqual(expect.arrayContaining([...wanted]));
    expect(type).toBe("function");
    expect(JSON.parse(missing!)).toEqual([]);
    // and no chunk bundles a copy of what main.cjs holds
    const defining = [join(dist, "main.cjs"), ...files.map((f) => join(dist, "chunks", f))].filter((f) =>
      /\bMqError=class\b/.test(readFileSync(f, "utf8")),
    );
    expect(defining).toEqual([join(dist, "main.cjs")]);
  });

  it("a one-page mq logs over http:// loads neither undici nor zod nor node:http2 nor tls nor crypto nor any ES module, and compiles no WebAssembly", async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          events: [
            {
              id: 1,
              received_at: "2026-11-20T11:59:00.000000+00:00",
              trigger: "Rule: automatic merge",
              repository: "a/b",
              pull_request: 1,
              base_ref: "main",
              type: "action.assign",
              metadata: { added: ["jdoe"], removed: [] },
            },
          ],
          per_page: 1,
          size: 1,
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const probe = loadProbe("mq-http2-", {
        beforeMq: `let wasm = 0;
for (const key of ["compile", "instantiate", "compileStreaming", "instantiateStreaming"]) {
  const original = WebAssembly[key];
  WebAssembly[key] = (...args) => (wasm++, original.apply(WebAssembly, args));
}
const Module = WebAssembly.Module;
WebAssembly.Module = new Proxy(Module, { construct: (target, args) => (wasm++, new target(...args)) });`,
        exitLine: ` + "\\nwebassembly: " + wasm + "\\nzod: " + ("__zod_globalConfig" in globalThis)`,
      });
      const args = ["logs", "--repo", "a/b", "--api-url", url, "--limit", "1", "-o", "ndjson"];
      const child = spawn(process.execPath, [probe], {
        env: {
          PATH: process.env.PATH ?? "",
          MQ_ARGS: JSON.stringify(args),
          MQ_TOKEN: "mqk_probe_token_1234",
          MQ_CONFIG_DIR: tempDir("mq-http2-config-"),
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.stderr.on("data", (c) => (stderr += c));
      const code = await new Promise((r) => child.on("close", r));
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(/^\{"id":1,/);
      // node:assert: undici's modules require it, none of mq's (nor node:http's); a chunk: an ES
      // module (main.cjs holds all a one-page mq logs runs)
      const { loaded, tail } = loadedBy(stderr);
      expect(loaded.filter((u) => /^node:(http2|tls|crypto|assert)$/.test(u) || u.startsWith("dist/chunks/"))).toEqual([]);
      expect(loaded).toContain("node:http");
      // a valid page of the contract is known valid without zod (api/schema/envelope.ts)
      expect(tail).toBe("\nwebassembly: 0\nzod: false");
    } finally {
      server.close();
    }
  });
});
