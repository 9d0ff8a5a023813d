// The catalogue in words: `mq help figures` and docs/figures.md, rendered from the entries of
// catalogue.ts (the data lives there; this file only lays it out).
import { figureCatalogue, type Combination, type Figure, type FigureUnit } from "./catalogue.js";

// in words: mq help figures and docs/figures.md

export function describeCombination(c: Combination): string {
  switch (c.by) {
    case "sum":
      return "the sum";
    case "max":
      return "the largest";
    case "min":
      return "the smallest";
    case "ratio":
      return `recomputed: Σ${c.num} ÷ ${c.den.includes(" + ") ? `Σ(${c.den})` : `Σ${c.den}`}`;
    case "weighted":
      return `the mean weighted by ${c.weight}`;
    case "sum-over-count":
      return `Σ${c.sum} ÷ Σ${c.count} where the API sends them (the real service); ${c.otherwise}`;
    case "time":
      return "the mean weighted by interval length (a level over time: exact)";
    case "pooled":
      return "recomputed from the pooled stays";
    case "single":
      return `no combination: ${c.why}`;
    case "none":
      return `n/a: ${c.reason}`;
  }
}

const UNIT_TEXT: Readonly<Record<FigureUnit, string>> = {
  count: "count",
  ratio: "ratio (0..1, shown as a percentage)",
  seconds: "seconds (shown as a duration)",
  size: "number",
  per_day: "per day",
  timestamp: "RFC 3339 time",
  text: "text",
  flag: "true or false",
};

const SECTIONS: ReadonlyArray<[Figure["section"], string]> = [
  ["stats", "Statistics endpoints (mq stats SUBCOMMAND) and mq stats summary"],
  ["insights", "mq insights (rebuilt from the event log)"],
  ["stay", "A stay (mq prs, mq pr N, the slowest stays of mq insights)"],
  ["exporter", "mq exporter (Prometheus metrics of the events since it started)"],
];

function entryLines(f: Figure): string[] {
  const lines = [f.definition, `unit: ${UNIT_TEXT[f.unit]}`];
  if (f.ratio) lines.push(`ratio: ${f.ratio.numerator} ÷ ${f.ratio.denominator}; null when ${f.ratio.denominator} is 0`);
  lines.push(`reads: ${f.reads}`);
  if (f.api) lines.push(`API field: ${f.api.join(", ")}`);
  lines.push(`shown by: ${f.shownBy.join(", ")}`);
  if (f.section !== "stay") {
    lines.push(`across groups: ${describeCombination(f.groups)}`);
    lines.push(`across repositories: ${describeCombination(f.repositories)}`);
    lines.push(`over intervals: ${describeCombination(f.intervals)}`);
  }
  if (f.exporter) lines.push(`served as: mq_${f.name} (${f.exporter.type}; labels ${f.exporter.labels.join(", ")})`);
  if (f.metric) lines.push(`OpenMetrics: ${f.metric}${f.unit === "seconds" ? "_seconds" : ""}`);
  if (f.formerly) lines.push(`formerly: ${f.formerly.join(", ")} (--fail-if still reads it here, with a deprecation warning)`);
  return lines;
}

const NAMING =
  "Every number mq prints has one name, one meaning and one entry here. Two quantities never share a name: " +
  "the API's share of failed checks is check_failure_rate (mq stats failure-rate, mq stats summary), the share " +
  "of stays that left failed is stay_failure_rate (mq insights). --fail-if takes these names (a stats " +
  "subcommand also the API field names its tables show), with a did-you-mean for any other; the former name " +
  "failure_rate keeps the meaning it had in each command (check_failure_rate in mq stats summary, " +
  "stay_failure_rate in mq insights) with a deprecation warning naming the new one. A count with no events is 0; a ratio with nothing to divide by, or a figure no rule can combine, is " +
  "null (a dash or n/a on a table) with the reason.";

/** Words of `text` in lines of at most `width` columns, the first indented by `indent`, the rest by `hang`. */
function wrap(text: string, width: number, indent: number, hang: number): string {
  const lines: string[] = [];
  let line = " ".repeat(indent);
  let fresh = true;
  for (const word of text.split(/\s+/)) {
    if (!fresh && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = " ".repeat(hang) + word;
    } else line += (fresh ? "" : " ") + word;
    fresh = false;
  }
  lines.push(line);
  return lines.join("\n");
}

/** The catalogue as `mq help figures` prints it (80 columns; mq help fits it to a narrower terminal). */
export function catalogueText(): string {
  const out = [`Figures\n\n${wrap(NAMING, 80, 0, 0)}\n`];
  for (const [section, title] of SECTIONS) {
    out.push(`${title}\n`);
    for (const f of figureCatalogue().filter((x) => x.section === section)) {
      out.push(
        `  ${f.name}\n${entryLines(f)
          .map((l) => wrap(l, 80, 6, 8))
          .join("\n")}\n`,
      );
    }
  }
  out.push("More: docs/figures.md, docs/stats.md, docs/insights.md\n");
  return out.join("\n");
}

/** docs/figures.md (scripts/gen-figures.mjs writes it; test/figures/catalogue.test.ts checks it is current). */
export function catalogueMarkdown(): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\*/g, "\\*");
  const out = [
    "<!-- generated from src/figures/catalogue.ts by scripts/gen-figures.mjs: edit the catalogue, then run the script -->",
    "# Figures",
    "",
    NAMING,
    "",
    "`mq help figures` prints the same catalogue.",
    "",
  ];
  for (const [section, title] of SECTIONS) {
    out.push(`## ${title}`, "");
    for (const f of figureCatalogue().filter((x) => x.section === section)) {
      out.push(`### \`${f.name}\``, "", ...entryLines(f).map((l, i) => (i === 0 ? esc(l) : `- ${esc(l)}`)), "");
    }
  }
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}
