// The exporter's /metrics read by parsers mq did not write: the reference Python client's parsers
// (prometheus_client: parser for the text format 0.0.4, openmetrics.parser for OpenMetrics 1.0, the
// strict one; Debian's python3-prometheus-client, which .ci/run installs). Both formats of one
// round parse to the same families and samples, whose names, types, help and units are the figure
// catalogue's, with label values a hostile log might hold (quotes, backslashes, a newline, bidi and
// non-ASCII) read back exactly. Skipped, saying why, where no Python has the package.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { figureCatalogue } from "../../../src/figures/catalogue.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { get, NOW, rawLog, ready, samples, startExporter, TOKEN } from "./harness.js";

const PARSE = `
import json, sys
fmt = sys.argv[1]
if fmt == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families
out = []
for f in text_string_to_metric_families(sys.stdin.read()):
    out.append({"name": f.name, "type": f.type, "unit": getattr(f, "unit", ""), "help": f.documentation,
                "samples": [[s.name, s.labels, s.value] for s in f.samples]})
print(json.dumps(out))
`;

const python = ["/usr/bin/python3", "python3"].find(
  (p) => spawnSync(p, ["-c", "import prometheus_client.parser, prometheus_client.openmetrics.parser"]).status === 0,
);
if (!python) console.warn("exporter parser tests skipped: no python3 with prometheus_client (apt-get install python3-prometheus-client)");

interface Family {
  name: string;
  type: string;
  unit: string;
  help: string;
  samples: Array<[string, Record<string, string>, number]>;
}

function parse(text: string, format: "openmetrics" | "text"): Family[] {
  const r = spawnSync(python!, ["-c", PARSE, format], { input: text, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`the ${format} parser refused the exposition: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const HOSTILE_QUEUE = 'we"ird\\queue\nline \u202eevil ✓';
const LATER = new Date(NOW.getTime() + 60_000);
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 6, days: 1, now: NOW, token: TOKEN, repos: ["acme/web", "acme/api"] });
  // a queue name no queue should have, entered after the simulated history
  const raw = await rawLog(server, "acme/web", new Date(NOW.getTime() - 3_600_000));
  const enter = raw.find((e) => e.type === "action.queue.enter")!;
  const at = new Date(LATER.getTime() - 10_000).toISOString();
  server.appendEvents("acme/web", [
    {
      ...enter,
      id: Math.max(...raw.map((e) => e.id)) + 1,
      received_at: at,
      metadata: { ...enter.metadata, queue_name: HOSTILE_QUEUE, queued_at: at },
    },
  ] as never);
});
afterAll(() => server?.close());

describe.skipIf(!python)("the exporter's /metrics through prometheus_client's parsers", () => {
  it("both formats parse to the same families and samples, named and described by the catalogue", async () => {
    const exp = await startExporter(server, ["--repo", "acme/web,acme/api", "--since", "2h"], () => LATER);
    try {
      await ready(exp.url);
      const text = (await get(`${exp.url}/metrics`)).body;
      const om = (await get(`${exp.url}/metrics`, { accept: "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5" }))
        .body;
      const fromText = parse(text, "text");
      const fromOm = parse(om, "openmetrics");
      // one family per exported figure with samples, in the catalogue's order, with its definition as help
      // (no evictions repeated and no failed poll here: those two families have no sample, and are not written)
      const exported = figureCatalogue().filter((f) => f.exporter !== undefined);
      const family = (f: (typeof exported)[number]) => `mq_${f.name.replace(/_total$/, "")}`;
      const written = exported.filter((f) => !["queue_repeat_evictions_total", "exporter_errors_total"].includes(f.name));
      for (const fs of [fromText, fromOm]) {
        expect(fs.map((f) => f.name)).toEqual(written.map(family));
        expect(fs.map((f) => f.help)).toEqual(written.map((f) => f.definition));
        expect(fs.map((f) => f.type)).toEqual(written.map((f) => f.exporter!.type));
      }
      // OpenMetrics says the unit; the text format has it in the name only
      expect(fromOm.map((f) => f.unit)).toEqual(written.map((f) => (f.name.endsWith("_seconds") ? "seconds" : "")));
      // the same samples in both, and the ones mq's own reading of the text gives
      const flat = (fs: Family[]) =>
        fs
          .flatMap((f) => f.samples.map(([n, l, v]) => `${n}${JSON.stringify(Object.entries(l).sort())} ${v}`))
          .filter((line) => !line.includes("_created"))
          .sort();
      expect(flat(fromText)).toEqual(flat(fromOm));
      expect(flat(fromOm).length).toBe(samples(text).size);
      // the hostile queue name read back exactly, in both
      for (const fs of [fromText, fromOm]) {
        const entered = fs.find((f) => f.name === "mq_queue_entered")!;
        expect(entered.samples.filter(([, l]) => l.queue === HOSTILE_QUEUE).map(([n, l, v]) => [n, l.repository, v])).toEqual([
          ["mq_queue_entered_total", "acme/web", 1],
        ]);
        const size = fs.find((f) => f.name === "mq_queue_size")!;
        expect(size.samples.filter(([, l]) => l.queue === HOSTILE_QUEUE).map(([, , v]) => v)).toEqual([1]);
      }
    } finally {
      expect(await exp.stop()).toBe(0);
    }
  }, 60_000);
});
