// The bundled server speaking the real service's shape, and the checks that mergify-openapi.test.ts
// runs on a sample of each sweep and mergify-openapi.e2e.test.ts on the rest.
import { afterAll, beforeAll, expect } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { get, NOW, type Got } from "./helpers.js";
import { openapi, schemaErrors } from "../helpers/openapi.js";
import { spread } from "../helpers/sweep.js";

export const WEEK_AGO = new Date(NOW.getTime() - 7 * 86_400_000).toISOString();
export const MONTH_AGO = new Date(NOW.getTime() - 29 * 86_400_000).toISOString();

export interface MergifyServer {
  readonly server: RunningServer;
  /** the URL of the acme/web repository: `${base}/logs` */
  readonly base: string;
  /** GET, expect 200 and a body valid against the OpenAPI schema of `path` */
  valid(path: string, query?: string): Promise<Got>;
}

/** `mq serve --dialect mergify` for the enclosing file or describe block. */
export function mergifyServer(): MergifyServer {
  let server: RunningServer | undefined;
  let base = "";
  beforeAll(async () => {
    // a budget that holds the month these queries read (the default one drops and simulates it again)
    server = await startServer({ now: NOW, dialect: "mergify", recordRequests: false, memoryBudgetMb: 1024 });
    base = `${server.url}/v1/repos/acme/web`;
  });
  afterAll(() => server?.close());
  return {
    get server() {
      return server!;
    },
    get base() {
      return base;
    },
    async valid(path, query = "") {
      const r = await get(`${base}/${path}${query ? `?${query}` : ""}`);
      expect(r.status, `${path}?${query}: ${r.text.slice(0, 300)}`).toBe(200);
      expect(schemaErrors(path, r.json), `${path}?${query}`).toEqual([]);
      return r;
    },
  };
}

/** the events of `type` since `from`: some served, each valid, of that type, with an outcome. The
 * whole sweep reads the month (rare types); the sample's types all occur within a week. */
export async function expectTypeServed(served: MergifyServer, type: string, from: string): Promise<void> {
  const r = await served.valid("logs", `event_type=${type}&received_from=${from}&per_page=25`);
  expect(r.json.events.length, type).toBeGreaterThan(0);
  for (const e of r.json.events) {
    expect(e.type).toBe(type);
    expect(["success", "failure", "pending", "neutral"]).toContain(e.outcome);
  }
}

/** the statistics paths of the OpenAPI, relative to the repository (`stats/queue_size`) */
export const STATS_PATHS = Object.keys(openapi.paths)
  .filter((p) => p.includes("/stats/"))
  .map((p) => p.replace("/repos/{owner}/{repository}/", ""));

/** each statistics path with no query, then with each of the filters its OpenAPI parameters name */
export function statsQueries(): Array<{ path: string; query: string }> {
  return STATS_PATHS.flatMap((path) => {
    const params: string[] = openapi.paths[`/repos/{owner}/{repository}/${path}`].get.parameters.map((p: { name: string }) => p.name);
    const queries = [""];
    if (params.includes("start_at")) queries.push(`start_at=${WEEK_AGO}`, `start_at=${MONTH_AGO}&end_at=${NOW.toISOString()}`);
    if (params.includes("base_ref")) queries.push("base_ref=main");
    if (params.includes("queue_name")) queries.push("queue_name=default&queue_name=hotfix");
    if (params.includes("priority_rule_name")) queries.push("priority_rule_name=urgent");
    if (params.includes("at")) queries.push(`at=${WEEK_AGO}`);
    if (params.includes("branch")) queries.push("branch=main");
    return queries.map((query) => ({ path, query }));
  });
}

/** what mergify-openapi.test.ts checks of its sweeps: how many event types, how many filtered statistics queries */
export const OPENAPI_SAMPLE = { types: 6, filteredStats: 12 };

/** the filtered statistics queries mergify-openapi.test.ts checks: a spread of those within the week
 * (a month's window would have the fast half simulate the month) */
export function sampledStatsQueries(): Array<{ path: string; query: string }> {
  return spread(
    statsQueries().filter((q) => q.query && !q.query.includes(MONTH_AGO)),
    OPENAPI_SAMPLE.filteredStats,
  );
}

/** the filtered statistics queries mergify-openapi.e2e.test.ts checks: all the others */
export function otherStatsQueries(): Array<{ path: string; query: string }> {
  const sampled = new Set(sampledStatsQueries().map((q) => `${q.path}?${q.query}`));
  return statsQueries().filter((q) => q.query && !sampled.has(`${q.path}?${q.query}`));
}
