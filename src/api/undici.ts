// The parts of undici the client uses, imported one by one: undici's index also loads fetch,
// WebSocket, the caches and the mocks — a megabyte that every API command would otherwise compile
// at start-up. Tests still use the full package (MockAgent); a Dispatcher is a Dispatcher.
import type { Dispatcher } from "undici";
import DispatcherBase from "undici/lib/dispatcher/dispatcher.js";
import Agent from "undici/lib/dispatcher/agent.js";
import EnvHttpProxyAgent from "undici/lib/dispatcher/env-http-proxy-agent.js";
import api from "undici/lib/api/index.js";

// What undici's index does on load: the dispatcher methods (request, connect, ...) live on the
// prototype. ProxyAgent opens its CONNECT tunnel with `connect`, so without this every proxied
// request failed with "this[kClient].connect is not a function".
Object.assign(DispatcherBase.prototype, api);

export { Agent, EnvHttpProxyAgent };

/** undici's `request(url, options)`, on an explicit dispatcher. */
export function request(
  url: URL,
  options: Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> & { method: Dispatcher.HttpMethod; dispatcher: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  return api.request.call(dispatcher, { ...rest, origin: url.origin, path: url.pathname + url.search });
}
