// A loopback server answering every statistics path with a fixed body (by default the examples of
// src/api/fixtures/stats.json), recording each request, so tests know every figure exactly.
// `verify()` (gh's httpmock `reg.Verify`) fails a test whose scripted bodies (those given in
// `bodies` that differ from the fixtures) were never requested, or that requested a path that is
// no statistics endpoint.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { STATS_ENDPOINTS } from "../../../src/stats/endpoints.js";

export const FIXTURES: Record<string, unknown> = JSON.parse(
  readFileSync(new URL("../../../src/api/fixtures/stats.json", import.meta.url), "utf8"),
);

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

export interface FixtureServer {
  url: string;
  requests: SeenRequest[];
  /** the most requests in flight at once */
  maxInFlight: number;
  /** throws unless every scripted body was served and every request named a statistics endpoint */
  verify(): void;
  close(): Promise<void>;
}

export interface FixtureServerOptions {
  bodies?: Record<string, unknown>;
  status?: number;
  /** hold each response until this many requests are in flight (or 2 s pass): proves concurrency */
  barrier?: number;
}

export async function startFixtureServer(opts: FixtureServerOptions = {}): Promise<FixtureServer> {
  const bodies = opts.bodies ?? FIXTURES;
  const requests: SeenRequest[] = [];
  const scripted = new Set(Object.keys(bodies).filter((name) => bodies[name] !== FIXTURES[name]));
  const served = new Set<string>();
  const unknownPaths: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let waiting: Array<() => void> = [];
  const release = () => {
    for (const w of waiting) w();
    waiting = [];
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const respond = () => {
      inFlight--;
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const m = /^\/v1\/repos\/[^/]+\/[^/]+\/stats\/([a-z_]+)$/.exec(path);
      const endpoint = m ? STATS_ENDPOINTS.find((e) => e.path === m[1]) : undefined;
      if (endpoint) served.add(endpoint.name);
      else unknownPaths.push(path);
      const status = opts.status ?? (endpoint ? 200 : 404);
      const body = status === 200 ? bodies[endpoint!.name] : { detail: "Not Found" };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (endpoint?.deprecatedUse) headers.deprecation = "true";
      res.writeHead(status, headers);
      res.end(JSON.stringify(body));
    };
    if (opts.barrier) {
      waiting.push(respond);
      if (inFlight >= opts.barrier) release();
      else setTimeout(release, 2000).unref();
    } else {
      respond();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    verify() {
      const found: string[] = [];
      const unused = [...scripted].filter((name) => !served.has(name));
      if (unused.length > 0) found.push(`scripted bodies never requested: ${unused.join(", ")}`);
      if (unknownPaths.length > 0) found.push(`requests to no statistics endpoint: ${unknownPaths.join(", ")}`);
      unknownPaths.length = 0;
      if (found.length > 0) throw new Error(`fixture server: ${found.join("; ")}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
