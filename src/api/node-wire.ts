// The wire on node:http and node:https: Node's built-in HTTP client, whose parser (llhttp) is native
// code already in the process. undici carries the same parser as WebAssembly, which a short
// command compiles and loads with ~0.4 MB of JavaScript: most of what a one-page `mq logs` cost
// above a bare node:http GET (README, "Performance"). One keep-alive agent per scheme, per wire.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import type * as HttpsNamespace from "node:https";
import type { Agent as HttpsAgent } from "node:https";
import type { LookupFunction, Socket } from "node:net";
import { CONNECT_TIMEOUT_CODE, DISCARD_LIMIT_BYTES, type Wire, type WireHeaders, type WireResponse } from "./wire.js";

export interface NodeWireOptions {
  /** the most a connection (DNS, TCP and TLS) may take */
  connectTimeoutMs: number;
  /** an idle keep-alive connection is closed after this */
  keepAliveMs: number;
  /** the host name resolver (tests give one that never answers, to reach the connect timeout) */
  lookup?: LookupFunction;
}

type HttpsModule = typeof HttpsNamespace;

export function nodeWire(opts: NodeWireOptions): Wire {
  // keep-alive: a walk of a thousand pages reuses one connection (or one per parallel slice)
  const httpAgent = new HttpAgent({ keepAlive: true, timeout: opts.keepAliveMs });
  let httpsAgent: HttpsAgent | undefined;
  // node:https loads tls and crypto (~10 ms): only when an https:// URL is asked for
  let https: HttpsModule | undefined;

  async function request(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<WireResponse> {
    const secure = url.protocol === "https:";
    if (secure && !https) {
      https = await import("node:https");
      httpsAgent = new https.Agent({ keepAlive: true, timeout: opts.keepAliveMs });
    }
    signal.throwIfAborted();
    return new Promise<WireResponse>((resolve, reject) => {
      const options = { method: "GET", headers, signal, agent: secure ? httpsAgent : httpAgent, lookup: opts.lookup };
      const req = secure ? https!.request(url, options) : httpRequest(url, options);
      req.on("socket", (socket: Socket) => {
        // a reused keep-alive connection is already up
        if (!socket.connecting) return;
        const timer = setTimeout(() => req.destroy(connectTimeout(url, opts.connectTimeoutMs)), opts.connectTimeoutMs);
        const done = () => clearTimeout(timer);
        socket.once(secure ? "secureConnect" : "connect", done);
        socket.once("close", done);
      });
      req.on("response", (res) => resolve({ status: res.statusCode!, headers: headersOf(res), body: res, discard: () => discard(res) }));
      // after the response, an error reaches the body too (an 'error' on `res`), which the reader sees
      req.on("error", reject);
      req.end();
    });
  }

  return {
    name: "node:http",
    request,
    async close() {
      httpAgent.destroy();
      httpsAgent?.destroy();
    },
  };
}

/** As undici gives them: a header sent once is a string, one sent more than once an array. */
function headersOf(res: IncomingMessage): WireHeaders {
  const out: WireHeaders = {};
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

function connectTimeout(url: URL, ms: number): Error {
  return Object.assign(new Error(`could not connect to ${url.host} within ${ms} ms`), { code: CONNECT_TIMEOUT_CODE });
}

/** Read a body nobody wants to its end, so the connection is reused; a large one drops it. */
function discard(res: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let bytes = 0;
    res.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DISCARD_LIMIT_BYTES) res.destroy();
    });
    res.on("end", resolve);
    res.on("close", resolve);
    res.on("error", () => resolve());
  });
}
