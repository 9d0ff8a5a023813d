// Issue 3: `mq --offline logs` and `mq --offline stats failure-rate` work on a fresh clone in any
// directory: no git remote, no config, no token, no repository given. And what starting the
// bundled server loads: no more of Node than it uses.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
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

/**
 * The Node modules a run of SCRIPT (CommonJS, in a probe) compiled after it started, as Node's
 * inspector reports them (Debugger.scriptParsed: a public API), internal ones included.
 */
function nodeModulesLoadedBy(dir: string, script: string): string[] {
  const probe = join(dir, "probe.cjs");
  writeFileSync(
    probe,
    `const session = new (require("node:inspector").Session)();
session.connect();
const scripts = new Set();
session.on("Debugger.scriptParsed", (m) => scripts.add(m.params.url));
session.post("Debugger.enable");
process.on("exit", () => require("node:fs").writeSync(2, "\\nloaded: " + JSON.stringify([...scripts].filter((u) => u.startsWith("node:"))) + "\\n"));
${script}`,
  );
  const r = spawnSync(process.execPath, [probe], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, MQ_CONFIG_DIR: join(dir, "config") },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(/\nloaded: (\[.*\])\n$/.exec(r.stderr)![1]!) as string[];
}

describe("starting the bundled server", () => {
  // Node's own fetch and WebSocket (its bundled undici): an ES import of node:http reads them for the
  // module's namespace on Node 22 and later, ~50 ms of CPU that the server, which serves over
  // node:http, never uses
  const NODE_UNDICI = "node:internal/deps/undici/undici";
  const dir = tempDir("mq-offline-loads-");

  it("loads not Node's own fetch: only node:http's server", () => {
    // the control: on this Node an ES import of node:http loads Node's fetch, or nothing here can tell
    const control = nodeModulesLoadedBy(dir, `import("node:http");`);
    const esImportLoadsFetch = control.includes(NODE_UNDICI);
    if (Number(process.versions.node.split(".")[0]) >= 22) expect(esImportLoadsFetch).toBe(true);
    const mq = nodeModulesLoadedBy(
      dir,
      `process.argv.splice(2, 0, "--offline", "logs", "--repo", "acme/web", "--limit", "1");\nrequire(${JSON.stringify(MQ_BIN)});`,
    );
    expect(mq).toContain("node:http");
    expect(mq).not.toContain(NODE_UNDICI);
  });
});
