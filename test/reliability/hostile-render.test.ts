// Issue 14's "done when", in-process: a server that puts every class of hostile character into
// every field mq renders (see hostile-server.ts) never gets a raw control, bidi or invisible
// character onto the terminal or into stderr, and no stderr line can start a CI workflow command.
// The same runs under real pseudo-terminals are in hostile-render.e2e.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_CLASSES, startHostileServer, statsNames, type HostileServer } from "../helpers/hostile-server.js";
import { expectNoRawControls, expectNoWorkflowCommands } from "../helpers/terminal-assert.js";
import { runMq } from "./harness.js";

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

const SCENARIOS: Array<{ name: string; args: string[]; code: number }> = [
  { name: "logs table", args: ["--repo", "acme/web", "logs", "--all"], code: 0 },
  { name: "logs ndjson on a terminal", args: ["--repo", "acme/web", "logs", "--all", "-o", "ndjson"], code: 0 },
  { name: "logs json on a terminal", args: ["--repo", "acme/web", "logs", "--limit", "50", "-o", "json"], code: 0 },
  { name: "logs csv on a terminal", args: ["--repo", "acme/web", "logs", "--all", "-o", "csv"], code: 0 },
  {
    name: "a failure half-way: detail and the resume hint's cursor",
    args: ["--repo", "acme/broken", "logs", "--all", "--per-page", "10"],
    code: 6,
  },
  { name: "403 detail", args: ["--repo", "acme/denied", "logs"], code: 4 },
  { name: "422 detail list", args: ["--repo", "acme/validation", "logs"], code: 5 },
  { name: "a Content-Type header", args: ["--repo", "acme/notjson", "logs"], code: 6 },
  { name: "a Location header", args: ["--repo", "acme/redirect", "logs"], code: 6 },
  { name: "a contract error quoting a field", args: ["--repo", "acme/contract", "logs"], code: 6 },
  { name: "a Retry-After header and detail", args: ["--repo", "acme/throttled", "logs", "--no-retry"], code: 6 },
  { name: "--fail-if breach lines", args: ["--repo", "acme/web", "stats", "failure-rate", "--fail-if", "failure_rate>0.01"], code: 1 },
  { name: "charts", args: ["--repo", "acme/web", "stats", "queue-size", "--chart"], code: 0 },
  { name: "stats summary", args: ["--repo", "acme/web", "stats", "summary"], code: 0 },
  ...statsNames().map((name) => ({ name: `stats ${name}`, args: ["--repo", "acme/web", "stats", name], code: 0 })),
];

describe.each([
  { colour: "colour on", extra: [] as string[], sgr: true },
  { colour: "--color never", extra: ["--color", "never"], sgr: false },
])("on a terminal, $colour", ({ extra, sgr }) => {
  it.each(SCENARIOS)("$name", async ({ args, code }) => {
    const r = await runMq([...extra, ...args], { apiUrl: server.url, repo: false, stdoutIsTTY: true, stderrIsTTY: false, columns: 120 });
    expect(r.code, r.stderr).toBe(code);
    // csv rows end in CR LF (RFC 4180): mq's own
    expectNoRawControls(args.includes("csv") ? r.stdout.replace(/\r\n/g, "\n") : r.stdout, "stdout", sgr);
    expectNoRawControls(r.stderr, "stderr", false);
    expectNoWorkflowCommands(r.stderr);
    if (!sgr) expect(r.stdout).not.toContain("\x1b");
  });
});

describe("piped (CI)", () => {
  it.each(SCENARIOS.filter((s) => s.code !== 0))("$name: no stderr line starts a workflow command", async ({ args, code }) => {
    const r = await runMq(args, { apiUrl: server.url, repo: false });
    expect(r.code).toBe(code);
    expectNoRawControls(r.stderr, "stderr", false);
    expectNoWorkflowCommands(r.stderr);
  });
});

describe("what the user sees", () => {
  it("the table shows each payload escaped, where it was", async () => {
    const r = await runMq(["--color", "never", "--repo", "acme/web", "logs", "--all"], {
      apiUrl: server.url,
      repo: false,
      stdoutIsTTY: true,
      columns: 400,
    });
    expect(r.stdout).toContain("main\\x1b[2J\\x1b[H");
    expect(r.stdout).toContain("\\u202egnp.exe");
    expect(r.stdout).toContain("custom.type\\x1b]0;pwned\\x07");
    expect(r.stdout).toContain("中文e\u0301👨‍👩‍👧");
    // every row is one line, and the columns line up: each row's BASE starts where the header's does
    const rows = r.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(server.events.length + 1);
  });

  it("an error's detail stays on its line, escaped", async () => {
    const r = await runMq(["--repo", "acme/denied", "logs"], { apiUrl: server.url, repo: false });
    expect(r.stderr.split("\n")[0]).toMatch(
      /^mq: GET \/v1\/repos\/acme\/denied\/logs\?per_page=\d+ failed: HTTP 403 Forbidden: denied\\n::error::spoofed\\n\\x1b\[2J/,
    );
  });

  it("the resume hint's cursor is escaped after percent-decoding, quoted so a shell gives back the same cursor", async () => {
    const r = await runMq(["--repo", "acme/broken", "logs", "--all", "--per-page", "10"], { apiUrl: server.url, repo: false });
    const hint = r.stderr.split("\n").find((l) => l.includes("--cursor"))!;
    expect(hint).toContain("--cursor $'c1\\x1b[2J\\x1b[H|");
  });

  it(`tries ${HOSTILE_CLASSES.length} classes in ${SCENARIOS.length} scenarios`, () => {
    expect(HOSTILE_CLASSES.length).toBeGreaterThan(15);
  });
});
