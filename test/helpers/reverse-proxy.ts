// A reverse proxy on loopback as nginx's default `proxy_pass` is: it forwards each request to the
// upstream with `Host` rewritten to the upstream's address (what the server then sees), and can
// stand for a port map or an SSH tunnel: the client talks to one port, the server listens on another.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReverseProxy {
  /** http://127.0.0.1:PORT: the address the client uses */
  url: string;
  /** the Host header of each request as forwarded */
  forwardedHosts: string[];
  close(): Promise<void>;
}

export async function startReverseProxy(upstream: string): Promise<ReverseProxy> {
  const target = new URL(upstream);
  const forwardedHosts: string[] = [];
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, host: target.host };
    forwardedHosts.push(target.host);
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardedHosts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
