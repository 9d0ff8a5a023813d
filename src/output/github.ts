// GitHub Actions: an `::error` annotation per failed check (workflow commands; written to stderr,
// which the runner reads for commands as it reads stdout, so that data piped from stdout stays
// clean) and a Markdown step summary appended to $GITHUB_STEP_SUMMARY. Only inside
// Actions (GITHUB_ACTIONS=true); elsewhere nothing of this is written.
//
// Workflow-command escaping (actions/toolkit, packages/core/src/command.ts): in the message `%`,
// `\r`, `\n` become %25, %0D, %0A; in a property value also `:` and `,` become %3A and %2C. With
// those escaped a value can neither end the command early nor start a second one.
import { writeNow } from "./write-now.js";
import { sparkline } from "./chart.js";
import { formatVerdict } from "./gate.js";
import { escapeMarkdown, renderMarkdownTable, type MarkdownTable } from "./markdown.js";
import type { Verdict } from "../stats/fail-if.js";
import { terminalText } from "../iostreams/terminal-text.js";
import { workflowCommand } from "./workflow-command.js";

export { escapeCommandData, escapeCommandProperty, workflowCommand } from "./workflow-command.js";

export { type ActionsEnv, inActions } from "./workflow-command.js";

/** One `::error` line per failed check (none for passing or skipped ones). */
export function annotations(verdicts: readonly Verdict[], command: string): string {
  return (
    verdicts
      .filter((v) => !v.pass)
      // the one workflow command mq writes on purpose; the server's group keys inside it go through
      // the door as well (no raw escape sequence in the CI log), then the command escaping
      .map((v) =>
        workflowCommand(
          "error",
          { title: `${command}: --fail-if '${terminalText(v.expr.source)}'` },
          terminalText(formatVerdict(v)).replace(/^FAIL\s+/, ""),
        ),
      )
      .join("")
  );
}

export interface StepSummary {
  /** "mq stats failure-rate" */
  command: string;
  repository: string;
  window?: { start: string; end: string };
  headline: MarkdownTable;
  verdicts: readonly Verdict[];
  /** the main figure over time, all groups together */
  chart?: { label: string; values: ReadonlyArray<number | null>; min: string; max: string };
}

export function renderStepSummary(s: StepSummary): string {
  const out: string[] = [];
  const failedCount = s.verdicts.filter((v) => !v.pass).length;
  const n = s.verdicts.length;
  const checks = `check${n === 1 ? "" : "s"}`;
  const state = n === 0 ? "" : failedCount ? ` — ❌ ${failedCount} of ${n} ${checks} failed` : ` — ✅ ${n} ${checks} passed`;
  out.push(`### \`${s.command}\` · ${escapeMarkdown(s.repository)}${state}\n`);
  if (s.window) out.push(`${escapeMarkdown(s.window.start)} → ${escapeMarkdown(s.window.end)}\n`);
  out.push(renderMarkdownTable(s.headline));
  if (s.chart && s.chart.values.some((v) => v !== null)) {
    out.push(
      `${escapeMarkdown(s.chart.label)} over time, all groups: \`${sparkline(s.chart.values, Math.min(s.chart.values.length, 60))}\` (min ${escapeMarkdown(s.chart.min)}, max ${escapeMarkdown(s.chart.max)})\n`,
    );
  }
  if (s.verdicts.length) {
    out.push(
      renderMarkdownTable({
        head: ["", "check", "verdict"],
        // failures first: on a long list (--fail-if-scope each) they are what the reader came for
        rows: [...s.verdicts]
          .sort((a, b) => rank(a) - rank(b))
          .map((v) => [v.pass ? (v.status === "ok" ? "✅" : "➖") : "❌", `--fail-if '${v.expr.source}'`, formatVerdict(v)]),
      }),
    );
  }
  return out.join("\n") + "\n";
}

function rank(v: Verdict): number {
  return !v.pass ? 0 : v.status === "ok" ? 1 : 2;
}

/** Appends to the step summary; a FIFO nobody reads fails at once (ENXIO), never waits (write-now.ts). */
export async function appendStepSummary(path: string, markdown: string): Promise<void> {
  writeNow(path, markdown, "append");
}
