// The two exposition formats of src/output/openmetrics.ts, exactly: a counter, a gauge and a
// histogram in the Prometheus text format 0.0.4 and in OpenMetrics 1.0, and the format an Accept
// header picks.
import { describe, expect, it } from "vitest";
import { type MetricFamily, negotiateExposition, renderExposition } from "../../src/output/openmetrics.js";

const FAMILIES: MetricFamily[] = [
  {
    name: "mq_queue_entered",
    help: "Pull requests that entered a queue.",
    type: "counter",
    samples: [
      {
        labels: [
          ["repository", "acme/web"],
          ["queue", 'de"f\\ault'],
        ],
        value: 3,
      },
      {
        labels: [
          ["repository", "acme/api"],
          ["queue", "default"],
        ],
        value: 0,
      },
    ],
  },
  { name: "mq_errors", help: "none yet", type: "counter", samples: [] },
  { name: "mq_up", help: "A gauge.\nTwo lines.", samples: [{ labels: [], value: 1 }] },
  {
    name: "mq_time_to_merge",
    help: "Time to merge.",
    unit: "seconds",
    type: "histogram",
    samples: [],
    histograms: [
      {
        labels: [["repository", "acme/web"]],
        buckets: [
          [60, 1],
          [0.5, 2],
        ],
        sum: 90.5,
        count: 3,
      },
    ],
  },
];

describe("renderExposition", () => {
  it("writes the Prometheus text format 0.0.4: HELP then TYPE, a counter's family named by its _total sample", () => {
    expect(renderExposition(FAMILIES, "prometheus")).toBe(
      [
        "# HELP mq_queue_entered_total Pull requests that entered a queue.",
        "# TYPE mq_queue_entered_total counter",
        'mq_queue_entered_total{repository="acme/web",queue="de\\"f\\\\ault"} 3',
        'mq_queue_entered_total{repository="acme/api",queue="default"} 0',
        "# HELP mq_up A gauge.\\nTwo lines.",
        "# TYPE mq_up gauge",
        "mq_up 1",
        "# HELP mq_time_to_merge_seconds Time to merge.",
        "# TYPE mq_time_to_merge_seconds histogram",
        'mq_time_to_merge_seconds_bucket{repository="acme/web",le="60.0"} 1',
        'mq_time_to_merge_seconds_bucket{repository="acme/web",le="0.5"} 2',
        'mq_time_to_merge_seconds_bucket{repository="acme/web",le="+Inf"} 3',
        'mq_time_to_merge_seconds_sum{repository="acme/web"} 90.5',
        'mq_time_to_merge_seconds_count{repository="acme/web"} 3',
        "",
      ].join("\n"),
    );
  });

  it("writes OpenMetrics 1.0: TYPE, UNIT, HELP by the family's stem, # EOF last", () => {
    expect(renderExposition(FAMILIES, "openmetrics")).toBe(
      [
        "# TYPE mq_queue_entered counter",
        "# HELP mq_queue_entered Pull requests that entered a queue.",
        'mq_queue_entered_total{repository="acme/web",queue="de\\"f\\\\ault"} 3',
        'mq_queue_entered_total{repository="acme/api",queue="default"} 0',
        "# TYPE mq_up gauge",
        "# HELP mq_up A gauge.\\nTwo lines.",
        "mq_up 1",
        "# TYPE mq_time_to_merge_seconds histogram",
        "# UNIT mq_time_to_merge_seconds seconds",
        "# HELP mq_time_to_merge_seconds Time to merge.",
        'mq_time_to_merge_seconds_bucket{repository="acme/web",le="60.0"} 1',
        'mq_time_to_merge_seconds_bucket{repository="acme/web",le="0.5"} 2',
        'mq_time_to_merge_seconds_bucket{repository="acme/web",le="+Inf"} 3',
        'mq_time_to_merge_seconds_sum{repository="acme/web"} 90.5',
        'mq_time_to_merge_seconds_count{repository="acme/web"} 3',
        "# EOF",
        "",
      ].join("\n"),
    );
  });
});

describe("negotiateExposition", () => {
  it.each([
    [undefined, "prometheus"],
    ["*/*", "prometheus"],
    ["text/plain", "prometheus"],
    // what Prometheus 2.x sends
    [
      "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
      "openmetrics",
    ],
    ["application/openmetrics-text", "openmetrics"],
    ["application/openmetrics-text; version=0.0.1", "prometheus"],
    ["text/plain;q=0.9, application/openmetrics-text;q=0.5", "prometheus"],
    ["application/openmetrics-text;q=0", "prometheus"],
  ])("Accept %j → %s", (accept, format) => {
    expect(negotiateExposition(accept)).toBe(format);
  });
});
