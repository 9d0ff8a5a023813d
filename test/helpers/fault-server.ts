// A fault-injecting loopback HTTP server for the reliability suite. Each request gets a Reply chosen
// by a script (request number, 1-based, and the parsed URL): a normal answer, or a fault: a reset
// in the middle of the body, a body shorter than its Content-Length, a stall, a streamed body.
// It counts and records every request, so a test can say "nothing was sent" or "exactly 4 attempts".
// `expect(...replies)` scripts an exact sequence instead, and `verify()` (gh's httpmock
// `reg.Verify`) fails the test when a scripted reply was never asked for, a request came that no
// reply was scripted for, or the script itself threw.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { GenericEvent } from "../../src/api/schema/events.js";

export type Reply =
  /** a complete HTTP answer; `body` is sent as is (string) or as JSON (anything else) */
  | { kind?: "answer"; status?: number; headers?: Record<string, string>; body?: unknown }
  /** headers, `sent` bytes of the body, then the socket is destroyed (ECONNRESET / other side closed) */
  | { kind: "reset"; status?: number; headers?: Record<string, string>; body: string; sent: number }
  /** Content-Length announces the whole body but only `sent` bytes arrive before the connection ends */
  | { kind: "short"; status?: number; headers?: Record<string, string>; body: string; sent: number }
  /** the request is read and never answered */
  | { kind: "stall" }
  /** bytes written to the socket as they are, status line and headers included (header values Node would refuse); with `hold` the connection stays open */
  | { kind: "raw"; bytes: Buffer; hold?: boolean }
  /** a chunked body written piece by piece (large pages); with `hold` it is never ended */
  | { kind: "stream"; status?: number; headers?: Record<string, string>; chunks: () => Iterable<string | Buffer>; hold?: boolean };

export interface SeenRequest {
  n: number;
  method: string;
  /** path and query as received */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export type Script = (n: number, url: URL, req: IncomingMessage) => Reply | Promise<Reply>;

export interface FaultServer {
  /** http://127.0.0.1:PORT, without /v1 */
  url: string;
  requests: SeenRequest[];
  /** replace the script (between phases of one test) */
  setScript(script: Script): void;
  /** answer the next requests with exactly these replies, in order; a request beyond them is an error */
  expect(...replies: Reply[]): void;
  /** throws unless every reply given to `expect` was consumed and nothing went wrong since the last verify */
  verify(): void;
  close(): Promise<void>;
}

export async function startFaultServer(script: Script): Promise<FaultServer> {
  let current = script;
  const requests: SeenRequest[] = [];
  // what verify() reports: scripted replies not yet served, and what went wrong meanwhile
  let queued: Reply[] = [];
  let problems: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer({ keepAlive: true }, (req, res) => {
    const n = requests.length + 1;
    requests.push({ n, method: req.method ?? "", url: req.url ?? "", headers: { ...req.headers } });
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // the body of a GET is empty; drain it so the socket stays usable
    req.resume();
    // a script that throws (synchronously too) answers 599 and is reported by verify()
    new Promise<Reply>((resolve) => resolve(current(n, url, req)))
      .then((reply) => answer(res, reply))
      .catch((err: unknown) => {
        problems.push(`request ${n} (${req.url}): ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent) res.writeHead(599, { "content-type": "text/plain" });
        res.end(`fault server script failed: ${String(err)}`);
      });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setScript(next) {
      queued = [];
      current = next;
    },
    expect(...replies) {
      queued = [...replies];
      current = () => {
        const next = queued.shift();
        if (next === undefined) throw new Error("no reply was scripted for this request");
        return next;
      };
    },
    verify() {
      const found = [...problems];
      if (queued.length > 0) found.push(`${queued.length} scripted ${queued.length === 1 ? "reply was" : "replies were"} never requested`);
      problems = [];
      queued = [];
      if (found.length > 0) throw new Error(`fault server: ${found.join("; ")}`);
    },
    close() {
      return new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
    },
  };
}

function answer(res: ServerResponse, reply: Reply): void {
  switch (reply.kind) {
    case undefined:
    case "answer": {
      const text = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      const contentType = typeof reply.body === "string" ? "text/plain" : "application/json";
      res.writeHead(reply.status ?? 200, { "content-type": contentType, "content-length": Buffer.byteLength(text), ...reply.headers });
      res.end(text);
      return;
    }
    case "reset": {
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.write(reply.body.slice(0, reply.sent), () => {
        // let the bytes leave before the reset, so the client is mid-body, not mid-headers
        setTimeout(() => res.socket?.destroy(), 20);
      });
      return;
    }
    case "short": {
      res.writeHead(reply.status ?? 200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(reply.body),
        ...reply.headers,
      });
      res.write(reply.body.slice(0, reply.sent), () => setTimeout(() => res.socket?.end(), 20));
      return;
    }
    case "stall":
      return;
    case "raw":
      if (reply.hold) res.socket?.write(reply.bytes);
      else res.socket?.end(reply.bytes);
      return;
    case "stream": {
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      const it = reply.chunks()[Symbol.iterator]();
      const pump = () => {
        for (;;) {
          const next = it.next();
          if (next.done) {
            // hold: the body stops half-way and the response never ends
            if (!reply.hold) res.end();
            return;
          }
          if (!res.write(next.value)) {
            res.once("drain", pump);
            return;
          }
        }
      };
      res.on("error", () => undefined);
      pump();
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// contract-valid bodies

export type TestEvent = GenericEvent;

/** A valid `action.queue.change` event; ids count down from `id` as time goes back. */
export function queueChangeEvent(
  id: number,
  receivedAt: string = new Date(Date.parse("2026-11-20T11:00:00Z") - (1000 - id) * 1000).toISOString(),
): TestEvent {
  return {
    id,
    received_at: receivedAt,
    trigger: "merge queue",
    repository: "acme/web",
    pull_request: 100 + id,
    base_ref: "main",
    type: "action.queue.change",
    metadata: { queue_name: "default", partition_name: "__default__", priority_rule_name: null, size: id % 7 },
  };
}

/** Events `from` down to `from - count + 1` (newest first). */
export function eventRange(from: number, count: number): TestEvent[] {
  return Array.from({ length: count }, (_, i) => queueChangeEvent(from - i));
}

/** The body of an events page. */
export function pageBody(
  events: readonly unknown[],
  perPage = Math.max(events.length, 1),
): { size: number; per_page: number; events: unknown[] } {
  return { size: events.length, per_page: perPage, events: [...events] };
}

/** A 200 events page with, optionally, a Link rel="next" to `next` (a full URL or a path). */
export function pageReply(events: readonly unknown[], next?: string): Reply {
  return { status: 200, body: pageBody(events), headers: next ? { link: `<${next}>; rel="next"` } : {} };
}

/** The ndjson lines mq writes for these events. */
export function ndjson(events: readonly unknown[]): string {
  return events.map((e) => JSON.stringify(e) + "\n").join("");
}
