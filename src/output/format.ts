// Human formatting shared by the renderers. The rules for times, ages, durations, counts, changes
// and sizes live in src/iostreams/human.ts (messages below this layer need them too) and are passed
// on here; the figures' rule is this module's own. A table (-o table) is for people wherever it
// goes, so its figures are written by formatFigure on a terminal and in a pipe alike; json, ndjson
// and csv keep raw values (seconds, ratios, numbers).
import type { FieldKind } from "../stats/endpoints.js";
import { formatCount, formatDuration, formatPercent } from "../iostreams/human.js";

export {
  FACTOR_FROM,
  formatAge,
  formatBytes,
  formatChange,
  formatCount,
  formatDuration,
  formatExactNumber,
  formatInstant,
  formatInstantMs,
  formatPercent,
  formatTime,
  formatTimeText,
  TIME_WIDTH,
} from "../iostreams/human.js";

/**
 * A figure as every table writes it (mq stats, insights, prs): a duration in words, a rate as a
 * percentage, anything else (counts, sizes) as a number with its thousands grouped.
 */
export function formatFigure(value: number, kind: FieldKind | undefined): string {
  if (kind === "duration") return formatDuration(value);
  if (kind === "rate") return formatPercent(value);
  return formatCount(value);
}
