// Which dialect mq speaks, and how it decides: --dialect, else the config key `dialect`, else the
// API URL (the real service's host -> mergify; any other URL, the bundled server included -> spec).
// With --offline, the bundled server is started in the dialect decided by --dialect or the config.
import { MERGIFY_DIALECT } from "./mergify.js";
import { SPEC_DIALECT } from "./spec.js";
import { DIALECT_NAMES, type Dialect, type DialectName } from "./types.js";

export * from "./types.js";
export { MERGIFY_DIALECT, SPEC_DIALECT };

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = { spec: SPEC_DIALECT, mergify: MERGIFY_DIALECT };

export function isDialectName(v: string): v is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(v);
}

/** The dialect an API URL speaks when nothing forces one. */
export function dialectForUrl(url: string): DialectName {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return "spec";
  }
  return MERGIFY_DIALECT.hosts.includes(host) ? "mergify" : "spec";
}

/** Every event type either side knows (completion offers them all; the dialect in effect checks). */
export const ALL_EVENT_TYPES: readonly string[] = [...new Set([...SPEC_DIALECT.eventTypes, ...MERGIFY_DIALECT.eventTypes])].sort();
