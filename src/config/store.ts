// The config file: settings plus one token per API URL, kept with conf in ctx.configDir().
// conf is told not to guess a location (cwd), not to clear a file it cannot parse
// (clearInvalidConfig: false, its default, kept explicit), to treat keys literally (API URLs contain
// dots) and to write 0600 files atomically. mq adds the folder mode and its own value checks: a
// hand-edited file with a bad value is a ConfigError naming the file and the key, never rewritten.
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Conf from "conf";
import { ConfigError } from "../errors.js";
import { CONFIG_KEYS, checkConfigValue, type ConfigKey } from "./keys.js";

export { CONFIG_KEYS, type ConfigKey } from "./keys.js";

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

const TOKENS = "tokens";
export const CONFIG_FILE_NAME = "config.json";

type Raw = Record<string, unknown>;

/** The store in the context's config folder (any object that names one: the Context is one). */
export async function openConfig(ctx: { configDir(): string }): Promise<ConfigStore> {
  return openConfigAt(ctx.configDir());
}

export function openConfigAt(dir: string): ConfigStore {
  const path = join(dir, CONFIG_FILE_NAME);
  const fail = (err: unknown, doing: string): never => {
    if (err instanceof ConfigError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e?.name === "SyntaxError") {
      throw new ConfigError(
        `the config file ${path} is not valid JSON (${e.message})`,
        `fix or remove it by hand; mq does not overwrite it`,
      );
    }
    throw new ConfigError(`cannot ${doing} the config file ${path}: ${e?.code ?? e?.message ?? String(err)}`);
  };

  try {
    // 0700 applies to every folder this creates; an existing folder is the user's choice
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    fail(err, "create the folder of");
  }

  let conf!: Conf<Raw>;
  try {
    conf = new Conf<Raw>({
      cwd: dir,
      configName: "config",
      fileExtension: "json",
      configFileMode: 0o600,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
      serialize: (value) => JSON.stringify(value, null, 2) + "\n",
    });
  } catch (err) {
    fail(err, "read");
  }

  // conf reads the file on every access: check it each time so a file corrupted meanwhile fails cleanly
  const read = (): Raw => {
    let store: unknown;
    try {
      store = conf.store;
    } catch (err) {
      return fail(err, "read");
    }
    if (store === null || typeof store !== "object" || Array.isArray(store)) {
      throw new ConfigError(`the config file ${path} must hold a JSON object`, "fix or remove it by hand; mq does not overwrite it");
    }
    return store as Raw;
  };
  const write = (mutate: (data: Raw) => void): void => {
    const data = read();
    mutate(data);
    try {
      conf.store = data;
      // a file created by hand keeps its mode through conf's rename; tokens live here
      chmodSync(path, 0o600);
    } catch (err) {
      fail(err, "write");
    }
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
      throw new ConfigError(`the config file ${path} has a bad value for '${key}': ${checked.message}`, `edit the file to fix or remove '${key}' (mq will not rewrite a file it cannot read)`);
    }
    return checked.value;
  };
  const tokens = (data: Raw): Record<string, string> => {
    const t = data[TOKENS];
    if (t === undefined) return {};
    if (t === null || typeof t !== "object" || Array.isArray(t)) {
      throw new ConfigError(`the config file ${path} has a bad '${TOKENS}' entry: expected an object`);
    }
    return t as Record<string, string>;
  };

  // a fresh read per open validates the file up front: a bad file fails before anything is sent
  const initial = read();
  for (const key of CONFIG_KEYS) valueOf(initial, key);
  tokens(initial);

  return {
    path,
    get: (key) => valueOf(read(), key),
    set(key, value) {
      write((d) => {
        d[key] = key === "timeout" ? Number(value) : value;
      });
    },
    unset(key) {
      write((d) => {
        delete d[key];
      });
    },
    list() {
      const data = read();
      const out: Partial<Record<ConfigKey, string>> = {};
      for (const key of CONFIG_KEYS) {
        const v = valueOf(data, key);
        if (v !== undefined) out[key] = v;
      }
      return out;
    },
    getToken(apiUrl) {
      const t = tokens(read())[apiUrl];
      return typeof t === "string" && t !== "" ? t : undefined;
    },
    setToken(apiUrl, token) {
      write((d) => {
        d[TOKENS] = { ...tokens(d), [apiUrl]: token };
      });
    },
    deleteToken(apiUrl) {
      if (!(apiUrl in tokens(read()))) return false;
      write((d) => {
        const t = { ...tokens(d) };
        delete t[apiUrl];
        if (Object.keys(t).length === 0) delete d[TOKENS];
        else d[TOKENS] = t;
      });
      return true;
    },
  };
}
