// --fail-if for `mq insights`: the gate engine of `mq stats` (src/stats/fail-if.ts: thresholds,
// judge(), verdicts) over the figures of the report, or over a figure's change against the
// comparison window.
//   EXPR   := [change "("] FIGURE [")"] OP VALUE
//   FIGURE := entered | merged | stay_failure_rate | ... | STAT "(" DIST ")"   (see FIGURE_NAMES)
//   OP     := > | >= | < | <= | == | !=
//   VALUE  := a number, a percentage (20% = 0.2) or a duration (90s, 30m, 2h, 1d)
// e.g. `p95(queue_time) > 2h`, `change(p50(time_to_merge)) > 20%`. Parsed with the flags (a bad
// expression is a usage error before any request). What differs from `mq stats` is only what an
// expression names; the verdicts and their reporters are the same.
import { UsageError } from "../errors.js";
import { FIGURE_BY_NAME, FIGURE_NAMES, type Unit } from "./figures.js";
import { closestMatches } from "../closest.js";
import { figure as catalogueFigure } from "../figures/catalogue.js";
import {
  judge,
  thresholdFor,
  totalCovers,
  type FailIfExpr,
  type GateOptions,
  type GateScope,
  type GateUnit,
  type Operator,
  type Sample,
  type Target,
  type Verdict,
} from "../stats/fail-if.js";
import type { InsightsReport } from "./report.js";

const EXPR = /^\s*(.+?)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$/;

function gateUnit(unit: Unit): GateUnit {
  return unit === "seconds" ? "seconds" : unit === "ratio" ? "ratio" : "number";
}

/** `change(p50(time_to_merge))` → the figure inside and true; a plain figure → itself and false. */
export function figureOf(field: string): { figure: string; change: boolean } {
  const m = /^change\((.+)\)$/.exec(field);
  return m ? { figure: m[1]!, change: true } : { figure: field, change: false };
}

/** One --fail-if of mq insights, as the gate engine takes it (`field` is the figure as written, change() included). */
export function parseInsightsFailIf(source: string, opts: { compare: boolean; warn?: (line: string) => void }): FailIfExpr {
  const m = EXPR.exec(source);
  const help = `write FIGURE OP VALUE or change(FIGURE) OP VALUE, e.g. 'p95(queue_time) > 2h'; figures: ${FIGURE_NAMES.join(", ")}`;
  if (!m) throw new UsageError(`--fail-if "${source}" is not an expression: ${help}.`);
  let field = m[1]!.replace(/\s+/g, "");
  const written = figureOf(field);
  const change = written.change;
  let figure = written.figure;
  // a former name keeps the meaning it had here (failure_rate: the stay failure rate), with a warning
  const now = FIGURE_NAMES.find((n) => catalogueFigure(n)?.formerly?.includes(figure));
  if (!FIGURE_BY_NAME.has(figure) && now !== undefined) {
    opts.warn?.(
      `warning: --fail-if "${source.trim()}": ${figure} is a former name; it is read as ${now} (mq help figures: mq stats calls the share of failed checks check_failure_rate). Write ${now}.`,
    );
    figure = now;
    field = change ? `change(${now})` : now;
  }
  const spec = FIGURE_BY_NAME.get(figure);
  if (!spec) {
    const near = closestMatches(figure, FIGURE_NAMES);
    const hint = near.length ? ` Did you mean ${near.join(" or ")}?` : "";
    throw new UsageError(
      `--fail-if "${source}": unknown figure "${figure}".${hint} Figures: ${FIGURE_NAMES.join(", ")} (mq help figures).`,
    );
  }
  if (change && !opts.compare) throw new UsageError(`--fail-if "${source}": change() needs a comparison window; drop --compare none.`);
  // a change is relative (0.2 = 20% more) whatever the figure measures
  const unit = change ? "ratio" : gateUnit(spec.unit);
  const threshold = thresholdFor(source, field, unit, m[3]!, { change });
  return { source: source.trim(), field, op: m[2] as Operator, threshold, unit };
}

/**
 * The items behind a figure, for --min-count and the verdict lines: the stays a distribution is
 * over, failed of left for the failure rate. Counts and throughput have none.
 */
function sampleOf(report: InsightsReport, figure: string, previous: boolean): Sample | undefined {
  const value = (name: string) => {
    const row = report.figures.find((f) => f.figure === name);
    return (previous ? row?.previous : row?.value) ?? 0;
  };
  const dist = /^\w+\((\w+)\)$/.exec(figure);
  if (dist) return { count: value(`count(${dist[1]})`), noun: "stays" };
  if (figure === "stay_failure_rate") return { count: value("left"), part: value("failed"), noun: "stays that left" };
  return undefined;
}

/** Whether --min-count applies to an expression: its figure counts the items behind it. */
export function insightsSampled(expr: FailIfExpr): boolean {
  const { figure } = figureOf(expr.field);
  return /^\w+\(\w+\)$/.test(figure) || figure === "stay_failure_rate";
}

function target(report: InsightsReport, field: string, scope: "all" | "each", keys: Target["keys"], over?: string): Target {
  const { figure, change } = figureOf(field);
  const row = report.figures.find((f) => f.figure === figure);
  const value = row ? (change ? row.change : row.value) : null;
  // a change stands on both windows: the smaller sample is what it rests on
  let sample = sampleOf(report, figure, false);
  if (change && sample) {
    const before = sampleOf(report, figure, true)!;
    if (before.count < sample.count) sample = before;
  }
  // a change against a window outside the data held is no change: not judged, as no data
  const unavailable = change && report.previousUnavailable !== undefined ? report.previousUnavailable : undefined;
  return { scope, keys, records: [], value, sample, ...(over ? { over } : {}), ...(unavailable !== undefined ? { unavailable } : {}) };
}

/**
 * The checks over one report, or over several repositories' reports and their total: `all` judges
 * the total (pooled stays), `each` every repository, `both` both.
 */
export function judgeInsights(
  exprs: readonly FailIfExpr[],
  reports: {
    total: InsightsReport;
    repositories?: readonly InsightsReport[];
    /** the repositories that could not be read: the total covers the others */
    failed?: readonly string[];
  },
  scope: GateScope,
  opts: GateOptions = {},
): Verdict[] {
  return exprs.flatMap((expr) => {
    const targets: Target[] = [];
    if (reports.repositories && scope !== "all") {
      for (const r of reports.repositories) targets.push(target(r, expr.field, "each", [["repository", r.repository]]));
    }
    if (!reports.repositories || scope !== "each") {
      // "repository acme/web" as the verdicts of `each` name theirs (and mq stats --repo a,b its rows)
      const over = reports.repositories
        ? totalCovers(reports.repositories.length, reports.failed ?? [])
        : `repository ${reports.total.repository}`;
      targets.push(target(reports.total, expr.field, "all", [], over));
    }
    return judge(expr, targets, opts);
  });
}
