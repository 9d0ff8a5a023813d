// The GitHub Actions workflow of docs/ci.md (the README links to it), its gate step run as written on the bundled data (with
// --offline added), inside a simulated Actions environment: one `ok` line per check on stderr and
// nothing on stdout, a Markdown step summary appended; a tightened threshold fails with exit 1,
// one FAIL line and one ::error annotation per failed check.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { testContext } from "../../helpers/context.js";
import { tempDir } from "../../helpers/tmp.js";

// the README tells how to install mq; docs/ci.md holds the workflow
const readme = ["../../../README.md", "../../../docs/ci.md"].map((path) => readFileSync(new URL(path, import.meta.url), "utf8")).join("\n");

/** The `run:` line of the workflow step named "Merge queue health". */
function gateLine(): string {
  const step = readme.slice(readme.indexOf("- name: Merge queue health"));
  const m = /\n\s+run: (mq .+)\n/.exec(step);
  if (!m) throw new Error("docs/ci.md: no run line under 'Merge queue health'");
  return m[1]!;
}

/** Shell words of a line that quotes with single quotes only (as the README's does). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

async function runGate(line: string) {
  const dir = tempDir("mq-actions-");
  const summary = join(dir, "step-summary.md");
  writeFileSync(summary, "previous step\n");
  const outputs = join(dir, "outputs");
  const ctx = testContext({
    env: {
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: outputs,
      GITHUB_REPOSITORY: "acme/web",
      MQ_TOKEN: "unused",
    },
  });
  const [mq, ...args] = words(line);
  expect(mq).toBe("mq");
  const code = await main(["--offline", ...args], ctx);
  return {
    code,
    out: ctx.stdoutText(),
    err: ctx.stderrText(),
    summary: readFileSync(summary, "utf8"),
    outputs: readFileSync(outputs, "utf8"),
  };
}

describe("the CI workflow of docs/ci.md", () => {
  it("installs mq under its npm name, never with npx mq", () => {
    expect(readme).not.toMatch(/^\s*(- )?(run: )?npx mq /m);
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    expect(pkg.name).toBe("merge-queue-cli");
    expect(pkg.bin).toEqual({ mq: "bin/mq.js" });
    expect(readme).toContain(`npm install -g ./merge-queue-cli-${pkg.version}.tgz`);
    expect(readme).toContain("npm install -g ./merge-queue-cli-*.tgz");
  });

  it("passes on the all-groups figure: one ok line per check, nothing on stdout, a step summary", async () => {
    const line = gateLine();
    const checks = words(line).filter((w, i, all) => all[i - 1] === "--fail-if");
    expect(checks.length).toBeGreaterThan(0);
    const { code, out, err, summary } = await runGate(line);
    expect(out).toBe("");
    const lines = err.split("\n").filter(Boolean);
    expect(lines).toHaveLength(checks.length);
    for (const l of lines) expect(l).toMatch(/^ok {4}\S+ .* \(.*all groups\)$/);
    expect(err).toMatch(/^ok {4}check_failure_rate \d+\.\d% <= 20% \(\d+\/\d+ checks, all groups\)$/m);
    expect(code).toBe(0);
    expect(summary.startsWith("previous step\n### `mq stats summary` · acme/web — ✅")).toBe(true);
    expect(summary).toContain("| figure | value |");
    expect(summary).toMatch(/\| check\\_failure\\_rate \| \d+\.\d% \|/);
    expect(summary.match(/^\| ✅ \|/gm)).toHaveLength(checks.length);
  });

  it("tightened, exits 1 with one FAIL line and one ::error annotation per failed check", async () => {
    const { code, out, err, summary } = await runGate(gateLine().replace("'check_failure_rate > 20%'", "'check_failure_rate > 1%'"));
    expect(code).toBe(1);
    expect(out).toBe("");
    const fails = err.split("\n").filter((l) => l.startsWith("FAIL"));
    expect(fails).toHaveLength(1);
    expect(fails[0]).toMatch(/^FAIL {2}check_failure_rate \d+\.\d% > 1% \(\d+\/\d+ checks, all groups\)$/);
    const errors = err.split("\n").filter((l) => l.startsWith("::error"));
    // % is escaped as %25 in a workflow command, and `:` as %3A in its properties
    expect(errors).toEqual([
      `::error title=mq stats summary%3A --fail-if 'check_failure_rate > 1%25'::${fails[0]!.replace(/^FAIL\s+/, "").replaceAll("%", "%25")}`,
    ]);
    expect(err.split("\n").at(-2)).toBe("mq: 1 of 2 --fail-if checks failed.");
    expect(summary).toMatch(/— ❌ 1 of 2 checks failed/);
  });

  it("writes the verdict and the figures judged to GITHUB_OUTPUT under the names docs/ci.md gives (nothing was written before)", async () => {
    const { code, outputs } = await runGate(gateLine().replace("failure_rate > 20%'", "failure_rate > 1%'"));
    expect(code).toBe(1);
    const lines = outputs.trimEnd().split("\n");
    expect(lines.slice(0, 3)).toEqual(["verdict=fail", "checks=2", "failed_checks=1"]);
    expect(lines.slice(3).map((l) => l.replace(/=.*/, ""))).toEqual([
      "check_1_field",
      "check_1_value",
      "check_1_status",
      "check_2_field",
      "check_2_value",
      "check_2_status",
    ]);
    expect(lines).toContain("check_1_status=fail");
    expect(lines).toContain("check_2_status=ok");
    expect(lines.find((l) => l.startsWith("check_1_value="))).toMatch(/^check_1_value=0\.\d+$/);
    for (const name of ["verdict", "checks", "failed_checks", "check_N_field", "check_N_value", "check_N_status"])
      expect(readme).toContain(`\`${name}\``);
  });

  it("writes nothing for Actions outside Actions", async () => {
    const ctx = testContext({ env: { GITHUB_STEP_SUMMARY: "/nonexistent/summary.md", GITHUB_REPOSITORY: "acme/web" } });
    const code = await main(
      ["--offline", ...words(gateLine().replace("'check_failure_rate > 20%'", "'check_failure_rate > 1%'")).slice(1)],
      ctx,
    );
    expect(code).toBe(1);
    expect(ctx.stderrText()).not.toContain("::error");
    expect(ctx.stderrText()).not.toContain("warning");
  });
});
