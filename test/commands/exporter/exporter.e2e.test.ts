// `mq exporter` in-process against the bundled server (a few seconds each: the e2e half): counters
// equal to counts made from the raw log, both formats by Accept, readiness, a failing repository,
// restarts with --state-dir, scrape authentication, and the API token never served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { isQueueEventType } from "../../../src/insights/dialects.js";
import { tempDir } from "../../helpers/tmp.js";
import { get, NOW, rawLog, ready, samples, startExporter, TOKEN, total, until } from "./harness.js";

const DAY = 86_400_000;
const SINCE = new Date(NOW.getTime() - DAY / 2);
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 5, days: 2, now: NOW, token: TOKEN, repos: ["acme/web", "acme/api"] });
});
afterAll(() => server.close());

describe("mq exporter against the bundled server", () => {
  it("counts exactly the raw log's events since --since, in both formats by Accept", async () => {
    const exp = await startExporter(server, ["--repo", "acme/web,acme/api", "--since", SINCE.toISOString()]);
    try {
      await ready(exp.url);
      const text = await get(`${exp.url}/metrics`);
      expect(text.status).toBe(200);
      expect(text.type).toBe("text/plain; version=0.0.4; charset=utf-8");
      const s = samples(text.body);
      for (const repo of ["acme/web", "acme/api"]) {
        const raw = await rawLog(server, repo, SINCE);
        const count = (type: string, where: (m: Record<string, unknown>) => boolean = () => true) =>
          raw.filter((e) => e.type === type && where(e.metadata)).length;
        const repository = { repository: repo };
        expect(count("action.queue.enter")).toBeGreaterThan(20);
        expect(total(s, "mq_queue_entered_total", repository)).toBe(count("action.queue.enter"));
        expect(total(s, "mq_queue_merged_total", repository)).toBe(count("action.queue.merged"));
        expect(total(s, "mq_queue_left_total", repository)).toBe(count("action.queue.leave"));
        expect(total(s, "mq_queue_left_total", { ...repository, reason: "SUCCESS" })).toBe(
          count("action.queue.leave", (m) => m.merged === true),
        );
        expect(total(s, "mq_checks_total", repository)).toBe(count("action.queue.checks_end"));
        expect(total(s, "mq_checks_total", { ...repository, outcome: "success" })).toBe(
          count(
            "action.queue.checks_end",
            (m) => (m.speculative_check_pull_request as { checks_conclusion?: string }).checks_conclusion === "success",
          ),
        );
        for (const queue of new Set(raw.map((e) => e.metadata.queue_name as string))) {
          expect(total(s, "mq_queue_entered_total", { ...repository, queue })).toBe(
            count("action.queue.enter", (m) => m.queue_name === queue),
          );
        }
        // the queue size is mq queue's (queue-size.e2e.test.ts): here, that it is served
        expect(total(s, "mq_queue_size", repository)).toBeGreaterThan(0);
        // one observation of time to merge per merged event, and of queue time per leave
        expect(total(s, "mq_time_to_merge_seconds_count", repository)).toBe(count("action.queue.merged"));
        expect(total(s, "mq_queue_time_seconds_count", repository)).toBe(count("action.queue.leave"));
        // the exporter reads the event types stays are made of
        const newest = Math.max(...raw.filter((e) => isQueueEventType(e.type)).map((e) => Date.parse(e.received_at)));
        expect(s.get(`mq_exporter_last_event_timestamp_seconds{repository="${repo}"}`)).toBe(newest / 1000);
      }
      const om = await get(`${exp.url}/metrics`, {
        accept:
          "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
      });
      expect(om.type).toBe("application/openmetrics-text; version=1.0.0; charset=utf-8");
      expect(om.body.endsWith("\n# EOF\n")).toBe(true);
      expect(om.body).toContain("# TYPE mq_queue_entered counter\n");
      expect(om.body).toContain("# TYPE mq_time_to_merge_seconds histogram\n# UNIT mq_time_to_merge_seconds seconds\n");
      // the same samples in both formats
      expect(samples(om.body)).toEqual(s);
      expect(text.body).not.toContain(TOKEN);
      expect(om.body).not.toContain(TOKEN);
      expect((await get(`${exp.url}/healthz`)).body).toBe("ok\n");
      expect(await get(`${exp.url}/readyz`)).toEqual({ status: 200, type: "text/plain; charset=utf-8", body: "ready\n" });
      expect((await get(`${exp.url}/other`)).status).toBe(404);
    } finally {
      expect(await exp.stop()).toBe(0);
    }
    expect(exp.ctx.stderrText()).toBe(
      `mq exporter: serving ${exp.url}/metrics for 2 repositories, polling every 1 s\nPress Ctrl-C to stop.\nmq exporter: stopped\n`,
    );
  });

  it("a failing repository is counted, logged once, named by /readyz; the others go on; the token is never served", async () => {
    const exp = await startExporter(server, ["--repo", "acme/web,acme/gone", "--since", "2h"]);
    try {
      // two rounds at least: the error is logged once, counted each time
      const metrics = await until("two failed polls", async () => {
        const body = (await get(`${exp.url}/metrics`)).body;
        return (samples(body).get('mq_exporter_errors_total{repository="acme/gone",kind="not_found"}') ?? 0) >= 2 ? body : undefined;
      });
      expect(total(samples(metrics), "mq_queue_entered_total", { repository: "acme/web" })).toBeGreaterThan(0);
      const readyz = await get(`${exp.url}/readyz`);
      expect(readyz.status).toBe(503);
      expect(readyz.body).toMatch(/^not ready: acme\/gone \(failing: .+\)\n$/);
      expect(readyz.body).not.toContain(TOKEN);
    } finally {
      await exp.stop();
    }
    const lines = exp.ctx
      .stderrText()
      .split("\n")
      .filter((l) => l.startsWith("mq exporter: acme/gone: "));
    expect(lines.length).toBe(1);
  });

  it("an API that refuses the token: kind auth, and neither /readyz nor /metrics shows the token", async () => {
    const other = await startServer({ port: 0, seed: 5, days: 1, now: NOW, token: "mqk_some_other_token_0000" });
    try {
      const exp = await startExporter(other, ["--repo", "acme/web", "--since", "1h"]);
      try {
        await until("an auth error", async () =>
          samples((await get(`${exp.url}/metrics`)).body).has('mq_exporter_errors_total{repository="acme/web",kind="auth"}')
            ? true
            : undefined,
        );
        for (const path of ["/metrics", "/readyz", "/healthz"]) expect((await get(`${exp.url}${path}`)).body).not.toContain(TOKEN);
        expect(exp.ctx.stderrText()).not.toContain(TOKEN);
      } finally {
        await exp.stop();
      }
    } finally {
      await other.close();
    }
  });

  it("with --state-dir, a restart continues the counters and counts each event once", async () => {
    const local = await startServer({ port: 0, seed: 9, days: 1, now: NOW, token: TOKEN, repos: ["acme/web"] });
    const dir = tempDir();
    try {
      const since = new Date(NOW.getTime() - 6 * 3_600_000);
      const first = await startExporter(local, ["--repo", "acme/web", "--since", since.toISOString(), "--state-dir", dir]);
      await ready(first.url);
      const before = samples((await get(`${first.url}/metrics`)).body);
      await first.stop();
      expect(JSON.parse(readFileSync(join(dir, "exporter-state.json"), "utf8")).format).toBe(2);
      // new events after the first run: copies of the newest enter, later, with new ids
      const raw = await rawLog(local, "acme/web", since);
      const enter = raw.find((e) => e.type === "action.queue.enter")!;
      const later = new Date(NOW.getTime() + 60_000);
      const added = [1, 2, 3].map((i) => ({
        ...enter,
        id: Math.max(...raw.map((e) => e.id)) + i,
        received_at: new Date(later.getTime() + i * 1000).toISOString(),
      }));
      local.appendEvents("acme/web", added as never);
      const second = await startExporter(
        local,
        ["--repo", "acme/web", "--since", "1m", "--state-dir", dir],
        () => new Date(later.getTime() + 10_000),
      );
      try {
        await ready(second.url);
        const after = samples((await get(`${second.url}/metrics`)).body);
        const queue = enter.metadata.queue_name as string;
        const grown = [...after].filter(([k, v]) => before.get(k) !== v);
        expect(grown.map(([k]) => k).filter((k) => k.startsWith("mq_queue_entered_total"))).toHaveLength(1);
        expect(total(after, "mq_queue_entered_total", { queue })).toBe(total(before, "mq_queue_entered_total", { queue }) + 3);
        expect(total(after, "mq_queue_merged_total")).toBe(total(before, "mq_queue_merged_total"));
        expect(total(after, "mq_checks_total")).toBe(total(before, "mq_checks_total"));
      } finally {
        await second.stop();
      }
    } finally {
      await local.close();
    }
  });

  it("--bearer-token-file and --basic-auth-file: scrapers without them get 401", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "token"), "scrape-token-123\n");
    writeFileSync(join(dir, "basic"), "prom:pa55:word\n");
    const bearer = await startExporter(server, ["--repo", "acme/web", "--since", "1h", "--bearer-token-file", join(dir, "token")]);
    try {
      const denied = await get(`${bearer.url}/metrics`);
      expect(denied.status).toBe(401);
      expect(denied.body).toBe("unauthorized\n");
      expect((await get(`${bearer.url}/healthz`, { authorization: "Bearer wrong" })).status).toBe(401);
      expect((await get(`${bearer.url}/healthz`, { authorization: "Bearer scrape-token-123" })).status).toBe(200);
    } finally {
      await bearer.stop();
    }
    const basic = await startExporter(server, ["--repo", "acme/web", "--since", "1h", "--basic-auth-file", join(dir, "basic")]);
    try {
      expect((await get(`${basic.url}/healthz`)).status).toBe(401);
      const creds = Buffer.from("prom:pa55:word").toString("base64");
      expect((await get(`${basic.url}/healthz`, { authorization: `Basic ${creds}` })).status).toBe(200);
    } finally {
      await basic.stop();
    }
  });
});
