// Loopback HTTP servers scripted by a handler, each recording the requests it received, closed
// after each test of the file that asked for them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Loopback {
  url: string;
  /** the requests received, in order */
  seen: IncomingMessage[];
}

/** A `serve(handler)` for the calling test file; every server it starts is closed after each test. */
export function loopbackServers(): (handler: Handler) => Promise<Loopback> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  return async (handler) => {
    const seen: IncomingMessage[] = [];
    const server = createServer((req, res) => {
      seen.push(req);
      handler(req, res);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  };
}
