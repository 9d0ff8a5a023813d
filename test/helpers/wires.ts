// Both wires the transport runs on (api/wire.ts), for suites that run once per wire: node:http, the
// default, and undici, which carries proxied requests and injected dispatchers.
import { Agent } from "undici";
import { CONNECT_TIMEOUT_MS } from "../../src/api/client.js";
import { nodeWire } from "../../src/api/node-wire.js";
import { undiciWire } from "../../src/api/undici-wire.js";
import type { Wire } from "../../src/api/wire.js";

export type WireName = Wire["name"];
export const WIRE_NAMES: readonly WireName[] = ["node:http", "undici"];

/** A wire of that kind, with the factory's connect timeout; close it after the test. */
export function testWire(name: WireName, timeoutMs = 10_000): Wire {
  if (name === "node:http") return nodeWire({ connectTimeoutMs: CONNECT_TIMEOUT_MS, keepAliveMs: 10_000 });
  const agent = new Agent({
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
  });
  return undiciWire(agent, timeoutMs, { owned: true });
}

/**
 * What a test Context injects to run createApiClient on that wire: nothing for node:http (the
 * factory's default), an undici Agent for undici (an injected dispatcher selects the undici wire).
 */
export function dispatcherFor(name: WireName): Agent | undefined {
  return name === "undici" ? new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } }) : undefined;
}
