// Issue 3: `mq --offline logs` and `mq --offline stats failure-rate` work on a fresh clone in any
// directory: no git remote, no config, no token, no repository given.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { MQ_BIN } from "../helpers/spawn.js";
import { tempDir } from "../helpers/tmp.js";

function mqIn(dir: string, args: string[]) {
  return spawnSync(process.execPath, [MQ_BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, MQ_CONFIG_DIR: join(dir, "config"), NO_COLOR: "1" },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("--offline in an empty folder", () => {
  const dir = tempDir("mq-anywhere-");
  const demo = "mq: no repository given; showing the offline demo repository acme/web (choose one with --repo)\n";

  it("mq --offline logs shows the demo repository's events", () => {
    const r = mqIn(dir, ["--offline", "logs", "--limit", "2", "-o", "ndjson"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(demo);
    const events = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { repository: string });
    expect(events.map((e) => e.repository)).toEqual(["acme/web", "acme/web"]);
  });

  it("mq --offline stats failure-rate answers too", () => {
    const r = mqIn(dir, ["--offline", "stats", "failure-rate", "-o", "json"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(demo);
    expect(Array.isArray((JSON.parse(r.stdout) as { groups: unknown[] }).groups)).toBe(true);
  });
});
