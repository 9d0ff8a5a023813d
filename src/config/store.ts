// The config file: settings plus one token per API URL, a JSON object in ctx.configDir().
//
// A small store of our own rather than conf: conf validates through ajv and semver (~32 ms of
// start-up on every command that reads the file) and writes without a lock, so two `mq auth login`
// at once lost a token. Here a read is one readFileSync + JSON.parse. A write takes the lock file
// (lock.ts), re-reads the file under it, applies the one change, and replaces the file with a
// temporary file renamed over it: a reader sees the old file or the new one, never half of one, and
// concurrent writers apply their changes one after the other instead of overwriting each other.
//
// Files this writes are 0600 and a folder it creates 0700. An existing folder's mode is never
// changed (a shared 1777 folder keeps its sticky bit, through a symbolic link too): when one holding
// a token is group- or world-writable, a warning says so once per run. A file that cannot be read as a JSON object, or holds a bad value, is a
// ConfigError naming the file and is never rewritten: the user's hand edit stays for them to fix.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { ConfigError } from "../errors.js";
import { CONFIG_KEYS, checkConfigValue, type ConfigKey } from "./keys.js";
import { withLock } from "./lock.js";
import { CONFIG_FILE_NAME, configFileText, TOKENS } from "./file.js";

export { CONFIG_KEYS, type ConfigKey } from "./keys.js";
export { CONFIG_FILE_NAME } from "./file.js";

export interface ConfigStore {
  readonly path: string;
  get(key: ConfigKey): string | undefined;
  set(key: ConfigKey, value: string): void;
  unset(key: ConfigKey): void;
  list(): Partial<Record<ConfigKey, string>>;
  getToken(apiUrl: string): string | undefined;
  setToken(apiUrl: string, token: string): void;
  deleteToken(apiUrl: string): boolean;
}

const NOT_REWRITTEN = "fix or remove it by hand; mq does not overwrite it";

type Raw = Record<string, unknown>;

/** The store in the context's config folder (any object that names one: the Context is one). */
export async function openConfig(ctx: { configDir(): string; io?: { stderr: NodeJS.WritableStream } }): Promise<ConfigStore> {
  // the stream is reached only when there is a warning: building process.stderr loads node:net
  // for a pipe, which a command that prints nothing there need not pay for
  const io = ctx.io;
  return openConfigAt(ctx.configDir(), io ? { warn: (m) => io.stderr.write(`${m}\n`) } : {});
}

export interface ConfigStoreOptions {
  /** where warnings go (a token in a folder others may write); none: not warned */
  warn?: (message: string) => void;
}

export function openConfigAt(dir: string, options: ConfigStoreOptions = {}): ConfigStore {
  const path = join(dir, CONFIG_FILE_NAME);
  const fail = (err: unknown, doing: string): never => {
    if (err instanceof ConfigError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new ConfigError(`cannot ${doing} the config file ${path}: ${e?.code ?? e?.message ?? String(err)}`);
  };

  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    fail(err, "create the folder of");
  }
  let warned = false;
  /** Once per run, when a token is read or written: a folder others may write lets them swap the file. */
  const warnIfShared = (): void => {
    if (warned || options.warn === undefined || process.platform === "win32") return;
    warned = true;
    const who = sharedWriters(dir);
    if (who !== undefined) {
      options.warn(
        `mq: warning: the folder holding your token, ${dir}, is writable by ${who}; make it private (chmod 700) or set MQ_CONFIG_DIR to a private folder`,
      );
    }
  };

  /** The file's object; {} when there is no file yet. */
  const readFile = (): Raw => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
      return fail(err, "read");
    }
    text = configFileText(text);
    if (text.trim() === "") return {};
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ConfigError(`the config file ${path} is not valid JSON (${(err as Error).message})`, NOT_REWRITTEN);
    }
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      const found = data === null ? "null" : Array.isArray(data) ? "an array" : `a ${typeof data}`;
      throw new ConfigError(
        `the config file ${path} must hold a JSON object ({"repo": "owner/name", ...}), not ${found}`,
        `${NOT_REWRITTEN}; an empty object {} is a valid empty config`,
      );
    }
    return data as Raw;
  };

  const valueOf = (data: Raw, key: ConfigKey): string | undefined => {
    const raw = data[key];
    if (raw === undefined || raw === null) return undefined;
    if (typeof raw !== "string" && typeof raw !== "number") {
      throw new ConfigError(`the config file ${path} has a bad value for '${key}': expected a string`);
    }
    const checked = checkConfigValue(key, String(raw));
    if (!checked.ok) {
      // every command reads the whole file first, so `mq config set` cannot repair it: say so
      throw new ConfigError(
        `the config file ${path} has a bad value for '${key}': ${checked.message}`,
        `edit the file to fix or remove '${key}' (mq will not rewrite a file it cannot read)`,
      );
    }
    return checked.value;
  };
  const tokens = (data: Raw): Record<string, string> => {
    const t = data[TOKENS];
    if (t === undefined) return {};
    if (t === null || typeof t !== "object" || Array.isArray(t)) {
      throw new ConfigError(
        `the config file ${path} has a bad '${TOKENS}' entry: expected an object`,
        `edit the file to fix or remove '${TOKENS}'`,
      );
    }
    return t as Record<string, string>;
  };
  const check = (data: Raw): Raw => {
    for (const key of CONFIG_KEYS) valueOf(data, key);
    tokens(data);
    return data;
  };

  // One read per run for what the command reads; a bad file fails before anything is sent.
  let current = check(readFile());

  /** Applies MUTATE to the file as it is now (another process may have written since we read). */
  const update = (mutate: (data: Raw) => void): void => {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      withLock(`${path}.lock`, () => {
        const data = check(readFile());
        mutate(data);
        writeAtomically(path, JSON.stringify(data, null, 2) + "\n");
        current = data;
      });
    } catch (err) {
      fail(err, "write");
    }
  };

  return {
    path,
    get: (key) => valueOf(current, key),
    set(key, value) {
      update((d) => {
        d[key] = key === "timeout" ? Number(value) : value;
      });
    },
    unset(key) {
      update((d) => {
        delete d[key];
      });
    },
    list() {
      const out: Partial<Record<ConfigKey, string>> = {};
      for (const key of CONFIG_KEYS) {
        const v = valueOf(current, key);
        if (v !== undefined) out[key] = v;
      }
      return out;
    },
    getToken(apiUrl) {
      const t = tokens(current)[apiUrl];
      if (typeof t !== "string" || t === "") return undefined;
      warnIfShared();
      return t;
    },
    setToken(apiUrl, token) {
      update((d) => {
        d[TOKENS] = { ...tokens(d), [apiUrl]: token };
      });
      warnIfShared();
    },
    deleteToken(apiUrl) {
      let removed = false;
      update((d) => {
        const t = { ...tokens(d) };
        if (!(apiUrl in t)) return;
        removed = true;
        delete t[apiUrl];
        if (Object.keys(t).length === 0) delete d[TOKENS];
        else d[TOKENS] = t;
      });
      return removed;
    },
  };
}

/** "its group", "everyone" or "its group and everyone" when DIR's mode lets them write; else undefined. */
function sharedWriters(dir: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(dir).mode;
  } catch {
    return undefined;
  }
  const group = (mode & 0o020) !== 0;
  const world = (mode & 0o002) !== 0;
  if (group && world) return "its group and everyone";
  if (world) return "everyone";
  return group ? "its group" : undefined;
}

/**
 * Writes TEXT to PATH through a temporary file in the same folder, flushed to disk, then renamed
 * over PATH (atomic on POSIX). A symbolic link at PATH (a dotfiles manager's) is kept: the file it
 * points to is the one replaced.
 */
function writeAtomically(path: string, text: string): void {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // no file yet: it is created at PATH
  }
  const tmp = join(dirname(target), `.${CONFIG_FILE_NAME}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already renamed or never created
    }
    throw err;
  }
}
