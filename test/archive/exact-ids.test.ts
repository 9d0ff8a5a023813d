// Exact ids in the archive: JSON.parse rounds integers beyond 2^53, and the archive keyed events by
// the rounded id (a sync of 10 distinct ids kept 5, with ids never sent); an id at or beyond 2^63
// failed every later sync with exit 8 and no event named.
import { describe, expect, it } from "vitest";
import { startFaultServer } from "../helpers/fault-server.js";
import { runMq, tempDataDir } from "../helpers/archive.js";

const BASE = 2n ** 53n;
const event = (id: bigint | string, i: number) =>
  `{"id":${String(id)},"received_at":"2026-11-20T10:00:${String(10 + i).padStart(2, "0")}Z","trigger":"t","repository":"acme/web","pull_request":null,"base_ref":null,"type":"action.rebase","metadata":{}}`;
const page = (texts: string[]) => ({
  headers: { "content-type": "application/json" },
  body: `{"size":${texts.length},"per_page":100,"events":[${texts.join(",")}]}`,
});
const SYNC = ["archive", "sync", "--token", "mqk_test_token_1234", "--repo", "acme/web", "--since", "2026-11-20T00:00:00Z"];

describe("mq archive sync keeps ids exactly", () => {
  it("10 distinct ids above 2^53 are 10 events, each with its own id", async () => {
    const ids = Array.from({ length: 10 }, (_, i) => BASE + 1n + BigInt(i));
    const texts = ids.map((id, i) => event(id, 9 - i)).reverse();
    const server = await startFaultServer(() => page(texts));
    try {
      const dir = tempDataDir();
      const r = await runMq([...SYNC, "--api-url", server.url], { dataDir: dir });
      expect(r.code, r.stderr).toBe(0);
      const q = await runMq(["archive", "query", "SELECT CAST(id AS VARCHAR) AS id FROM events ORDER BY id", "-o", "csv"], {
        dataDir: dir,
      });
      expect(q.stdout).toBe(`id\r\n${ids.map((id) => `${id}\r\n`).join("")}`);
    } finally {
      await server.close();
    }
  });

  it("an id at 2^63 is a contract error naming the event (exit 6), its page not archived", async () => {
    const server = await startFaultServer(() => page([event(2n ** 63n, 1), event(7n, 0)]));
    try {
      const dir = tempDataDir();
      const r = await runMq([...SYNC, "--api-url", server.url], { dataDir: dir });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(
        /^mq: the event with id 9223372036854775808 has an id outside the API's range \(a signed 64-bit integer, -2\^63 to 2\^63-1\): its page was not archived$/m,
      );
      const q = await runMq(["archive", "query", "SELECT count(*) AS n FROM events", "-o", "csv"], { dataDir: dir });
      expect(q.stdout).toBe("n\r\n0\r\n");
    } finally {
      await server.close();
    }
  });
});
