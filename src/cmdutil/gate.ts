// --fail-if and its companions (--fail-if-scope, --min-count, --allow-empty, --report) for every
// command that gates: the flags, their checks before any request, and the reporters of the verdicts
// (a line per check on stderr, the JSON report, GitHub annotations and step summary). `mq stats`
// and `mq insights` hand the verdicts of src/stats/fail-if.ts's judge() here: one home for them.
import { type Command, Option } from "commander";
import { accessSync, constants, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Context } from "../context.js";
import { CheckFailedError, UsageError } from "../errors.js";
import { GATE_SCOPES, type FailIfExpr, type GateScope, type Verdict } from "../stats/fail-if.js";
import { parseIntFlag, requireNonEmptyItems } from "./lists.js";

/** The gate flags as commander gives them. */
export interface GateRawFlags {
  failIf?: string[];
  failIfScope?: string;
  minCount?: string;
  allowEmpty?: boolean;
  report?: string;
}

/** What --fail-if and --fail-if-scope say in --help: the command's figures and scopes. */
export interface GateHelp {
  failIf: string;
  scope: string;
  minCount: string;
  allowEmpty: string;
  /** what --min-count applies to, for the message refusing it */
  sampled: string;
}

export const STATS_GATE_HELP: GateHelp = {
  failIf: "exit 1 when FIELD OP VALUE or AGG(FIELD) OP VALUE holds (repeatable); one verdict line per check on stderr",
  scope:
    "judge the figure over all groups (default), each group, or both: all, each, both; with several --repo: the total (all), each repository (each), or both",
  minCount: "skip (and report) figures with fewer than n items behind them (checks, sessions)",
  allowEmpty: "pass when a check finds no data (no group matches the filters, an empty window); default: fail",
  sampled: "rates and to the figures of failure-rate and checks-retries",
};

/** --fail-if and the flags that shape it: which figure, how small a sample counts, where verdicts go. */
export interface GateFlags {
  failIf: FailIfExpr[];
  scope: GateScope;
  minCount?: number;
  allowEmpty: boolean;
  /** --report FILE: the verdicts as JSON */
  report?: string;
}

function collectRepeat(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** --fail-if and its companions, shown where --fail-if is. */
export function addGateFlags(cmd: Command, hidden: boolean, help: GateHelp = STATS_GATE_HELP): void {
  const options = [
    new Option("--fail-if <expr>", help.failIf).argParser(collectRepeat),
    new Option("--fail-if-scope <scope>", help.scope),
    new Option("--min-count <n>", help.minCount),
    new Option("--allow-empty", help.allowEmpty),
    new Option("--report <file>", "write the verdicts as JSON to this file"),
  ];
  for (const o of options) {
    if (hidden) o.hideHelp();
    cmd.addOption(o);
  }
}

/** Checks the gate flags; `sampled(expr)` says whether an expression's figure counts its items. */
export function parseGateFlags(
  flags: GateRawFlags,
  failIf: FailIfExpr[],
  sampled: (expr: FailIfExpr) => boolean,
  help: GateHelp = STATS_GATE_HELP,
): GateFlags {
  if (!failIf.length) {
    const stray = (["failIfScope", "minCount", "allowEmpty", "report"] as const).find((k) => flags[k] !== undefined);
    if (stray) {
      const flag = { failIfScope: "--fail-if-scope", minCount: "--min-count", allowEmpty: "--allow-empty", report: "--report" }[stray];
      throw new UsageError(`${flag} only applies to --fail-if checks: add --fail-if EXPR or drop ${flag}.`);
    }
  }
  let scope: GateScope = "all";
  if (flags.failIfScope !== undefined) {
    if (!(GATE_SCOPES as readonly string[]).includes(flags.failIfScope)) {
      throw new UsageError(`--fail-if-scope must be one of ${GATE_SCOPES.join(", ")}, not "${flags.failIfScope}".`);
    }
    scope = flags.failIfScope as GateScope;
  }
  const minCount = flags.minCount !== undefined ? parseIntFlag("--min-count", flags.minCount, 1, 1_000_000_000) : undefined;
  if (minCount !== undefined) {
    const unsampled = failIf.find((e) => !sampled(e));
    if (unsampled) {
      throw new UsageError(
        `--min-count: ${unsampled.field} has no count of the items behind it; --min-count applies to ${help.sampled} (drop it, or gate ${unsampled.field} without it in another step).`,
      );
    }
  }
  let report: string | undefined;
  if (flags.report !== undefined) {
    report = requireNonEmptyItems("--report", [flags.report], 4096)[0]!;
    checkWritableFile("--report", report);
  }
  return { failIf, scope, minCount, allowEmpty: flags.allowEmpty === true, report };
}

/** The file's folder must exist and be writable: found out before any request, not after. */
export function checkWritableFile(flag: string, path: string): void {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    // not there yet: it is created in its folder
  }
  if (folder) throw new UsageError(`${flag} ${path}: is a folder; give a file name (e.g. ${join(path, "mq-report.json")}).`);
  const dir = dirname(resolve(path));
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: cannot write to the folder ${dir} (missing or not writable).`);
  }
}

export interface GateRun {
  command: string;
  repository: string;
  start_at?: string;
  end_at?: string;
  /** what the step summary shows besides the verdicts (absent: no summary) */
  summary?: () => {
    headline: import("../output/markdown.js").MarkdownTable;
    chart?: import("../output/github.js").StepSummary["chart"];
    window?: { start: string; end: string };
  };
}

/**
 * The verdicts' reporters: a line per check on stderr, the JSON report, and inside GitHub Actions an
 * annotation per failed check and the step summary. Exit 1 (CheckFailedError) when a check failed.
 */
export async function reportGate(ctx: Context, gate: GateFlags, verdicts: readonly Verdict[], run: GateRun): Promise<void> {
  const [{ verdictLines, writeGateReport }, { colors }] = await Promise.all([import("../output/gate.js"), import("../iostreams/color.js")]);
  if (verdicts.length) ctx.io.stderr.write(verdictLines(verdicts, colors(ctx.io, "stderr"), ctx.io.messageWidth()));
  const github = await import("../output/github.js");
  if (github.inActions(ctx.env)) {
    ctx.io.stderr.write(github.annotations(verdicts, run.command));
    const outputs = ctx.env.GITHUB_OUTPUT;
    if (outputs) {
      const { appendNow, gateOutputs } = await import("../output/ci-failure.js");
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
        ctx.io.stderr.write(`mq: warning: cannot append the step summary to ${path}: ${(err as Error).message}\n`);
      }
    }
  }
  if (gate.report) {
    const meta = { command: run.command, repository: run.repository, start_at: run.start_at, end_at: run.end_at };
    await writeGateReport(gate.report, verdicts, meta);
  }
  const failedCount = verdicts.filter((v) => !v.pass).length;
  if (failedCount) {
    throw new CheckFailedError(`${failedCount} of ${verdicts.length} --fail-if check${verdicts.length === 1 ? "" : "s"} failed.`);
  }
}
