// The reporters of a gate's verdicts, one home for `mq stats` and `mq insights` (which hand over
// the verdicts of src/stats/fail-if.ts's judge()): a line per check on stderr, the JSON report, and
// inside GitHub Actions an annotation per failed check and the step summary.
import type { Context } from "../context.js";
import { CheckFailedError, OutputError, writeFailure } from "../errors.js";
import type { Verdict } from "../stats/fail-if.js";
import { colors } from "../iostreams/color.js";
import { verdictLines, writeGateReport } from "../output/gate.js";
import * as github from "../output/github.js";
import { appendNow, gateOutputs } from "../output/ci-failure.js";
import type { MarkdownTable } from "../output/markdown.js";
import type { StepSummary } from "../output/github.js";
import type { GateFlags } from "./gate.js";

export interface GateRun {
  command: string;
  repository: string;
  start_at?: string;
  end_at?: string;
  /** what the step summary shows besides the verdicts (absent: no summary) */
  summary?: () => {
    headline: MarkdownTable;
    chart?: StepSummary["chart"];
    window?: { start: string; end: string };
  };
}

/**
 * The verdicts' reporters: a line per check on stderr, the JSON report, and inside GitHub Actions an
 * annotation per failed check and the step summary. Exit 1 (CheckFailedError) when a check failed.
 */
export async function reportGate(ctx: Context, gate: GateFlags, verdicts: readonly Verdict[], run: GateRun): Promise<void> {
  if (gate.onlyBreach && verdicts.every((v) => v.pass)) return;
  if (verdicts.length) ctx.io.stderr.write(verdictLines(verdicts, colors(ctx.io, "stderr"), ctx.io.messageWidth()));
  if (github.inActions(ctx.env)) {
    ctx.io.stderr.write(github.annotations(verdicts, run.command));
    const outputs = ctx.env.GITHUB_OUTPUT;
    if (outputs) {
      const failed = appendNow(outputs, gateOutputs(verdicts));
      if (failed) ctx.io.stderr.write(`mq: warning: cannot append the outputs to ${outputs}: ${failed}\n`);
    }
    const path = ctx.env.GITHUB_STEP_SUMMARY;
    if (path && run.summary) {
      const extra = run.summary();
      const window = extra.window ?? (run.start_at && run.end_at ? { start: run.start_at, end: run.end_at } : undefined);
      try {
        await github.appendStepSummary(
          path,
          github.renderStepSummary({
            command: run.command,
            repository: run.repository,
            window,
            headline: extra.headline,
            chart: extra.chart,
            verdicts,
          }),
        );
      } catch (err) {
        // the gate's verdict stands; a summary that cannot be written is worth a warning, not a failure
        ctx.io.stderr.write(`mq: warning: cannot append the step summary to ${path}: ${writeFailure(err as NodeJS.ErrnoException)}\n`);
      }
    }
  }
  if (gate.report) {
    const meta = { command: run.command, repository: run.repository, start_at: run.start_at, end_at: run.end_at };
    try {
      await writeGateReport(gate.report, verdicts, meta);
    } catch (err) {
      throw new OutputError(err as NodeJS.ErrnoException, `--report ${gate.report}`);
    }
  }
  const failedCount = verdicts.filter((v) => !v.pass).length;
  if (failedCount) {
    throw new CheckFailedError(`${failedCount} of ${verdicts.length} --fail-if check${verdicts.length === 1 ? "" : "s"} failed.`);
  }
}
