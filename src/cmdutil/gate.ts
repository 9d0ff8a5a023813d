// --fail-if and its companions (--fail-if-scope, --min-count, --allow-empty, --report) for every
// command that gates: the flags and their checks before any request. Their verdicts are reported by
// gate-report.ts (what the commands' run code loads).
import { type Command, Option } from "commander";
import { accessSync, constants, statSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { OutputError, UsageError } from "../errors.js";
import { GATE_SCOPES, type FailIfExpr, type GateScope } from "../stats/fail-if.js";
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
  /**
   * Under --watch: the verdicts are reported (lines, --report, GitHub Actions' files) only when a
   * check fails, which ends the watch; a poll whose checks pass reports nothing.
   */
  onlyBreach?: boolean;
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

/**
 * Where a report goes, checked before any request, not after: a folder, or a path under a file, is
 * a usage error (exit 2); an existing file mq may not write is exit 74 (OutputError); a new file's
 * folder must exist and be writable. What only writing tells (a full device, a FIFO nobody reads)
 * is exit 74 when the report is written.
 */
export function checkWritableFile(flag: string, path: string): void {
  let existing: Stats | undefined;
  try {
    existing = statSync(path);
  } catch {
    // not there yet: it is created in its folder
  }
  if (existing?.isDirectory())
    throw new UsageError(`${flag} ${path}: is a folder; give a file name (e.g. ${join(path, "mq-report.json")}).`);
  if (existing) {
    // written in place (a file, a FIFO, a device): its folder need not be writable, the file must
    try {
      accessSync(path, constants.W_OK);
    } catch (err) {
      throw new OutputError(err as NodeJS.ErrnoException, `${flag} ${path}`);
    }
    return;
  }
  const dir = dirname(resolve(path));
  let folder: Stats | undefined;
  try {
    folder = statSync(dir);
  } catch {
    // missing: said below
  }
  if (folder && !folder.isDirectory())
    throw new UsageError(`${flag} ${path}: ${dir} is not a folder; give the path of a file in a folder.`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: cannot write to the folder ${dir} (missing or not writable).`);
  }
}
