// `mq queue` and `mq why N` without --until ask the server for its present first. When the API does
// not answer that (a 500, a refused connection), the run fails as its read of the log would have:
// the same error and exit code, after the one request and its retries, nothing else sent. In the
// default mode the archive is no way round it (it stops short of the last minutes, so a window
// ending now is never read from it); when there is an archive, the error says what reads it.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMq } from "../../reliability/harness.js";
import { startFaultServer, type FaultServer } from "../../helpers/fault-server.js";
import { seedArchive, tempDataDir } from "../../helpers/archive.js";

let down: FaultServer;
/** a port nothing listens on: every connection is refused */
let refused: string;
beforeAll(async () => {
  down = await startFaultServer(() => ({
    status: 500,
    headers: { "content-type": "application/json" },
    body: { message: "database unavailable" },
  }));
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  refused = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((r) => probe.close(r));
});
afterAll(() => down.close());

async function mq(apiUrl: string, args: string[], dataDir?: string) {
  const before = down.requests.length;
  const r = await runMq([...args, "--color", "never"], { apiUrl, env: dataDir ? { MQ_DATA_DIR: dataDir } : {} });
  return { ...r, requests: down.requests.slice(before).map((q) => q.url) };
}

const ERROR_500 = "mq: GET /v1/repos/acme/web/logs?per_page=1 failed: HTTP 500 Internal Server Error: database unavailable\n";
const HINT = "--archive answers from the archive instead, at mq's clock and without the API (mq archive status shows what it covers).\n";

describe("the API does not answer the present", () => {
  it("mq queue, a server answering 500: its error and exit code, only the present asked (and retried)", async () => {
    const r = await mq(down.url, ["queue", "-o", "json"]);
    expect([r.code, r.stdout, r.stderr]).toEqual([6, "", ERROR_500]);
    expect(r.requests).toEqual(["/v1/repos/acme/web/logs?per_page=1"]);
  });

  it("mq why N, a server answering 500: the same", async () => {
    const r = await mq(down.url, ["why", "4821", "-o", "json"]);
    expect([r.code, r.stdout, r.stderr]).toEqual([6, "", ERROR_500]);
    expect(r.requests).toEqual(["/v1/repos/acme/web/logs?per_page=1"]);
  });

  it("a refused connection: the network error, exit 6", async () => {
    const r = await mq(refused, ["queue", "-o", "json"]);
    const where = refused.replace("http://", "");
    expect([r.code, r.stdout, r.stderr]).toEqual([
      6,
      "",
      `mq: cannot connect to ${where}: connection refused\ncheck --api-url and that the server is running\n`,
    ]);
  });

  it("with an archive: the error says --archive answers from it, and it does, sending nothing", async () => {
    const dataDir = tempDataDir();
    await seedArchive(dataDir);
    const missing = (from: string, what: string) =>
      `mq: warning: the archive does not cover ${from.replace("T", " ")} to 2026-11-20 00:00:00Z for acme/web: ${what} there are missing below (mq --api-url ${down.url} archive sync acme/web --since ${from} --until 2026-11-20T00:00:00Z fetches them).\n`;
    for (const [args, stdout, stderr] of [
      [["queue", "-o", "json"], "[]\n", missing("2026-11-13T12:00:00Z", "queue events")],
      [
        ["why", "4821", "-o", "json"],
        `${JSON.stringify(
          {
            repository: "acme/web",
            pull_request: 4821,
            since: "2026-10-21T12:00:00Z",
            until: "2026-11-20T12:00:00Z",
            stays_in_window: 0,
            requeues: 0,
            stays: [],
            seen: { events: 0, by_type: {}, last_command: null, last_command_at: null },
          },
          null,
          2,
        )}\n`,
        missing("2026-10-21T12:00:00Z", "events of #4821"),
      ],
    ] as const) {
      const r = await mq(down.url, [...args], dataDir);
      expect([r.code, r.stdout, r.stderr]).toEqual([6, "", ERROR_500 + HINT]);
      expect(r.requests).toEqual(["/v1/repos/acme/web/logs?per_page=1"]);
      const archived = await mq(down.url, [...args, "--archive"], dataDir);
      expect([archived.code, archived.stdout, archived.stderr]).toEqual([0, stdout, stderr]);
      expect(archived.requests).toEqual([]);
    }
  });
});
