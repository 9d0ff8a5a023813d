// `mq why N` against a loopback server holding the hand-made history of #7 and #8
// (test/insights/fixture.ts), in both dialects: the failing checks with their links, the culprit of
// a bisected batch and its bystander, a merge, a pull request still queued and one never queued.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { prSevenEvents } from "../../insights/fixture.js";
import { runMq } from "../../reliability/harness.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const servers: Partial<Record<"contract" | "mergify", RunningServer>> = {};
beforeAll(async () => {
  servers.contract = await startServer({ now: NOW, events: { "acme/web": prSevenEvents("contract") as never } });
  servers.mergify = await startServer({ now: NOW, dialect: "mergify", events: { "acme/web": prSevenEvents("contract") as never } });
});
afterAll(async () => {
  await Promise.all([servers.contract?.close(), servers.mergify?.close()]);
});

async function mq(server: RunningServer, args: string[]) {
  const before = server.requests.length;
  const r = await runMq([...args, "--color", "never"], { apiUrl: server.url, now: () => NOW, columns: 100 });
  return { ...r, requests: server.requests.slice(before).map((q) => q.url) };
}

const WINDOW = ["--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T12:00:00Z"];

describe("mq why N", () => {
  for (const dialect of ["contract", "mergify"] as const) {
    it(`${dialect}: every stay of #7 with --all — the culprit with its failing check's link, then the merge`, async () => {
      const r = await mq(servers[dialect]!, ["why", "7", ...WINDOW, "--all", "-o", "table"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(
        [
          "#7 in acme/web: stay 1 of 2, queue default (base main), entered 2026-11-20T10:00:00Z",
          "  failed at 2026-11-20T10:40:23Z after 40m 23s: Checks failed (CHECKS_FAILED)",
          "  failing check: ci/test failure https://ci.example.com/ci/test",
          "  culprit: its batch of #7, #8, #9 was bisected and #7's own checks failed (2026-11-20T10:40:20Z)",
          '  next: fix the failing checks, then comment "@mergifyio requeue" on #7',
          "#7 in acme/web: stay 2 of 2, queue default (base main), entered 2026-11-20T11:00:00Z",
          "  merged at 2026-11-20T11:22:15Z after 22m 15s",
          "  next: nothing to do: merged at 2026-11-20T11:22:15Z",
          "#7 entered a queue 2 times from 2026-11-20T00:00:00Z to 2026-11-20T12:00:00Z (1 requeue)",
          "",
        ].join("\n"),
      );
      // its own events, then the bisections over the span of its batched stay
      expect(r.requests).toEqual([
        "/v1/repos/acme/web/logs?pull_request=7&received_from=2026-11-20T00%3A00%3A00Z&received_to=2026-11-20T12%3A00%3A00Z&per_page=100",
        "/v1/repos/acme/web/logs?event_type=action.queue.batch_bisection_start&event_type=action.queue.batch_bisection_end&received_from=2026-11-20T10%3A00%3A00Z&received_to=2026-11-20T10%3A40%3A23Z&per_page=100",
      ]);
    });
  }

  it("on a terminal of 60 columns: every line broken to its width under its indent, a link kept whole", async () => {
    const r = await runMq(["why", "7", ...WINDOW, "--all", "--color", "never"], {
      apiUrl: servers.contract!.url,
      now: () => NOW,
      tty: true,
      columns: 60,
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    for (const line of lines) if (line.length > 60) expect(line.trim().includes(" "), line).toBe(false);
    expect(lines.slice(0, 4)).toEqual([
      "#7 in acme/web: stay 1 of 2, queue default (base main),",
      "    entered 2026-11-20T10:00:00Z",
      "  failed at 2026-11-20T10:40:23Z after 40m 23s: Checks",
      "      failed (CHECKS_FAILED)",
    ]);
  });

  it("the latest stay only by default", async () => {
    const r = await mq(servers.contract!, ["why", "#7", ...WINDOW, "-o", "table"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("#7 in acme/web: stay 2 of 2, queue default (base main), entered 2026-11-20T11:00:00Z");
    expect(r.stdout.split("\n").length).toBe(5);
  });

  it("a bystander still queued: the culprit of its batch, and what it waits for", async () => {
    const r = await mq(servers.contract!, ["why", "8", ...WINDOW, "-o", "table"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        "#8 in acme/web: stay 1 of 1, queue default (base main), entered 2026-11-20T10:01:00Z",
        "  still in the queue: waiting for capacity since 2026-11-20T10:38:15Z",
        "  bystander: its batch of #7, #8, #9 failed because of #7, found by bisection (2026-11-20T10:40:20Z)",
        "  next: nothing to do yet: mq wait 8 waits until it leaves the queue",
        "#8 entered a queue 1 time from 2026-11-20T00:00:00Z to 2026-11-20T12:00:00Z (0 requeues)",
        "",
      ].join("\n"),
    );
  });

  it("-o json: one document for scripts", async () => {
    const r = await mq(servers.contract!, ["why", "7", ...WINDOW, "-o", "json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ repository: "acme/web", pull_request: 7, stays_in_window: 2, requeues: 1 });
    expect(doc.stays).toHaveLength(1);
    expect(doc.stays[0]).toMatchObject({
      stay: 2,
      outcome: "merged",
      merged_at: "2026-11-20T11:22:15Z",
      failing_checks: [],
      evictions: [],
    });
    const all = JSON.parse((await mq(servers.contract!, ["why", "7", ...WINDOW, "--all", "-o", "json"])).stdout);
    expect(all.stays[0]).toMatchObject({
      outcome: "failed",
      reason: "CHECKS_FAILED",
      failing_checks: [{ name: "ci/test", state: "failure", url: "https://ci.example.com/ci/test" }],
      evictions: [{ at: "2026-11-20T10:40:20Z", batch: [7, 8, 9], code: "BISECTION", role: "culprit", caused_by: [7] }],
    });
  });

  it("a pull request that never entered a queue: says so, and what the log shows", async () => {
    const r = await mq(servers.contract!, ["why", "9", ...WINDOW, "-o", "table"]);
    expect([r.code, r.stdout]).toEqual([
      0,
      "#9 in acme/web did not enter a queue from 2026-11-20T00:00:00Z to 2026-11-20T12:00:00Z\n  the log holds no event of #9 in that window; --since reaches further back\n",
    ]);
  });

  for (const [args, message] of [
    [["why", "x7"], 'mq: pull request number must be an integer from 1 to 2147483646, not "x7".\n'],
    [["why", "7", "-o", "csv"], "mq: mq why writes text or -o json (one document); -o csv has no rows to write.\n"],
  ] as const) {
    it(`${args.join(" ")}: exit 2 before any request`, async () => {
      const r = await mq(servers.contract!, [...args]);
      expect([r.code, r.stdout, r.stderr, r.requests]).toEqual([2, "", message, []]);
    });
  }
});

// Server text reaches the terminal through src/iostreams only: a queue name, a base ref, a check's
// name, state and link and the leave's words holding ANSI sequences, OSC titles, bell, CR, LF and
// bidi overrides are printed escaped, and nothing of them acts on the terminal.
describe("mq why N: hostile text from the server", () => {
  const HOSTILE: Record<string, string> = {
    default: "de\u001b[2Jfa\u202eult",
    main: "ma\u0007in\u200f",
    "ci/test": "ci/\u001b]0;pwned\u0007test",
    "https://ci.example.com/ci/test": "https://ci.example.com/\u001b[31mx\rci/test",
    "Checks failed": "Checks\u0085 failed\n::error::owned",
  };
  const swap = (v: unknown): unknown =>
    typeof v === "string"
      ? (HOSTILE[v] ?? v)
      : Array.isArray(v)
        ? v.map(swap)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
          : v;
  let hostile: RunningServer;
  beforeAll(async () => {
    hostile = await startServer({ now: NOW, events: { "acme/web": swap(prSevenEvents("contract")) as never } });
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it("every control, bidi and line character of server text is shown escaped", async () => {
    const r = await mq(hostile, ["why", "7", ...WINDOW, "--all", "-o", "table"]);
    expect(r.code, r.stderr).toBe(0);
    // nothing but printable text and the line ends mq writes itself
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(r.stdout.split("\n").slice(0, 4)).toEqual([
      "#7 in acme/web: stay 1 of 2, queue de\\x1b[2Jfa\\u202eult (base ma\\x07in\\u200f), entered 2026-11-20T10:00:00Z",
      // a sentence the contract does not know: its own code, and a dequeue rather than a failure
      "  dequeued at 2026-11-20T10:40:23Z after 40m 23s: Checks\\x85 failed\\n::error::owned",
      "  failing check: ci/\\x1b]0;pwned\\x07test failure https://ci.example.com/\\x1b[31mx\\rci/test",
      "  culprit: its batch of #7, #8, #9 was bisected and #7's own checks failed (2026-11-20T10:40:20Z)",
    ]);
    expect(r.stderr).toBe("");
  });

  it("-o json keeps the text as it came (JSON escapes it)", async () => {
    const r = await mq(hostile, ["why", "7", ...WINDOW, "--all", "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      stays: Array<{ queue_name: string; reason_text: string; failing_checks: Array<{ name: string }> }>;
    };
    expect(doc.stays[0]!.queue_name).toBe(HOSTILE.default);
    expect(doc.stays[0]!.reason_text).toBe(HOSTILE["Checks failed"]);
    expect(doc.stays[0]!.failing_checks[0]!.name).toBe(HOSTILE["ci/test"]);
  });
});
