// The rules for values a user types or a file carries, in one place: owner/name, ISO 8601
// date-times with a timezone, and durations. Pure and dependency-free (no zod: they run before any
// schema is loaded), so config/, commands/, the server and the contract's schemas share them.

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

// Written as in the contract (docs/api.md §2.1): the server's 422 details quote these patterns.
// biome-ignore lint/complexity/noUselessEscapeInRegex: the contract's text, quoted in 422 details
export const OWNER_PATTERN = /^[a-zA-Z0-9\-]+$/;
export const OWNER_MAX_LENGTH = 40;
// biome-ignore lint/complexity/noUselessEscapeInRegex: the contract's text, quoted in 422 details
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

// one or more parts, largest unit first, each unit at most once: 30m, 1h30m, 2d12h, 1w2d6h
/**
 * "owner/name" from a remote URL: https://host/owner/name(.git), ssh://[user@]host[:port]/owner/name,
 * git://host/owner/name, or the scp form [user@]host:owner/name(.git). Local paths give undefined.
 */
export function repoPathFromRemote(url: string): string | undefined {
  let path: string;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(url);
  if (scheme) {
    if (/^file:/i.test(url)) return undefined;
    path = scheme[1] ?? "";
  } else {
    const scp = /^(?:[^@/\s]+@)?[^:/\s]+:(.+)$/.exec(url);
    if (!scp) return undefined;
    path = scp[1]!;
  }
  const segments = path
    .replace(/\/+$/, "")
    .replace(/\.git$/, "")
    .split("/")
    .filter((s) => s !== "");
  if (segments.length < 2) return undefined;
  return segments.slice(-2).join("/");
}

/**
 * owner/name as a user types it (--repo, config, arguments): checkRepo's rules, and a clone URL, an
 * scp-style remote or a name ending in .git is refused with the owner/name it stands for.
 */
export function checkRepoArgument(value: string): Checked<RepoName> {
  const trimmed = value.trim();
  const checked = checkRepo(trimmed);
  if (checked.ok && !/\.git$/i.test(trimmed)) return checked;
  const meant = repoPathFromRemote(trimmed) ?? trimmed.replace(/\.git$/i, "");
  if (meant !== trimmed && checkRepo(meant).ok)
    return { ok: false, message: `${quoted(trimmed)} is not owner/name: did you mean ${meant}?` };
  return checked;
}

const DURATION = /^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;
const UNIT_SECONDS = [604800, 86400, 3600, 60, 1];

/** A duration like `7d` or `1h30m` (w, d, h, m, s) in seconds, or undefined when it is not one. */
export function parseDurationSeconds(value: string): number | undefined {
  const trimmed = value.trim();
  const m = DURATION.exec(trimmed);
  if (!m || trimmed === "") return undefined;
  return UNIT_SECONDS.reduce((sum, unit, i) => sum + Number(m[i + 1] ?? 0) * unit, 0);
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC of a calendar date written `YYYY-MM-DD`, or undefined when it is not a real date. */
export function parsePlainDate(value: string): Date | undefined {
  const m = PLAIN_DATE.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day ? at : undefined;
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
