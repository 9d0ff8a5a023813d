// Assertions on what reached a terminal or a CI log: no raw character a terminal would act on or
// hide (mq's own SGR colours allowed when asked), and no line that starts a workflow command.
import { expect } from "vitest";

/** C0 but LF, DEL, C1, soft hyphen, bidi marks/embeddings/overrides/isolates, zero-width, separators, BOM, fillers, tags, lone surrogates. */
export const RAW_UNSAFE =
  /[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff\u3164\u{e0000}-\u{e007f}]|[\ud800-\udfff]/u;
const SGR = /\x1b\[[0-9;]*m/g;

export function expectNoRawControls(text: string, where: string, allowSgr: boolean): void {
  const rest = allowSgr ? text.replace(SGR, "") : text;
  const m = RAW_UNSAFE.exec(rest);
  const at = m?.index ?? 0;
  expect(
    m,
    `${where}: raw U+${m?.[0].codePointAt(0)!.toString(16).padStart(4, "0")} near ${JSON.stringify(rest.slice(Math.max(0, at - 40), at + 20))}`,
  ).toBeNull();
}

/** GitHub Actions reads `::cmd::` (and the older `##[cmd]`) at the start of a line, after white space. */
export function expectNoWorkflowCommands(stderr: string): void {
  for (const line of stderr.split("\n")) expect(line.trimStart(), "a stderr line that starts a workflow command").not.toMatch(/^(::|##\[)/);
}
