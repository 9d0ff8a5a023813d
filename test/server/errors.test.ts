import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, EventsFileError, loadEventsFile, type RunningServer } from "../../src/server/index.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { NOW, get, qs, walk } from "./helpers.js";
import { tempDir } from "../helpers/tmp.js";

let open: RunningServer;
let locked: RunningServer;

beforeAll(async () => {
  open = await startServer({ port: 0, seed: 4, days: 2, now: NOW });
  locked = await startServer({ port: 0, seed: 4, days: 2, now: NOW, token: "s3cret", repos: ["acme/web"] });
});
afterAll(async () => {
  await open.close();
  await locked.close();
});

/** a raw request, for paths fetch() would normalise */
function raw(url: string, path: string, method = "GET"): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers: { authorization: "Bearer x" } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("errors like the real service", () => {
  it("403 without an Authorization: Bearer header, any bearer token accepted without --token", async () => {
    const r = await get(`${open.url}/v1/repos/acme/web/logs`, {});
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ detail: "Not authenticated" });
    expect((await get(`${open.url}/v1/repos/acme/web/logs`, { authorization: "Basic abc" })).status).toBe(403);
    expect((await get(`${open.url}/v1/repos/acme/web/logs`, { authorization: "Bearer anything" })).status).toBe(200);
  });

  it("with --token only that token is accepted", async () => {
    const bad = await get(`${locked.url}/v1/repos/acme/web/logs`, { authorization: "Bearer other" });
    expect(bad.status).toBe(403);
    expect(typeof bad.json.detail).toBe("string");
    expect((await get(`${locked.url}/v1/repos/acme/web/logs`, { authorization: "Bearer s3cret" })).status).toBe(200);
  });

  it("404 for a repository outside --repos, and for an unknown path", async () => {
    const r = await get(`${locked.url}/v1/repos/acme/other/logs`, { authorization: "Bearer s3cret" });
    expect(r.status).toBe(404);
    expect(typeof r.json.detail).toBe("string");
    expect((await get(`${open.url}/v1/repos/acme/web/nope`)).status).toBe(404);
    expect((await get(`${open.url}/v1/repos/acme/web/stats/nope`)).status).toBe(404);
    expect((await get(`${open.url}/repos/acme/web/logs`)).status).toBe(404);
    expect((await get(`${open.url}/`)).status).toBe(404);
    // a trailing slash is another path
    for (const path of [
      "/v1/repos/acme/web/logs/",
      "/v1/repos/acme/web/logs/?per_page=1",
      "/v1/repos/acme/web/stats/queues/",
      "/v1/repos/acme/web/stats/failure_rate//",
    ]) {
      const r = await raw(open.url, path);
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.body), path).toEqual({ detail: "Not Found" });
    }
  });

  it("405 for any method but GET", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await get(`${open.url}/v1/repos/acme/web/logs`, { authorization: "Bearer x" }, method);
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
  });

  it("422 with FastAPI details naming the parameter out of its limits", async () => {
    const cases: Array<[string, string]> = [
      ["per_page=0", "per_page"],
      ["per_page=101", "per_page"],
      ["per_page=ten", "per_page"],
      ["pull_request=0", "pull_request"],
      ["pull_request=2147483647", "pull_request"],
      [`base_ref=${"x".repeat(256)}`, "base_ref"],
      ["event_type=action.nope", "event_type"],
      ["received_from=yesterday", "received_from"],
      ["cursor=garbage!!", "cursor"],
      ["cursor=bm90LWEtY3Vyc29y", "cursor"],
      ["cursor=", "cursor"],
      ["cursor=&per_page=5", "cursor"],
      ["received_from=2026-11-20T00:00:00Z&received_to=2026-11-19T00:00:00Z", "received_from"],
    ];
    for (const [query, name] of cases) {
      const r = await get(`${open.url}/v1/repos/acme/web/logs?${query}`);
      expect(r.status, query).toBe(422);
      expect(r.json.detail[0].loc.slice(0, 2), query).toEqual(["query", name]);
      expect(typeof r.json.detail[0].msg).toBe("string");
      expect(typeof r.json.detail[0].type).toBe("string");
    }
    const s = await get(`${open.url}/v1/repos/acme/web/stats/failure_rate?start_at=nope`);
    expect(s.status).toBe(422);
    expect(s.json.detail[0].loc).toEqual(["query", "start_at"]);
    const p = await get(`${open.url}/v1/repos/ac_me!/web/logs`);
    expect(p.status).toBe(422);
    expect(p.json.detail[0].loc).toEqual(["path", "owner"]);
  });

  it("never crashes on malformed input", async () => {
    expect((await raw(open.url, "/v1/repos/acme/web/logs?per_page=%E0%A4%A")).status).toBe(422);
    expect((await raw(open.url, "/v1/repos/ac%E0me/web/logs")).status).toBe(404);
    expect((await raw(open.url, "/v1/repos/acme/../logs")).status).toBe(404);
    expect((await raw(open.url, "/v1/repos/acme/web/../../../etc/passwd")).status).toBe(404);
    expect((await raw(open.url, `/v1/repos/acme/web/logs?${"a=b&".repeat(3000)}`)).status).toBe(200);
    expect((await raw(open.url, `/v1/repos/acme/web/logs?${"a=b&".repeat(6000)}`)).status).toBe(431);
    expect((await raw(open.url, "/v1/repos/acme/web/logs?event_type=&per_page=")).status).toBe(422);
    // still serving
    expect((await get(`${open.url}/v1/repos/acme/web/logs`)).status).toBe(200);
  });
});

describe("determinism", () => {
  it("the same seed, repository, now and days give byte-identical responses", async () => {
    const again = await startServer({ port: 0, seed: 4, days: 2, now: NOW });
    const other = await startServer({ port: 0, seed: 5, days: 2, now: NOW });
    try {
      const paths = ["/v1/repos/acme/web/logs?per_page=100", ...STATS_ENDPOINTS.map((e) => `/v1/repos/acme/web/stats/${e.path}`)];
      for (const path of paths) {
        const a = await get(`${open.url}${path}`);
        const b = await get(`${again.url}${path}`);
        expect(b.text, path).toBe(a.text);
        expect(b.headers.get("link")?.replaceAll(again.url, ""), path).toBe(a.headers.get("link")?.replaceAll(open.url, ""));
      }
      const c = await get(`${other.url}/v1/repos/acme/web/logs?per_page=100`);
      const a = await get(`${open.url}/v1/repos/acme/web/logs?per_page=100`);
      expect(c.text).not.toBe(a.text);
    } finally {
      await again.close();
      await other.close();
    }
  });
});

describe("--events: record and replay", () => {
  it("serves exactly the recorded events and computes the same statistics", async () => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "acme.ndjson");
    const from = new Date(NOW.getTime() - 3 * 86_400_000).toISOString();
    const recorded = await walk(`${open.url}/v1/repos/acme/web/logs?${qs({ received_from: from, per_page: 100 })}`);
    writeFileSync(file, recorded.events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const replay = await startServer({ port: 0, eventsFile: file, now: NOW });
    try {
      const again = await walk(`${replay.url}/v1/repos/acme/web/logs?${qs({ received_from: from, per_page: 100 })}`);
      expect(again.events).toEqual(recorded.events);
      for (const ep of STATS_ENDPOINTS) {
        const q =
          ep.params === "time-to-merge"
            ? ""
            : `?${qs({ start_at: new Date(NOW.getTime() - 86_400_000).toISOString(), end_at: NOW.toISOString() })}`;
        const a = await get(`${open.url}/v1/repos/acme/web/stats/${ep.path}${q}`);
        const b = await get(`${replay.url}/v1/repos/acme/web/stats/${ep.path}${q}`);
        expect(b.text, ep.path).toBe(a.text);
      }
      // only the recorded repository exists
      expect((await get(`${replay.url}/v1/repos/acme/api/logs`)).status).toBe(404);
    } finally {
      await replay.close();
    }
  });

  it("a replayed log defaults to the time of its newest event", async () => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "one.ndjson");
    const ev = {
      id: 7,
      received_at: "2024-03-01T10:00:00.500Z",
      trigger: "t",
      repository: "a/b",
      pull_request: null,
      base_ref: null,
      type: "action.refresh",
      metadata: {},
    };
    writeFileSync(file, JSON.stringify(ev) + "\n\n");
    const replay = await startServer({ port: 0, eventsFile: file });
    try {
      const r = await get(`${replay.url}/v1/repos/a/b/logs`);
      expect(r.json.events).toEqual([ev]);
    } finally {
      await replay.close();
    }
  });

  it("a malformed line is an error naming its line number", async () => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "bad.ndjson");
    const ok = JSON.stringify({
      id: 1,
      received_at: "2024-03-01T10:00:00Z",
      trigger: "t",
      repository: "a/b",
      pull_request: null,
      base_ref: null,
      type: "x",
      metadata: {},
    });
    writeFileSync(file, `${ok}\n{"id": 2, oops\n`);
    await expect(loadEventsFile(file)).rejects.toThrow(EventsFileError);
    await expect(loadEventsFile(file)).rejects.toThrow(/bad\.ndjson:2: not valid JSON/);
    writeFileSync(file, `${ok}\n${ok.replace('"id":1', '"id":"2"')}\n`);
    await expect(loadEventsFile(file)).rejects.toThrow(/bad\.ndjson:2: not an event: id: expected an integer, got a string$/);
    await expect(loadEventsFile(join(dir, "missing.ndjson"))).rejects.toThrow(/cannot read .*missing\.ndjson: ENOENT/);
  });

  it.each([
    ["received_at", "2026-11-18T00:00:00", 'received_at: expected an ISO 8601 date-time, got "2026-11-18T00:00:00"'],
    ["received_at", "2026-11-18", 'received_at: expected an ISO 8601 date-time, got "2026-11-18"'],
    ["received_at", "2026-02-30T00:00:00Z", 'received_at: expected an ISO 8601 date-time, got "2026-02-30T00:00:00Z"'],
    ["received_at", "2026-11-18 00:00:00Z", 'received_at: expected an ISO 8601 date-time, got "2026-11-18 00:00:00Z"'],
    [
      "repository",
      "a_b/c",
      'repository: expected "owner/name" (owner: letters, digits and -, up to 40; name: letters, digits, _, - and ., up to 100), got "a_b/c"',
    ],
    [
      "repository",
      "a/b/c",
      'repository: expected "owner/name" (owner: letters, digits and -, up to 40; name: letters, digits, _, - and ., up to 100), got "a/b/c"',
    ],
    [
      "repository",
      "a/..",
      'repository: expected "owner/name" (owner: letters, digits and -, up to 40; name: letters, digits, _, - and ., up to 100), got "a/.."',
    ],
    [
      "repository",
      "ab",
      'repository: expected "owner/name" (owner: letters, digits and -, up to 40; name: letters, digits, _, - and ., up to 100), got "ab"',
    ],
    ["type", "", 'type: expected an event type, got ""'],
  ])("an envelope with %s %j is refused naming the file and line", async (field, value, message) => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "bad.ndjson");
    const ev = {
      id: 1,
      received_at: "2026-11-18T00:00:00Z",
      trigger: "t",
      repository: "a-b/c.d_e",
      pull_request: null,
      base_ref: null,
      type: "action.refresh",
      metadata: {},
    };
    writeFileSync(file, `${JSON.stringify(ev)}\n\n${JSON.stringify({ ...ev, id: 2, [field]: value })}\n`);
    await expect(loadEventsFile(file)).rejects.toThrow(new EventsFileError(`${file}:3: not an event: ${message}`, 3));
    // the good line alone loads
    writeFileSync(file, `${JSON.stringify(ev)}\n`);
    expect((await loadEventsFile(file)).count).toBe(1);
  });

  it("keeps an event whose metadata differs from its type's shape (a log recorded from the real service)", async () => {
    const dir = tempDir("mq-events-");
    const file = join(dir, "real.ndjson");
    const ev = {
      id: 1,
      received_at: "2026-11-18T00:00:00+01:00",
      trigger: "t",
      repository: "a/b",
      pull_request: 3,
      base_ref: "main",
      type: "action.queue.enter",
      metadata: { queue_name: "q", outcome: "x" },
    };
    writeFileSync(file, `${JSON.stringify(ev)}\n`);
    expect((await loadEventsFile(file)).byRepo.get("a/b")).toEqual([ev]);
  });
});

describe("the request log", () => {
  it("is kept for tests, and not kept by a long-running server (recordRequests: false)", async () => {
    const quiet = await startServer({ port: 0, seed: 4, days: 1, now: NOW, recordRequests: false });
    try {
      expect((await get(`${quiet.url}/v1/repos/acme/web/stats/queues`)).status).toBe(200);
      expect(quiet.requests).toEqual([]);
    } finally {
      await quiet.close();
    }
    const before = open.requests.length;
    await get(`${open.url}/v1/repos/acme/web/stats/queues`);
    expect(open.requests.slice(before).map((r) => r.url)).toEqual(["/v1/repos/acme/web/stats/queues"]);
  });
});
