// The parts of undici the client uses, imported one by one: undici's index also loads fetch,
// WebSocket, the caches and the mocks — a megabyte that every API command would otherwise compile
// at start-up. Tests still use the full package (MockAgent); a Dispatcher is a Dispatcher.
import type { Dispatcher } from "undici";
import Agent from "undici/lib/dispatcher/agent.js";
import EnvHttpProxyAgent from "undici/lib/dispatcher/env-http-proxy-agent.js";
import apiRequest from "undici/lib/api/api-request.js";

export { Agent, EnvHttpProxyAgent };

/** undici's `request(url, options)`, on an explicit dispatcher. */
export function request(
  url: URL,
  options: Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> & { method: Dispatcher.HttpMethod; dispatcher: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  return apiRequest.call(dispatcher, { ...rest, origin: url.origin, path: url.pathname + url.search });
}
