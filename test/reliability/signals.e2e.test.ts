// Ctrl-C and closed pipes, through the real binary: SIGINT stops a long --all or --follow within a
// bound, exit 130, stdout holds only whole lines; a spinner on a terminal is cleared; `| head -1`
// ends mq quietly with exit 0.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventRange, pageReply, startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { MQ_BIN, startMq, startShell, type Running } from "../helpers/spawn.js";
import { tempDir } from "../helpers/tmp.js";
import { hasTool } from "../helpers/tools.js";

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An endless event log: page k links to page k+1; every answer waits `slowMs`. */
function endless(slowMs: number) {
  return async (_n: number, url: URL) => {
    const page = Number(url.searchParams.get("cursor") ?? "0");
    if (slowMs) await delay(slowMs);
    return pageReply(eventRange(1_000_000 - page * 10, 10), `/v1/repos/acme/web/logs?per_page=10&cursor=${page + 1}`);
  };
}

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(endless(100));
});
afterAll(() => server.close());

const GLOBALS = () => ["--api-url", server.url, "--token", "tok-12345", "--repo", "acme/web"];

/** SIGINT, then the exit; a process still alive after `boundMs` is killed and the test fails. */
async function interrupt(run: Running, boundMs = 2000) {
  run.child.kill("SIGINT");
  const bound = delay(boundMs).then(() => "still running" as const);
  const winner = await Promise.race([run.done, bound]);
  if (winner === "still running") {
    run.child.kill("SIGKILL");
    throw new Error(`mq did not stop within ${boundMs} ms of SIGINT; stderr: ${run.stderr()}`);
  }
  return winner;
}

/** Every line of stdout is a complete JSON record, and stdout ends with a newline. */
function wholeLines(stdout: string): Array<{ id: number }> {
  expect(stdout.endsWith("\n")).toBe(true);
  return stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: number });
}

describe("SIGINT", () => {
  it("during --all against a slow server: exit 130, whole lines, the resume command", async () => {
    server.setScript(endless(100));
    const run = startMq([...GLOBALS(), "logs", "--all", "-o", "ndjson", "--per-page", "10"]);
    await run.waitForStdout(/(.*\n){20}/);
    const r = await interrupt(run);
    expect(r.code).toBe(130);
    const events = wholeLines(r.stdout);
    expect(events.length % 10).toBe(0);
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: events.length }, (_, i) => 1_000_000 - i));
    const pages = events.length / 10;
    // the window is pinned to the 24 hours before the run started (the real clock here)
    const window = "--since (\\S+) --until (\\S+)";
    const m = new RegExp(
      `^mq: interrupted\n${events.length} events were written before this\\. To resume:\n  mq logs --repo acme/web --api-url ${server.url.replace(/[.]/g, "\\.")} ${window} --per-page 10 --all -o ndjson --cursor ${pages}\n$`,
    ).exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(Date.parse(m![2]!) - Date.parse(m![1]!)).toBe(86_400_000);
    expect(Math.abs(Date.parse(m![2]!) - Date.now())).toBeLessThan(60_000);
  });

  it("during --follow: exit 130, whole lines, nothing else on stderr", async () => {
    const backlog = eventRange(30, 3);
    server.setScript(() => pageReply(backlog));
    const run = startMq([...GLOBALS(), "logs", "--follow", "--interval", "0.1", "-o", "ndjson"]);
    await run.waitForStdout(/(.*\n){3}/);
    // a few polls go by
    await delay(300);
    const r = await interrupt(run);
    expect(r.code).toBe(130);
    // printed oldest first, once each, however many polls returned them again
    expect(wholeLines(r.stdout).map((e) => e.id)).toEqual([28, 29, 30]);
    expect(r.stderr).toBe("mq: interrupted\n");
  });

  it("a second Ctrl-C exits at once with 130", async () => {
    server.setScript(async () => {
      await delay(5000);
      return pageReply([]);
    });
    const before = server.requests.length;
    const run = startMq([...GLOBALS(), "logs", "--all", "-o", "ndjson"]);
    // mq's handlers are in place once it asks for a page (a fixed 400 ms was too short a start at
    // load 17: Node's default SIGINT ended it before mq's own handler was there)
    await pagesAsked(before);
    run.child.kill("SIGINT");
    run.child.kill("SIGINT");
    const r = await interrupt(run);
    // the status a shell reports (128 + 2 for SIGINT): the run ends at the first signal, and a later
    // one can land while Node is tearing the process down, when the signal's default applies
    expect(r.code ?? (r.signal === "SIGINT" ? 130 : r.signal), r.stderr).toBe(130);
    expect(r.stdout).toBe("");
  });
});

/** Waits until the server has been asked for a page more than BEFORE (it may not have answered it). */
async function pagesAsked(before: number) {
  for (let i = 0; i < 1200 && server.requests.length === before; i++) await delay(25);
}

/** Waits until the server has answered N more requests (pages) than BEFORE. */
async function pagesServed(before: number, n: number) {
  for (let i = 0; i < 400 && server.requests.length - before < n; i++) await delay(25);
}

describe("SIGHUP (the terminal or SSH session closed)", () => {
  const RESUME = (format: string) =>
    new RegExp(
      `^mq: interrupted\\n(\\d+) events were written before this\\. To resume:\\n  mq logs --repo acme/web --api-url \\S+ --since \\S+ --until \\S+ --per-page 10 --all -o ${format} --cursor (\\d+)\\n$`,
    );

  /** Every data row of each format, as event ids. */
  const ids: Record<string, (stdout: string) => number[]> = {
    ndjson: (out) => wholeLines(out).map((e) => e.id),
    json: (out) => (JSON.parse(out) as Array<{ id: number }>).map((e) => e.id),
    // the header, then one row per event; pull_request is 100 + id
    csv: (out) => {
      expect(out.endsWith("\r\n")).toBe(true);
      const [header, ...rows] = out.trimEnd().split("\r\n");
      expect(header).toBe("id,received_at,trigger,repository,pull_request,base_ref,type,metadata");
      return rows.map((r) => Number(r.split(",")[0]));
    },
    // not a terminal: the table is buffered for sizing, so these rows were flushed by the signal
    table: (out) => {
      const [header, ...rows] = out.trimEnd().split("\n");
      expect(header).toMatch(/^TIME +TYPE +PR +BASE +SUMMARY$/);
      return rows.map((r) => Number(/#(\d+)/.exec(r)![1]) - 100);
    },
  };

  for (const format of ["ndjson", "json", "csv", "table"]) {
    it(`during --all -o ${format}: exit 129, complete output, the resume command`, async () => {
      server.setScript(endless(100));
      const before = server.requests.length;
      const run = startMq([...GLOBALS(), "logs", "--all", "-o", format, "--per-page", "10"]);
      await pagesServed(before, 3);
      run.child.kill("SIGHUP");
      const bound = delay(2000).then(() => "still running" as const);
      const r = await Promise.race([run.done, bound]);
      if (r === "still running") {
        run.child.kill("SIGKILL");
        throw new Error(`mq did not stop within 2000 ms of SIGHUP; stderr: ${run.stderr()}`);
      }
      expect(r.code, r.stderr).toBe(129);
      const m = RESUME(format).exec(r.stderr);
      expect(m, r.stderr).not.toBeNull();
      const written = Number(m![1]);
      expect(written).toBeGreaterThanOrEqual(20);
      expect(Number(m![2])).toBe(written / 10);
      expect(ids[format]!(r.stdout)).toEqual(Array.from({ length: written }, (_, i) => 1_000_000 - i));
    });
  }
});

// A real terminal for stderr: `script` runs mq under a pty (stdout still goes to a file) and a
// ^C typed into it reaches mq as SIGINT from the terminal driver, as it does for a person.
const hasScript = hasTool("script");

/** What a terminal shows after the transcript: carriage returns, line clears and cursor moves applied. */
function screen(transcript: string): string[] {
  const rows: string[] = [""];
  let row = 0;
  let col = 0;
  const re = /\x1b\[(\??)(\d*)([A-Za-z])|\r|\n|[^\x1b\r\n]+/g;
  for (const m of transcript.matchAll(re)) {
    const t = m[0];
    if (t === "\r") col = 0;
    else if (t === "\n") {
      row++;
      col = 0;
      rows[row] ??= "";
    } else if (m[3] !== undefined) {
      if (m[1] === "?") continue;
      const n = Number(m[2] || "1");
      if (m[3] === "G") col = n - 1;
      else if (m[3] === "K") rows[row] = rows[row]!.slice(0, m[2] === "2" ? 0 : col);
      else if (m[3] === "A") row = Math.max(0, row - n);
    } else {
      const line = rows[row]!.padEnd(col);
      rows[row] = line.slice(0, col) + t + line.slice(col + t.length);
      col += t.length;
    }
  }
  return rows.filter((r) => r.trim() !== "");
}

describe.skipIf(!hasScript)("Ctrl-C on a terminal", () => {
  async function underPty(cols: number) {
    server.setScript(endless(150));
    const dir = tempDir("mq-rel-pty-");
    const out = join(dir, "out.ndjson");
    const cmd = `stty cols ${cols} rows 24; exec '${process.execPath}' '${MQ_BIN}' ${GLOBALS().join(" ")} logs --all -o ndjson --per-page 10 > '${out}'`;
    const run = startShell(`exec script -qfec "${cmd}" /dev/null`, { killAfterMs: 25_000, keepStdin: true });
    server.requests.length = 0;
    // wait for two pages (a loaded machine may take seconds to start node), then type ^C
    for (let i = 0; i < 400 && server.requests.length < 3; i++) await delay(50);
    await delay(100);
    run.child.stdin!.write("\x03");
    const r = await run.done;
    return { ...r, file: readFileSync(out, "utf8") };
  }

  it("stops with 130, and the spinner line is cleared before the message", async () => {
    const r = await underPty(80);
    expect(r.killed).toBe(false);
    expect(r.code).toBe(130);
    const events = wholeLines(r.file);
    expect(events.length).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/(fetching events|events, \d+ page)/);
    const shown = screen(r.stdout);
    expect(shown.filter((l) => /fetching events|events, \d+ page/.test(l))).toEqual([]);
    expect(shown.some((l) => l.includes("mq: interrupted"))).toBe(true);
  });

  it("a terminal reporting 0 columns does not hang the spinner (ora's line count was Infinity)", async () => {
    server.requests.length = 0;
    const r = await underPty(0);
    expect(r.killed).toBe(false);
    expect(r.code).toBe(130);
    wholeLines(r.file);
    expect(r.stdout.length).toBeLessThan(2000);
  });
});

describe("a closed pipe", () => {
  it("`mq logs --follow | head -1` exits as soon as head leaves, with nothing new to write", async () => {
    // a backlog, then nothing new: without watching the reader, mq would wait for its next write forever
    server.setScript(() => pageReply(eventRange(30, 3)));
    const run = startShell(
      // timeout(1) bounds mq itself: a killed bash would leave it holding the pipe
      `timeout 8 "$NODE" "$MQ_BIN" ${GLOBALS().join(" ")} logs --follow --interval 0.2 -o ndjson | head -1; echo "mq exit ${"$"}{PIPESTATUS[0]}" >&2`,
      { killAfterMs: 10_000 },
    );
    const r = await run.done;
    expect(r.killed).toBe(false);
    expect(r.stderr).toBe("mq exit 0\n");
    expect(wholeLines(r.stdout).map((e) => e.id)).toEqual([28]);
  });

  it("`mq logs --all -o ndjson | head -1` exits 0 quietly", async () => {
    server.setScript(endless(0));
    const run = startShell(
      `"$NODE" "$MQ_BIN" ${GLOBALS().join(" ")} logs --all -o ndjson --per-page 10 | head -1; echo "mq exit ${"$"}{PIPESTATUS[0]}" >&2`,
    );
    const r = await run.done;
    expect(r.killed).toBe(false);
    expect(r.stderr).toBe("mq exit 0\n");
    expect(wholeLines(r.stdout).map((e) => e.id)).toEqual([1_000_000]);
  });

  it("`mq logs --all -o csv | head -c 100` exits 0 quietly", async () => {
    server.setScript(endless(0));
    const run = startShell(
      `"$NODE" "$MQ_BIN" ${GLOBALS().join(" ")} logs --all -o csv | head -c 100 > /dev/null; echo "mq exit ${"$"}{PIPESTATUS[0]}" >&2`,
    );
    const r = await run.done;
    expect(r.stderr).toBe("mq exit 0\n");
  });
});
