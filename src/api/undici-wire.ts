// The wire on undici, for what node:http does not do for mq: a proxy from the environment
// (EnvHttpProxyAgent: CONNECT tunnels, NO_PROXY) and a dispatcher a test injects (MockAgent).
// The parts of undici it uses are imported one by one: undici's index also loads fetch,
// WebSocket, the caches and the mocks — a megabyte that would otherwise be compiled at start-up.
// Tests still use the full package (MockAgent); a Dispatcher is a Dispatcher.
import type { Dispatcher } from "undici";
import DispatcherBase from "undici/lib/dispatcher/dispatcher.js";
import EnvHttpProxyAgent from "undici/lib/dispatcher/env-http-proxy-agent.js";
import api from "undici/lib/api/index.js";
import { DISCARD_LIMIT_BYTES, type Wire } from "./wire.js";

// What undici's index does on load: the dispatcher methods (request, connect, ...) live on the
// prototype. ProxyAgent opens its CONNECT tunnel with `connect`, so without this every proxied
// request failed with "this[kClient].connect is not a function".
Object.assign(DispatcherBase.prototype, api);

export { EnvHttpProxyAgent };

/**
 * A wire on a dispatcher. `timeoutMs` bounds the wait for headers and the gap between body chunks
 * (client.ts bounds the whole attempt); `close` closes the dispatcher when the wire owns it.
 */
export function undiciWire(dispatcher: Dispatcher, timeoutMs: number, { owned = false } = {}): Wire {
  return {
    name: "undici",
    async request(url, headers, signal) {
      const res = await api.request.call(dispatcher, {
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
