// mq_queue_size is `mq queue`'s reconstruction followed round after round: at the same instant, the
// exporter's gauge per repository, queue and partition equals the count of `mq queue`'s rows, at
// its start (stays entered before --since included), after a merge and after an eviction, in both
// dialects. The test moves the exporter's clock over a server whose history is fixed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { runMq } from "../../reliability/harness.js";
import { get, NOW, rawLog, samples, startExporter, until } from "./harness.js";

const HOUR = 3_600_000;
// the real service's dialect over one repository: the translation is what it adds
const REPOS = { spec: ["acme/web", "acme/api"], mergify: ["acme/web"] } as const;
const START = new Date(NOW.getTime() - 8 * HOUR);
const servers: Partial<Record<"spec" | "mergify", RunningServer>> = {};
beforeAll(async () => {
  for (const dialect of ["spec", "mergify"] as const)
    servers[dialect] = await startServer({ port: 0, seed: 4, days: 8, now: NOW, repos: [...REPOS[dialect]], dialect });
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

type Sizes = Record<string, number>;
const labelsKey = (repository: string, queue: string, partition: string | null) =>
  `repository="${repository}",queue="${queue}"${partition === null ? "" : `,partition="${partition}"`}`;

/** `mq queue --until AT` (its default lookback) of each repository: its rows counted by queue and partition */
interface Row {
  pull_request: number;
  queue_name: string;
  partition_name: string | null;
  entered_at: string;
}
async function queueSizes(server: RunningServer, repos: readonly string[], at: Date): Promise<{ sizes: Sizes; rows: Row[] }> {
  const sizes: Sizes = {};
  const rows: Row[] = [];
  for (const repo of repos) {
    const r = await runMq(["--repo", repo, "queue", "--until", at.toISOString(), "-o", "json"], {
      apiUrl: server.url,
      repo: false,
      now: () => at,
    });
    expect(r.code, r.stderr).toBe(0);
    for (const row of JSON.parse(r.stdout) as Row[]) {
      const key = labelsKey(repo, row.queue_name, row.partition_name);
      sizes[key] = (sizes[key] ?? 0) + 1;
      rows.push(row);
    }
  }
  return { sizes, rows };
}

/** the exporter's mq_queue_size samples that are not 0 */
const gauge = (text: string): Sizes =>
  Object.fromEntries(
    [...samples(text)]
      .filter(([k, v]) => k.startsWith("mq_queue_size{") && v !== 0)
      .map(([k, v]) => [k.slice("mq_queue_size{".length, -1), v]),
  );

describe("mq_queue_size equals mq queue's count at the same instant", () => {
  for (const dialect of ["spec", "mergify"] as const) {
    it(`at the start, after a merge, after an eviction (${dialect})`, async () => {
      const server = servers[dialect]!;
      // the moments: a merge, then an eviction, of acme/web after the start (the same times in both dialects)
      const raw = (await rawLog(servers.spec!, "acme/web", START)).reverse();
      const leaves = raw.filter((e) => e.type === "action.queue.leave" && Date.parse(e.received_at) > START.getTime() + HOUR);
      const merge = leaves.find((e) => e.metadata.merged === true)!;
      const eviction = leaves.find((e) => e.metadata.merged !== true && Date.parse(e.received_at) > Date.parse(merge.received_at))!;
      let clock = START;
      const exp = await startExporter(server, ["--repo", REPOS[dialect].join(","), "--since", "1h"], () => clock);
      try {
        for (const [moment, left] of [
          [START, undefined],
          [new Date(merge.received_at), merge],
          [new Date(eviction.received_at), eviction],
        ] as const) {
          clock = moment;
          const expected = await queueSizes(server, REPOS[dialect], moment);
          expect(Object.keys(expected.sizes).length).toBeGreaterThan(1);
          // the pull request that just left is in neither; at the start, stays entered before --since are in both
          if (left) expect(expected.rows.map((r) => r.pull_request)).not.toContain(left.pull_request);
          else expect(expected.rows.some((r) => Date.parse(r.entered_at) < moment.getTime() - HOUR)).toBe(true);
          let last: Sizes = {};
          await until(`mq_queue_size at ${moment.toISOString()} to be ${JSON.stringify(expected.sizes)}`, async () => {
            last = gauge((await get(`${exp.url}/metrics`)).body);
            return JSON.stringify(sortKeys(last)) === JSON.stringify(sortKeys(expected.sizes)) ? true : undefined;
          }).catch((err: Error) => {
            throw new Error(`${err.message}; last seen ${JSON.stringify(last)}`);
          });
        }
      } finally {
        expect(await exp.stop()).toBe(0);
      }
    }, 120_000);
  }
});

function sortKeys(sizes: Sizes): Sizes {
  return Object.fromEntries(Object.entries(sizes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
