// OpenMetrics text (https://prometheus.io/docs/specs/om/open_metrics_spec/) for node_exporter's
// textfile collector or a Pushgateway: one gauge family per figure, `# TYPE`, `# HELP`, `# UNIT`
// when it has one (the name then ends in it), label values escaped, `# EOF` last. No timestamps:
// the textfile collector refuses them, and each value is the figure over the whole window.

export interface MetricSample {
  labels: ReadonlyArray<readonly [string, string]>;
  value: number;
}

export interface MetricFamily {
  /** without the unit suffix; added when `unit` is set */
  name: string;
  help: string;
  unit?: "seconds";
  samples: MetricSample[];
}

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

export function renderOpenMetrics(families: readonly MetricFamily[]): string {
  const out: string[] = [];
  const seenNames = new Set<string>();
  for (const f of families) {
    const name = metricName(f.unit ? `${f.name}_${f.unit}` : f.name);
    // a family appears once; a label set once within it
    if (seenNames.has(name) || f.samples.length === 0) continue;
    seenNames.add(name);
    out.push(`# TYPE ${name} gauge`);
    if (f.unit) out.push(`# UNIT ${name} ${f.unit}`);
    out.push(`# HELP ${name} ${escapeHelp(f.help)}`);
    const seenLabels = new Set<string>();
    for (const s of f.samples) {
      const labels = s.labels.map(([k, v]) => `${metricName(k)}="${escapeLabelValue(v)}"`).join(",");
      if (seenLabels.has(labels)) continue;
      seenLabels.add(labels);
      out.push(`${name}${labels ? `{${labels}}` : ""} ${number(s.value)}`);
    }
  }
  out.push("# EOF");
  return out.join("\n") + "\n";
}
