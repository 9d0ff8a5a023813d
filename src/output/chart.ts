// Terminal charts without a dependency: a sparkline of one figure over time, scaled between its
// minimum and maximum, labelled with both and with the time span it covers.
import { maxOf, minOf } from "../arrays.js";
import { formatTime } from "../iostreams/human.js";

const LEVELS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] as const;

export interface ChartPoint {
  start: string;
  end: string;
  /** missing values draw as a blank */
  value: number | null | undefined;
}

export interface ChartSpec {
  /** heading line (the group) */
  title: string;
  /** the figure's name, printed before the sparkline */
  label: string;
  points: readonly ChartPoint[];
  /** terminal width; the sparkline is resampled to fit */
  columns: number;
  /** how min and max are printed (durations, percentages...) */
  format?: (value: number) => string;
}

function finite(v: number | null | undefined): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/** Averages consecutive values into `width` buckets; a bucket with no value stays empty. */
export function resample(values: readonly (number | null | undefined)[], width: number): Array<number | undefined> {
  if (width <= 0) return [];
  if (values.length <= width) return values.map((v) => (finite(v) ? v : undefined));
  const out: Array<number | undefined> = [];
  for (let i = 0; i < width; i++) {
    const from = Math.floor((i * values.length) / width);
    const to = Math.floor(((i + 1) * values.length) / width);
    const xs = values.slice(from, to).filter(finite);
    out.push(xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);
  }
  return out;
}

/** ▁▂▃▄▅▆▇█ scaled from the smallest to the largest value; a flat series sits on the baseline. */
export function sparkline(values: readonly (number | null | undefined)[], width = values.length): string {
  const xs = resample(values, width);
  const present = xs.filter(finite);
  if (!present.length) return xs.map(() => " ").join("");
  const min = minOf(present);
  const max = maxOf(present);
  const span = max - min;
  return xs
    .map((v) => {
      if (v === undefined) return " ";
      if (span === 0) return v === 0 ? LEVELS[0] : LEVELS[3];
      const level = Math.round(((v - min) / span) * (LEVELS.length - 1));
      return LEVELS[Math.max(0, Math.min(LEVELS.length - 1, level))];
    })
    .join("");
}

function shortInstant(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatTime(t);
}

/**
 * The values on a time grid: the API leaves out intervals with nothing in them, and drawing the
 * rest side by side would squeeze hours of quiet out of the picture. The step is the median
 * interval length (the first and last intervals of a window may be partial); a missing interval
 * draws as a blank. Points that do not sit on a grid are drawn as they come.
 */
export function onTimeGrid(points: readonly ChartPoint[]): { values: Array<number | null | undefined>; slots: number } {
  const asGiven = { values: points.map((p) => p.value), slots: points.length };
  const ends = points.map((p) => Date.parse(p.end));
  const lengths = points
    .map((p, i) => ends[i]! - Date.parse(p.start))
    .filter((d) => d > 0)
    .sort((a, b) => a - b);
  if (points.length < 2 || lengths.length === 0 || ends.some(Number.isNaN)) return asGiven;
  const step = lengths[Math.floor(lengths.length / 2)]!;
  const slotOf = (end: number) => Math.round((end - ends[0]!) / step);
  const slots = slotOf(ends[ends.length - 1]!) + 1;
  if (slots < points.length || slots > 100_000) return asGiven;
  const values: Array<number | null | undefined> = new Array(slots).fill(undefined);
  for (let i = 0; i < points.length; i++) values[slotOf(ends[i]!)] = points[i]!.value;
  return { values, slots };
}

/**
 * Three lines per series: the title, then `label ▁▃█▅  min X  max Y`, then the time span and the
 * number of intervals.
 */
export function renderChart(spec: ChartSpec): string {
  const format = spec.format ?? ((v: number) => String(Number(v.toPrecision(6))));
  const { values, slots } = onTimeGrid(spec.points);
  const present = values.filter(finite);
  const lines = [spec.title];
  if (!present.length) {
    lines.push(`  ${spec.label}  (no data)`);
    return lines.join("\n") + "\n";
  }
  const min = minOf(present);
  const max = maxOf(present);
  const labels = `  min ${format(min)}  max ${format(max)}`;
  const room = Math.max(8, spec.columns - spec.label.length - 4 - labels.length);
  lines.push(`  ${spec.label}  ${sparkline(values, Math.min(room, values.length))}${labels}`);
  const first = spec.points[0]!;
  const last = spec.points[spec.points.length - 1]!;
  const n = spec.points.length;
  const counted = slots > n ? `${n} of ${slots} intervals with data` : `${n} interval${n === 1 ? "" : "s"}`;
  const span = `  ${shortInstant(first.start)} → ${shortInstant(last.end)}`;
  // one character a column (ASCII, the arrow and the dot); on two lines where one would not fit
  const caption = `${span} · ${counted}`;
  lines.push(caption.length <= spec.columns ? caption : `${span}\n  ${counted}`);
  return lines.join("\n") + "\n";
}
