import { describe, expect, it } from "vitest";
import { annotations, escapeCommandData, escapeCommandProperty, renderStepSummary, workflowCommand } from "../../src/output/github.js";
import { escapeMarkdown, renderMarkdownTable } from "../../src/output/markdown.js";
import { formatVerdict } from "../../src/output/gate.js";
import { judge, parseFailIf } from "../../src/stats/fail-if.js";

/** The runner's own unescaping (actions/runner ActionCommand.cs), to prove what it reads back. */
function unescapeProperty(s: string): string {
  return s.replace(/%2C/g, ",").replace(/%3A/g, ":").replace(/%0A/g, "\n").replace(/%0D/g, "\r").replace(/%25/g, "%");
}
function unescapeData(s: string): string {
  return s.replace(/%0A/g, "\n").replace(/%0D/g, "\r").replace(/%25/g, "%");
}

const HOSTILE = "evil\n::error::forged,title=x:y%0A\r\u001b[31mred\u202e";

describe("workflow-command escaping", () => {
  it("escapes %, CR and LF in data, and also : and , in properties", () => {
    expect(escapeCommandData("50% a\r\nb")).toBe("50%25 a%0D%0Ab");
    expect(escapeCommandProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
    expect(workflowCommand("error", { title: "t: x, y" }, "m\n2")).toBe("::error title=t%3A x%2C y::m%0A2\n");
  });

  it("server text can neither end the command nor start another, and reads back as sent", () => {
    const line = workflowCommand("error", { title: HOSTILE }, HOSTILE);
    expect(line.split("\n")).toEqual([expect.any(String), ""]);
    expect(line).not.toContain("\r");
    const m = /^::error title=([^:]*)::(.*)\n$/.exec(line)!;
    expect(m).not.toBeNull();
    expect(m[1]).not.toMatch(/[,:]/);
    expect(unescapeProperty(m[1]!)).toBe(HOSTILE);
    expect(unescapeData(m[2]!)).toBe(HOSTILE);
  });

  it("one ::error per failed check, none for passing or skipped ones", () => {
    const fr = parseFailIf("failure_rate > 20%", "mq stats failure-rate", { failure_rate: "rate", total: "count", failures: "count" });
    const rec = (total: number, failures: number) => [{ start: "a", end: "b", total, failures, failure_rate: failures / total }];
    const verdicts = [
      ...judge(fr, [{ scope: "each", keys: [["queue_name", HOSTILE]], records: rec(2, 1) }]),
      ...judge(fr, [{ scope: "each", keys: [["queue_name", "ok"]], records: rec(10, 1) }]),
    ];
    const out = annotations(verdicts, "mq stats failure-rate");
    expect(out.split("\n").filter(Boolean)).toHaveLength(1);
    expect(
      out.startsWith(
        "::error title=mq stats failure-rate%3A --fail-if 'failure_rate > 20%25'::FAIL".replace("FAIL", "failure_rate 50.0%25 > 20%25"),
      ),
    ).toBe(true);
    // the verdict line itself keeps the group name on one line, controls escaped
    expect(formatVerdict(verdicts[0]!)).toBe(
      "FAIL  failure_rate 50.0% > 20% (queue_name evil\\u000a::error::forged,title=x:y%0A\\u000d\\u001b[31mred\\u202e)",
    );
  });
});

describe("Markdown", () => {
  it("escapes server text so it can neither break a table nor become markup", () => {
    expect(escapeMarkdown("a|b <img src=x> [l](http://e) *x* `c`\nnext")).toBe(
      "a\\|b &lt;img src=x&gt; \\[l\\]\\(http\\://e\\) \\*x\\* \\`c\\` next",
    );
    const table = renderMarkdownTable({ head: ["group", "n"], rows: [["x|y\n| 1 | 2 |", "3"]], right: [false, true] });
    expect(table).toBe("| group | n |\n|---|---:|\n| x\\|y \\| 1 \\| 2 \\| | 3 |\n");
    expect(table.split("\n").filter(Boolean)).toHaveLength(3);
  });

  it("a step summary: title, window, headline, chart, verdicts", () => {
    const fr = parseFailIf("failure_rate > 20%", "mq stats failure-rate", { failure_rate: "rate", total: "count", failures: "count" });
    const verdicts = judge(
      fr,
      [{ scope: "all", keys: [], records: [{ start: "a", end: "b", total: 119, failures: 13, failure_rate: 0.1 }] }],
      {
        sample: { field: "total", noun: "checks" },
      },
    );
    expect(
      renderStepSummary({
        command: "mq stats failure-rate",
        repository: "acme/web",
        window: { start: "2026-11-19T12:00:00Z", end: "2026-11-20T12:00:00Z" },
        headline: { head: ["group", "failure_rate"], rows: [["all groups", "10.9%"]], right: [false, true] },
        chart: { label: "failure_rate", values: [0.1, 0.2, null, 0.05], min: "5.0%", max: "20.0%" },
        verdicts,
      }),
    ).toBe(
      [
        "### `mq stats failure-rate` · acme/web — ✅ 1 check passed",
        "",
        "2026-11-19T12:00:00Z → 2026-11-20T12:00:00Z",
        "",
        "| group | failure\\_rate |",
        "|---|---:|",
        "| all groups | 10.9% |",
        "",
        "failure\\_rate over time, all groups: `▃█ ▁` (min 5.0%, max 20.0%)",
        "",
        "|  | check | verdict |",
        "|---|---|---|",
        "| ✅ | --fail-if 'failure\\_rate &gt; 20%' | ok    failure\\_rate 10.9% &lt;= 20% \\(13/119 checks, all groups\\) |",
        "",
        "",
      ].join("\n"),
    );
  });
});
