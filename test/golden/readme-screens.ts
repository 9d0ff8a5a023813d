// The README's screens are golden captures (test/golden/captures.ts, `readme`): a ```console block
// right after a line `<!-- golden: NAME -->` holds the capture NAME at 80 columns, its first lines
// when the README shows only those, then "...".
import type { ScreenCapture } from "./captures.js";

export interface ReadmeScreen {
  name: string;
  /** the block, from its opening fence to its closing one */
  text: string;
}

const BLOCK = /<!-- golden: ([a-z0-9-]+) -->\n(```console\n[\s\S]*?\n```)/g;

export function readmeScreens(readme: string): ReadmeScreen[] {
  return [...readme.matchAll(BLOCK)].map((m) => ({ name: m[1]!, text: m[2]! }));
}

/** the README's block for a capture's screen */
export function renderReadmeScreen(capture: ScreenCapture, captured: string): string {
  const screen = captured.trimEnd().split("\n");
  const lines = capture.readme?.lines;
  const shown = lines !== undefined && screen.length > lines ? [...screen.slice(0, lines), "..."] : screen;
  return ["```console", `$ ${capture.line}`, ...shown, "```"].join("\n");
}
