// The one home of the metric exposition formats. OpenMetrics 1.0 text
// (https://prometheus.io/docs/specs/om/open_metrics_spec/) for `-o openmetrics` (node_exporter's
// textfile collector, a Pushgateway) and for `mq exporter` when a scraper asks for it; the
// Prometheus text format 0.0.4 for `mq exporter`'s other scrapers. A family appears once, its
// `# TYPE`, `# HELP`, `# UNIT` (OpenMetrics, when it has one: the name then ends in it), label
// values escaped; OpenMetrics ends with `# EOF`. No timestamps: the textfile collector refuses
// them, and a value is the figure at the time of the scrape (or over `-o openmetrics`'s window).

export interface MetricSample {
  labels: ReadonlyArray<readonly [string, string]>;
  value: number;
}

/** One histogram: cumulative counts per upper bound (ascending, +Inf left out: it is `count`). */
export interface HistogramSample {
  labels: ReadonlyArray<readonly [string, string]>;
  buckets: ReadonlyArray<readonly [number, number]>;
  sum: number;
  count: number;
}

export type MetricType = "gauge" | "counter" | "histogram";

export interface MetricFamily {
  /** without the unit suffix (added when `unit` is set) and without a counter's `_total` */
  name: string;
  help: string;
  unit?: "seconds";
  /** gauge when left out */
  type?: MetricType;
  /** a gauge's or a counter's samples */
  samples: MetricSample[];
  /** a histogram's */
  histograms?: HistogramSample[];
}

export type ExpositionFormat = "openmetrics" | "prometheus";

/** What each format is served as (`Content-Type`). */
export const EXPOSITION_CONTENT_TYPE: Readonly<Record<ExpositionFormat, string>> = {
  openmetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8",
  prometheus: "text/plain; version=0.0.4; charset=utf-8",
};

/** A metric or label name: [a-zA-Z_][a-zA-Z0-9_]*, anything else as `_`. */
export function metricName(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(clean) ? clean : `_${clean}`;
}

/** Label values: backslash, double quote and line feed escaped (the spec's escaped-string). */
export function escapeLabelValue(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text: backslash and line feed escaped. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

function number(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  return String(value);
}

/** A bucket bound as both formats read it: a float (`60.0`), as the reference clients write them. */
function bound(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : number(value);
}

function labelText(labels: ReadonlyArray<readonly [string, string]>, extra?: readonly [string, string]): string {
  const all = extra ? [...labels, extra] : labels;
  const text = all.map(([k, v]) => `${metricName(k)}="${escapeLabelValue(v)}"`).join(",");
  return text ? `{${text}}` : "";
}

function familyLines(f: MetricFamily, format: ExpositionFormat): string[] {
  const type = f.type ?? "gauge";
  const name = metricName(f.unit ? `${f.name}_${f.unit}` : f.name);
  // the 0.0.4 format names a counter's family by its sample (`_total`); OpenMetrics by its stem
  const familyName = format === "prometheus" && type === "counter" ? `${name}_total` : name;
  const out: string[] = [];
  if (format === "openmetrics") {
    out.push(`# TYPE ${familyName} ${type}`);
    if (f.unit) out.push(`# UNIT ${familyName} ${f.unit}`);
    out.push(`# HELP ${familyName} ${escapeHelp(f.help)}`);
  } else {
    out.push(`# HELP ${familyName} ${escapeHelp(f.help)}`);
    out.push(`# TYPE ${familyName} ${type}`);
  }
  const seenLabels = new Set<string>();
  if (type === "histogram") {
    for (const h of f.histograms ?? []) {
      const labels = labelText(h.labels);
      if (seenLabels.has(labels)) continue;
      seenLabels.add(labels);
      for (const [le, count] of h.buckets) out.push(`${name}_bucket${labelText(h.labels, ["le", bound(le)])} ${number(count)}`);
      out.push(`${name}_bucket${labelText(h.labels, ["le", "+Inf"])} ${number(h.count)}`);
      out.push(`${name}_sum${labels} ${number(h.sum)}`);
      out.push(`${name}_count${labels} ${number(h.count)}`);
    }
    return out;
  }
  const sampleName = type === "counter" ? `${name}_total` : name;
  for (const s of f.samples) {
    const labels = labelText(s.labels);
    if (seenLabels.has(labels)) continue;
    seenLabels.add(labels);
    out.push(`${sampleName}${labels} ${number(s.value)}`);
  }
  return out;
}

/** The families in FORMAT; a family without samples is left out. */
export function renderExposition(families: readonly MetricFamily[], format: ExpositionFormat): string {
  const out: string[] = [];
  const seenNames = new Set<string>();
  for (const f of families) {
    const name = metricName(f.unit ? `${f.name}_${f.unit}` : f.name);
    // a family appears once
    if (seenNames.has(name) || (f.samples.length === 0 && (f.histograms ?? []).length === 0)) continue;
    seenNames.add(name);
    out.push(...familyLines(f, format));
  }
  if (format === "openmetrics") out.push("# EOF");
  return out.length === 0 ? "" : out.join("\n") + "\n";
}

export function renderOpenMetrics(families: readonly MetricFamily[]): string {
  return renderExposition(families, "openmetrics");
}

/**
 * The format an `Accept` header asks for: OpenMetrics when it ranks application/openmetrics-text
 * (version 1.0.0 or none) above text/plain, as Prometheus asks; the 0.0.4 text format otherwise
 * (no header, `*\/*`, text/plain, anything else: what every scraper reads).
 */
export function negotiateExposition(accept: string | undefined): ExpositionFormat {
  let best: { format: ExpositionFormat; q: number } = { format: "prometheus", q: 0 };
  for (const part of (accept ?? "").split(",")) {
    const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const param = (key: string) => params.find((p) => p.startsWith(`${key}=`))?.slice(key.length + 1);
    const q = param("q") === undefined ? 1 : Number(param("q"));
    if (!(q > 0)) continue;
    const version = param("version");
    if (type === "application/openmetrics-text" && (version === undefined || version === "1.0.0") && q > best.q)
      best = { format: "openmetrics", q };
    else if ((type === "text/plain" || type === "*/*" || type === "text/*") && q > best.q) best = { format: "prometheus", q };
  }
  return best.format;
}
