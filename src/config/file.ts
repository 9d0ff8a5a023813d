// What the config file is called and how its text is read, shared by the store and by the masking
// of stored tokens in messages (src/secrets.ts), which must not load the store to start up.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const CONFIG_FILE_NAME = "config.json";
/** The key of the object holding one token per API URL. */
export const TOKENS = "tokens";

/** The file's text as JSON.parse takes it: editors on Windows save with a byte-order mark. */
export function configFileText(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Every token stored in DIR's config file, for masking in messages: best effort, never throws (a
 * file that cannot be read has no tokens to hide, and its own error is reported elsewhere).
 */
export function storedTokens(dir: string): string[] {
  try {
    const data = JSON.parse(configFileText(readFileSync(join(dir, CONFIG_FILE_NAME), "utf8"))) as Record<string, unknown> | null;
    const tokens = data?.[TOKENS];
    if (tokens === null || typeof tokens !== "object") return [];
    return Object.values(tokens as Record<string, unknown>).filter((t): t is string => typeof t === "string" && t !== "");
  } catch {
    return [];
  }
}
