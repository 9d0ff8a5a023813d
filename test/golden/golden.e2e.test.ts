// What a person sees, captured from a real terminal (tmux, test/golden/tmux.ts) at 60, 80 and 120
// columns, on fixed data: every command's default screen, and the README's screens. The captures
// are kept in test/golden/*.txt, so a change of layout is a visible diff; MQ_UPDATE_GOLDEN=1
// rewrites them and the README's screens. The data: `mq serve --now ... --seed 0` (the history
// `--offline` simulates at that instant), and the client's clock pinned to the same instant
// (test/golden/mq-at.cjs); the shell has MQ_API_URL, MQ_TOKEN and MQ_REPO set, as a configured
// shell would, so a line reads as typed. The README's lines run as written, `--offline` included.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_NAMES } from "../../src/cli.js";
import { tempDir } from "../helpers/tmp.js";
import { hasTmux, TmuxTerminal } from "./tmux.js";
import { CAPTURES, type ScreenCapture, WIDTHS } from "./captures.js";
import { readmeScreens, renderReadmeScreen } from "./readme-screens.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));
const NOW = "2026-11-20T12:00:00Z";
const update = process.env.MQ_UPDATE_GOLDEN === "1";

let server: ChildProcess | undefined;
let terminal: TmuxTerminal | undefined;
let home = "";

beforeAll(async () => {
  if (!hasTmux) return;
  const child = spawn("node", [join(root, "bin/mq.js"), "serve", "--port", "0", "--now", NOW, "--seed", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  server = child;
  const served = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    child.on("exit", (code) => reject(new Error(`mq serve exited with ${code}`)));
  });
  home = tempDir("mq-golden-");
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    MQ_CONFIG_DIR: join(home, "config"),
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_DATA_HOME: join(home, "data"),
    MQ_API_URL: served,
    MQ_TOKEN: "golden",
    MQ_REPO: "acme/web",
    NO_COLOR: "1",
    TZ: "UTC",
    LANG: "C.UTF-8",
    MQ_GOLDEN_NOW: NOW,
  };
  // the archive's screens read an archive: one sync of the day before, not captured
  execFileSync(process.execPath, [join(here, "mq-at.cjs"), "archive", "sync", "--since", "1d"], { env, stdio: "ignore" });
  terminal = new TmuxTerminal(env);
}, 120_000);

afterAll(() => {
  terminal?.close();
  server?.kill("SIGINT");
});

/** the screens captured in this run, by NAME.WIDTH */
const screens = new Map<string, string>();

/**
 * The screen as kept: what changes from run to run and is no part of the layout is replaced, the
 * ports a server picked, the test's home folder and the capture's `mask`.
 */
function stable(c: ScreenCapture, screen: string): string {
  let kept = screen.replaceAll(home, "~").replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
  for (const re of c.mask ?? []) kept = kept.replace(re, (m) => m.replace(/\S/g, "#"));
  return kept;
}
/** a capture's file: the line as typed, then the screen */
const captureText = (c: ScreenCapture, columns: number, screen: string) => `$ ${c.line}    # ${columns} columns\n${screen}`;
/** the screen of a capture's file */
const screenOf = (key: string) => screens.get(key) ?? readFileSync(join(here, `${key}.txt`), "utf8").replace(/^.*\n/, "");

async function run(c: ScreenCapture, columns: number) {
  const mq = [process.execPath, join(here, "mq-at.cjs")].map((s) => `'${s}'`).join(" ");
  // `mq` in the line is mq with the pinned clock, wherever it appears (pipes, $(...), &&)
  const script = `trap : INT; mq() { ${mq} "$@"; }; ${c.line}`;
  return terminal!.capture(["sh", "-c", script], { columns, interruptWhen: c.interruptWhen, screenWhen: c.screenWhen });
}

const widest = (text: string) => Math.max(...text.split("\n").map((l) => [...l].length));

const TITLE = "golden captures in tmux at 60, 80 and 120 columns";

describe.skipIf(!hasTmux)(hasTmux ? TITLE : `${TITLE} (skipped: tmux is missing)`, () => {
  it("the suite's title says it was skipped only when it was", () => {
    expect(expect.getState().currentTestName).toBe(`${TITLE} > the suite's title says it was skipped only when it was`);
  });

  for (const c of CAPTURES) {
    for (const columns of c.widths ?? WIDTHS) {
      const key = `${c.name}.${columns}`;
      it(`${key}: ${c.line}`, async () => {
        const r = await run(c, columns);
        const screen = stable(c, r.screen);
        const text = captureText(c, columns, screen);
        screens.set(key, screen);
        expect(r.code, text).toBe(c.code ?? 0);
        const file = join(here, `${key}.txt`);
        if (update || !existsSync(file)) writeFileSync(file, text);
        expect(text).toBe(readFileSync(file, "utf8"));
      }, 90_000);
      // what does not fit yet is listed in the capture (`overflows`): that check is expected to fail,
      // and fails when it fits, so that the entry goes
      const fits = c.overflows?.includes(columns) ? it.fails : it;
      fits(`${key} fits: no line wider than ${columns}, at most ${c.maxLines ?? 60} lines`, () => {
        const screen = screenOf(key);
        // -J joins wrapped lines: no line of what the command wrote is wider than the terminal
        expect(widest(screen), screen).toBeLessThanOrEqual(columns);
        // no default screen floods the terminal (the long lists show a screen and say how to get more)
        expect(screen.trimEnd().split("\n").length, screen).toBeLessThanOrEqual(c.maxLines ?? 60);
      });
    }
  }

  it("every command has a capture of its default screen", () => {
    const captured = new Set(CAPTURES.map((c) => /^mq (?:--offline )?([a-z]+)/.exec(c.line)?.[1]));
    expect(COMMAND_NAMES.filter((name) => !captured.has(name))).toEqual([]);
  });

  it("the README's screens are captures (MQ_UPDATE_GOLDEN=1 rewrites them)", () => {
    const readmeFile = join(root, "README.md");
    let readme = readFileSync(readmeFile, "utf8");
    const blocks = readmeScreens(readme);
    expect(blocks.map((b) => b.name).sort()).toEqual(
      CAPTURES.filter((c) => c.readme)
        .map((c) => c.name)
        .sort(),
    );
    // every screen the README shows is a capture, or says why not
    const unmarked = [...readme.matchAll(/(?:^|\n)(?!<!-- )[^\n]*\n```console\n([^\n]*)/g)].map((m) => m[1]);
    expect(unmarked, "README screens with neither <!-- golden: NAME --> nor <!-- not captured: why -->").toEqual([]);
    for (const block of blocks) {
      const c = CAPTURES.find((x) => x.name === block.name)!;
      const want = renderReadmeScreen(c, screenOf(`${c.name}.80`));
      if (update) readme = readme.replace(block.text, want);
      else expect(block.text, `README screen ${block.name}`).toBe(want);
    }
    if (update) writeFileSync(readmeFile, readme);
  });
});

describe.skipIf(!hasTmux)("issue 17, done when (read from the captures above)", () => {
  it("mq stats failure-rate at 80 columns: one screen, no line wider than 80, the all-groups figure", () => {
    const screen = screenOf("stats-failure-rate.80");
    expect(screen.trimEnd().split("\n").length).toBeLessThanOrEqual(40);
    expect(screen).toMatch(/^all groups +\d+ +\d+ +\d+\.\d%$/m);
  });

  it("--intervals shows every interval of the window", () => {
    // the day before 12:00 in hourly intervals, each shown whatever it holds
    const starts = screenOf("stats-failure-rate-intervals.80")
      .split("\n")
      .filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ /.test(l));
    expect(starts.length).toBe(24);
  });

  it("mq logs at 80 columns shows at least 40 characters of SUMMARY", () => {
    const head = screenOf("logs.80")
      .split("\n")
      .find((l) => l.includes("SUMMARY"))!;
    expect(80 - head.indexOf("SUMMARY")).toBeGreaterThanOrEqual(40);
  });
});
