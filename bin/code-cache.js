"use strict";
// Loads dist/main.cjs, the start-up bundle, through a code cache: compiling it and the functions a
// command runs is most of what mq does before its first request. main.cjs loads the commands'
// bundle (dist/commands-HASH.cjs) through the same loader when a command first needs it, with a
// cache of its own (scripts/build.mjs, __mqCommands).
//
// main.cjs through V8's code cache kept by hand (node:vm's cachedData and createCachedData), on
// every Node: written after the command has run, it holds the functions the command ran, not only
// the top level. Node's own compile cache (22.1 and later) is made when a file is compiled, so it
// holds main.cjs's top level only and every function a command calls is compiled again on each
// run: `mq --help` took 1.2x the CPU with it on Node 24 than with this one (bench/RESULTS.md). On
// Node 22.1 and later the runtime's compile cache serves the chunks of dist/chunks/ (ES modules
// that main.cjs imports when a command needs them), enabled at the first such import: a command
// that loads none (help, auth) does not pay for it.
//
// The cache lives in the user's cache folder (never the package's, which may be read-only or
// shared). By hand: one file per build of main.cjs, V8 version, CPU architecture and V8 flag set
// (mq serve runs with other flags, and V8 refuses a cache made under different flags). V8 itself
// checks its version, its flags and the source's length and rejects what does not match; a
// missing, refused or unreadable cache only means compiling as usual. A new cache is written to a
// temporary file and renamed into place: a concurrent mq reads the old one or the new one, never
// half of one.
const {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} = require("node:fs");
const { basename, dirname, isAbsolute, join } = require("node:path");
const { pathToFileURL } = require("node:url");
const { Script } = require("node:vm");

const MAIN = join(__dirname, "..", "dist", "main.cjs");
/** caches of other builds and copies are removed once this old (two installed copies of mq do not thrash) */
const STALE_MS = 7 * 24 * 3600 * 1000;

/**
 * The per-user cache folder: $XDG_CACHE_HOME/mq or ~/.cache/mq; ~/Library/Caches/mq; %LOCALAPPDATA%\mq\Cache.
 * None with MQ_NO_CODE_CACHE set (non-empty): an image or a sandbox that wants no file written
 * outside the config folder says so.
 */
function cacheDir(env = process.env, platform = process.platform) {
  if (env.MQ_NO_CODE_CACHE) return undefined;
  if (platform === "win32") return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, "mq", "Cache") : undefined;
  if (platform === "darwin") return env.HOME ? join(env.HOME, "Library", "Caches", "mq") : undefined;
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, "mq");
  return env.HOME ? join(env.HOME, ".cache", "mq") : undefined;
}

/**
 * Compiled code from a file is code run: only from a folder and a file that are this user's and
 * that nobody else may write (another user's planted cache in a shared $XDG_CACHE_HOME would run
 * as us). Windows has no such modes: its per-user folder is the guard.
 */
function isOwnPrivate(path) {
  try {
    return isOwnPrivateStat(statSync(path));
  } catch {
    return false;
  }
}

function isOwnPrivateStat(st) {
  if (process.getuid === undefined) return true;
  return st.uid === process.getuid() && (st.mode & 0o022) === 0;
}

/**
 * The cache file's payload, read from the file whose owner and mode were checked (one open: a
 * folder renamed between a check by name and the read could hand us another file), or undefined.
 * The file holds the payload twice: V8 checks a cache's version, flags and length but, outside
 * debug builds, not its bytes, and a cache damaged in place (a bad disk, an unclean shutdown)
 * aborted every later run in V8's deserializer, or could run altered bytecode. Two copies that
 * differ are damage; comparing them is a memcmp, where a CRC-32 needed node:zlib (and the stream
 * modules it loads): ~1 ms of every `mq --help`, for twice the disk (~0.8 MB a command).
 */
function readCache(path) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    if (!isOwnPrivateStat(fstatSync(fd))) return undefined;
    const data = readFileSync(fd);
    const half = data.length / 2;
    if (data.length === 0 || !Number.isInteger(half)) return null;
    const payload = data.subarray(0, half);
    return payload.equals(data.subarray(half)) ? payload : null;
  } catch {
    return undefined; // none yet, or unreadable: compile as usual
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** FNV-1a of PATH, 8 hex digits: tells installs apart in a name without loading node:crypto */
function pathTag(path) {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

function exists(path) {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs main.cjs as Node's require would, and returns its exports and `save`, which writes the
 * hand-made code caches when there were none to use (call it once the command has run: a cache
 * then holds the functions it compiled, not only the top level). main.cjs loads the commands'
 * file (dist/commands-*.cjs) through the same loader, on first use, with a cache of its own.
 * VARIANT tells apart the caches of runs that compile different code or run under other V8 flags
 * (bin/mq.js: one per command). `cache` says what was done with main.cjs's: "used", "rejected",
 * "missing", "untrusted" or "off". RUNTIME_CACHE: false for no compile cache of Node's for the
 * chunks; by default, where Node has one.
 */
function loadMain({ file = MAIN, dir = cacheDir(), variant = "", runtimeCache } = {}) {
  const loaded = [];
  const load = (path) => {
    const bundle = loadBundle(path, dir, variant);
    loaded.push(bundle);
    return bundle;
  };
  let runtime;
  globalThis[Symbol.for("mq.import")] = (specifier) => {
    if (runtimeCache !== false) runtime ??= enableRuntimeCache(dir);
    return import(new URL(specifier, pathToFileURL(file)).href);
  };
  globalThis[Symbol.for("mq.require")] = (path) => load(path).exports;
  const main = load(file);
  return {
    exports: main.exports,
    /** what was done with Node's compile cache, once a chunk was imported: "on", "untrusted" or "off" */
    runtimeCache: () => (runtimeCache !== false ? runtime : "off"),
    cache: main.cache,
    save: () => {
      // a bundle whose cache was used has nothing to write (not even compiling its save for that)
      for (const bundle of loaded) if (bundle.cache !== "used") bundle.save();
    },
  };
}

/**
 * Runs the CommonJS bundle FILE as Node's require would, through its code cache in DIR: its
 * exports, what was done with the cache, and `save`.
 */
function loadBundle(file, dir, variant) {
  const source = readFileSync(file, "utf8");
  const build = /^\/\/mq-build ([0-9a-f]+)\n/.exec(source)?.[1];
  // the path too: V8 restores the script's name from the cache, and stack traces (--debug) of one
  // copy of mq named another copy's main.cjs when two installs of one build shared the folder
  const kind = basename(file, ".cjs").replace(/-[0-9a-f]+$/, "");
  const mine = `${kind}-${build}-${pathTag(file)}-${process.versions.v8}-${process.arch}`;
  const name = build && dir ? `${mine}${variant}.cache` : undefined;
  const trusted = name !== undefined && isOwnPrivate(dir);
  // a folder that is not there yet is made by the first save (main.cjs's or the commands' file's)
  const untrustedFolder = name !== undefined && !trusted && exists(dir);
  // null: a damaged file, refused as V8 refuses a cache it cannot use (and written again)
  const read = trusted ? readCache(join(dir, name)) : undefined;
  const cachedData = read ?? undefined;
  // the file as it is: evaluated as a script, a bundle is the function Node's CommonJS wrapper
  // makes of it (scripts/build.mjs, SCRIPT_FUNCTION). Code restored from a code cache has no
  // import() of its own: the bundles load their chunks through this module's (__mqImport)
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(module.exports, module.exports, requireFrom(file), module, file, dirname(file));
  module.loaded = true;
  const used = cachedData !== undefined && !script.cachedDataRejected;
  const rejected = read === null || (cachedData !== undefined && !used);
  return {
    exports: module.exports,
    cache: name === undefined ? "off" : used ? "used" : rejected ? "rejected" : untrustedFolder ? "untrusted" : "missing",
    save: () => {
      if (name === undefined || used || untrustedFolder) return;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // again: a folder made by someone else since the load is theirs, and "wx" follows no link
        // planted at the temporary name (it would have us overwrite whatever file it names)
        if (!isOwnPrivate(dir)) return;
        const tmp = join(dir, `${name}.${process.pid}.tmp`);
        const data = script.createCachedData();
        try {
          unlinkSync(tmp); // a crashed run's, whose pid this is now
        } catch {
          // none
        }
        writeFileSync(tmp, Buffer.concat([data, data]), { mode: 0o600, flag: "wx" });
        renameSync(tmp, join(dir, name));
        const now = Date.now();
        for (const other of readdirSync(dir)) {
          // another build's, another copy's (the bench's temporary installs), another V8's, or a
          // crashed run's temporary file; a copy still in use writes its file again when it runs
          if (!other.startsWith(`${kind}-`) || (other.startsWith(mine) && other.endsWith(".cache"))) continue;
          const path = join(dir, other);
          if (now - statSync(path).mtimeMs > STALE_MS) unlinkSync(path);
        }
      } catch {
        // a read-only or full disk: the next run compiles as usual
      }
    },
  };
}

/**
 * The `require` of the bundle FILE: Node's own modules (all a bundle requires here) through this
 * file's require, any other path relative to FILE through a require made for it on first use.
 * node:module, which makes one, costs ~0.4 ms of CPU that `mq --help` and `mq auth status` would
 * pay for a require they never call.
 */
function requireFrom(file) {
  let relative;
  return (id) => (id.startsWith("node:") ? require(id) : (relative ??= require("node:module").createRequire(file))(id));
}

/**
 * Node 22.1 and later: the runtime's compile cache for the files mq loads after main.cjs, in a
 * folder of the user's cache folder that is this user's alone (compiled code from a file is code run).
 */
function enableRuntimeCache(dir) {
  const nodeModule = require("node:module");
  if (dir === undefined || typeof nodeModule.enableCompileCache !== "function") return "off";
  // nothing made in a folder others may write
  if (exists(dir) && !isOwnPrivate(dir)) return "untrusted";
  const folder = join(dir, "compile-cache");
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch {
    // a read-only disk: no cache
  }
  if (!isOwnPrivate(dir) || !isOwnPrivate(folder)) return "untrusted";
  const { status } = nodeModule.enableCompileCache(folder);
  return status === nodeModule.constants.compileCacheStatus.FAILED ? "off" : "on";
}

module.exports = { loadMain, cacheDir, pathTag };
