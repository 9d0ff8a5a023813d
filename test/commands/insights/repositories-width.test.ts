// mq insights --repo a,b on a terminal: the table of a row per repository fits the terminal's
// width as the stats tables do (parts one under the other, each with the repository), at 60
// columns as at 80. It was 75 columns wide at 60.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { runMq } from "../../reliability/harness.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: NOW, days: 3 });
});
afterAll(() => server.close());

describe("mq insights --repo a,b: the repositories table fits the terminal", () => {
  it.each([60, 80])(
    "at %i columns",
    async (columns) => {
      const r = await runMq(["insights", "--repo", "acme/web,acme/api", "--since", "1d", "--color", "never"], {
        apiUrl: server.url,
        now: () => NOW,
        stdoutIsTTY: true,
        columns,
        repo: false,
      });
      expect(r.code, r.stderr).toBe(0);
      // the repositories table is what comes before the total's report
      const table = r.stdout.split(/\ntotal {2}\d{4}-/)[0]!.split("\n");
      for (const line of table) expect(line.length, line).toBeLessThanOrEqual(columns);
      // every heading, whole (broken into words on narrow terminals, never cut)
      const words = table.join(" ").split(/\s+/);
      for (const word of ["ENTERED", "MERGED", "FAILURE", "RATE", "P50", "P95", "MERGE", "QUEUE"]) expect(words).toContain(word);
      expect(table.join("\n")).not.toContain("…");
      expect(table.filter((l) => l.startsWith("acme/api")).length).toBe(table.filter((l) => l.startsWith("total ")).length);
    },
    60_000,
  );
});
