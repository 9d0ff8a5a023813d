// A forward proxy on loopback that tunnels CONNECT to its target and records each request line.
import { createServer, type Server } from "node:http";
import { connect as netConnect, type AddressInfo } from "node:net";

export interface TestProxy {
  url: string;
  /** "CONNECT host:port" per tunnel, "METHOD url" per plain request (answered 502) */
  seen: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<TestProxy> {
  const seen: string[] = [];
  const proxy: Server = createServer((req, res) => {
    // plain forward proxying (absolute-form request line) is not what mq should use
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(502);
    res.end();
  });
  proxy.on("connect", (req, clientSocket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(":");
    const upstream = netConnect(Number(port), host!, () => {
      clientSocket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on("error", () => clientSocket.destroy());
    clientSocket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    },
  };
}
