// --fields takes the fields of the dialect spoken, and csv keeps every field each dialect sends.
// Before: --fields used the contract's list under --dialect mergify (refused sum_runtime, which
// -o csv printed; accepted partition_name, which the real service's OpenAPI lacks), and
// `idle-queue-time -o csv` (and ndjson) dropped the real service's per-group summary.
import { describe, expect, test } from "vitest";
import { STATS_ENDPOINTS } from "../../../src/stats/endpoints.js";
import { dialectRuns } from "../dialect-runs.js";

/** the allowed list of the one-line refusal of `--fields nope` */
function allowedIn(stderr: string): string[] {
  const m = /available fields: (.*)\.\n$/.exec(stderr);
  return m ? m[1]!.split(", ") : [];
}

describe("--dialect mergify", () => {
  const runs = dialectRuns("mergify");
  const { run } = runs;

  test("fields the service sends are accepted, fields it lacks refused with its list, exit 2, nothing sent", async () => {
    const ok = await run(["stats", "average-ci-runtime", "--since", "1d", "--fields", "runtime,sum_runtime,count_runtime", "-o", "csv"]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout.split("\r\n")[0]).toBe("runtime,sum_runtime,count_runtime");
    const before = runs.server.requests.length;
    const refused = await run(["stats", "average-ci-runtime", "--since", "1d", "--fields", "partition_name"]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      'mq: --fields: unknown field "partition_name" for mq stats average-ci-runtime with the mergify dialect; available fields: base_ref, queue_name, priority_rule_name, start, end, runtime, sum_runtime, count_runtime.\n',
    );
    expect(runs.server.requests.length).toBe(before);
  });

  test("every subcommand: each column of -o csv is a field --fields takes", async () => {
    for (const e of STATS_ENDPOINTS.filter((x) => x.dialects.includes("mergify") && x.shape !== "list")) {
      const allowed = allowedIn((await run(["stats", e.name, "--fields", "nope"])).stderr);
      const window = e.params === "time-to-merge" ? [] : ["--since", "1d"];
      const csv = await run(["stats", e.name, ...window, "-o", "csv"]);
      expect(csv.code, `${e.name}: ${csv.stderr}`).toBe(0);
      const header = csv.stdout.split("\r\n")[0]!;
      if (header === "") continue;
      for (const column of header.split(",")) expect(allowed, `${e.name}: ${column}`).toContain(column);
    }
  }, 120_000);

  test("idle-queue-time: csv and ndjson keep each group's summary (summary_*), --fields selects it", async () => {
    const json = JSON.parse((await run(["stats", "idle-queue-time", "--since", "2d", "-o", "json"])).stdout);
    const group = json.groups[0];
    expect(Object.keys(group.summary)).toContain("p95_idle_capacity");
    const nd = (await run(["stats", "idle-queue-time", "--since", "2d", "-o", "ndjson"])).stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(nd[0]).toMatchObject(Object.fromEntries(Object.entries(group.summary).map(([k, v]) => [`summary_${k}`, v])));
    const csv = await run(["stats", "idle-queue-time", "--since", "2d", "-o", "csv"]);
    const header = csv.stdout.split("\r\n")[0]!.split(",");
    expect(header.slice(-12)).toEqual(Object.keys(group.summary).map((k) => `summary_${k}`));
    const picked = await run(["stats", "idle-queue-time", "--since", "2d", "--fields", "base_ref,summary_p95_ci_runtime", "-o", "csv"]);
    expect(picked.code).toBe(0);
    expect(picked.stdout.split("\r\n")[1]).toBe(`${group.base_ref},${group.summary.p95_ci_runtime}`);
  });
});

describe("the contract", () => {
  const { run } = dialectRuns("spec");

  test("its own fields: partition_name yes, the service's sums no", async () => {
    const ok = await run(["stats", "average-ci-runtime", "--since", "1d", "--fields", "partition_name,runtime", "-o", "csv"]);
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await run(["stats", "average-ci-runtime", "--fields", "sum_runtime"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'mq: --fields: unknown field "sum_runtime" for mq stats average-ci-runtime; available fields: base_ref, partition_name, queue_name, priority_rule_name, start, end, runtime.\n',
    );
  });
});
