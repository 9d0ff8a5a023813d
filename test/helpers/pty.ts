// Runs a command with stdout and stderr each on its own pseudo-terminal (python3's pty module: two
// pairs, a fixed size), so mq sees two real terminals and the test still reads the streams apart.
// What comes back is the bytes the terminals received, after the line discipline (LF as CR LF).
import { execFileSync, spawn } from "node:child_process";

export interface PtyResult {
  code: number | null;
  /** bytes written to the stdout terminal, as latin1-safe UTF-8 text, CR LF turned back into LF */
  stdout: string;
  stderr: string;
  killed: boolean;
}

export interface PtyOptions {
  columns?: number;
  rows?: number;
  env?: Record<string, string>;
  killAfterMs?: number;
}

// Two pty pairs sized with TIOCSWINSZ; both masters read until the child has exited and neither has
// more to give; the result is one JSON line with the exit status and the two transcripts in base64.
const DRIVER = String.raw`
import base64, fcntl, json, os, pty, select, struct, subprocess, sys, termios
rows, cols = int(sys.argv[1]), int(sys.argv[2])
cmd = sys.argv[3:]
pairs = [pty.openpty(), pty.openpty()]
for master, slave in pairs:
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=pairs[0][1], stderr=pairs[1][1], close_fds=True)
for _, slave in pairs:
    os.close(slave)
bufs = [b"", b""]
open_fds = {pairs[0][0]: 0, pairs[1][0]: 1}
while open_fds:
    ready, _, _ = select.select(list(open_fds), [], [], 0.2)
    for fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if data:
            bufs[open_fds[fd]] += data
        else:
            del open_fds[fd]
    if not ready and p.poll() is not None:
        break
code = p.wait()
print(json.dumps({"code": code, "out": base64.b64encode(bufs[0]).decode(), "err": base64.b64encode(bufs[1]).decode()}))
`;

/**
 * The interpreter python3 names on PATH, as its own path: a version manager's shim (pyenv's is a
 * bash script that runs some 15 processes to pick the version) is resolved once, not per command.
 */
const python = (() => {
  try {
    const path = execFileSync("python3", ["-c", "import pty, sys, termios; print(sys.executable)"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return path.trim() || undefined;
  } catch {
    return undefined;
  }
})();

export const hasPython = python !== undefined;

export function runInPty(command: string[], opts: PtyOptions = {}): Promise<PtyResult> {
  const child = spawn(python!, ["-c", DRIVER, String(opts.rows ?? 40), String(opts.columns ?? 120), ...command], {
    env: opts.env ?? (process.env as Record<string, string>),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, opts.killAfterMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.on("close", () => {
      clearTimeout(timer);
      if (killed) return resolve({ code: null, stdout: "", stderr: err, killed });
      try {
        const r = JSON.parse(out) as { code: number; out: string; err: string };
        const text = (b64: string) => Buffer.from(b64, "base64").toString("utf8").replace(/\r\n/g, "\n");
        resolve({ code: r.code, stdout: text(r.out), stderr: text(r.err), killed });
      } catch {
        reject(new Error(`pty driver failed: ${err || out}`));
      }
    });
  });
}
