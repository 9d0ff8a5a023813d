// /metrics sends text rendered at the end of the last round of polls, in each format scrapers asked
// for during that round (both before the first scrape): a scrape, in either format, renders nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as OpenMetrics from "../../../src/output/openmetrics.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { get, NOW, ready, startExporter, TOKEN } from "./harness.js";

const renders = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../../src/output/openmetrics.js", async (importOriginal) => {
  const real = await importOriginal<typeof OpenMetrics>();
  return {
    ...real,
    renderExposition: (...args: Parameters<typeof real.renderExposition>) => {
      renders.count++;
      return real.renderExposition(...args);
    },
  };
});

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 5, days: 1, now: NOW, token: TOKEN, repos: ["acme/web"] });
});
afterAll(() => server.close());

const OPENMETRICS = "application/openmetrics-text;version=1.0.0";
const TEXT = "text/plain;version=0.0.4";

describe("mq exporter's /metrics", () => {
  it("answers the first scrape of either format with text made at the round's end", async () => {
    const exp = await startExporter(server, ["--repo", "acme/web", "--since", "1h", "--interval", "3600"]);
    try {
      await ready(exp.url);
      const before = renders.count;
      const open = await get(`${exp.url}/metrics`, { accept: OPENMETRICS });
      const text = await get(`${exp.url}/metrics`, { accept: TEXT });
      expect(renders.count - before).toBe(0);
      expect(open.type).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
      expect(open.body.endsWith("# EOF\n")).toBe(true);
      expect(text.type).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(text.body).toContain("# TYPE mq_queue_entered_total counter\n");
    } finally {
      expect(await exp.stop()).toBe(0);
    }
  });
});
