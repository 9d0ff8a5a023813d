// A real terminal for the golden captures: a tmux server of the test's own (a private socket, no
// user configuration), one session per capture, `columns` wide. What is kept is what a person sees
// when the command has ended: `capture-pane` of the whole pane, its scrollback included, wrapped
// lines joined (-J), so a line wider than the terminal shows as one long line instead of being
// hidden by the wrap. stdout and stderr both go to the pane, in the order they were written.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.js";

export const hasTmux = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface CaptureOptions {
  columns: number;
  /** the pane's height; a longer output scrolls, and the capture keeps the scrollback (default 50) */
  rows?: number;
  /** for a command that runs until stopped: Ctrl-C once the pane shows this, then wait for the end */
  interruptWhen?: RegExp;
  /**
   * for a command that draws a screen of its own until stopped (--watch, on the alternate screen,
   * which is gone once it ends): the screen kept is the pane when it shows this; then Ctrl-C
   */
  screenWhen?: RegExp;
}

export interface Capture {
  /** the command's exit status */
  code: number;
  /** the pane, lines without their trailing blanks, without the blank lines below the last */
  screen: string;
}

export class TmuxTerminal {
  private readonly dir = tempDir("mq-tmux-");
  private readonly socket = join(this.dir, "s");
  private sessions = 0;

  /** `env` is the whole environment of every command run in it (the tmux server starts with it) */
  constructor(private readonly env: Record<string, string>) {
    // a session that lives as long as the terminal: the server would exit with its last session,
    // and a capture starting then would meet a server on its way out
    this.tmux(["new-session", "-d", "-s", "keep", "exec sleep 100000"]);
  }

  private tmux(args: string[]): string {
    return execFileSync("tmux", ["-S", this.socket, "-f", "/dev/null", ...args], { env: this.env, encoding: "utf8" });
  }

  /** Runs `argv` (a program and its arguments) in a fresh pane and returns the screen once it has ended. */
  async capture(argv: string[], options: CaptureOptions): Promise<Capture> {
    const name = `c${++this.sessions}`;
    const codeFile = join(this.dir, `${name}.code`);
    // the pane stays open after the command (sleep) so that it can be read; wait-for tells the test it
    // ended. Ctrl-C goes to every process of the pane: the shell around the command catches it (a
    // trap with a command, which the command itself does not inherit) so that it lives on to say so.
    const inner = `trap : INT; ${argv.map(shellQuote).join(" ")}; echo $? > ${shellQuote(codeFile)}; tmux -S ${shellQuote(this.socket)} wait-for -S ${name}; exec sleep 600`;
    const rows = options.rows ?? 50;
    this.tmux(["new-session", "-d", "-s", name, "-x", String(options.columns), "-y", String(rows), inner]);
    this.tmux(["set-option", "-t", name, "history-limit", "20000"]);
    try {
      let shown: string | undefined;
      const until = options.screenWhen ?? options.interruptWhen;
      if (until) {
        const deadline = Date.now() + 60_000;
        while (!until.test(this.read(name))) {
          if (Date.now() > deadline) throw new Error(`the pane never showed ${until}:\n${this.read(name)}`);
          await sleep(100);
        }
        if (options.screenWhen) shown = this.read(name);
        this.tmux(["send-keys", "-t", name, "C-c"]);
      }
      await new Promise<void>((resolve, reject) => {
        const waiter = spawn("tmux", ["-S", this.socket, "wait-for", name], { env: this.env, stdio: "ignore" });
        waiter.on("error", reject);
        waiter.on("exit", () => resolve());
      });
      const code = existsSync(codeFile) ? Number(readFileSync(codeFile, "utf8").trim()) : Number.NaN;
      return { code, screen: shown ?? this.read(name) };
    } finally {
      this.tmux(["kill-session", "-t", name]);
    }
  }

  private read(session: string): string {
    const raw = this.tmux(["capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", session]);
    const lines = raw.split("\n").map((line) => line.trimEnd());
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  }

  close(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      // no session left: the server has already gone
    }
  }
}
