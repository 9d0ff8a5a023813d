// Many `mq` processes writing one config file at once, through the real binary: every update
// survives (the store re-reads under a lock and replaces the file atomically), the file stays one
// valid JSON object, and no lock or temporary file is left behind.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnMq } from "../helpers/spawn.js";
import { tempDir } from "../helpers/tmp.js";

const LOGINS = 20;

describe("concurrent writers", () => {
  it(`${LOGINS} logins and 4 config sets at once: every token and every setting is kept`, async () => {
    const dir = tempDir("mq-concurrent-");
    const logins = Array.from({ length: LOGINS }, (_, i) =>
      spawnMq(["auth", "login", "--with-token", "--no-check"], {
        env: { MQ_CONFIG_DIR: dir, MQ_API_URL: `http://127.0.0.1:${9001 + i}` },
        stdin: `mqk_concurrent_${String(i).padStart(2, "0")}\n`,
        killAfterMs: 60_000,
      }),
    );
    const sets = [
      ["repo", "acme/web"],
      ["output", "csv"],
      ["color", "never"],
      ["timeout", "12"],
    ].map(([key, value]) => spawnMq(["config", "set", key!, value!], { env: { MQ_CONFIG_DIR: dir }, killAfterMs: 60_000 }));
    const results = await Promise.all([...logins, ...sets]);
    for (const r of results) {
      expect(r.killed).toBe(false);
      expect(r.code, r.stderr).toBe(0);
    }
    const path = join(dir, "config.json");
    const stored = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    expect(stored).toEqual({
      repo: "acme/web",
      output: "csv",
      color: "never",
      timeout: 12,
      tokens: Object.fromEntries(
        Array.from({ length: LOGINS }, (_, i) => [`http://127.0.0.1:${9001 + i}`, `mqk_concurrent_${String(i).padStart(2, "0")}`]),
      ),
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["config.json"]);
  });
});
