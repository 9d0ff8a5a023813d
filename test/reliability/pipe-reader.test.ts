// The /proc lookup behind `mq logs --follow | head -1`, on a fake /proc: a reader is a process of
// ours holding the same pipe open for reading; a process we cannot inspect in our session leaves
// the answer unknown (never "gone"), one outside the session does not count.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pipeReaderState, watchStdoutReader } from "../../src/pipe-reader.js";
import { tempDir } from "../helpers/tmp.js";

const SELF = 500;
const PIPE = "pipe:[4242]";

interface FakeProcess {
  pid: number;
  session?: number;
  /** fd number -> [link target, octal flags] */
  fds?: Record<number, [string, string]>;
  /** its fd folder cannot be listed (another user's process) */
  hidden?: boolean;
}

function fakeProc(processes: FakeProcess[]): string {
  const root = tempDir("mq-fake-proc-");
  for (const p of [{ pid: SELF, session: 7, fds: { 1: [PIPE, "0104001"] } } as FakeProcess, ...processes]) {
    const dir = join(root, String(p.pid));
    mkdirSync(join(dir, "fdinfo"), { recursive: true });
    writeFileSync(join(dir, "stat"), `${p.pid} (a (b) c) S 1 ${p.session ?? 7} ${p.session ?? 7} 0 -1\n`);
    if (p.hidden) {
      writeFileSync(join(dir, "fd"), "");
      continue;
    }
    mkdirSync(join(dir, "fd"));
    if (p.pid === SELF) symlinkSync(String(SELF), join(root, "self"));
    for (const [fd, [target, flags]] of Object.entries(p.fds ?? {})) {
      symlinkSync(target, join(dir, "fd", fd));
      writeFileSync(join(dir, "fdinfo", fd), `pos:\t0\nflags:\t${flags}\nmnt_id:\t16\n`);
    }
  }
  return root;
}

describe("pipeReaderState", () => {
  it("reading: another process holds the pipe read-only", () => {
    const proc = fakeProc([{ pid: 501, fds: { 0: [PIPE, "0100000"] } }]);
    expect(pipeReaderState(PIPE, proc, SELF)).toBe("reading");
  });

  it("gone: only writers (and other pipes) are left", () => {
    const proc = fakeProc([
      { pid: 501, fds: { 1: [PIPE, "0100001"], 0: ["pipe:[99]", "0100000"] } },
      { pid: 502, fds: { 0: ["/dev/null", "0100000"] } },
    ]);
    expect(pipeReaderState(PIPE, proc, SELF)).toBe("gone");
  });

  it("reading: O_RDWR counts as a reader", () => {
    const proc = fakeProc([{ pid: 9000, fds: { 5: [PIPE, "0100002"] } }]);
    expect(pipeReaderState(PIPE, proc, SELF)).toBe("reading");
  });

  it("unknown: a process of our session that we cannot inspect may be the reader (`| sudo tee`)", () => {
    const proc = fakeProc([{ pid: 501, hidden: true }]);
    expect(pipeReaderState(PIPE, proc, SELF)).toBe("unknown");
  });

  it("gone: a hidden process of another session cannot have inherited the pipe", () => {
    const proc = fakeProc([{ pid: 501, hidden: true, session: 1 }]);
    expect(pipeReaderState(PIPE, proc, SELF)).toBe("gone");
  });

  it("unknown: no /proc", () => {
    expect(pipeReaderState(PIPE, join(tmpdir(), "no-such-proc-mq"), SELF)).toBe("unknown");
  });
});

describe.skipIf(process.platform !== "linux")("watchStdoutReader", () => {
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("reports a reader seen at start that leaves", async () => {
    const proc = fakeProc([{ pid: 501, fds: { 0: [PIPE, "0100000"] } }]);
    let gone = 0;
    const stop = watchStdoutReader(() => gone++, { intervalMs: 10, proc, self: SELF });
    await pause(50);
    expect(gone).toBe(0);
    rmSync(join(proc, "501"), { recursive: true });
    await pause(80);
    stop();
    expect(gone).toBe(1);
  });

  it("never concludes when no reader is visible at start (a container runtime in another PID namespace)", async () => {
    const proc = fakeProc([{ pid: 501, fds: { 1: [PIPE, "0100001"] } }]);
    let gone = 0;
    const stop = watchStdoutReader(() => gone++, { intervalMs: 10, proc, self: SELF });
    await pause(80);
    stop();
    expect(gone).toBe(0);
  });
});
