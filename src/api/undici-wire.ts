// The wire on undici, for what node:http does not do for mq: a proxy from the environment
// (EnvHttpProxyAgent: CONNECT tunnels, NO_PROXY) and a dispatcher a test injects (MockAgent).
// Through undici's public API only: this module is loaded only for those runs (a chunk of its own,
// scripts/build.mjs), so the cost of undici's index (~1 MB, and node:http2 with tls) is theirs.
import { EnvHttpProxyAgent, type Dispatcher } from "undici";
import { DISCARD_LIMIT_BYTES, type Wire } from "./wire.js";

export { EnvHttpProxyAgent };

/**
 * A wire on a dispatcher. `timeoutMs` bounds the wait for headers and the gap between body chunks
 * (client.ts bounds the whole attempt); `close` closes the dispatcher when the wire owns it.
 */
export function undiciWire(dispatcher: Dispatcher, timeoutMs: number, { owned = false } = {}): Wire {
  return {
    name: "undici",
    async request(url, headers, signal) {
      const res = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: "GET",
        headers,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      return {
        status: res.statusCode,
        headers: res.headers,
        body: res.body,
        discard: () => res.body.dump({ limit: DISCARD_LIMIT_BYTES }),
      };
    },
    async close() {
      if (owned) await dispatcher.close();
    },
  };
}
