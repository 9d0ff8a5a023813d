// An honest resume after a full disk: the count and the resume cursor name exactly the events the
// output holds, a file is cut back to the last whole page, and following the hint gives every
// event exactly once. Before, the count was what had been handed to the stream ("996 events were
// written", 413 in the file, the last one cut) and the cursor skipped what was lost.
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/context.js";
import { main } from "../../src/main.js";
import { eventRange, ndjson, pageReply, startFaultServer, type FaultServer } from "../helpers/fault-server.js";
import { fullDisk } from "../helpers/full-disk.js";
import { tempDir } from "../helpers/tmp.js";
import { lines, runMq, TOKEN } from "./harness.js";

// 5 pages of 10 events, ids 100 down to 51, each page's next link with the cursor cN
const ALL = eventRange(100, 50);
const PAGE = (n: number) => ALL.slice((n - 1) * 10, n * 10);
let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer((_n, url) => {
    const n = Number((url.searchParams.get("cursor") ?? "c1").slice(1));
    return pageReply(PAGE(n), n < 5 ? `/v1/repos/acme/web/logs?per_page=10&cursor=c${n + 1}` : undefined);
  });
});
afterAll(() => server.close());

const ARGS = [
  "logs",
  "--repo",
  "acme/web",
  "--all",
  "-o",
  "ndjson",
  "--per-page",
  "10",
  "--since",
  "2026-11-19T00:00:00Z",
  "--parallel",
  "1",
];
const PAGE_BYTES = ndjson(PAGE(1)).length;

async function toFullDisk(room: number, opts: { file: boolean; shortWrite?: boolean }) {
  const disk = fullDisk(room, opts);
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  const config = tempDir("mq-test-config-");
  const ctx = createContext({
    env: { MQ_CONFIG_DIR: config, HOME: config },
    now: () => new Date("2026-11-20T12:00:00Z"),
    io: {
      stdout: disk.stream,
      stderr,
      stdin: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: 100,
      ...(opts.file ? { stdoutFile: disk.file } : {}),
    },
  });
  const code = await main(["--api-url", server.url, "--token", TOKEN, ...ARGS], ctx);
  await new Promise((r) => setImmediate(r));
  return { code, stderr: err, text: disk.text() };
}

/** runs the resume command the hint printed, against the same server, and returns its output */
async function resume(stderr: string): Promise<string> {
  const command = lines(stderr).at(-1)!.trim();
  const args = command.split(" ").slice(1);
  const r = await runMq(["--token", TOKEN, ...args], { repo: false });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe("mq logs --all on a full disk", () => {
  it.each([
    ["a file, the failing write cut short", { file: true }],
    ["a file whose short write was reported as done (Node's file stream)", { file: true, shortWrite: true }],
  ])("%s: the file is cut back to the last whole page, the count and the cursor are that page's", async (_name, opts) => {
    const r = await toFullDisk(Math.floor(PAGE_BYTES * 2.5), opts);
    expect(r.code).toBe(74);
    expect(r.text).toBe(ndjson(ALL.slice(0, 20)));
    expect(lines(r.stderr)).toEqual([
      "mq: could not write the output: no space left on the device (ENOSPC)",
      "20 events were written before this. The file ends with the last of them, whole. To resume:",
      `  mq logs --repo acme/web --api-url ${server.url} --since 2026-11-19T00:00:00Z --until 2026-11-20T12:00:00Z --per-page 10 --all -o ndjson --cursor c3`,
    ]);
    // following the hint: every event exactly once
    expect(r.text + (await resume(r.stderr))).toBe(ndjson(ALL));
  });

  it("a stream that is not a file: the count is what it accepted, and the note names a cut line", async () => {
    const r = await toFullDisk(Math.floor(PAGE_BYTES * 2.5), { file: false });
    expect(r.code).toBe(74);
    // the first 20 events whole, then part of the 21st
    expect(r.text.startsWith(ndjson(ALL.slice(0, 20)))).toBe(true);
    expect(lines(r.stderr)[1]).toBe(
      "20 events were written before this. If the output ends with part of a line, it is the start of the event after them: remove it before appending. To resume:",
    );
    expect(lines(r.stderr)[2]).toMatch(/ --cursor c3$/);
  });

  it("nothing fits (/dev/full): no event counted, no resume hint", async () => {
    const r = await toFullDisk(0, { file: false });
    expect(r.code).toBe(74);
    expect(r.text).toBe("");
    expect(r.stderr).toBe("mq: could not write the output: no space left on the device (ENOSPC)\n");
  });
});
