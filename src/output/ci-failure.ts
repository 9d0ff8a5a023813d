// A failed run inside GitHub Actions: one `::error` annotation on stderr and one line in the step
// summary, for every failure exit but a breached threshold (whose checks report themselves) and a
// usage error (a workflow's own typo, already one line on stderr). Outside Actions nothing.
import { escapeMarkdown } from "./markdown.js";
import { writeNow } from "./write-now.js";
import { inActions, workflowCommand, type ActionsEnv } from "./workflow-command.js";

/** The exits that are a failure to report in CI (docs/exit-codes.md): not found, auth, rejected, network, config, archive, output. */
export const CI_REPORTED_EXITS: ReadonlySet<number> = new Set([3, 4, 5, 6, 7, 8, 74]);

export interface CiFailure {
  /** "mq logs"; "mq" when no command ran */
  command: string;
  exitCode: number;
  /** the message as printed on stderr: one line, secrets already masked, no control characters */
  message: string;
}

/**
 * The annotation (for stderr) and the step summary line of FAILURE, when in Actions and its exit is
 * one of CI_REPORTED_EXITS; undefined otherwise.
 */
export function ciFailureReport(env: ActionsEnv, failure: CiFailure): { annotation: string; summaryLine: string } | undefined {
  if (!inActions(env) || !CI_REPORTED_EXITS.has(failure.exitCode)) return undefined;
  const title = `${failure.command} failed (exit ${failure.exitCode})`;
  return {
    annotation: workflowCommand("error", { title }, failure.message),
    summaryLine: `- ❌ \`${failure.command}\` failed (exit ${failure.exitCode}): ${escapeMarkdown(failure.message)}\n`,
  };
}

/**
 * Appends TEXT to the file at PATH without ever waiting for a reader: a FIFO nobody reads is a
 * warning (ENXIO), not a hang. Returns the error's code, or undefined when written.
 */
export function appendNow(path: string, text: string): string | undefined {
  try {
    writeNow(path, text, "append");
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}

/**
 * The gate's outputs for later steps ($GITHUB_OUTPUT, `name=value` lines; docs/ci.md names them):
 * `verdict` (pass or fail), `checks`, `failed_checks`, and per check in --fail-if order
 * `check_N_field`, `check_N_value` (base units; empty when none) and `check_N_status`.
 */
export function gateOutputs(
  verdicts: ReadonlyArray<{ expr: { field: string }; value: number | null; status: string; pass: boolean }>,
): string {
  const failed = verdicts.filter((v) => !v.pass).length;
  const lines = [`verdict=${failed ? "fail" : "pass"}`, `checks=${verdicts.length}`, `failed_checks=${failed}`];
  verdicts.forEach((v, i) => {
    lines.push(`check_${i + 1}_field=${v.expr.field}`, `check_${i + 1}_value=${v.value ?? ""}`, `check_${i + 1}_status=${v.status}`);
  });
  return `${lines.join("\n")}\n`;
}
