// -o openmetrics read back by a real parser: the reference Python client's strict OpenMetrics
// parser (prometheus_client.openmetrics.parser; Debian's python3-prometheus-client, which
// .ci/run installs). Every subcommand with figures and the summary, on known data, and label
// values a hostile server might send. Skipped, saying why, where no Python has the package.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { testContext } from "../helpers/context.js";
import { FIXTURES, startFixtureServer, type FixtureServer } from "../commands/stats/fixture-server.js";

const PARSE = `
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
out = []
for f in text_string_to_metric_families(sys.stdin.read()):
    out.append({"name": f.name, "type": f.type, "unit": f.unit, "help": f.documentation,
                "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]})
print(json.dumps(out))
`;

const python = ["/usr/bin/python3", "python3"].find(
  (p) => spawnSync(p, ["-c", "import prometheus_client.openmetrics.parser"]).status === 0,
);
if (!python)
  console.warn("openmetrics parser tests skipped: no python3 with prometheus_client (apt-get install python3-prometheus-client)");

interface Family {
  name: string;
  type: string;
  unit: string;
  help: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

function parse(text: string): Family[] {
  const r = spawnSync(python!, ["-c", PARSE], { input: text, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`parser refused the text: ${r.stderr}\n${text}`);
  return JSON.parse(r.stdout);
}

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

async function openmetrics(args: string[], url = server.url): Promise<{ code: number; out: string; err: string }> {
  const ctx = testContext({ env: { MQ_TOKEN: "t" } });
  const code = await main([...args, "-o", "openmetrics", "--api-url", url, "--repo", "acme/web"], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

describe.skipIf(!python)("-o openmetrics through the OpenMetrics parser", () => {
  it("the summary: one gauge per figure, durations in seconds, the values mq stats summary gives", async () => {
    const { code, out } = await openmetrics(["stats", "summary"]);
    expect(code).toBe(0);
    expect(out.endsWith("# EOF\n")).toBe(true);
    const families = parse(out);
    const byName = Object.fromEntries(families.map((f) => [f.name, f]));
    expect(byName.mq_queue_check_failure_rate).toMatchObject({
      type: "gauge",
      unit: "",
      samples: [{ name: "mq_queue_check_failure_rate", labels: { repository: "acme/web" }, value: 9 / 68 }],
    });
    expect(byName.mq_queue_entered!.samples[0]!.value).toBe(49);
    expect(byName.mq_queue_max_queue_time_seconds).toMatchObject({ type: "gauge", unit: "seconds", samples: [{ value: 7100.5 }] });
    expect(families).toHaveLength(12);
  });

  // the bundled server speaks the contract: the real service's own endpoints are tested with --dialect mergify elsewhere
  for (const endpoint of STATS_ENDPOINTS.filter((e) => e.fields.length && e.dialects.includes("spec"))) {
    it(`mq stats ${endpoint.name}`, async () => {
      const { code, out } = await openmetrics(["stats", endpoint.name]);
      expect(code).toBe(0);
      const families = parse(out);
      expect(families.length).toBeGreaterThan(0);
      for (const f of families) {
        expect(f.name).toMatch(/^mq_queue_[a-z_]+$/);
        expect(f.type).toBe("gauge");
        if (f.unit) expect(f.name.endsWith(`_${f.unit}`)).toBe(true);
        for (const s of f.samples) expect(s.labels.repository).toBe("acme/web");
      }
    });
  }

  it("failure-rate per group, labels named for people", async () => {
    const families = parse((await openmetrics(["stats", "failure-rate"])).out);
    expect(families.find((f) => f.name === "mq_queue_check_failure_rate")!.samples).toEqual([
      {
        name: "mq_queue_check_failure_rate",
        labels: { repository: "acme/web", base_ref: "main", partition: "__default__", queue: "default", priority_rule: "" },
        value: 9 / 68,
      },
    ]);
  });

  it("label values a server sends are escaped and read back exactly", async () => {
    const nasty = 'q"ue\\ue\nline} x{="y"';
    const body = {
      groups: [
        {
          base_ref: "main",
          partition_name: "__default__",
          queue_name: nasty,
          priority_rule_name: null,
          stats: [{ start: "2026-11-20T00:00:00Z", end: "2026-11-20T12:00:00Z", entered: 3 }],
        },
      ],
    };
    const hostile = await startFixtureServer({ bodies: { ...FIXTURES, "queues-entered-count": body } });
    try {
      const { code, out } = await openmetrics(["stats", "queues-entered-count"], hostile.url);
      expect(code).toBe(0);
      const [family] = parse(out);
      expect(family!.samples).toEqual([
        {
          name: "mq_queue_entered",
          labels: { repository: "acme/web", base_ref: "main", partition: "__default__", queue: nasty, priority_rule: "" },
          value: 3,
        },
      ]);
      hostile.verify();
    } finally {
      await hostile.close();
    }
  });
});
