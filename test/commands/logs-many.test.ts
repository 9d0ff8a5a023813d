// mq logs --repo a/b,c/d when one repository fails after some of its events were written: the
// merged stream cannot take them back, so the closing message says they are there (it said "the
// output covers the others", and a reader took acme/api to be absent); -o json stays one array.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";

const event = (repository: string, id: number, at: string) => ({
  id,
  received_at: at,
  trigger: "merge queue",
  repository,
  pull_request: id,
  base_ref: "main",
  type: "action.queue.change",
  metadata: { queue_name: "default", partition_name: "__default__", priority_rule_name: null, size: 1 },
});

let url: string;
const requests: string[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  requests.push(req.url ?? "");
  const u = new URL(req.url ?? "/", "http://x");
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  if (u.pathname === "/v1/repos/acme/web/logs")
    return json(200, { size: 1, per_page: 100, events: [event("acme/web", 10, "2026-11-20T11:30:00Z")] });
  if (u.pathname === "/v1/repos/acme/api/logs") {
    if (u.searchParams.has("cursor")) return json(500, { detail: "boom" });
    const next = new URL(req.url ?? "/", url);
    next.searchParams.set("cursor", "page2");
    return json(
      200,
      { size: 2, per_page: 100, events: [event("acme/api", 21, "2026-11-20T11:50:00Z"), event("acme/api", 20, "2026-11-20T11:40:00Z")] },
      { link: `<${next}>; rel="next"` },
    );
  }
  json(404, { detail: "Not Found" });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("mq logs --repo a,b: a repository that fails part way", () => {
  it("its events already written are said to be there; the JSON array is closed; exit 6", async () => {
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
    const args = [
      "logs",
      "--repo",
      "acme/web,acme/api",
      "--since",
      "2026-11-20T11:00:00Z",
      "--until",
      "2026-11-20T12:00:00Z",
      "--parallel",
      "1",
      "--no-retry",
      "-o",
      "json",
      "--api-url",
      url,
    ];
    const code = await main(args, ctx);
    expect(code).toBe(6);
    const written = JSON.parse(ctx.stdoutText()) as Array<{ id: number }>;
    expect(written.map((e) => e.id)).toEqual([21, 20, 10]);
    const lines = ctx.stderrText().trimEnd().split("\n");
    // the repository's own line ends with its exit code, as mq insights, prs and stats --repo a,b write it
    expect(lines[0]).toBe(
      "mq: acme/api: GET /v1/repos/acme/api/logs?received_from=2026-11-20T11%3A00%3A00Z&received_to=2026-11-20T12%3A00%3A00Z&per_page=100&cursor=page2 failed: HTTP 500 Internal Server Error: boom (exit 6)",
    );
    expect(lines).toHaveLength(2);
    const last = lines.pop();
    expect(last).toBe(
      "mq: 1 of 2 repositories could not be read (acme/api); the output covers the others, and the first 2 events of acme/api (it stopped there).",
    );
  });

  it("every repository failing, one after writing events: the line says only those are there", async () => {
    const ctx = testContext({ env: { MQ_TOKEN: "test-token-1234" } });
    const args = [
      "logs",
      "--repo",
      "acme/nope,acme/api",
      "--since",
      "2026-11-20T11:00:00Z",
      "--until",
      "2026-11-20T12:00:00Z",
      "--parallel",
      "1",
      "--no-retry",
      "-o",
      "ndjson",
      "--api-url",
      url,
    ];
    const code = await main(args, ctx);
    expect(code).toBe(3);
    expect(
      ctx
        .stdoutText()
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual([21, 20]);
    expect(
      ctx
        .stderrText()
        .split("\n")
        .filter((l) => l.startsWith("mq: acme/nope: ")),
    ).toEqual([expect.stringMatching(/ \(exit 3\)$/)]);
    expect(ctx.stderrText().trimEnd().split("\n").pop()).toBe(
      "mq: none of the 2 repositories could be read to the end (acme/nope, acme/api); the output holds only the first 2 events of acme/api (it stopped there).",
    );
  });
});
