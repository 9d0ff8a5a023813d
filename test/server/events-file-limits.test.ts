// `mq serve --events` refuses at start, with one line and exit 2, what it cannot replay: a folder
// (it was an internal error, exit 70) and a line longer than any event (one 80 MB event ran the
// process out of memory, exit 134; /dev/zero, one endless line, never ended). Memory stays bounded
// by the longest line allowed, whatever the file holds.
import { execFileSync } from "node:child_process";
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { loadEventsFile, MAX_EVENT_LINE_BYTES } from "../../src/server/ndjson.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

const event = (id: number, pad = "") =>
  `{"id":${id},"received_at":"2026-11-20T10:00:00Z","trigger":"t${pad}","repository":"acme/web","pull_request":null,"base_ref":null,"type":"action.rebase","metadata":{}}`;

/** mq serve --events FILE, stopped at once should it start */
async function serve(file: string) {
  const controller = new AbortController();
  controller.abort();
  const ctx = testContext({ signal: controller.signal });
  const code = await main(["serve", "--events", file], ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText() };
}

describe("mq serve --events refuses at start", () => {
  it("a folder: exit 2, one line", async () => {
    const dir = tempDir("mq-events-");
    expect(await serve(dir)).toEqual({
      code: 2,
      out: "",
      err: `mq: --events: ${dir} is a folder; give the ndjson file written by mq logs --all -o ndjson.\n`,
    });
  });

  it("a line longer than the longest event allowed: exit 2 naming the line, the rest never read", async () => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "huge.ndjson");
    // a valid first event, then one event of 80 MB (written in pieces: the test holds none of it)
    writeFileSync(file, `${event(1)}\n`);
    const fd = openSync(file, "a");
    try {
      writeSync(fd, `{"id":2,"received_at":"2026-11-20T10:00:00Z","trigger":"`);
      const chunk = "x".repeat(1 << 20);
      for (let i = 0; i < 80; i++) writeSync(fd, chunk);
      writeSync(fd, `","repository":"acme/web","pull_request":null,"base_ref":null,"type":"action.rebase","metadata":{}}\n`);
    } finally {
      closeSync(fd);
    }
    expect(await serve(file)).toEqual({
      code: 2,
      out: "",
      err: `mq: --events: ${file}:2: not an event: the line is longer than ${MAX_EVENT_LINE_BYTES / 1048576} MiB (no event of the API comes near; is this an ndjson file of events?)\n`,
    });
  });

  it("an endless line (/dev/zero): the same, after reading no more than the limit", async () => {
    await expect(loadEventsFile("/dev/zero")).rejects.toThrow(
      `/dev/zero:1: not an event: the line is longer than ${MAX_EVENT_LINE_BYTES / 1048576} MiB`,
    );
  });

  it("a line just under the limit is read (and judged as an event)", async () => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "long.ndjson");
    const line = event(1, "x".repeat(MAX_EVENT_LINE_BYTES - event(1).length));
    expect(Buffer.byteLength(line)).toBe(MAX_EVENT_LINE_BYTES);
    // a CRLF line end too, as a file edited on Windows has them
    writeFileSync(file, `${line}\n${event(2)}\r\n`);
    const loaded = await loadEventsFile(file);
    expect(loaded.count).toBe(2);
  });

  it("lines split across reads, multi-byte characters at the seams, no final newline", async () => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "seams.ndjson");
    const lines = Array.from({ length: 3000 }, (_, i) => event(i + 1, "é€😀".repeat(i % 7)));
    writeFileSync(file, lines.join("\n"));
    const loaded = await loadEventsFile(file);
    expect(loaded.count).toBe(3000);
    expect(loaded.byRepo.get("acme/web")!.map((e) => e.trigger)).toEqual(lines.map((_, i) => `t${"é€😀".repeat(i % 7)}`));
  });

  it("a FIFO is read as it is written (process substitution)", async () => {
    const dir = tempDir("mq-events-");
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const loading = loadEventsFile(fifo);
    const { spawn } = await import("node:child_process");
    const writer = spawn("sh", ["-c", `printf '%s\\n' '${event(1)}' '${event(2)}' > "$0"`, fifo]);
    await new Promise((resolve) => writer.on("close", resolve));
    expect((await loading).count).toBe(2);
  });
});
