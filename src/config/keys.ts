// The config keys and the checks every source of a value goes through (flag, environment, config
// file, `mq config set`). Pure functions with no dependencies, so resolution, the store and the
// commands share one definition of "valid" (the value rules themselves: ../validators.ts); the caller picks the error type (usage vs. config).
import { COLOR_MODES, FIGURE_FORMATS, OUTPUT_FORMATS } from "../globals.js";

/**
 * A default for every data command: the figure formats (markdown, openmetrics) only suit mq stats,
 * and `none` as a default would silence every command.
 */
const DEFAULT_FORMATS = OUTPUT_FORMATS.filter((f) => !FIGURE_FORMATS.includes(f) && f !== "none");
import { checkRepoArgument, type Checked } from "../validators.js";

export type { Checked };
import { DIALECT_NAMES } from "../api/dialects/types.js";
import { stripUserinfo } from "../api/urls.js";

export const CONFIG_KEYS = ["api-url", "repo", "output", "color", "timeout", "dialect"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export const DEFAULT_API_URL = "https://api.mergify.com";

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

/** Node's timers hold at most 2^31-1 ms; a longer timeout fires at once (every request would time out). */
export const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** What `mq config set KEY` accepts, for the one-line error that names the allowed values. */
export const CONFIG_KEY_HELP: Record<ConfigKey, string> = {
  "api-url": "an http(s) URL without credentials, query or /v1, e.g. https://api.mergify.com",
  repo: "owner/name",
  output: DEFAULT_FORMATS.join(", "),
  color: COLOR_MODES.join(", "),
  timeout: `a positive number of seconds, at most ${MAX_TIMEOUT_SECONDS}`,
  dialect: `${DIALECT_NAMES.join(", ")} (default: decided by the API URL)`,
};

/**
 * The API base URL without /v1 and without a trailing slash. Credentials, a query or a fragment
 * are refused: a token must never travel in a URL (it ends up in logs, proxies and shell history).
 */
export function checkApiUrl(raw: string): Checked<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, message: `'${stripUserinfo(raw)}' is not a valid URL` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, message: `'${url.protocol}' is not supported: use an https:// URL` };
  }
  if (url.username || url.password) {
    return { ok: false, message: "the URL must not contain credentials: pass the token with MQ_TOKEN or mq auth login" };
  }
  if (url.search || url.hash) {
    return { ok: false, message: "the URL must not contain a query or a fragment: pass the token with MQ_TOKEN or mq auth login" };
  }
  let path = url.pathname.replace(/\/+$/, "");
  // people paste the versioned root; the client appends /v1 itself
  if (path.endsWith("/v1")) path = path.slice(0, -3);
  return { ok: true, value: `${url.origin}${path}` };
}

export function checkTimeout(raw: string | number): Checked<number> {
  const n = typeof raw === "number" ? raw : raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(n) || n <= 0) return { ok: false, message: `'${raw}' is not a positive number of seconds` };
  if (n > MAX_TIMEOUT_SECONDS) {
    return { ok: false, message: `'${raw}' is more than ${MAX_TIMEOUT_SECONDS} seconds (about 24 days), the longest timeout mq can keep` };
  }
  return { ok: true, value: n };
}

/** Check and normalise a value for KEY; the message names the allowed values. */
export function checkConfigValue(key: ConfigKey, raw: string): Checked<string> {
  switch (key) {
    case "api-url":
      return checkApiUrl(raw);
    case "repo": {
      const r = checkRepoArgument(raw.trim());
      return r.ok ? { ok: true, value: `${r.value.owner}/${r.value.name}` } : r;
    }
    case "output":
    case "color":
    case "dialect": {
      const allowed: readonly string[] = key === "output" ? DEFAULT_FORMATS : key === "color" ? COLOR_MODES : DIALECT_NAMES;
      return allowed.includes(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: `'${raw}' is not allowed; allowed values: ${allowed.join(", ")}` };
    }
    case "timeout": {
      const t = checkTimeout(raw);
      return t.ok ? { ok: true, value: String(t.value) } : t;
    }
  }
}
