// What ships under deploy/ asks only for what `mq exporter` serves: every metric named in the alert
// rules and in the Grafana dashboard is an exported family of the figure catalogue (a histogram's
// _bucket, _sum and _count, a counter's _total), and the dashboard is valid JSON. promtool checks
// the rules themselves (prometheus.e2e.test.ts).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { EXPORTED_FIGURES } from "../../../src/figures/exporter-figures.js";

const root = new URL("../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

/** The sample names the exporter can serve. */
const SERVED = new Set(
  EXPORTED_FIGURES.flatMap((f) => {
    const name = `mq_${f.name}`;
    return f.type === "histogram" ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
  }),
);

/** Every mq_ name in a PromQL expression, recording rules' own names (a colon in them) aside. */
const metricsOf = (expr: string) => [...expr.matchAll(/(?<![\w:])mq_[a-z_]+(?![\w:])/g)].map((m) => m[0]);

describe("deploy/", () => {
  it("the alert rules query only metrics the exporter serves", () => {
    const text = read("deploy/prometheus/mq-exporter.rules.yml");
    const exprs = [...text.matchAll(/expr: (\|\n(?:\s{10,}.*\n)+|.*)/g)].map((m) => m[1]!);
    expect(exprs.length).toBe(10);
    const names = exprs.flatMap(metricsOf);
    expect(names.filter((n) => !SERVED.has(n))).toEqual([]);
    expect(new Set(names)).toEqual(
      new Set([
        "mq_time_to_merge_seconds_bucket",
        "mq_checks_total",
        "mq_queue_size",
        "mq_queue_repeat_evictions_total",
        "mq_exporter_errors_total",
        "mq_exporter_last_event_timestamp_seconds",
      ]),
    );
  });

  it("the Grafana dashboard is JSON whose every query asks only for served metrics", () => {
    const dashboard = JSON.parse(read("deploy/grafana/mq-exporter.dashboard.json")) as {
      uid: string;
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
      templating: { list: Array<{ query: string | { query: string } }> };
    };
    expect(dashboard.uid).toBe("mq-exporter");
    const exprs = [
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
      ...dashboard.templating.list.map((v) => (typeof v.query === "string" ? v.query : v.query.query)),
    ];
    const names = exprs.flatMap(metricsOf);
    expect(names.filter((n) => !SERVED.has(n))).toEqual([]);
    // queue size, time-to-merge percentiles, exits by reason
    for (const wanted of ["mq_queue_size", "mq_time_to_merge_seconds_bucket", "mq_queue_left_total"]) expect(names).toContain(wanted);
  });
});
