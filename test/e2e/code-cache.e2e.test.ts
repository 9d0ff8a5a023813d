// bin/code-cache.js loads dist/main.cjs through V8's code cache, kept by hand in the user's cache
// folder on every Node; on Node 22.1 and later the runtime's own compile cache serves the chunks
// a command imports. What a user must never see from either: a different output, a message, a
// failure, whatever state the cache is in (missing, refused, corrupt, unwritable, written by
// several runs at once).
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MQ_BIN } from "../helpers/spawn.js";
import { startServer } from "../../src/server/index.js";
import { tempDir } from "../helpers/tmp.js";

const LOADER = join(MQ_BIN, "..", "code-cache.js");
/** this Node has a compile cache of its own (22.1 and later), which serves the chunks */
const RUNTIME_CACHE =
  typeof (createRequire(import.meta.url)("node:module") as { enableCompileCache?: unknown }).enableCompileCache === "function";
const { cacheDir } = createRequire(import.meta.url)(LOADER) as {
  cacheDir: (env: Record<string, string | undefined>, platform: string) => string | undefined;
};

function mq(args: string[], cacheHome: string, extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [MQ_BIN, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cacheHome,
      XDG_CACHE_HOME: join(cacheHome, "cache"),
      MQ_CONFIG_DIR: join(cacheHome, "config"),
      NO_COLOR: "1",
      ...extraEnv,
    },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What the loader saw: the cache "used", "missing", "rejected" or "off" (a child process: main.cjs runs once per process). */
function loaderState(dir: string | null): string {
  const r = spawnSync(
    process.execPath,
    [
      "-e",
      `const m = require(${JSON.stringify(LOADER)}).loadMain({ dir: ${JSON.stringify(dir)}, runtimeCache: false }); m.save(); process.stdout.write(m.cache)`,
    ],
    { encoding: "utf8", timeout: 30_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe("");
  return r.stdout;
}

/** main.cjs's code caches in DIR; commandsCaches: those of the commands' file (dist/commands-*.cjs) */
const caches = (dir: string) => readdirSync(dir).filter((f) => f.startsWith("main-") && f.endsWith(".cache"));
const commandsCaches = (dir: string) => readdirSync(dir).filter((f) => f.startsWith("commands-") && f.endsWith(".cache"));

describe("the code cache of main.cjs (made by hand)", () => {
  it("lives in $XDG_CACHE_HOME/mq, ~/.cache/mq, ~/Library/Caches/mq or %LOCALAPPDATA%\\mq\\Cache; none without a home", () => {
    expect(cacheDir({ XDG_CACHE_HOME: "/x/cache", HOME: "/h" }, "linux")).toBe("/x/cache/mq");
    expect(cacheDir({ XDG_CACHE_HOME: "relative", HOME: "/h" }, "linux")).toBe("/h/.cache/mq");
    expect(cacheDir({ HOME: "/h" }, "linux")).toBe("/h/.cache/mq");
    expect(cacheDir({ HOME: "/h" }, "darwin")).toBe("/h/Library/Caches/mq");
    expect(cacheDir({ LOCALAPPDATA: "C:\\L" }, "win32")).toMatch(/^C:\\L.mq.Cache$/);
    expect(cacheDir({}, "linux")).toBeUndefined();
    expect(cacheDir({ MQ_NO_CODE_CACHE: "1", XDG_CACHE_HOME: "/x/cache", HOME: "/h" }, "linux")).toBeUndefined();
    expect(cacheDir({ MQ_NO_CODE_CACHE: "", HOME: "/h" }, "linux")).toBe("/h/.cache/mq");
  });

  it("is kept under the name of the command that ran, or of none (help), for a line whose first word names the command", () => {
    const home = tempDir("mq-code-cache-");
    const dir = join(home, "cache", "mq");
    expect(mq(["config", "list"], home).code).toBe(0);
    expect(caches(dir).map((f) => f.replace(/^.*-/, ""))).toEqual(["config.cache"]);
    // help runs no action: its cache is kept under the word it was named after
    expect(mq(["config", "--help"], home).code).toBe(0);
    expect(mq(["--help"], home).code).toBe(0);
    expect(caches(dir)).toHaveLength(2);
    // a first word that names no command fails: no cache
    expect(mq(["lgos"], home).code).toBe(2);
    expect(caches(dir)).toHaveLength(2);
  });

  it("of the lines that start with a flag is one, made by the first that succeeds and used by the others, whatever command runs", () => {
    const home = tempDir("mq-code-cache-");
    const dir = join(home, "cache", "mq");
    // `json` is the first word without a dash, but config runs: the line's first word may be a
    // flag's value, so the lines that start with a flag share one cache (they kept none, and
    // compiled main.cjs on every run: most scripted lines, `mq --repo acme/web logs`)
    const first = mq(["-o", "json", "config", "list"], home);
    expect(first.code).toBe(0);
    const [shared] = caches(dir);
    expect(shared).toMatch(/-flag-first\.cache$/);
    const compiled = readFileSync(join(dir, shared!));
    expect(mq(["-o", "json", "config", "list"], home)).toEqual(first);
    expect(mq(["--color", "never", "config", "list"], home).code).toBe(0);
    expect(readFileSync(join(dir, shared!)).equals(compiled)).toBe(true);
    // a first word naming auth, config or completion sets no V8 flags (bin/mq.js): a cache of its own
    expect(mq(["--offline", "config", "list"], home).code).toBe(0);
    expect(
      caches(dir)
        .map((f) => f.replace(/^.*-flag-first/, "flag-first"))
        .sort(),
    ).toEqual(["flag-first-light.cache", "flag-first.cache"]);
  });

  it("of a command line without a word (no V8 flags) is not shared with one whose first word is a flag's value (flags set)", () => {
    const home = tempDir("mq-code-cache-");
    const dir = join(home, "cache", "mq");
    expect(mq(["--help"], home).code).toBe(0);
    const [bare] = caches(dir);
    const compiled = readFileSync(join(dir, bare!));
    // `acme/web` is no command name; bin/mq.js sets its V8 flags for this run, and V8 refuses a
    // cache made under other flags: sharing one file, each run rejected and rewrote the other's
    expect(mq(["-R", "acme/web", "--help"], home).code).toBe(0);
    expect(mq(["-R", "acme/web", "--help"], home).code).toBe(0);
    expect(mq(["--help"], home).code).toBe(0);
    expect(readFileSync(join(dir, bare!)).equals(compiled)).toBe(true);
    expect(caches(dir)).toHaveLength(2);
  });

  it("of a line that names serve without running it (mq stats --repo serve: no heap bounds) is not that of the command's other runs", () => {
    const home = tempDir("mq-code-cache-");
    const dir = join(home, "cache", "mq");
    expect(mq(["stats"], home).code).toBe(0);
    const [stats] = caches(dir);
    const compiled = readFileSync(join(dir, stats!));
    // the commands' file too (stats's flags and its list), under the same flags as main.cjs
    const [statsCommands] = commandsCaches(dir);
    const compiledCommands = readFileSync(join(dir, statsCommands!));
    expect(mq(["stats", "--repo", "serve"], home).code).toBe(0);
    expect(mq(["stats", "--repo", "serve"], home).code).toBe(0);
    expect(mq(["stats"], home).code).toBe(0);
    expect(readFileSync(join(dir, stats!)).equals(compiled)).toBe(true);
    expect(readFileSync(join(dir, statsCommands!)).equals(compiledCommands)).toBe(true);
    expect(caches(dir)).toHaveLength(2);
    expect(commandsCaches(dir)).toHaveLength(2);
  });

  it("of a command's help page (no V8 flags) is not that of the command's runs (flags set)", () => {
    const home = tempDir("mq-code-cache-");
    const dir = join(home, "cache", "mq");
    expect(mq(["stats"], home).code).toBe(0);
    const [stats] = caches(dir);
    const compiled = readFileSync(join(dir, stats!));
    for (const args of [
      ["stats", "--help"],
      ["stats", "-h"],
      ["help", "stats"],
      ["stats", "--help"],
    ])
      expect(mq(args, home).code).toBe(0);
    expect(mq(["stats"], home).code).toBe(0);
    expect(readFileSync(join(dir, stats!)).equals(compiled)).toBe(true);
    expect(
      caches(dir)
        .map((f) => f.slice(f.indexOf(`-${process.arch}-`) + process.arch.length + 2))
        .sort(),
    ).toEqual(["help.cache", "stats-help.cache", "stats.cache"]);
  });

  it("is neither written nor read with MQ_NO_CODE_CACHE set", () => {
    const home = tempDir("mq-code-cache-");
    const off = mq(["--help"], home, { MQ_NO_CODE_CACHE: "1" });
    expect(off.code).toBe(0);
    expect(existsSync(join(home, "cache", "mq"))).toBe(false);
    expect(mq(["--help"], home)).toEqual(off);
    expect(caches(join(home, "cache", "mq"))).toHaveLength(1);
  });

  it("is written by the first run (private to the user), used by the next, and the output is the same", () => {
    const home = tempDir("mq-code-cache-");
    const first = mq(["--help"], home);
    const dir = join(home, "cache", "mq");
    expect(caches(dir)).toHaveLength(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, caches(dir)[0]!)).mode & 0o777).toBe(0o600);
    const second = mq(["--help"], home);
    expect(second).toEqual(first);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("");
    // the same through a cache written by another run of the command: help, completion
    for (const args of [
      ["help", "stats", "failure-rate"],
      ["completion", "zsh"],
    ]) {
      const uncached = mq(args, home);
      expect(uncached.code).toBe(0);
      expect(mq(args, home)).toEqual(uncached);
    }
    // one cache per command: a run of another command has its own
    expect(mq(["auth", "status"], home).code).toBe(4);
    expect(mq(["config", "list"], home).code).toBe(0);
    expect(caches(dir).map((f) => f.replace(/^.*-x?\w+-/, "").replace(/^.*-/, ""))).toEqual(
      expect.arrayContaining(["help.cache", "completion.cache", "config.cache"]),
    );
    expect(caches(dir)).toHaveLength(4);
    // the commands' file has its caches beside main.cjs's, one per command that loaded it
    // (auth's flags and run are main.cjs's: it never loads the commands' file)
    expect(commandsCaches(dir).map((f) => f.replace(/^.*-/, ""))).toEqual(
      expect.arrayContaining(["help.cache", "completion.cache", "config.cache"]),
    );
    expect(commandsCaches(dir)).toHaveLength(3);
  });

  it("is used when it matches and rewritten when V8 refuses it (a corrupt or truncated file)", () => {
    const dir = join(tempDir("mq-code-cache-"), "mq");
    expect(loaderState(dir)).toBe("missing");
    expect(loaderState(dir)).toBe("used");
    const [file] = caches(dir);
    const good = readFileSync(join(dir, file!));
    writeFileSync(join(dir, file!), good.subarray(0, good.length >> 1));
    expect(loaderState(dir)).toBe("rejected");
    expect(loaderState(dir)).toBe("used");
    writeFileSync(join(dir, file!), Buffer.from("not a code cache"));
    expect(loaderState(dir)).toBe("rejected");
    expect(loaderState(dir)).toBe("used");
  });

  it("is refused, not run, when damaged in place (V8 checks no bytes outside debug builds: it aborted every run)", () => {
    const dir = join(tempDir("mq-code-cache-"), "mq");
    expect(loaderState(dir)).toBe("missing");
    const [file] = caches(dir);
    const damaged = readFileSync(join(dir, file!));
    // in one of the file's two copies of the cache (the same damage in both is not looked for)
    for (let i = 200; i < damaged.length / 2; i += 97) damaged[i]! ^= 0x5a;
    writeFileSync(join(dir, file!), damaged);
    expect(loaderState(dir)).toBe("rejected");
    expect(loaderState(dir)).toBe("used");
  });

  it("is not written through a folder someone else made after the load, nor through a link at its temporary name", () => {
    const home = tempDir("mq-code-cache-");
    const victim = join(home, "victim");
    writeFileSync(victim, "precious\n");
    const dir = join(home, "mq");
    // another user wins the race against the save: just before it makes the folder (none at the
    // load), they make it, open to all, with a link where this process writes its temporary file
    const child = `
      const fs = require("node:fs"), path = require("node:path");
      const dir = ${JSON.stringify(dir)};
      const build = /^\\/\\/mq-build ([0-9a-f]+)\\n/.exec(fs.readFileSync(${JSON.stringify(join(MQ_BIN, "..", "..", "dist", "main.cjs"))}, "utf8"))[1];
      const mkdirSync = fs.mkdirSync;
      fs.mkdirSync = (p, o) => {
        if (p === dir && !fs.existsSync(dir)) {
          mkdirSync(dir, { mode: 0o777 });
          fs.chmodSync(dir, 0o777);
          const tag = require(${JSON.stringify(LOADER)}).pathTag(${JSON.stringify(join(MQ_BIN, "..", "..", "dist", "main.cjs"))});
          fs.symlinkSync(${JSON.stringify(victim)}, path.join(dir, \`main-\${build}-\${tag}-\${process.versions.v8}-\${process.arch}.cache.\${process.pid}.tmp\`));
        }
        return mkdirSync(p, o);
      };
      const m = require(${JSON.stringify(LOADER)}).loadMain({ dir, runtimeCache: false });
      m.save();
      process.stdout.write(m.cache);`;
    const r = spawnSync(process.execPath, ["-e", child], { encoding: "utf8", timeout: 30_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("missing");
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(caches(dir)).toEqual([]);
  });

  it("costs nothing when it cannot be written: a read-only folder, a file where the folder should be, no home", () => {
    const home = tempDir("mq-code-cache-");
    const readOnly = join(home, "ro");
    mkdirSync(readOnly, { mode: 0o500 });
    chmodSync(readOnly, 0o500);
    expect(loaderState(join(readOnly, "mq"))).toMatch(/^(missing|used)$/); // root may write anyway
    writeFileSync(join(home, "file"), "");
    expect(loaderState(join(home, "file", "mq"))).toBe("missing");
    expect(loaderState(null)).toBe("off");
    const r = mq(["--version"], home);
    expect(r).toEqual({
      code: 0,
      stdout: `${JSON.parse(readFileSync(join(MQ_BIN, "..", "..", "package.json"), "utf8")).version}\n`,
      stderr: "",
    });
  });

  it("is neither read nor written in a folder others may write (a planted cache would run as the user)", () => {
    const dir = join(tempDir("mq-code-cache-"), "mq");
    expect(loaderState(dir)).toBe("missing");
    const [file] = caches(dir);
    const before = statSync(join(dir, file!));
    chmodSync(dir, 0o777);
    expect(loaderState(dir)).toBe("untrusted");
    expect(statSync(join(dir, file!)).mtimeMs).toBe(before.mtimeMs);
    chmodSync(dir, 0o700);
    chmodSync(join(dir, file!), 0o666);
    // the folder is ours again: the file others could write is not read, and is replaced
    expect(loaderState(dir)).toBe("missing");
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(loaderState(dir)).toBe("used");
  });

  it("survives runs that write it at the same time: each succeeds, the file left is whole", async () => {
    const home = tempDir("mq-code-cache-");
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      XDG_CACHE_HOME: join(home, "cache"),
      MQ_CONFIG_DIR: join(home, "config"),
      NO_COLOR: "1",
    };
    const runs = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<{ code: number | null; stdout: string }>((resolve) => {
            const child = spawn(process.execPath, [MQ_BIN, "--help"], { env });
            let stdout = "";
            child.stdout.on("data", (c) => (stdout += c));
            child.on("close", (code) => resolve({ code, stdout }));
          }),
      ),
    );
    for (const r of runs) expect(r).toEqual(runs[0]);
    const dir = join(home, "cache", "mq");
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(caches(dir)).toHaveLength(1);
    // and whole: the next run uses it (a refused cache would be written again)
    const file = join(dir, caches(dir)[0]!);
    const before = statSync(file);
    const again = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [MQ_BIN, "--help"], { env });
      let stdout = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.on("close", () => resolve(stdout));
    });
    expect(again).toBe(runs[0]!.stdout);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(file).ino).toBe(before.ino);
  });

  it("is one per copy of mq: a copy's stack traces name its own main.cjs, not that of another copy which wrote its cache first", async () => {
    // found from outside: a profile of /work's mq named the bench's temporary copy's main.cjs (V8
    // restores a script's name from its cache, and the cache was named after the build only)
    const home = tempDir("mq-code-cache-");
    const root = join(MQ_BIN, "..", "..");
    const copies = ["one", "two"].map((name) => {
      const copy = join(home, name);
      for (const part of ["bin", "dist", "package.json"]) cpSync(join(root, part), join(copy, part), { recursive: true });
      symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
      return copy;
    });
    // not spawnSync: the server below answers from this process
    const run = (copy: string, args: string[]) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(copy, "bin", "mq.js"), ...args], {
          env: {
            PATH: process.env.PATH ?? "",
            HOME: home,
            XDG_CACHE_HOME: join(home, "cache"),
            MQ_CONFIG_DIR: join(home, "config"),
            NO_COLOR: "1",
          },
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (c) => (stderr += c));
        child.on("close", (status) => resolve({ status, stderr }));
      });
    const server = await startServer({ days: 2, now: new Date("2026-11-20T12:00:00Z"), recordRequests: false });
    try {
      const ok = await run(copies[0]!, [
        "logs",
        "--repo",
        "acme/web",
        "--limit",
        "1",
        "--since",
        "2026-11-19T12:00:00Z",
        "--api-url",
        server.url,
        "--token",
        "mqk_copy_token_1234",
        "-o",
        "ndjson",
      ]);
      expect(ok.status, ok.stderr).toBe(0);
    } finally {
      await server.close();
    }
    expect(caches(join(home, "cache", "mq"))).toHaveLength(1);
    for (const copy of copies) {
      // a refused connection, with --debug: the stack goes through main.cjs's client code
      const failed = await run(copy, [
        "logs",
        "--debug",
        "--repo",
        "acme/web",
        "--api-url",
        "http://127.0.0.1:1",
        "--token",
        "mqk_copy_token_1234",
        "--timeout",
        "2",
      ]);
      expect(failed.status).not.toBe(0);
      const files = [...new Set([...failed.stderr.matchAll(/\((\/[^:()]+main\.cjs):\d+:\d+\)/g)].map((m) => m[1]))];
      expect(files, failed.stderr).toEqual([join(copy, "dist", "main.cjs")]);
    }
  });

  it("removes, a week after their last write, other builds', other copies', other V8s' files and crashed runs' temporary files, never this copy's", () => {
    const dir = join(tempDir("mq-code-cache-"), "mq");
    expect(loaderState(dir)).toBe("missing");
    const [own] = caches(dir);
    const mine = own!.replace(/\.cache$/, "");
    const old = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    const stale = [
      own!.replace(/^main-[0-9a-f]+-/, "main-0123456789abcdef-"),
      own!.replace(/^(main-[0-9a-f]+-)[0-9a-f]{8}-/, "$1deadbeef-"),
      own!.replace(process.versions.v8, "10.2.154.26-node.26"),
      `${mine}-logs.cache.4242.tmp`,
    ];
    const kept = [`${mine}-logs.cache`, own!.replace(/^main-[0-9a-f]+-/, "main-fedcba9876543210-"), "notes.txt"];
    for (const f of [...stale, ...kept]) writeFileSync(join(dir, f), "x", { mode: 0o600 });
    // all old but one other build's file, written yesterday
    for (const f of [...stale, ...kept.filter((k) => !k.startsWith("main-fedcba"))]) utimesSync(join(dir, f), old, old);
    unlinkSync(join(dir, own!));
    expect(loaderState(dir)).toBe("missing"); // saved again: the clean-up runs then
    expect(readdirSync(dir).sort()).toEqual([own!, ...kept].sort());
  });
});

describe.runIf(RUNTIME_CACHE)("the runtime's compile cache (Node 22.1 and later), for the chunks", () => {
  const compiled = (home: string) => {
    const dir = join(home, "cache", "mq", "compile-cache");
    return existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0;
  };
  // the bundled server is a chunk (an ES module) that main.cjs imports
  const chunkRun = ["--offline", "logs", "--repo", "acme/web", "--limit", "2", "-o", "ndjson"];

  it("is not enabled by a command that imports no chunk (help, auth)", () => {
    const home = tempDir("mq-compile-cache-");
    expect(mq(["--help"], home).code).toBe(0);
    expect(mq(["auth", "status"], home).code).toBe(4);
    expect(existsSync(join(home, "cache", "mq", "compile-cache"))).toBe(false);
  });

  it("is written in the user's cache folder (private) by a command that imports a chunk, used by the next, and the output is the same", () => {
    const home = tempDir("mq-compile-cache-");
    const first = mq(chunkRun, home);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(compiled(home)).toBeGreaterThan(0);
    expect(statSync(join(home, "cache", "mq")).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, "cache", "mq", "compile-cache")).mode & 0o777).toBe(0o700);
    // the bundled server's history ends now: the events, not the run, differ from one run to the next
    const second = mq(chunkRun, home);
    expect({ code: second.code, stderr: second.stderr, lines: second.stdout.trimEnd().split("\n").length }).toEqual({
      code: 0,
      stderr: first.stderr,
      lines: 2,
    });
  });

  it("is neither written nor read with MQ_NO_CODE_CACHE set, nor in a folder others may write", () => {
    const home = tempDir("mq-compile-cache-");
    const off = mq(chunkRun, home, { MQ_NO_CODE_CACHE: "1" });
    expect(off.code, off.stderr).toBe(0);
    expect(existsSync(join(home, "cache", "mq"))).toBe(false);
    mkdirSync(join(home, "cache", "mq"), { recursive: true, mode: 0o777 });
    chmodSync(join(home, "cache", "mq"), 0o777);
    const untrusted = mq(chunkRun, home);
    expect({ code: untrusted.code, stderr: untrusted.stderr }).toEqual({ code: 0, stderr: off.stderr });
    expect(compiled(home)).toBe(0);
  });
});
