// The verdict lines of mq insights and mq stats in one form: a repository named "repository
// acme/web" whether it is the only one or one of several (one read "(acme/web)", the other
// "(repository acme/web)"), and counts grouped as the tables write them (2,192, not 2192), every
// digit kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { runMq } from "../../reliability/harness.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ now: NOW, days: 3, repos: ["acme/web", "acme/api"] });
});
afterAll(() => server.close());

const mq = (args: string[]) =>
  runMq([...args, "-o", "none", "--color", "never"], { apiUrl: server.url, now: () => NOW, repo: !args.includes("--repo") });

describe("gate lines", () => {
  it("mq insights, one repository", async () => {
    const r = await mq(["insights", "--since", "3d", "--fail-if", "merged < 1000", "--fail-if", "p95(queue_time) > 1h"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        "ok    merged 1,161 >= 1,000 (repository acme/web)",
        "FAIL  p95(queue_time) 1h 31m > 1h (1,297 stays, repository acme/web)",
        "mq: 1 of 2 --fail-if checks failed.",
        "",
      ].join("\n"),
    );
  });

  it("mq insights, several repositories", async () => {
    const r = await mq([
      "insights",
      "--since",
      "3d",
      "--repo",
      "acme/web,acme/api",
      "--fail-if",
      "merged < 1000",
      "--fail-if-scope",
      "both",
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(
      [
        "ok    merged 1,161 >= 1,000 (repository acme/web)",
        "FAIL  merged 711 < 1,000 (repository acme/api)",
        "ok    merged 1,872 >= 1,000 (all repositories)",
        "mq: 1 of 3 --fail-if checks failed.",
        "",
      ].join("\n"),
    );
  });

  it("mq insights, several repositories, one not read: the total's verdict names what it covered", async () => {
    // before: "all repositories" while acme/nope answered 404; the words are mq stats --repo a,b,c's
    const r = await mq(["insights", "--since", "3d", "--repo", "acme/web,acme/nope,acme/api", "--fail-if", "merged < 1000"]);
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stderr.split("\n");
    expect(lines.filter((l) => /^(ok|FAIL) /.test(l))).toEqual([
      "ok    merged 1,872 >= 1,000 (2 of 3 repositories; acme/nope could not be read)",
    ]);
    expect(lines).toContain("mq: 1 of 3 repositories could not be read (acme/nope); the output covers the others.");
  });

  it("mq stats: counts grouped too", async () => {
    const r = await mq([
      "stats",
      "queues-entered-count",
      "--since",
      "3d",
      "--repo",
      "acme/web,acme/api",
      "--fail-if",
      "entered < 1000",
      "--fail-if-scope",
      "both",
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(
      [
        "ok    entered 1,298 >= 1,000 (repository acme/web)",
        "FAIL  entered 774 < 1,000 (repository acme/api)",
        "ok    entered 2,072 >= 1,000 (all repositories)",
        "mq: 1 of 3 --fail-if checks failed.",
        "",
      ].join("\n"),
    );
  });

  it("--fail-if-scope each or both with one repository: refused before any request (it judged the one as all)", async () => {
    for (const scope of ["each", "both"]) {
      const before = server.requests.length;
      const r = await mq(["insights", "--since", "3d", "--fail-if", "merged < 1000", "--fail-if-scope", scope]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `mq: --fail-if-scope ${scope} judges each of several repositories, and --repo names one (acme/web): give several --repo, or drop --fail-if-scope.\n`,
      );
      expect(server.requests.slice(before)).toEqual([]);
    }
    const all = await mq(["insights", "--since", "3d", "--fail-if", "merged < 1000", "--fail-if-scope", "all"]);
    expect(all.stderr).toBe("ok    merged 1,161 >= 1,000 (repository acme/web)\n");
  });
});

describe("gate lines on a narrow terminal", () => {
  it("are broken between words under the check, past the FAIL/ok column (they ran 68 columns wide at 40); in a pipe they stay whole", async () => {
    const args = ["insights", "--since", "3d", "--fail-if", "p95(queue_time) > 1h", "-o", "none", "--color", "never"];
    const tty = await runMq(args, { apiUrl: server.url, now: () => NOW, stdoutIsTTY: true, columns: 40 });
    expect(tty.code).toBe(1);
    expect(tty.stderr.split("\n").slice(0, 2)).toEqual(["FAIL  p95(queue_time) 1h 31m > 1h (1,297", "      stays, repository acme/web)"]);
    const pipe = await runMq(args, { apiUrl: server.url, now: () => NOW, columns: 40 });
    expect(pipe.stderr.split("\n")[0]).toBe("FAIL  p95(queue_time) 1h 31m > 1h (1,297 stays, repository acme/web)");
  });
});
