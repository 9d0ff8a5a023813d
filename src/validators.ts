// The rules for values a user types or a file carries, in one place: owner/name, ISO 8601
// date-times with a timezone, and durations. Pure and dependency-free (no zod: they run before any
// schema is loaded), so config/, commands/, the server and the contract's schemas share them.

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

// Written as in the contract (docs/api.md §2.1): the server's 422 details quote these patterns.
export const OWNER_PATTERN = /^[a-zA-Z0-9\-]+$/;
export const OWNER_MAX_LENGTH = 40;
export const NAME_PATTERN = /^[\w\-\.]+$/;
/** the real service's limit (the contract gives no maximum) */
export const NAME_MAX_LENGTH = 100;

export interface RepoName {
  owner: string;
  name: string;
}

/** "owner/name", each part checked; the message names the part that is wrong and the rule. */
/** A value quoted in a message: a long one (a whole file on one line) shortened, with its length. */
function quoted(value: string): string {
  return value.length > 60 ? `'${value.slice(0, 60)}…' (${value.length} characters)` : `'${value}'`;
}

export function checkRepo(value: string): Checked<RepoName> {
  const parts = value.split("/");
  if (parts.length !== 2) return { ok: false, message: `${quoted(value)} is not of the form owner/name` };
  const [owner, name] = parts as [string, string];
  if (owner.length < 1 || owner.length > OWNER_MAX_LENGTH || !OWNER_PATTERN.test(owner)) {
    return { ok: false, message: `owner ${quoted(owner)} must be 1 to 40 letters, digits or hyphens` };
  }
  // "." and ".." match the pattern but would be collapsed by URL normalisation into another path
  if (name.length < 1 || name.length > NAME_MAX_LENGTH || !NAME_PATTERN.test(name) || name === "." || name === "..") {
    return { ok: false, message: `repository name ${quoted(name)} must be 1 to 100 letters, digits, '_', '-' or '.'` };
  }
  return { ok: true, value: { owner, name } };
}

const DURATION = /^(\d+)(s|m|h|d|w)$/;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** A duration like `7d` (s, m, h, d, w) in seconds, or undefined when it is not one. */
export function parseDurationSeconds(value: string): number | undefined {
  const m = DURATION.exec(value.trim());
  if (!m) return undefined;
  return Number(m[1]) * UNIT_SECONDS[m[2]!]!;
}

// what people type: T or a space, seconds and fractions optional, Z or an offset with or without ':'
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** True when `value` is an ISO 8601 date-time with a timezone that names a real instant (no 2026-02-30, no 24:00). */
export function isIsoDateTimeWithZone(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return false;
  if (Number(h) > 23 || Number(mi) > 59 || (s !== undefined && Number(s) > 59)) return false;
  return !Number.isNaN(Date.parse(value.replace(" ", "T")));
}

/** The instant an ISO 8601 date-time with a timezone names, or undefined when it is not one. */
export function parseIsoDateTime(value: string): Date | undefined {
  return isIsoDateTimeWithZone(value) ? new Date(Date.parse(value.replace(" ", "T"))) : undefined;
}
