// Ctrl-C on a terminal stops the output at once (issue 32): a long output runs on a pseudo-terminal
// (util-linux's `script`), the test types Ctrl-C into it, and the terminal's own echo of the key
// ("^C", which the line discipline puts into the output at the next write after the key) marks the
// instant. After it: at most the line being written then (a key and a write can always cross), then
// mq's "interrupted" with how to resume, and nothing after that; the exit is 130. Before the fix,
// the rest of a 100-event page (a whole table at its end) came after the key.
import { describe, expect, it } from "vitest";
import { startShell } from "../helpers/spawn.js";
import { hasTool } from "../helpers/tools.js";

const hasScript = hasTool("script");

/** What a terminal 100 columns wide showed of `mq ARGS` when Ctrl-C was typed after `lines` lines. */
async function interruptedAfter(args: string, lines: number) {
  // script's terminal has no size of its own: stty gives it one; -e: script exits with mq's status
  const inner = `stty cols 100 rows 40; exec "$NODE" "$MQ_BIN" ${args}`;
  const run = startShell(`exec script -q -e -c '${inner}' /dev/null`, { keepStdin: true, killAfterMs: 120_000 });
  const deadline = Date.now() + 110_000;
  let seen = 0;
  for (let from = 0; seen < lines && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const out = run.stdout();
    for (let i = out.indexOf("\n", from); i !== -1; i = out.indexOf("\n", i + 1)) {
      seen++;
      from = i + 1;
    }
  }
  if (seen < lines) throw new Error(`the terminal showed ${seen} lines, not ${lines}:\n${run.stdout().slice(-2000)}`);
  run.child.stdin!.write("\x03");
  const r = await run.done;
  // the terminal writes CR LF
  const screen = r.stdout.replace(/\r\n/g, "\n");
  const at = screen.indexOf("^C");
  expect(at, screen.slice(-2000)).toBeGreaterThan(0);
  const after = visibleLines(screen.slice(at + 2));
  return {
    code: r.code,
    linesBefore: screen.slice(0, at).split("\n").length,
    // the spinner's frames on stderr are drawn and cleared in place: no data
    data: after.filter((l) => !SPINNER.test(l) && !MESSAGE.some((m) => m.test(l))),
    // mq's own lines after the key: what a person reads last
    message: after.filter((l) => MESSAGE.some((m) => m.test(l))),
    last: after.at(-1),
  };
}

/** The lines a terminal shows of TEXT: a return to column 1 starts a line, other escapes show nothing. */
function visibleLines(text: string): string[] {
  return text
    .replace(/\r|\x1b\[1G/g, "\n")
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
    .split("\n")
    .filter((l) => l.trim() !== "");
}

const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;
// the resume command names where to go on: the next page's cursor, or, at the first page of one of
// the window's slices fetched side by side (--all), the end of the window still to fetch (--until)
const MESSAGE = [
  /^mq: interrupted$/,
  /^[\d,]+ events? (?:was|were) written before this\. To resume:$/,
  /^ {2}mq logs .* --(?:cursor|until) \S+/,
];

describe.skipIf(!hasScript)("Ctrl-C on a terminal (skipped: util-linux script is missing)", () => {
  it("mq logs --all: at most the line being written, then mq's message and how to resume; exit 130", async () => {
    const r = await interruptedAfter("--offline logs --repo acme/web --all --since 30d", 600);
    expect(r.code).toBe(130);
    expect(r.linesBefore).toBeGreaterThan(600);
    expect(r.data.length, r.data.join("\n")).toBeLessThanOrEqual(1);
    expect(r.message.map((l) => l.replace(/\d[\d,]*/, "N").replace(/mq logs .*/, "mq logs ..."))).toEqual([
      "mq: interrupted",
      "N events were written before this. To resume:",
      "  mq logs ...",
    ]);
    expect(r.last).toMatch(/^ {2}mq logs /);
  }, 130_000);

  it("mq prs with every row asked for (one table written at its end): the same", async () => {
    const r = await interruptedAfter("--offline prs --repo acme/web --since 14d --limit 100000", 300);
    expect(r.code).toBe(130);
    expect(r.data.length, r.data.join("\n")).toBeLessThanOrEqual(1);
    expect(r.message).toEqual(["mq: interrupted"]);
    expect(r.last).toBe("mq: interrupted");
  }, 130_000);

  it("mq logs -o ndjson on a terminal: records stop at the key too", async () => {
    const r = await interruptedAfter("--offline logs --repo acme/web --all --since 30d -o ndjson", 300);
    expect(r.code).toBe(130);
    expect(r.data.length, r.data.join("\n")).toBeLessThanOrEqual(1);
    expect(r.last).toMatch(/^ {2}mq logs /);
  }, 130_000);
});
