// Human formatting shared by the renderers: durations, relative times, counts and rates. A table
// (-o table) is for people wherever it goes, so its figures are written by formatFigure on a
// terminal and in a pipe alike; json, ndjson and csv keep raw values (seconds, ratios, numbers).
import type { FieldKind } from "../stats/endpoints.js";

/** 750 → "12m 30s"; 93784 → "1d 2h"; keeps the two largest units. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "-";
  const negative = seconds < 0;
  let s = Math.round(Math.abs(seconds));
  if (s === 0) return Math.abs(seconds) > 0 ? "<1s" : "0s";
  const units: Array<[string, number]> = [
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
    ["s", 1],
  ];
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

/** "3m ago", "2h ago", "5d ago", or "in 2m" for the future. */
export function formatRelativeTime(date: Date, now: Date): string {
  const diff = Math.round((now.getTime() - date.getTime()) / 1000);
  if (Math.abs(diff) < 45) return "just now";
  const text = formatDuration(Math.abs(diff)).split(" ")[0]!;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

// Built on first use: this module is on every command's start-up path (formatInstant), and
// constructing a NumberFormat loads ICU's locale data (7 MB of RSS, a few ms) for `mq --help` too.
let count: Intl.NumberFormat | undefined;

/** 1234567 → "1,234,567"; 2.5 → "2.5". */
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
 * A figure as every table writes it (mq stats, insights, prs): a duration in words, a rate as a
 * percentage, anything else (counts, sizes) as a number with its thousands grouped.
 */
export function formatFigure(value: number, kind: FieldKind | undefined): string {
  if (kind === "duration") return formatDuration(value);
  if (kind === "rate") return formatPercent(value);
  return formatCount(value);
}

/** An instant in the form the API receives: UTC, seconds precision unless the user gave more. */
export function formatInstant(date: Date): string {
  return date.toISOString().replace(".000Z", "Z");
}
