// A small loopback event-log server for the logs tests: newest-first events, offset cursors, and
// a Link header with only rel="next" given as a relative URL (the hardest case for the client).
// It records the exact URL of every request, and can fail a chosen page.
import { DIALECTS, type DialectName } from "../../src/api/dialects/index.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTransport } from "../../src/api/client.js";
import { testWire } from "../helpers/wires.js";
import type { TestContext } from "../helpers/context.js";
import type { GenericEvent } from "../../src/api/schema/events.js";
import fixtureEvents from "../../src/api/fixtures/events.json" with { type: "json" };

/** an event of the contract's envelope, whatever its type */
export type FixtureEvent = GenericEvent;

export const FIXTURE_EVENTS = fixtureEvents as FixtureEvent[];

export interface LogServer {
  url: string;
  /** request URLs as received: path and query */
  requests: string[];
  /** prepends events (they are newer) */
  appendEvents(events: FixtureEvent[]): void;
  /** the nth request (1-based) answers this status and body */
  failRequest(n: number, status: number, body: unknown): void;
  /** the nth request gets no answer; resolves once it has arrived */
  holdRequest(n: number): Promise<void>;
  close(): Promise<void>;
}

/** `count` synthetic events, newest first, one per second back from `newest`. */
export function makeEvents(count: number, newest = Date.parse("2026-11-20T11:59:00Z"), firstId = 1): FixtureEvent[] {
  const out: FixtureEvent[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      id: firstId + count - 1 - i,
      received_at: new Date(newest - i * 1000).toISOString(),
      trigger: "merge queue",
      repository: "acme/web",
      pull_request: 100 + i,
      base_ref: "main",
      type: "action.queue.change",
      metadata: { queue_name: "default", partition_name: "__default__", priority_rule_name: null, size: i },
    });
  }
  return out;
}

export async function startLogServer(initial: FixtureEvent[]): Promise<LogServer> {
  let events = [...initial];
  const requests: string[] = [];
  const failures = new Map<number, { status: number; body: unknown }>();
  const holds = new Map<number, () => void>();
  const server: Server = createServer((req, res) => {
    requests.push(req.url!);
    const hold = holds.get(requests.length);
    if (hold) {
      hold();
      return;
    }
    const fail = failures.get(requests.length);
    if (fail) {
      res.writeHead(fail.status, { "content-type": "application/json" });
      res.end(JSON.stringify(fail.body));
      return;
    }
    const url = new URL(req.url!, "http://x");
    const q = url.searchParams;
    let list = events;
    const types = q.getAll("event_type");
    if (types.length) list = list.filter((e) => types.includes(e.type));
    if (q.has("pull_request")) list = list.filter((e) => e.pull_request === Number(q.get("pull_request")));
    if (q.has("base_ref")) list = list.filter((e) => e.base_ref === q.get("base_ref"));
    if (q.has("received_from")) list = list.filter((e) => Date.parse(e.received_at) >= Date.parse(q.get("received_from")!));
    if (q.has("received_to")) list = list.filter((e) => Date.parse(e.received_at) <= Date.parse(q.get("received_to")!));
    const perPage = Number(q.get("per_page") ?? 10);
    const offset = Number(q.get("cursor") ?? 0);
    const page = list.slice(offset, offset + perPage);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (offset + perPage < list.length) {
      const next = new URLSearchParams(q);
      next.set("cursor", String(offset + perPage));
      headers.link = `<${url.pathname}?${next}>; rel="next"`;
    }
    res.writeHead(200, headers);
    res.end(JSON.stringify({ size: page.length, per_page: perPage, events: page }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    appendEvents(more) {
      events = [...more, ...events];
    },
    failRequest(n, status, body) {
      failures.set(n, { status, body });
    },
    holdRequest(n) {
      return new Promise<void>((resolve) => holds.set(n, resolve));
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Points a test context at the server, for repository acme/web, with retries off, speaking `dialect`. */
export function useServer(ctx: TestContext, server: { url: string }, dialect: DialectName = "spec"): TestContext {
  const wire = testWire("node:http");
  ctx.onCleanup(() => wire.close());
  const client = createTransport({
    baseUrl: `${server.url}/v1`,
    token: "test-token",
    wire,
    timeoutMs: 10_000,
    retry: false,
    insecure: false,
    signal: ctx.signal,
    now: () => ctx.now(),
  });
  ctx.apiClient = async () => client;
  ctx.resolveRepo = async () => ({ owner: "acme", name: "web", source: "--repo" });
  ctx.dialect = async () => ({ dialect: DIALECTS[dialect], source: "--dialect" });
  return ctx;
}
