// How mq writes times and numbers for people (tables, prose lines on stderr, messages): the one
// home of each rule, so that no two commands write the same thing two ways. json, ndjson and csv
// keep raw values (RFC 3339 instants as sent, seconds, ratios, bytes) and never come through here,
// except formatInstant, which is the raw form itself. It sits at the floor of the layers
// (.dependency-cruiser.cjs) because messages of the analyses and of the transport name times and
// sizes too; src/output/format.ts passes it on to the renderers with the figures' rule.

/**
 * An absolute time as people read it, everywhere on a terminal: UTC, to the second, the date first
 * and the zone said by its "Z": 2026-11-20 11:58:03Z. mq has no local-time mode, so the same
 * instant reads the same in a CI log, a teammate's terminal and the API's own records.
 */
export function formatTime(at: Date | number): string {
  const ms = typeof at === "number" ? at : at.getTime();
  if (!Number.isFinite(ms)) return "-";
  // whole seconds: a table's column keeps one width; the exact instant is in json/ndjson/csv
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace("T", " ").replace(".000Z", "Z");
}

/** The length of formatTime's text, for columns sized before any row. */
export const TIME_WIDTH = "2026-11-20 11:58:03Z".length;

/**
 * An RFC 3339 instant's own text (as the API sends it, UTC) in formatTime's form, without parsing
 * a date: for long logs, a row at a time. undefined when the text is not such an instant.
 */
export function formatTimeText(text: string): string | undefined {
  return UTC_SECOND.test(text) ? `${text.slice(0, 10)} ${text.slice(11, 19)}Z` : undefined;
}

/**
 * An RFC 3339 instant in UTC, to the second or finer. Days past the 28th are left to Date (whether
 * the 30th exists depends on the month), as are other offsets.
 */
const UTC_SECOND = /^(?:\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d)(?:\.\d+)?(?:Z|z|[+-]00:00)$/;

/**
 * An instant as the API receives it and as mq's records and command lines carry it: RFC 3339 UTC,
 * seconds precision unless there is more (2026-11-20T11:58:03Z). Not for people: formatTime is.
 */
export function formatInstant(at: Date | number): string {
  return (typeof at === "number" ? new Date(at) : at).toISOString().replace(".000Z", "Z");
}

/** An instant with its milliseconds always written (2026-11-20T11:58:03.000Z): records that carry them. */
export function formatInstantMs(at: Date | number): string {
  return (typeof at === "number" ? new Date(at) : at).toISOString();
}

/** The units of a duration, largest first. */
const DURATION_UNITS: ReadonlyArray<readonly [string, number]> = [
  ["d", 86400],
  ["h", 3600],
  ["m", 60],
  ["s", 1],
];

/** 750 → "12m 30s"; 93784 → "1d 2h"; keeps the two largest units. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "-";
  const negative = seconds < 0;
  let s = Math.round(Math.abs(seconds));
  if (s === 0) return Math.abs(seconds) > 0 ? "<1s" : "0s";
  const units = DURATION_UNITS;
  // the largest unit, then the next one down even when it is 0, so that "1h 29s" cannot be read as
  // "1h 29m": "1h 0m 29s"; two units unless a 0 in the middle needs the third
  const parts: string[] = [];
  for (const [name, size] of units) {
    if (parts.length === 0 && s < size) continue;
    parts.push(`${Math.floor(s / size)}${name}`);
    s %= size;
    if (s === 0 || (parts.length >= 2 && !parts[parts.length - 1]!.startsWith("0"))) break;
  }
  return (negative ? "-" : "") + parts.join(" ");
}

/**
 * A duration to the precision of UNIT (seconds: 86400, 3600, 60 or 1), rounded to it and written
 * from its own largest unit down to UNIT, the zeros between included: 18014 to minutes → "5h 0m";
 * a value that rounds to nothing is "<1m" (0 itself "0m").
 */
export function formatDurationTo(seconds: number, unit: number): string {
  if (!Number.isFinite(seconds)) return "-";
  const i = DURATION_UNITS.findIndex(([, size]) => size === unit);
  const [name] = DURATION_UNITS[i]!;
  let s = Math.round(Math.abs(seconds) / unit) * unit;
  if (s === 0) return seconds !== 0 ? `<1${name}` : `0${name}`;
  const parts: string[] = [];
  for (const [n, size] of DURATION_UNITS.slice(0, i + 1)) {
    if (parts.length === 0 && s < size) continue;
    parts.push(`${Math.floor(s / size)}${n}`);
    s %= size;
  }
  return (seconds < 0 ? "-" : "") + parts.join(" ");
}

/**
 * formatDuration's text back to seconds, with what surrounds it kept apart (colour codes, a trailing
 * mark such as "*"); undefined for other text.
 */
function durationText(text: string): { seconds: number; before: string; after: string } | undefined {
  const m = /^((?:\x1b\[[0-9;]*m)*)(-?)((?:\d+[dhms] )*\d+[dhms])(\*?(?:\x1b\[[0-9;]*m)*)$/.exec(text);
  if (!m) return undefined;
  let seconds = 0;
  for (const part of m[3]!.split(" ")) seconds += Number(part.slice(0, -1)) * DURATION_UNITS.find(([n]) => n === part.at(-1))![1];
  return { seconds: m[2] ? -seconds : seconds, before: m[1]!, after: m[4]! };
}

/**
 * A column's durations written to one precision, so that "5h 0m 14s" never stands beside "7h 57m":
 * the unit below the largest unit of the column's largest duration (seconds when that is seconds),
 * as formatDuration writes that value, or a coarser one when every value is a whole number of it
 * ("10m" beside "20m", not "10m 0s"). CELLS are formatDuration's texts (a trailing "*" and colour
 * codes kept); other cells ("-", a count in a column of mixed figures) are left as they are.
 */
export function alignDurations(cells: readonly string[]): string[] {
  const parsed = cells.map((c) => (c.includes("<") ? undefined : durationText(c)));
  const largest = Math.max(0, ...parsed.map((p) => (p ? Math.abs(p.seconds) : 0)));
  const top = DURATION_UNITS.findIndex(([, size]) => largest >= size);
  if (top === -1) return [...cells];
  const coarsest = DURATION_UNITS[Math.min(top + 1, DURATION_UNITS.length - 1)]![1];
  // no finer than the values need: whole minutes stay "10m", not "10m 0s"
  const needed = Math.min(
    ...parsed.map((p) => (p && p.seconds !== 0 ? DURATION_UNITS.find(([, size]) => p.seconds % size === 0)![1] : 86400)),
  );
  const unit = Math.max(coarsest, needed);
  return cells.map((c, i) => {
    const p = parsed[i];
    return p === undefined ? c : p.before + formatDurationTo(p.seconds, unit) + p.after;
  });
}

/**
 * How long ago, in the fewest characters (kubectl's AGE): "now", "45s", "3m", "2h", "5d"; "in 2m"
 * for the future. The one form of an age, in every AGE column.
 */
export function formatAge(at: Date | number, now: Date): string {
  const ms = typeof at === "number" ? at : at.getTime();
  if (!Number.isFinite(ms)) return "-";
  const diff = Math.round((now.getTime() - ms) / 1000);
  if (Math.abs(diff) < 10) return "now";
  const text = formatDuration(Math.abs(diff)).split(" ")[0]!;
  return diff >= 0 ? text : `in ${text}`;
}

// Built on first use: this module is on every command's start-up path (formatInstant), and
// constructing a NumberFormat loads ICU's locale data (7 MB of RSS, a few ms) for `mq --help` too.
let count: Intl.NumberFormat | undefined;

/** 1234567 → "1,234,567"; 2.5 → "2.5": the thousands grouped, at most two decimals. */
export function formatCount(n: number): string {
  count ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
  return count.format(n);
}

/**
 * 2192 → "2,192", 1234.5678 → "1,234.5678": every digit kept (a gate's value next to its threshold
 * must not look rounded), the thousands grouped as counts are in tables.
 */
export function formatExactNumber(n: number): string {
  const [whole, fraction] = String(n).split(".");
  return whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (fraction !== undefined ? `.${fraction}` : "");
}

/** 0.1234 → "12.3%". */
export function formatPercent(rate: number): string {
  if (!Number.isFinite(rate)) return "-";
  return `${(rate * 100).toFixed(1)}%`;
}

/**
 * From this relative rise on (+100%: the value at least twice the one it is compared with), a
 * change is written as a factor of the old value (×2.3, ×330) rather than a percentage (▲ 33013%).
 */
export const FACTOR_FROM = 1;

/**
 * A relative change (new ÷ old − 1) with its direction: "▲ 12%", "▼ 0.3%", "= 0%", and from
 * FACTOR_FROM on "▲ ×2.3" (below ×10 one decimal, then whole: "▲ ×330", "▲ ×1,204").
 */
export function formatChange(delta: number): string {
  if (!Number.isFinite(delta)) return "-";
  if (delta >= FACTOR_FROM) {
    const factor = delta + 1;
    return `▲ ×${factor < 10 ? (Math.floor(factor * 10) / 10).toFixed(1) : formatCount(Math.floor(factor))}`;
  }
  const pct = `${Math.abs(delta * 100).toFixed(Math.abs(delta) < 0.1 && delta !== 0 ? 1 : 0)}%`;
  return delta > 0 ? `▲ ${pct}` : delta < 0 ? `▼ ${pct}` : `= ${pct}`;
}

/** A size in bytes, in binary units: 512 → "512 B", 25740089 → "24.5 MiB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return "-";
  if (Math.abs(n) < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB", "PiB"];
  let v = n / 1024;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  // 64 MiB, not 64.0 MiB: a bound reads as the round number it is
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}
