// Tables of text in every script line up: golden captures of the logs table and of a wrapped
// stats-style table at 60 and 80 columns, with branch names and labels in CJK, Thai, Devanagari,
// Hangul conjoining jamo, emoji ZWJ sequences, combining marks and RTL scripts. Every line is
// checked to fit its width and each column to start at the header's column, measured by the one
// width function (displayWidth); the captures in test/output/scripts/ show it to a reader
// (MQ_UPDATE_GOLDEN=1 rewrites them).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { renderTable } from "../../src/output/table.js";
import { displayWidth } from "../../src/iostreams/terminal-width.js";
import { testContext, type TestContext } from "../helpers/context.js";
import { startLogServer, useServer, type FixtureEvent, type LogServer } from "../commands/logs-fixture.js";

const here = fileURLToPath(new URL("./scripts/", import.meta.url));

function golden(name: string, text: string): void {
  const file = `${here}${name}`;
  if (process.env.MQ_UPDATE_GOLDEN === "1" || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, "utf8"));
}

/** a script, a branch name in it and labels in it */
const SCRIPTS: ReadonlyArray<[string, string, string]> = [
  ["CJK", "リリース/二〇二六", "準備完了 レビュー待ち"],
  ["Thai", "สาขา/ที่ดี", "พร้อมแล้ว ตรวจสอบก่อน"],
  ["Devanagari", "शाखा/नमस्ते", "तैयार समीक्षा-बाकी"],
  ["Hangul jamo", "\u1100\u1161\u11a8/\u1112\u1161\u11ab", "\u1100\u1161 \u1102\u1161\u11ab"],
  ["emoji ZWJ", "team/👨‍👩‍👧‍👦🏳️‍🌈", "🧑‍💻ready 👍🏽ok 🇫🇷fr"],
  ["combining", "cafe\u0301/re\u0301sume\u0301", "a\u0300\u0301\u0302 o\u0308k"],
  ["Hebrew", "ענף/ראשי", "מוכן לבדיקה"],
  ["Arabic", "فرع/رئيسي", "جاهز للمراجعة"],
];

const EVENTS: FixtureEvent[] = SCRIPTS.map(([, branch, labels], i) => ({
  id: 1000 - i,
  received_at: new Date(Date.parse("2026-11-20T11:59:00Z") - i * 61_000).toISOString(),
  trigger: "Rule: automatic merge",
  repository: "acme/web",
  pull_request: 4821 + i,
  base_ref: branch,
  type: "action.label",
  metadata: { added: labels.split(" "), removed: [] },
}));

/** Where each column of the header starts, in columns. */
function columnStarts(head: string): number[] {
  return [...head.matchAll(/\S+/g)].map((m) => displayWidth(head.slice(0, m.index)));
}

let server: LogServer | undefined;
let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.cleanup();
  await server?.close();
  ctx = undefined;
  server = undefined;
});

describe("the logs table with text in every script", () => {
  for (const columns of [60, 80]) {
    it(`lines up at ${columns} columns`, async () => {
      server = await startLogServer(EVENTS);
      ctx = useServer(testContext({ tty: true, columns, env: { NO_COLOR: "1", TZ: "UTC" } }), server);
      expect(await main(["logs", "--limit", String(EVENTS.length)], ctx)).toBe(0);
      const out = ctx.stdoutText();
      golden(`logs.${columns}.txt`, out);
      const [head, ...rows] = out.trimEnd().split("\n");
      const starts = columnStarts(head!);
      expect(starts).toHaveLength(5);
      for (const [i, line] of rows.entries()) {
        expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
        // the summary of a label event starts with "labels +": at the SUMMARY column
        expect(displayWidth(line.slice(0, line.indexOf("labels +"))), SCRIPTS[i]![0]).toBe(starts[4]);
        // the base branch at the BASE column, as printed (perhaps cut)
        expect(displayWidth(line.slice(0, line.indexOf(" #") + 1)), SCRIPTS[i]![0]).toBe(starts[2]);
      }
    });
  }
});

describe("a table that wraps its label column", () => {
  for (const columns of [60, 80]) {
    it(`lines up at ${columns} columns`, () => {
      const rows = SCRIPTS.map(([name, branch, labels]) => [`${branch} · ${labels}`, name, "12", "3.4%"]);
      const out = renderTable({
        head: ["GROUP", "SCRIPT", "TOTAL", "RATE"],
        rows,
        columns,
        wrap: true,
        align: ["left", "left", "right", "right"],
        widths: [columns - 30, 12, 6, 6],
      });
      golden(`wrapped.${columns}.txt`, out);
      for (const line of out.trimEnd().split("\n")) {
        expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
        // the right-aligned last column ends at the table's right edge on every line that has it
        if (line.endsWith("%")) expect(displayWidth(line)).toBe(columns - 30 + 12 + 6 + 6 + 6);
      }
    });
  }
});
