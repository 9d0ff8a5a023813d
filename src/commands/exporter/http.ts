// The exporter's HTTP side: GET /metrics (the text format 0.0.4, or OpenMetrics 1.0 by Accept),
// /healthz (the process answers) and /readyz (every repository caught up, else 503 naming the
// others). Only what the exporter counted is served: never the API token, never an event's text.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { EXPOSITION_CONTENT_TYPE, negotiateExposition } from "../../output/openmetrics.js";
import type { ScrapeAuth } from "./index.js";

export interface Endpoints {
  /** the exposition in FORMAT */
  metrics(format: "openmetrics" | "prometheus"): string;
  /** undefined when ready, else the line saying which repositories are not */
  notReady(): string | undefined;
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the request carries the credentials AUTH asks for (compared in constant time). */
function authorized(req: IncomingMessage, auth: ScrapeAuth): boolean {
  if (auth.kind === "none") return true;
  const header = req.headers.authorization ?? "";
  const expected =
    auth.kind === "bearer" ? `Bearer ${auth.token}` : `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString("base64")}`;
  return timingSafeEqual(digest(header), digest(expected));
}

function send(res: ServerResponse, status: number, type: string, body: string, head: boolean, extra: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), "cache-control": "no-store", ...extra });
  res.end(head ? undefined : body);
}

export async function startMetricsServer(host: string, port: number, auth: ScrapeAuth, endpoints: Endpoints): Promise<MetricsServer> {
  const text = "text/plain; charset=utf-8";
  const server: Server = createServer((req, res) => {
    const head = req.method === "HEAD";
    if (req.method !== "GET" && !head)
      return send(res, 405, text, "method not allowed: GET /metrics, /healthz or /readyz\n", false, { allow: "GET, HEAD" });
    if (!authorized(req, auth)) {
      const challenge = auth.kind === "basic" ? 'Basic realm="mq exporter"' : 'Bearer realm="mq exporter"';
      return send(res, 401, text, "unauthorized\n", head, { "www-authenticate": challenge });
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/metrics") {
      const format = negotiateExposition(req.headers.accept);
      return send(res, 200, EXPOSITION_CONTENT_TYPE[format], endpoints.metrics(format), head);
    }
    if (path === "/healthz") return send(res, 200, text, "ok\n", head);
    if (path === "/readyz") {
      const why = endpoints.notReady();
      return why === undefined ? send(res, 200, text, "ready\n", head) : send(res, 503, text, `${why}\n`, head);
    }
    send(res, 404, text, "not found: GET /metrics, /healthz or /readyz\n", head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}`,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
