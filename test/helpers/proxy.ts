// A forward proxy on loopback that tunnels CONNECT to its target and records each request line, and
// whether a tunnel carried an Authorization header in clear (a plain http:// request inside it).
// `hosts` maps names to addresses, so a test can reach a loopback server under a name that is not
// loopback (the proxy resolves the CONNECT target, not mq).
import { createServer, type Server } from "node:http";
import { connect as netConnect, type AddressInfo } from "node:net";

export interface TestProxy {
  url: string;
  /** "CONNECT host:port" per tunnel, "METHOD url" per plain request (answered 502) */
  seen: string[];
  /** the Authorization header values the proxy could read in its tunnels (plain http:// inside) */
  clearAuthorization: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(options: { hosts?: Record<string, string> } = {}): Promise<TestProxy> {
  const seen: string[] = [];
  const clearAuthorization: string[] = [];
  const proxy: Server = createServer((req, res) => {
    // plain forward proxying (absolute-form request line) is not what mq should use
    seen.push(`${req.method} ${req.url}`);
    const auth = req.headers.authorization;
    if (auth !== undefined) clearAuthorization.push(auth);
    res.writeHead(502);
    res.end();
  });
  proxy.on("connect", (req, clientSocket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const colon = req.url!.lastIndexOf(":");
    const host = req.url!.slice(0, colon);
    const port = req.url!.slice(colon + 1);
    const upstream = netConnect(Number(port), options.hosts?.[host] ?? host, () => {
      clientSocket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    // what the proxy can read of the client's bytes: TLS hides them, plain http:// does not
    const read = (chunk: Buffer) => {
      for (const m of chunk.toString("latin1").matchAll(/^authorization:\s*(.*?)\r$/gim)) clearAuthorization.push(m[1]!);
    };
    read(head);
    clientSocket.on("data", read);
    upstream.on("error", () => clientSocket.destroy());
    clientSocket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    clearAuthorization,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    },
  };
}
